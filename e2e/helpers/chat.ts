/** The response of one chat request through the router, minus its content. */
export interface ChatResult {
  status: number;
  attempts: string | null;
  decision: string | null;
  requestId: string | null;
}

/**
 * Sends one non-streaming chat request through the router, as an agent named `agent` would; `extra` adds
 * to its body (tools, a tool choice).
 */
export async function chat(
  routerUrl: string,
  model = 'fcm',
  agent = 'e2e-agent/1.0',
  extra: Record<string, unknown> = {},
): Promise<ChatResult> {
  const messages = [{ role: 'user', content: 'write a clamp function' }];
  const response = await fetch(`${routerUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer fcm-local', 'user-agent': agent },
    body: JSON.stringify({ model, messages, ...extra }),
  });
  await response.arrayBuffer();
  return {
    status: response.status,
    attempts: response.headers.get('x-fcm-v2-attempts'),
    decision: response.headers.get('x-fcm-v2-decision'),
    requestId: response.headers.get('x-request-id'),
  };
}

/** `GET` a JSON resource of the router. */
export async function getJson<T>(routerUrl: string, path: string): Promise<T> {
  const response = await fetch(`${routerUrl}${path}`);
  if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}
