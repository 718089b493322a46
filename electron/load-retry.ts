import type { Time, TimerHandle } from '../router/index.js';
import { WINDOW_BACKGROUND } from './window-theme.js';

/** A `did-fail-load` as Electron reports it. */
export interface LoadFailure {
  errorCode: number;
  errorDescription: string;
  /** `validatedURL`: the page that failed. */
  url: string;
  isMainFrame: boolean;
}

/** Chromium's code for a load replaced by another (a reload, a new URL): not a failure to report. */
const ERR_ABORTED = -3;
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

/** True for a failure of the dashboard page itself (not a subframe, not an aborted or local page). */
export function isDashboardLoadFailure(failure: LoadFailure): boolean {
  return failure.isMainFrame && failure.errorCode !== ERR_ABORTED && /^https?:\/\//.test(failure.url);
}

/** Waits 1 s after the first failure, doubling up to 30 s while it keeps failing. */
export function retryDelayMs(failures: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/**
 * The local page shown while the dashboard cannot be loaded, as a `data:` URL: no script, no request of its
 * own (CSP `default-src 'none'`), the dashboard's colours. Main reloads the dashboard when the time is up.
 */
export function retryPageUrl(failure: LoadFailure, retryInMs: number): string {
  const seconds = Math.round(retryInMs / 1000);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="color-scheme" content="light dark"><title>fcm-router</title>
<style>
body{margin:0;font:15px/1.5 system-ui,sans-serif;background:${WINDOW_BACKGROUND.light};color:#1a1f26}
@media (prefers-color-scheme:dark){body{background:${WINDOW_BACKGROUND.dark};color:#e4e9f0}}
main{max-width:36rem;margin:18vh auto;padding:0 1.5rem}code{font:13px ui-monospace,monospace}
</style></head><body><main>
<h1>The dashboard is not reachable</h1>
<p>Could not load <code>${escapeHtml(failure.url)}</code> (${escapeHtml(failure.errorDescription)}).</p>
<p>If fcm-router runs as a separate daemon, it may have stopped: start it again with <code>fcm-router daemon</code>.</p>
<p>Trying again in ${seconds} second${seconds === 1 ? '' : 's'}.</p>
</main></body></html>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

/**
 * Keeps the dashboard window useful when its page cannot be loaded (an attached daemon that stopped): shows
 * the local retry page and reloads the dashboard after a growing delay until it loads again.
 */
export class DashboardRetry {
  #failures = 0;
  #timer: TimerHandle | null = null;

  constructor(
    private readonly options: {
      /** The reload's timer. */
      time: Time;
      /** Loads the dashboard again. */
      load(url: string): void;
      /** Shows the local retry page. */
      showPage(pageUrl: string): void;
    },
  ) {}

  /** A `did-fail-load` of the window. */
  failed(failure: LoadFailure): void {
    if (!isDashboardLoadFailure(failure)) return;
    this.cancel();
    const delay = retryDelayMs(++this.#failures);
    this.options.showPage(retryPageUrl(failure, delay));
    this.#timer = this.options.time.setTimeout(() => {
      this.#timer = null;
      this.options.load(failure.url);
    }, delay);
  }

  /** A `did-finish-load` of `url`: the dashboard is back, so the next failure starts from 1 s again. */
  loaded(url: string): void {
    if (/^https?:\/\//.test(url)) this.#failures = 0;
  }

  /** Drops a pending reload (the window is loading something else, or is gone). */
  cancel(): void {
    this.options.time.clearTimeout(this.#timer);
    this.#timer = null;
  }
}
