import type { ServerResponse } from 'node:http';
import type { ErrorResponse } from '../api-types.js';

/** Writes a JSON answer with a content length. */
export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

/** Writes an OpenAI-shaped error: `{ error: { message, type, code, param } }`. */
export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  options: { type?: string; headers?: Record<string, string>; extra?: Partial<ErrorResponse['error']> } = {},
): void {
  const type = options.type ?? (status >= 500 ? 'server_error' : 'invalid_request_error');
  const error: ErrorResponse = { error: { message, type, code, param: null, ...options.extra } };
  sendJson(res, status, error, options.headers);
}
