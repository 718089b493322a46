/**
 * Whether the live process a lock names is still the fcm-router that took it. A pid alone cannot say: after
 * a crash or a reboot the pid may belong to anything. The lock records where its owner listens, and only the
 * owner can answer there as an fcm-router with that pid.
 */
import { request } from 'undici';

/**
 * `serving`: the holder answers at its URL. `gone`: it cannot be listening there (nothing listens, or
 * another fcm-router does). `unknown`: no telling (a timeout, something else answering), so the lock stands.
 */
export type HolderAnswer = 'serving' | 'gone' | 'unknown';

/** Asks `<url>/health` who listens where the holder said it would. */
export async function probeLockHolder(
  holder: { pid: number; url: string },
  timeoutMs = 2000,
): Promise<HolderAnswer> {
  let body: unknown;
  try {
    const res = await request(`${holder.url}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    body = res.statusCode === 200 ? await res.body.json() : (await res.body.dump(), null);
  } catch (error) {
    // Nothing listens at the address: a live owner would (its lock says "stopping" while it closes).
    return (error as { code?: unknown }).code === 'ECONNREFUSED' ? 'gone' : 'unknown';
  }
  const health = (body ?? {}) as { name?: unknown; pid?: unknown };
  if (health.name !== 'fcm-router') return 'unknown';
  // Two processes cannot listen on one address and port: another fcm-router there means the holder is not.
  return health.pid === holder.pid ? 'serving' : 'gone';
}
