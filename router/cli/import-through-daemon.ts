/**
 * `import-fcm` with a daemon running on the config: the daemon plans the import against the config in use
 * and saves and applies it (`POST /api/config/import`), so the file has one writer.
 */
import { z } from 'zod/v3';
import { callDaemon, type LiveDaemon } from './cli-control.js';
import type { FcmConfig } from '../import/fcm-config.js';
import { reportIssues } from '../import/import-report.js';

/** `POST /api/config/import`'s answer, as the CLI reads it. */
const importAnswer = z.object({
  lines: z.array(z.string()),
  changed: z.boolean(),
  written: z.boolean(),
  path: z.string(),
});

const issuesAnswer = z.object({
  error: z.object({ issues: z.array(z.object({ path: z.string(), message: z.string() })) }),
});

/** Sends the import to the daemon and prints its plan; returns the exit code. */
export async function importThroughDaemon(
  daemon: LiveDaemon,
  fcm: FcmConfig,
  options: { file: string; force: boolean; dryRun: boolean; print: (line: string) => void },
): Promise<number> {
  const { print } = options;
  const answer = await callDaemon(daemon, 'POST', '/api/config/import', {
    ...fcm,
    force: options.force,
    dryRun: options.dryRun,
  });
  const done = importAnswer.safeParse(answer.body);
  if (answer.message !== null || !done.success) {
    const issues = issuesAnswer.safeParse(answer.body);
    if (issues.success) reportIssues(print, 'the imported config', issues.data.error.issues);
    else
      print(`fcm-router: ${answer.message ?? 'the running fcm-router gave an answer this CLI cannot read'}`);
    print('Nothing written.');
    return 1;
  }
  const plan = done.data;
  print(`Importing ${options.file} into ${plan.path} (through the fcm-router running at ${daemon.url}):`);
  for (const line of plan.lines) print(`  ${line}`);
  if (!plan.changed) print('Nothing to change.');
  else if (!plan.written) print('Dry run: nothing written.');
  else print('Saved and applied by the running fcm-router: no restart needed.');
  return 0;
}
