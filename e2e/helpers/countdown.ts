import { expect, type Locator } from '@playwright/test';

/** `HALF_OPEN in 54 s`, `HALF_OPEN in 3:57` or `HALF_OPEN due`: the formats of the dashboard's countdowns. */
const countdownText = (label: string): RegExp => new RegExp(`^${label} (in (\\d+ s|\\d+:\\d\\d)|due)$`);

/**
 * The seconds a countdown shows, in either format it uses (`54 s`, `3:57`), or 0 once it reads `due`.
 * How long the page took to show it does not matter: only that it counts down to the right moment.
 */
export async function secondsLeft(timer: Locator, label: string): Promise<number> {
  const text = (await timer.textContent()) ?? '';
  if (text === `${label} due`) return 0;
  const match = new RegExp(`^${label} in (?:(\\d+) s|(\\d+):(\\d\\d))$`).exec(text);
  if (!match) throw new Error(`not a countdown to ${label}: "${text}"`);
  return match[1] !== undefined ? Number(match[1]) : Number(match[2]) * 60 + Number(match[3]);
}

/**
 * The countdown is at most `maxSeconds` from its end (the cooldown or pause it counts down), and moves
 * towards it: true on a fast machine and on a loaded one, whatever the page took to show it.
 */
export async function expectCountingDown(timer: Locator, label: string, maxSeconds: number): Promise<void> {
  await expect(timer).toHaveText(countdownText(label));
  const first = await secondsLeft(timer, label);
  expect(first).toBeLessThanOrEqual(maxSeconds);
  if (first === 0) return;
  await expect.poll(() => secondsLeft(timer, label)).toBeLessThan(first);
}
