import type { ChatResult } from './chat.js';

export interface SendOptions {
  model?: string;
  agent?: string;
  stream?: boolean;
  headers?: Record<string, string>;
}

/** One chat request through the router, streamed or not, read to its end; the content is not kept. */
export async function send(routerUrl: string, options: SendOptions = {}): Promise<ChatResult> {
  const response = await fetch(`${routerUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer fcm-local',
      'user-agent': options.agent ?? 'e2e-agent/1.0',
      ...options.headers,
    },
    body: JSON.stringify({
      model: options.model ?? 'fcm',
      stream: options.stream ?? false,
      messages: [{ role: 'user', content: 'write a clamp function' }],
    }),
  });
  await response.arrayBuffer();
  return {
    status: response.status,
    attempts: response.headers.get('x-fcm-v2-attempts'),
    decision: response.headers.get('x-fcm-v2-decision'),
    requestId: response.headers.get('x-request-id'),
  };
}
