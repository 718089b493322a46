/**
 * The system's proxy for the app's own router. An app started from the dock, the start menu or at login has
 * no shell, so no `HTTPS_PROXY`: the proxy the user set is the system's (PAC included), which Chromium
 * resolves. Electron-free: main passes Chromium's resolver.
 */
import { readOutboundProxy } from '../router/index.js';

/** A provider's URL, to ask the system which proxy calls to providers take. */
export const PROVIDER_PROBE_URL = 'https://openrouter.ai/api/v1/chat/completions';

/** Chromium's proxy resolver: `session.resolveProxy`. */
export type ResolveProxy = (url: string) => Promise<string>;

/**
 * The first entry of Chromium's answer (`PROXY host:port; DIRECT`) as a proxy URL the router takes, or
 * null for `DIRECT` and for kinds it cannot use (SOCKS4, QUIC).
 *
 * @example proxyFromChromium('PROXY proxy.corp:3128; DIRECT') // 'http://proxy.corp:3128'
 */
export function proxyFromChromium(resolved: string): string | null {
  const [kind = '', hostPort = ''] = (resolved.split(';')[0] ?? '').trim().split(/\s+/);
  if (hostPort === '') return null;
  const scheme = { PROXY: 'http', HTTPS: 'https', SOCKS5: 'socks5' }[kind.toUpperCase()];
  return scheme === undefined ? null : `${scheme}://${hostPort}`;
}

/** Whether `env` names a proxy as the router reads it; one it cannot read counts (the router refuses it). */
export function namesProxy(env: Record<string, string | undefined>): boolean {
  try {
    return readOutboundProxy(env) !== null;
  } catch {
    return true;
  }
}

/**
 * The system's proxy for calls to providers as a proxy URL, null when they go directly, or undefined when
 * the resolver failed (it then says nothing about the proxy).
 */
export async function resolveSystemProxy(resolveProxy: ResolveProxy): Promise<string | null | undefined> {
  try {
    return proxyFromChromium(await resolveProxy(PROVIDER_PROBE_URL));
  } catch {
    return undefined;
  }
}

/**
 * The environment the app's own router starts with: `env` as it is when it names a proxy or when the
 * system's is direct; else `env` with `HTTPS_PROXY` set to the system's proxy for providers (only https://:
 * http:// providers are model servers on the machine or the network, reached directly). A resolver that
 * fails leaves `env` as it is.
 */
export async function envWithSystemProxy(
  env: Record<string, string | undefined>,
  resolveProxy: ResolveProxy,
): Promise<Record<string, string | undefined>> {
  if (namesProxy(env)) return env;
  const proxy = await resolveSystemProxy(resolveProxy);
  return proxy === null || proxy === undefined ? env : { ...env, HTTPS_PROXY: proxy };
}
