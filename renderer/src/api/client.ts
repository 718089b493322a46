import type { ConfigIssue, ErrorResponse } from '../../../router/api-types.js';
import { routerToken } from './token.js';

/**
 * A non-2xx answer from the router, with the config issues when it is a validation error and, when the
 * router names one, the body field at fault (`param`, e.g. `apiKey`).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
    readonly issues: ConfigIssue[],
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

/** Brand check that works across module copies. */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof Error && error.name === 'ApiError' && 'status' in error;
}

function isErrorResponse(body: unknown): body is ErrorResponse {
  if (body === null || typeof body !== 'object' || !('error' in body)) return false;
  const error = (body as { error: unknown }).error;
  return (
    error !== null &&
    typeof error === 'object' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<T> {
  // Reads want the token too when the router accepts remote connections.
  const headers: Record<string, string> = { ...extraHeaders, accept: 'application/json' };
  const token = routerToken();
  if (token !== '') headers['x-fcm-token'] = token;
  // The daemon refuses mutating calls without its token and a JSON content type (CSRF protection).
  if (method !== 'GET') headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'The router is not reachable.', 'unreachable', []);
  }
  const parsed = await readBody(response);
  if (!response.ok) {
    if (isErrorResponse(parsed)) {
      const { message, code, issues, param } = parsed.error;
      throw new ApiError(response.status, message, code ?? null, issues ?? [], param ?? null);
    }
    throw new ApiError(response.status, `HTTP ${response.status}`, null, []);
  }
  return parsed as T;
}

/**
 * The router's sentence for a person. It opens with "fcm-router: " so that a terminal or a log shows who
 * is speaking; on the router's own page that says nothing.
 */
export function routerWords(error: ApiError): string {
  return error.message.replace(/^fcm-router: /, '');
}

/** `GET` a JSON resource of the router. */
export function apiGet<T>(path: string): Promise<T> {
  return request<T>('GET', path);
}

/** A mutating call (`POST`/`PUT`/`DELETE`) carrying the router token (and `headers`, e.g. `If-Match`). */
export function apiSend<T>(
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  return request<T>(method, path, body, headers);
}

/** The router refused a save because `config.json` changed on disk since the config was read. */
export function isChangedOnDisk(error: unknown): boolean {
  return isApiError(error) && error.code === 'config_changed_on_disk';
}
