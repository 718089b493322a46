/** A rectangle in screen coordinates, as Electron's `getBounds()` and `Display.workArea` give them. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowSize {
  width: number;
  height: number;
}

/** The first window's size, centred by Electron. */
export const DEFAULT_WINDOW_SIZE: WindowSize = { width: 1180, height: 780 };
export const MIN_WINDOW_SIZE: WindowSize = { width: 520, height: 420 };

/** How much of the title bar must lie on a display for the window to be reachable with the mouse. */
const GRAB_WIDTH = 100;
const GRAB_HEIGHT = 24;

/**
 * The bounds to open the window with: the saved ones when their title bar is on a connected display
 * (shrunk to fit it), otherwise the default size centred. A monitor unplugged since last time must not
 * leave the window off-screen.
 */
export function restoreBounds(saved: Rect | null, workAreas: readonly Rect[]): Rect | WindowSize {
  if (!saved || !isFiniteRect(saved)) return { ...DEFAULT_WINDOW_SIZE };
  const titleBar: Rect = { x: saved.x, y: saved.y, width: saved.width, height: GRAB_HEIGHT };
  const host = workAreas.find((area) => {
    const overlap = intersect(titleBar, area);
    return (
      overlap !== null && overlap.width >= Math.min(GRAB_WIDTH, saved.width) && overlap.height >= GRAB_HEIGHT
    );
  });
  if (!host) return { ...DEFAULT_WINDOW_SIZE };
  return {
    x: saved.x,
    y: saved.y,
    width: clamp(saved.width, MIN_WINDOW_SIZE.width, host.width),
    height: clamp(saved.height, MIN_WINDOW_SIZE.height, host.height),
  };
}

function isFiniteRect(rect: Rect): boolean {
  return (
    [rect.x, rect.y, rect.width, rect.height].every(Number.isFinite) && rect.width > 0 && rect.height > 0
  );
}

function intersect(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(Math.min(value, max), Math.min(min, max));
}
