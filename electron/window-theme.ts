/**
 * The window's background before the dashboard paints: the dashboard's own `--bg` for the OS theme
 * (renderer/src/styles/base.css), so opening the window never flashes white in dark mode.
 */
export const WINDOW_BACKGROUND = { light: '#f5f6f8', dark: '#0e1116' } as const;

/** The background colour for the OS theme (`nativeTheme.shouldUseDarkColors`). */
export function windowBackground(dark: boolean): string {
  return dark ? WINDOW_BACKGROUND.dark : WINDOW_BACKGROUND.light;
}
