/**
 * The router's errors in Anthropic's words: `{ type: "error", error: { type, message } }`, the type chosen
 * from the HTTP status as Anthropic's API does.
 */
import type { FailureKind } from '../gate/failure-kinds.js';

/** Anthropic's error type for an HTTP status. */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 503:
    case 529:
      return 'overloaded_error';
    default:
      return status >= 400 && status < 500 ? 'invalid_request_error' : 'api_error';
  }
}

/** An Anthropic error body. */
export function anthropicErrorBody(type: string, message: string): string {
  return JSON.stringify({ type: 'error', error: { type, message } });
}

/** The error type that ends a stream broken by a failure of this kind. */
export function anthropicStreamErrorType(kind: FailureKind): string {
  if (kind === 'rate_limit') return 'rate_limit_error';
  if (kind === 'overloaded') return 'overloaded_error';
  return 'api_error';
}
