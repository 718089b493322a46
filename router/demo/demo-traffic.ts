import { request } from 'undici';
import type { Time } from '../state/clock.js';

/** A canned coding question: demo traffic never carries anything of the user's. */
const PROMPTS = [
  'Write a TypeScript function that clamps a number between min and max.',
  'Explain what a circuit breaker does in one paragraph.',
  'Suggest a name for a function that retries a promise with backoff.',
];
const AGENTS = ['demo-agent/1.0', 'opencode/demo', 'aider/demo'];

export interface DemoTraffic {
  stop(): void;
}

/**
 * Demo mode's simulated agent: a few requests at start, then one every `intervalMs` on `time`, alternating
 * streamed and plain, over `fcm` and a pinned model, so every dashboard view has something to show without
 * keys.
 */
export function startDemoTraffic(routerUrl: string, time: Time, intervalMs = 4000): DemoTraffic {
  let count = 0;
  let stopped = false;
  const controller = new AbortController();
  const send = async (): Promise<void> => {
    const n = count++;
    const model = n % 7 === 6 ? 'fcm:@demo-fast/reasoner' : n % 5 === 4 ? 'fcm:reasoning' : 'fcm';
    const body = JSON.stringify({
      model,
      stream: n % 2 === 1,
      messages: [{ role: 'user', content: PROMPTS[n % PROMPTS.length] }],
    });
    try {
      const res = await request(`${routerUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': AGENTS[n % AGENTS.length] ?? 'demo-agent/1.0',
        },
        body,
        signal: controller.signal,
      });
      await res.body.dump();
    } catch {
      // The router is stopping, or the request was cut: the demo just moves on.
    }
  };
  const burst = async (): Promise<void> => {
    for (let i = 0; i < 6 && !stopped; i += 1) await send();
  };
  void burst();
  const timer = time.setInterval(() => void send(), intervalMs);
  return {
    stop() {
      stopped = true;
      time.clearInterval(timer);
      controller.abort();
    },
  };
}
