import type { StateResponse } from '../router/index.js';
import type { Time, TimerHandle } from '../router/index.js';
import { detectAlerts } from './health-alerts.js';
import { nextTimedChange } from './model-readiness.js';
import { NotificationThrottle, type Notice } from './notification-throttle.js';
import type { RouterSource } from './router-source.js';
import { createCoalescer, type Coalescer } from './throttle-updates.js';
import { computeTrayView, type RouterStatus, type TrayView } from './tray-health.js';

export interface DesktopStatusOptions {
  /** The clock the tray's view is computed on, and its timers (throttle, notification batch, cooldown ends). */
  time: Time;
  /** Called when what the tray shows changes (never more than `maxUpdatesPerSecond`). */
  render(view: TrayView, status: RouterStatus): void;
  /** Shows one desktop notification. */
  notify(notice: Notice): void;
  notificationsEnabled(): boolean;
  /** @default 4 */
  maxUpdatesPerSecond?: number;
  /** Alerts arriving within this window are shown together. @default 1500 */
  notificationBatchMs?: number;
  throttle?: NotificationThrottle;
}

/**
 * Keeps the tray in step with the router: every router event marks the view stale, and a coalesced
 * refresh re-reads the snapshot, recomputes the view, raises notifications for new trips and sleeps until
 * the next cooldown ends. Event-driven, not polling; Electron-free, so main only renders what it gets.
 */
export class DesktopStatus {
  readonly #options: DesktopStatusOptions;
  readonly #throttle: NotificationThrottle;
  readonly #coalescer: Coalescer;
  #status: RouterStatus = { kind: 'starting' };
  #view: TrayView;
  #source: RouterSource | null = null;
  #unsubscribe: (() => void) | null = null;
  #previous: StateResponse | null = null;
  #timedRefresh: TimerHandle | null = null;
  #notifyTimer: TimerHandle | null = null;
  #lastRendered = '';

  constructor(options: DesktopStatusOptions) {
    this.#options = options;
    this.#throttle = options.throttle ?? new NotificationThrottle({ clock: options.time.now });
    this.#coalescer = createCoalescer(() => this.#refresh(), {
      maxPerSecond: options.maxUpdatesPerSecond ?? 4,
      time: options.time,
    });
    this.#view = computeTrayView(this.#status, options.time.now());
  }

  get status(): RouterStatus {
    return this.#status;
  }

  get view(): TrayView {
    return this.#view;
  }

  get source(): RouterSource | null {
    return this.#source;
  }

  /** Shows a state without a router (starting, port taken, stopped) and drops the current source. */
  setStatus(status: Exclude<RouterStatus, { kind: 'running' }>): void {
    this.detach();
    this.#apply(status);
  }

  /** Follows a router; the tray refreshes on its events. */
  attach(source: RouterSource): void {
    this.detach();
    this.#source = source;
    this.#unsubscribe = source.subscribe(() => this.#coalescer.poke());
    this.#coalescer.poke();
  }

  /** Stops following the current router (it keeps running). */
  detach(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#source = null;
    this.#previous = null;
    this.#clearTimedRefresh();
  }

  /** Marks the view stale, e.g. after the user paused routing. */
  refresh(): void {
    this.#coalescer.poke();
  }

  /** Renders again even if the view did not change (e.g. the start-at-login checkbox moved). */
  rerender(): void {
    this.#options.render(this.#view, this.#status);
  }

  dispose(): void {
    this.detach();
    this.#coalescer.dispose();
    this.#options.time.clearTimeout(this.#notifyTimer);
    this.#notifyTimer = null;
  }

  async #refresh(): Promise<void> {
    const source = this.#source;
    if (!source) return;
    const reading = await source.read();
    if (source !== this.#source) return; // replaced while reading
    if (!reading) {
      this.#previous = null;
      this.#apply({ kind: 'stopped', reason: source.mode === 'attached' ? 'not reachable' : null });
      return;
    }
    const now = this.#options.time.now();
    const alerts = detectAlerts(this.#previous, reading.state, now);
    this.#previous = reading.state;
    if (alerts.length > 0) {
      this.#throttle.offer(alerts);
      this.#scheduleNotifications();
    }
    this.#scheduleTimedRefresh(nextTimedChange(reading.state.models, now), now);
    this.#apply({ kind: 'running', state: reading.state, lastEntry: reading.lastEntry });
  }

  #apply(status: RouterStatus): void {
    this.#status = status;
    this.#view = computeTrayView(status, this.#options.time.now());
    const key = JSON.stringify([this.#view, status.kind]);
    if (key === this.#lastRendered) return;
    this.#lastRendered = key;
    this.#options.render(this.#view, status);
  }

  #scheduleNotifications(): void {
    if (this.#notifyTimer !== null) return;
    this.#notifyTimer = this.#options.time.setTimeout(() => {
      this.#notifyTimer = null;
      const notices = this.#throttle.flush();
      // Flushed even when switched off, so turning them on later does not replay old alerts.
      if (this.#options.notificationsEnabled()) notices.forEach((notice) => this.#options.notify(notice));
    }, this.#options.notificationBatchMs ?? 1500);
  }

  #scheduleTimedRefresh(at: number | null, now: number): void {
    this.#clearTimedRefresh();
    if (at === null) return;
    // A cooldown, a quota pause or a wait for a trial ends at a known time: refresh then, with no polling.
    this.#timedRefresh = this.#options.time.setTimeout(
      () => {
        this.#timedRefresh = null;
        this.#coalescer.poke();
      },
      at - now + 50,
    );
  }

  #clearTimedRefresh(): void {
    this.#options.time.clearTimeout(this.#timedRefresh);
    this.#timedRefresh = null;
  }
}
