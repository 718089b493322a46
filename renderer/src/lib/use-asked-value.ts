import { useState } from 'react';

/** A control's value: what was asked for, from the moment it is asked, else the router's. */
export interface AskedValue<T> {
  shown: T;
  /** The user asked for `value`: it shows at once. */
  ask: (value: T) => void;
  /** The change failed: the router's value shows again. */
  forget: () => void;
}

/**
 * What a control that changes the router's `current` shows: the value asked for until `current` says the
 * same once the change has settled (`settling` false), so a reload older than the change never shows the
 * value before it for a moment; `forget` lets go of it when the change failed.
 */
export function useAskedValue<T>(current: T, settling: boolean): AskedValue<T> {
  // Boxed, so that any value (null too) can be the one asked for.
  const [asked, setAsked] = useState<{ value: T } | null>(null);
  // Set during render, as React advises for state that follows a prop: no effect, no extra paint.
  if (asked !== null && Object.is(asked.value, current) && !settling) setAsked(null);
  return {
    shown: asked === null ? current : asked.value,
    ask: (value) => setAsked({ value }),
    forget: () => setAsked(null),
  };
}
