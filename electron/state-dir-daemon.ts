import { processAlive, readDaemonFile, type DaemonFile } from '../router/index.js';
import { isCompatibleVersion, probeHealth, routerHealthOf, type HealthProbe } from './attach-or-own.js';

/** What runs on the app's state dir already. */
export type StateDirDaemon =
  | { kind: 'none' }
  /** A live, compatible fcm-router daemon serves this state dir: show it rather than start a second one. */
  | {
      kind: 'attach';
      url: string;
      pid: number;
      /** The daemon's API token from `daemon.json` (a daemon started with `--allow-remote` wants it on reads too). */
      token: string | null;
    }
  | { kind: 'incompatible'; reason: string };

/**
 * Decides from the state dir's `daemon.json`, whether its process lives, and what its URL answers. Only a
 * daemon that answers `/health` with the very pid of the file is attached to; a file of a dead process, or
 * of a pid now used by another program, is stale and ignored (the router takes it over when it starts).
 */
export function decideStateDirDaemon(input: {
  file: DaemonFile | null;
  alive: boolean;
  probe: HealthProbe | null;
  ownPid: number;
  ownVersion: string;
}): StateDirDaemon {
  const { file, probe } = input;
  if (!file || file.pid === input.ownPid || !input.alive || !probe) return { kind: 'none' };
  const health = routerHealthOf(probe);
  if (!health || health.pid !== file.pid) return { kind: 'none' };
  if (!isCompatibleVersion(health.version, input.ownVersion)) {
    return {
      kind: 'incompatible',
      reason: `fcm-router ${health.version} (pid ${health.pid}) already uses this state folder`,
    };
  }
  return { kind: 'attach', url: file.url, pid: file.pid, token: file.token ?? null };
}

/** Looks for a running fcm-router daemon on `stateDir`. Never throws. */
export async function findStateDirDaemon(options: {
  stateDir: string;
  ownPid: number;
  ownVersion: string;
  probe?: (url: string) => Promise<HealthProbe>;
  isAlive?: (pid: number) => boolean;
}): Promise<StateDirDaemon> {
  const file = await readDaemonFile(options.stateDir).catch(() => null);
  const alive = file !== null && (options.isAlive ?? processAlive)(file.pid);
  const probe = file && alive ? await (options.probe ?? probeHealth)(file.url) : null;
  return decideStateDirDaemon({ file, alive, probe, ownPid: options.ownPid, ownVersion: options.ownVersion });
}
