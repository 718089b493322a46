import type { TrayColour } from './tray-health.js';

/** The tray colours, shared by the icon generator and the README. */
export const TRAY_COLOUR_HEX: Record<TrayColour, string> = {
  green: '#22c55e',
  amber: '#f59e0b',
  red: '#ef4444',
  grey: '#9ca3af',
};

export const TRAY_COLOURS = Object.keys(TRAY_COLOUR_HEX) as TrayColour[];

/** Where the generated tray icons live, relative to the app folder (inside app.asar when packaged). */
export const TRAY_ICON_DIR = 'build/icons/tray';

/**
 * The 1x file name; Electron picks the `@2x` file beside it on high-DPI screens, and on macOS a name
 * ending in `Template` marks a template image (black + alpha, tinted by the menu bar).
 */
export function trayIconName(colour: TrayColour, template = false): string {
  return `tray-${colour}${template ? 'Template' : ''}.png`;
}

/**
 * Which icon to show. On macOS the calm states (green, grey) use template images that follow the menu
 * bar's light or dark look like every other menu extra; amber and red keep their colour, because the
 * colour is the warning.
 */
export function trayIconFor(colour: TrayColour, platform: NodeJS.Platform): string {
  const template = platform === 'darwin' && (colour === 'green' || colour === 'grey');
  return trayIconName(colour, template);
}
