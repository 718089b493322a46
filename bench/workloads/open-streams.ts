import { OPEN_SET } from '../bench-config.js';
import { chatBody, openPool, timedStream } from '../load-client.js';
import { rssMb } from '../proc.js';
import { quantile } from '../stats.js';

export interface OpenStreamsSample {
  errors: number;
  peakRssMb: number;
  /** Streams the router served only after failing over (a sign of a capped upstream pool). */
  failedOver: number;
  ttfbP99: number;
}

/**
 * Opens `count` streams at once through `origin` (the router, or the relay to the open-stream path), each
 * held open `holdMs` by the upstream, and samples the RSS of `pid` meanwhile.
 */
export async function holdOpenStreams(
  origin: string,
  via: 'router' | 'relay',
  count: number,
  holdMs: number,
  pid: number,
): Promise<OpenStreamsSample> {
  const pool = openPool(origin, count);
  const body = chatBody(via === 'router' ? `fcm:${OPEN_SET}` : 'm0', true);
  const path = via === 'router' ? '/v1/chat/completions' : `/open-${holdMs}/v1/chat/completions`;
  let peakRssMb = rssMb(pid);
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, rssMb(pid));
  }, 250);
  try {
    const replies = await Promise.all(Array.from({ length: count }, () => timedStream(pool, body, path)));
    return {
      errors: replies.filter((reply) => !reply.ok).length,
      peakRssMb,
      failedOver: replies.filter(
        (reply) =>
          reply.headers['x-fcm-v2-attempts'] !== undefined && reply.headers['x-fcm-v2-attempts'] !== '1',
      ).length,
      ttfbP99: quantile(
        replies.map((reply) => reply.ttfbMs),
        0.99,
      ),
    };
  } finally {
    clearInterval(sampler);
    await pool.close();
  }
}
