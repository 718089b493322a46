import type { ConfigIssue } from '../config/schema.js';

/** Prints `fcm-router: <where> is not usable:` and each issue on its own line. */
export function reportIssues(
  print: (line: string) => void,
  where: string,
  issues: readonly ConfigIssue[],
): void {
  print(`fcm-router: ${where} is not usable:`);
  for (const issue of issues) print(`  ${issue.path}: ${issue.message}`);
}
