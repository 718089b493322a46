/** The port the router listens on unless `--port` or `FCM_ROUTER_PORT` says otherwise. */
export const DEFAULT_PORT = 19280;

/** A port as `--port` and `FCM_ROUTER_PORT` take it: digits only, 0 (any free port) to 65535; else null. */
export function parsePort(text: string): number | null {
  if (!/^\d+$/.test(text)) return null;
  const port = Number(text);
  return port <= 65_535 ? port : null;
}

/**
 * The port `FCM_ROUTER_PORT` asks for; undefined when it is unset or blank. A value that is no port is
 * refused rather than replaced by the default: a daemon on another port than asked would be looked for in
 * vain, and a port in use would then be misnamed.
 *
 * @throws {Error} naming the variable and its value.
 */
export function portFromEnv(env: Record<string, string | undefined>): number | undefined {
  const raw = env.FCM_ROUTER_PORT;
  if (raw === undefined || raw.trim() === '') return undefined;
  const port = parsePort(raw.trim());
  if (port === null) {
    throw new Error(`FCM_ROUTER_PORT must be a port number (0-65535), got ${JSON.stringify(raw)}`);
  }
  return port;
}
