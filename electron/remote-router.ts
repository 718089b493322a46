import { createParser } from 'eventsource-parser';
import { request } from 'undici';
import type { HistoryResponse, RouterEvent, StateResponse } from '../router/index.js';
import { systemTime, type Time } from '../router/index.js';
import type { RouterReading, RouterSource } from './router-source.js';

export interface RemoteOptions {
  /** The reconnect pause's timer. @default the system's */
  time?: Time;
  /** Wait before reconnecting the event stream. @default 3000 */
  reconnectMs?: number;
  /** Longest silence on the event stream (the router sends a heartbeat every 15 s). @default 45_000 */
  idleTimeoutMs?: number;
  /** Timeout of one API call. @default 5000 */
  requestTimeoutMs?: number;
  /**
   * The daemon's API token, when its `daemon.json` was read: sent on every call, since a daemon started with
   * `--allow-remote` wants it on reads too. Without it, reads go unsigned and changes fetch the token the
   * dashboard page hands out on loopback.
   */
  token?: string | null;
}

const EVENT_NAMES = new Set(['request', 'breaker', 'config', 'router']);

/**
 * A front-end onto an fcm-router daemon that was already serving the port: reads `/api/state` and
 * `/api/history`, follows `/api/events`, and pauses through `/api/pause`. Closing it only disconnects.
 */
export function attachedSource(url: string, options: RemoteOptions = {}): RouterSource {
  const time = options.time ?? systemTime;
  const base = url.replace(/\/+$/, '');
  const timeout = options.requestTimeoutMs ?? 5000;
  const controllers = new Set<AbortController>();
  const token = options.token ?? null;
  const signed: Record<string, string> = token === null ? {} : { 'x-fcm-token': token };

  return {
    mode: 'attached',
    url: base,
    pageUrl: token === null ? `${base}/` : `${base}/#token=${encodeURIComponent(token)}`,
    async read(): Promise<RouterReading | null> {
      try {
        const [state, history] = await Promise.all([
          getJson(`${base}/api/state`, signed, timeout),
          getJson(`${base}/api/history?limit=1`, signed, timeout),
        ]);
        if (!isState(state)) return null;
        const entries = isHistory(history) ? history.entries : [];
        return { state, lastEntry: entries[0] ?? null };
      } catch {
        return null;
      }
    },
    subscribe(onChange) {
      const controller = new AbortController();
      controllers.add(controller);
      void follow({ base, signed, signal: controller.signal, onChange }, time, options);
      return () => {
        controller.abort();
        controllers.delete(controller);
      };
    },
    async setPaused(paused) {
      const res = await request(`${base}/api/pause`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-fcm-token': token ?? (await dashboardToken(base, timeout)),
        },
        body: JSON.stringify({ paused }),
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      await res.body.dump();
      if (res.statusCode !== 200) throw new Error(`pause refused (HTTP ${res.statusCode})`);
    },
    async close() {
      for (const controller of controllers) controller.abort();
      controllers.clear();
    },
  };
}

/** An event stream to follow: where, signed how, until which abort, told to whom. */
interface FollowTarget {
  base: string;
  signed: Record<string, string>;
  signal: AbortSignal;
  onChange: (event: RouterEvent | null) => void;
}

/** Follows the SSE stream until aborted, reconnecting after a pause on `time` whenever it drops. */
async function follow(target: FollowTarget, time: Time, options: RemoteOptions): Promise<void> {
  const { base, signed, signal, onChange } = target;
  while (!signal.aborted) {
    try {
      const res = await request(`${base}/api/events`, {
        signal,
        headers: { ...signed, accept: 'text/event-stream' },
        headersTimeout: options.requestTimeoutMs ?? 5000,
        bodyTimeout: options.idleTimeoutMs ?? 45_000,
      });
      if (res.statusCode !== 200) {
        await res.body.dump();
        throw new Error(`HTTP ${res.statusCode}`);
      }
      // Connected (again): let the caller re-read the whole state, events may have been missed.
      onChange(null);
      const parser = createParser({
        onEvent(message) {
          const event = parseEvent(message.event, message.data);
          if (event) onChange(event);
        },
      });
      const decoder = new TextDecoder();
      for await (const chunk of res.body) parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
    } catch {
      // Dropped, refused or timed out: reported below, retried after a pause.
    }
    if (signal.aborted) return;
    onChange(null);
    await new Promise<void>((resolve) => {
      const onAbort = (): void => {
        time.clearTimeout(handle);
        resolve();
      };
      const handle = time.setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, options.reconnectMs ?? 3000);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** One SSE message as a router event, or null when it is not one. */
export function parseEvent(name: string | undefined, data: string): RouterEvent | null {
  if (!name || !EVENT_NAMES.has(name)) return null;
  const value = parseJson(data);
  if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== name) return null;
  return value as RouterEvent;
}

async function getJson(url: string, headers: Record<string, string>, timeout: number): Promise<unknown> {
  const res = await request(url, { headers, headersTimeout: timeout, bodyTimeout: timeout });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
  return parseJson(text);
}

/** The dashboard page carries the token that state-changing API calls need. */
async function dashboardToken(base: string, timeout: number): Promise<string> {
  const res = await request(`${base}/`, { headersTimeout: timeout, bodyTimeout: timeout });
  const html = await res.body.text();
  const match = /<meta\s+name="fcm-token"\s+content="([^"]+)"/.exec(html);
  if (res.statusCode !== 200 || !match?.[1] || match[1] === '__FCM_TOKEN__') {
    throw new Error('the running router did not hand out its API token');
  }
  return match[1];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isState(value: unknown): value is StateResponse {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<StateResponse>;
  return typeof v.activeSet === 'string' && typeof v.paused === 'boolean' && Array.isArray(v.models);
}

function isHistory(value: unknown): value is HistoryResponse {
  return (
    typeof value === 'object' && value !== null && Array.isArray((value as Partial<HistoryResponse>).entries)
  );
}
