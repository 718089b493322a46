import { createContext } from 'react';

/** How many revisions a lane remembers its saves made: far more than saves can be queued at once. */
const REMEMBERED = 32;

/**
 * The provider settings forms' saves, one at a time. Each form edits a part of config.json no other form
 * does (one provider's `probe` or `limits`), so a save may take up the revision an earlier save of the lane
 * made after the form was filled in: saving a card's two forms in quick succession is not refused as a
 * change on disk. A change from anywhere else (the JSON editor, the Settings form, an edit by hand) made no
 * revision of the lane's, so a save based on the file before it is still refused.
 */
export class SaveLane {
  #last: Promise<void> = Promise.resolve();
  /** Revision a save was sent with → the revision it made. */
  readonly #made = new Map<string, string>();

  /**
   * Runs `save` once the saves queued before it are over, with the newest revision the lane's saves made
   * from `basedOn` (`basedOn` itself when none did).
   */
  async run<R extends { revision: string }>(
    basedOn: string,
    save: (revision: string) => Promise<R>,
  ): Promise<R> {
    const before = this.#last;
    let done = (): void => {};
    this.#last = new Promise<void>((resolve) => (done = resolve));
    await before;
    try {
      const revision = this.#newest(basedOn);
      const result = await save(revision);
      this.#remember(revision, result.revision);
      return result;
    } finally {
      done();
    }
  }

  #newest(revision: string): string {
    let newest = revision;
    for (let next = this.#made.get(newest); next !== undefined; next = this.#made.get(newest)) newest = next;
    return newest;
  }

  #remember(from: string, to: string): void {
    this.#made.set(from, to);
    if (this.#made.size <= REMEMBERED) return;
    const oldest = this.#made.keys().next();
    if (!oldest.done) this.#made.delete(oldest.value);
  }
}

/** The Providers view's lane, shared by every card's forms (none: each form has a lane of its own). */
export const SaveLaneContext = createContext<SaveLane | null>(null);
