import http from 'node:http';
import net from 'node:net';
import { z } from 'zod/v3';

/** What a `GET /health` on the router's port found. */
export type HealthProbe =
  | { kind: 'answer'; status: number; body: unknown }
  /** Nothing listens there. */
  | { kind: 'refused' }
  /** Something is there but gave no usable HTTP answer (timeout, reset, not HTTP). */
  | { kind: 'error'; code: string };

export type PortDecision =
  | { action: 'own' }
  | { action: 'attach'; version: string; pid: number }
  /** `otherRouter`: an fcm-router that is not the one the app's state folder names holds it. */
  | { action: 'port-taken'; reason: string; otherRouter?: boolean };

const healthSchema = z.object({
  ok: z.literal(true),
  name: z.literal('fcm-router'),
  version: z.string(),
  uptimeMs: z.number(),
  pid: z.number().int(),
});

/** What an fcm-router answers on `GET /health`. */
export type RouterHealth = z.infer<typeof healthSchema>;

/** The health answer of an fcm-router in a probe, or null when the probe found none. */
export function routerHealthOf(probe: HealthProbe): RouterHealth | null {
  if (probe.kind !== 'answer' || probe.status !== 200) return null;
  const health = healthSchema.safeParse(probe.body);
  return health.success ? health.data : null;
}

/**
 * Decides what the desktop app does with the router port: run its own router when the port is free,
 * attach as a front-end to a compatible fcm-router already serving it when it is the daemon the app's state
 * folder names (`ours`: the pid its `daemon.json` or lock records; never stop that one), or report the port
 * as taken: by another program, or by an fcm-router that is not ours (another user's, on a shared machine).
 */
export function decideAttachOrOwn(probe: HealthProbe, ownVersion: string, ours: number | null): PortDecision {
  if (probe.kind === 'refused') return { action: 'own' };
  if (probe.kind === 'error') return { action: 'port-taken', reason: `no HTTP answer (${probe.code})` };
  const health = routerHealthOf(probe);
  if (!health) {
    return { action: 'port-taken', reason: `another program answers there (HTTP ${probe.status})` };
  }
  if (health.pid !== ours) {
    return {
      action: 'port-taken',
      reason: `fcm-router ${health.version} (pid ${health.pid}) serves it, but this app's state folder names no such daemon: another user's router, or one on another state folder`,
      otherRouter: true,
    };
  }
  if (!isCompatibleVersion(health.version, ownVersion)) {
    return {
      action: 'port-taken',
      reason: `fcm-router ${health.version} (pid ${health.pid}) is incompatible with ${ownVersion}`,
    };
  }
  return { action: 'attach', version: health.version, pid: health.pid };
}

/**
 * Same API generation: equal major version, and for 0.x equal minor too (semver's rule for pre-1.0).
 * Unparseable versions are incompatible.
 */
export function isCompatibleVersion(theirs: string, ours: string): boolean {
  const a = parseVersion(theirs);
  const b = parseVersion(ours);
  if (!a || !b) return false;
  return a.major === b.major && (a.major !== 0 || a.minor === b.minor);
}

function parseVersion(version: string): { major: number; minor: number } | null {
  const match = /^v?(\d+)\.(\d+)\.\d+/.exec(version.trim());
  return match ? { major: Number(match[1]), minor: Number(match[2]) } : null;
}

/** Asks `GET <baseUrl>/health`, reading at most 64 KiB. Never throws. */
export function probeHealth(baseUrl: string, timeoutMs = 1500): Promise<HealthProbe> {
  return new Promise((resolve) => {
    const req = http.get(new URL('/health', baseUrl), { timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > 65_536) req.destroy(new Error('too large'));
        else chunks.push(chunk);
      });
      res.on('end', () =>
        resolve({ kind: 'answer', status: res.statusCode ?? 0, body: parseJson(Buffer.concat(chunks)) }),
      );
      res.on('error', () => resolve({ kind: 'answer', status: res.statusCode ?? 0, body: undefined }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => {
      resolve(
        error.code === 'ECONNREFUSED'
          ? { kind: 'refused' }
          : { kind: 'error', code: error.code ?? error.message },
      );
    });
  });
}

function parseJson(buffer: Buffer): unknown {
  try {
    return JSON.parse(buffer.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** True when a listener can bind `host:port` right now. */
export function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** The first free port after `taken` (at most `tries` ports further), or null. */
export async function findNextFreePort(host: string, taken: number, tries = 20): Promise<number | null> {
  for (let port = taken + 1; port <= Math.min(taken + tries, 65_535); port++) {
    if (await isPortFree(host, port)) return port;
  }
  return null;
}
