/**
 * The CLI commands that talk to a running daemon over its HTTP API: find it through the state folder
 * (`daemon.json`, else the lock), check that the pid answering `/health` is the one recorded, and send
 * management calls with the per-start token the daemon wrote beside them.
 */
import path from 'node:path';
import { request } from 'undici';
import { z } from 'zod/v3';
import { daemonFilePath, inspectDaemonFile, type DaemonFileRead } from '../daemon/daemon-file.js';
import { processAlive, readDaemonLock } from '../daemon/daemon-lock.js';

export interface LiveDaemon {
  url: string;
  pid: number;
  version: string;
  uptimeMs: number;
  demo: boolean;
  token: string | null;
  /** Why `token` is null, when the daemon file says: management calls print it. */
  tokenProblem?: string;
}

interface Health {
  version: string;
  uptimeMs: number;
  pid: number;
}

/** `GET <url>/health` of an fcm-router; null when nothing (or something else) answers. */
export async function probeHealth(url: string, timeoutMs = 2000): Promise<Health | null> {
  try {
    const res = await request(`${url}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await res.body.json()) as {
      name?: unknown;
      version?: unknown;
      uptimeMs?: unknown;
      pid?: unknown;
    };
    if (res.statusCode !== 200 || body.name !== 'fcm-router') return null;
    return { version: String(body.version), uptimeMs: Number(body.uptimeMs), pid: Number(body.pid) };
  } catch {
    return null;
  }
}

/** Why a daemon named by a whole daemon file has no token: a version from before tokens wrote it. */
const OLD_DAEMON = 'the running daemon did not record its API token (restart it with this version)';

/** Why a daemon found through its lock has no token: what is wrong with `daemon.json`, and the way out. */
function tokenProblem(file: string, read: DaemonFileRead): string {
  const what =
    read === null ? 'is missing' : read.ok ? `names another process (pid ${read.file.pid})` : read.problem;
  return `${file}, where the running daemon keeps its API token, ${what}: restart the daemon ("fcm-router stop", then start it again) to write it anew`;
}

/**
 * The daemon serving `stateDir`, or null. The pid must match: a stale file pointing at a port that another
 * fcm-router (of another folder) took since must not be reported, nor stopped.
 */
export async function findDaemon(stateDir: string): Promise<LiveDaemon | null> {
  const read = await inspectDaemonFile(stateDir);
  if (read?.ok) {
    const { url, pid, demo, token } = read.file;
    const live = await answering({ url, pid, demo, token: token ?? null });
    if (live) return live;
  }
  // daemon.json gone or damaged (by hand, say) while the lock still names a listening daemon.
  const lock = await readDaemonLock(stateDir);
  if (!lock?.url) return null;
  const problem = tokenProblem(daemonFilePath(stateDir), read);
  return answering({ url: lock.url, pid: lock.pid, demo: false, token: null, tokenProblem: problem });
}

/**
 * A process that holds `stateDir`'s lock and is alive, though no daemon answered for it (suspended, stuck,
 * or still starting): its pid and address, or null. Never signalled from here: after a crash the pid in a
 * lock left behind may be another program's by now.
 */
export async function silentHolder(stateDir: string): Promise<{ pid: number; url: string | null } | null> {
  const lock = await readDaemonLock(stateDir);
  if (lock === null || !processAlive(lock.pid)) return null;
  return { pid: lock.pid, url: lock.url };
}

/** The daemon a record names, when the fcm-router answering at its address has the recorded pid. */
async function answering(record: Omit<LiveDaemon, 'version' | 'uptimeMs'>): Promise<LiveDaemon | null> {
  const health = await probeHealth(record.url);
  if (health === null || health.pid !== record.pid) return null;
  return { ...record, version: health.version, uptimeMs: health.uptimeMs };
}

/** The part of an error answer the CLI prints. */
const errorBody = z.object({ error: z.object({ message: z.string() }) });

/** What a management call answered: its status, its JSON body (null when none) and, for an error, the router's message. */
export interface ApiAnswer {
  status: number;
  message: string | null;
  body: unknown;
}

/** Sends one management call (`x-fcm-token`, JSON body when given) to a live daemon. */
export async function callDaemon(
  daemon: LiveDaemon,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
): Promise<ApiAnswer> {
  if (daemon.token === null) return { status: 0, message: daemon.tokenProblem ?? OLD_DAEMON, body: null };
  const res = await request(`${daemon.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-fcm-token': daemon.token },
    body: body === undefined ? undefined : JSON.stringify(body),
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const text = await res.body.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the status says enough
  }
  if (res.statusCode < 400) return { status: res.statusCode, message: null, body: parsed };
  const error = errorBody.safeParse(parsed);
  const message = error.success
    ? error.data.error.message.replace(/^fcm-router: /, '')
    : `HTTP ${res.statusCode}`;
  return { status: res.statusCode, message, body: parsed };
}

/** The config file the daemon runs on, or null when it does not say. */
export async function daemonConfigPath(daemon: LiveDaemon): Promise<string | null> {
  const answer = await callDaemon(daemon, 'GET', '/api/config');
  const parsed = z.object({ path: z.string() }).safeParse(answer.body);
  return parsed.success ? parsed.data.path : null;
}

/**
 * Whether a command that changes `configPath` (`--config`, or undefined for the state folder's) must go
 * through `daemon`: when it runs on that very file, it is the file's one writer. A demo runs on its own
 * `demo/config.json`, so the state folder's config is not its to change: the command writes that file.
 */
export async function daemonOwnsConfig(daemon: LiveDaemon, configPath: string | undefined): Promise<boolean> {
  if (configPath === undefined) return !daemon.demo;
  const served = await daemonConfigPath(daemon);
  return served !== null && path.resolve(served) === path.resolve(configPath);
}
