import type { Schema } from 'conf';
import type { Rect } from './window-bounds.js';

/**
 * The desktop app's own preferences. They live in `<userData>/desktop-prefs.json` through electron-store;
 * the router's config, breaker state and history stay where the engine keeps them (`config.json` and
 * friends in the same folder), so the CLI and the desktop app share one config.
 */
export interface DesktopPrefs {
  /** The dashboard window's last position and size. */
  windowBounds: Rect | null;
  windowMaximized: boolean;
  /** Desktop notifications for trips, refused keys and "nothing routable". @default true */
  notificationsEnabled: boolean;
  /** Set once the first-run question about start at login has been asked. */
  firstRunSeen: boolean;
  /** A port chosen from the tray when the default one was taken by another program; null = the default. */
  port: number | null;
}

/** The preferences as electron-store reads and writes them (each write validated against the schema). */
export interface PrefsStore {
  get<K extends keyof DesktopPrefs>(key: K): DesktopPrefs[K];
  set<K extends keyof DesktopPrefs>(key: K, value: DesktopPrefs[K]): void;
}

/** The dashboard window's geometry, kept in the preferences; a write that fails is a warning, not a throw. */
export function boundsInPrefs(
  prefs: PrefsStore,
  warn: (line: string) => void,
): { load(): { bounds: Rect | null; maximized: boolean }; save(bounds: Rect, maximized: boolean): void } {
  return {
    load: () => ({ bounds: prefs.get('windowBounds'), maximized: prefs.get('windowMaximized') }),
    save(bounds, maximized) {
      try {
        prefs.set('windowBounds', bounds);
        prefs.set('windowMaximized', maximized);
      } catch (error) {
        warn(`fcm-router: window position not saved: ${String(error)}`);
      }
    },
  };
}

/** Not `config`: that name is the router's config file in the same folder. */
export const PREFS_FILE_NAME = 'desktop-prefs';

export const PREFS_DEFAULTS: DesktopPrefs = {
  windowBounds: null,
  windowMaximized: false,
  notificationsEnabled: true,
  firstRunSeen: false,
  port: null,
};

const coordinate = { type: 'integer', minimum: -100_000, maximum: 100_000 } as const;
const extent = { type: 'integer', minimum: 1, maximum: 100_000 } as const;

/** JSON schema for electron-store (conf validates every write and the file on load). */
export const PREFS_SCHEMA: Schema<DesktopPrefs> = {
  windowBounds: {
    type: ['object', 'null'],
    properties: { x: coordinate, y: coordinate, width: extent, height: extent },
    required: ['x', 'y', 'width', 'height'],
    additionalProperties: false,
  },
  windowMaximized: { type: 'boolean' },
  notificationsEnabled: { type: 'boolean' },
  firstRunSeen: { type: 'boolean' },
  port: { type: ['integer', 'null'], minimum: 1024, maximum: 65_535 },
};
