/** Probes spent per provider and UTC day, in memory: a restart gives the day's budget back. */
export class ProbeBudget {
  #day = '';
  readonly #spent = new Map<string, number>();

  /** Probes `provider` may still spend today under `limit`. */
  remaining(provider: string, limit: number, now: number): number {
    this.#roll(now);
    return Math.max(0, limit - (this.#spent.get(provider) ?? 0));
  }

  /** Counts one probe of `provider` today. */
  spend(provider: string, now: number): void {
    this.#roll(now);
    this.#spent.set(provider, (this.#spent.get(provider) ?? 0) + 1);
  }

  #roll(now: number): void {
    const day = new Date(now).toISOString().slice(0, 10);
    if (day === this.#day) return;
    this.#day = day;
    this.#spent.clear();
  }
}
