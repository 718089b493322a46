import { useCallback, useRef } from 'react';

/** See {@link useFocusHandoff}. */
export interface FocusHandoff {
  /** A button that goes away once its action is done was pressed: its successor takes the focus. */
  hand(): void;
  /** The action failed: the pressed button stays, and nothing takes the focus. */
  drop(): void;
  /** The ref of each button of the pair: the one that appears after a press takes the focus. */
  take(element: HTMLElement | null): void;
}

/**
 * Keeps the keyboard's place when a pressed button is replaced by another (Pause routing by Resume
 * routing): without it focus falls to the page's start. Only a press here moves it, never a swap made
 * elsewhere (the tray, another window).
 */
export function useFocusHandoff(): FocusHandoff {
  const handed = useRef(false);
  const hand = useCallback(() => {
    handed.current = true;
  }, []);
  const drop = useCallback(() => {
    handed.current = false;
  }, []);
  const take = useCallback((element: HTMLElement | null) => {
    if (element === null || !handed.current) return;
    handed.current = false;
    element.focus();
  }, []);
  return { hand, drop, take };
}
