import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod/v3';

/**
 * `<stateDir>/daemon.json`: how `fcm-router status`, `stop` and scripts find a running daemon, and the
 * per-start token its management API wants (the file is 0600 in a 0700 folder, like the config).
 */
export const daemonFileSchema = z.object({
  pid: z.number().int().positive(),
  port: z.number().int().min(0).max(65535),
  host: z.string(),
  url: z.string(),
  version: z.string(),
  startedAt: z.number(),
  demo: z.boolean(),
  /** Sent as `x-fcm-token`; absent in files written by older versions. */
  token: z.string().optional(),
});

export type DaemonFile = z.infer<typeof daemonFileSchema>;

export function daemonFilePath(stateDir: string): string {
  return path.join(stateDir, 'daemon.json');
}

export async function writeDaemonFile(stateDir: string, info: DaemonFile): Promise<void> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(daemonFilePath(stateDir), `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
}

/** Reads the daemon file; null when absent or not ours. */
export async function readDaemonFile(stateDir: string): Promise<DaemonFile | null> {
  const text = await readFile(daemonFilePath(stateDir), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const parsed = daemonFileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
