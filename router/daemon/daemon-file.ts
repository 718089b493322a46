import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod/v3';
import { writeFileAtomically } from '../files/atomic-write.js';

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
  const text = `${JSON.stringify(info, null, 2)}\n`;
  await writeFileAtomically(daemonFilePath(stateDir), text, { mode: 0o600 });
}

/** The daemon file as read: null when there is none, else the file or what makes it unusable. */
export type DaemonFileRead = { ok: true; file: DaemonFile } | { ok: false; problem: string } | null;

/** Reads the daemon file, saying what is wrong with one that cannot be used. */
export async function inspectDaemonFile(stateDir: string): Promise<DaemonFileRead> {
  let text: string;
  try {
    text = await readFile(daemonFilePath(stateDir), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? null : { ok: false, problem: `cannot be read (${code ?? String(error)})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'is corrupt (not JSON)' };
  }
  const parsed = daemonFileSchema.safeParse(json);
  if (parsed.success) return { ok: true, file: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    problem: `is corrupt (${issue ? `${issue.path.join('.') || 'file'}: ${issue.message}` : 'invalid'})`,
  };
}

/** Reads the daemon file; null when absent or not ours. */
export async function readDaemonFile(stateDir: string): Promise<DaemonFile | null> {
  const read = await inspectDaemonFile(stateDir);
  return read?.ok ? read.file : null;
}
