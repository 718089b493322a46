import type { RouterEvent, RouterEventType } from '../../../router/api-types.js';

export const EVENT_TYPES: readonly RouterEventType[] = [
  'request',
  'breaker',
  'config',
  'router',
  'config-file',
];

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A `config-file` event's own fields: `changed` when applied, `issues` when invalid. */
function fileChangeShape(value: Record<string, unknown>): boolean {
  if (value.status === 'applied') return Array.isArray(value.changed);
  if (value.status === 'invalid') return Array.isArray(value.issues);
  return value.status === 'removed';
}

/**
 * Reads one SSE message into a RouterEvent, checking the fields the dashboard relies on; anything else
 * (a newer server's event, a garbled frame) is dropped rather than corrupting the cached state.
 */
export function parseRouterEvent(name: string, data: string): RouterEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isObject(value) || value.type !== name) return null;
  switch (name) {
    case 'request':
      return isObject(value.entry) &&
        typeof value.entry.requestId === 'string' &&
        Array.isArray(value.entry.attempts)
        ? (value as RouterEvent)
        : null;
    case 'breaker':
      return isObject(value.model) && typeof value.model.key === 'string' ? (value as RouterEvent) : null;
    case 'config':
      return typeof value.activeSet === 'string' && isObject(value.sets) ? (value as RouterEvent) : null;
    case 'router':
      return typeof value.paused === 'boolean' ? (value as RouterEvent) : null;
    case 'config-file':
      return typeof value.path === 'string' && fileChangeShape(value) ? (value as RouterEvent) : null;
    default:
      return null;
  }
}
