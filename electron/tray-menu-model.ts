import type { TrayView } from './tray-health.js';

/** What a tray menu click asks main to do. */
export type MenuAction =
  | 'open-dashboard'
  | 'copy-base-url'
  | 'pause'
  | 'resume'
  | 'use-next-port'
  | 'toggle-start-at-login'
  | 'quit';

/** A menu entry, described without Electron; main maps it onto `Menu.buildFromTemplate`. */
export type MenuItemModel =
  | { type: 'label'; label: string }
  | { type: 'separator' }
  | { type: 'action'; action: MenuAction; label: string; enabled: boolean }
  | { type: 'checkbox'; action: MenuAction; label: string; checked: boolean; enabled: boolean };

export interface TrayMenuInput {
  view: TrayView;
  /** `owned`: the router runs in this process; `attached`: a separate daemon; `none`: no router. */
  mode: 'owned' | 'attached' | 'none';
  paused: boolean;
  /** The router's URL (`http://127.0.0.1:19280`), or null when there is none. */
  routerUrl: string | null;
  /** Offered when the port is taken by another program. */
  nextFreePort: number | null;
  /** Null where start at login cannot be read (the item is then shown disabled). */
  startAtLogin: boolean | null;
}

/**
 * The tray menu: a status line, the first models of the set with a glyph each, then the actions. A pure
 * description, so the whole menu is tested without Electron.
 */
export function buildTrayMenu(input: TrayMenuInput): MenuItemModel[] {
  const { view, mode, routerUrl } = input;
  const items: MenuItemModel[] = [{ type: 'label', label: escapeMnemonics(view.statusLine) }];
  if (mode === 'attached' && routerUrl) {
    items.push({
      type: 'label',
      label: escapeMnemonics(`Showing the fcm-router already running at ${routerUrl}`),
    });
  }
  if (view.menuModels.length > 0) {
    items.push({ type: 'separator' });
    for (const line of view.menuModels)
      items.push({ type: 'label', label: escapeMnemonics(`${line.glyph}  ${line.label}`) });
    if (view.moreModels > 0)
      items.push({ type: 'label', label: `+${view.moreModels} more in the dashboard` });
  }
  items.push({ type: 'separator' });
  const running = mode !== 'none' && routerUrl !== null;
  items.push({ type: 'action', action: 'open-dashboard', label: 'Open dashboard', enabled: running });
  items.push({
    type: 'action',
    action: 'copy-base-url',
    label: running
      ? escapeMnemonics(`Copy agent base URL (${agentBaseUrl(routerUrl)})`)
      : 'Copy agent base URL',
    enabled: running,
  });
  items.push(
    input.paused
      ? { type: 'action', action: 'resume', label: 'Resume routing', enabled: running }
      : { type: 'action', action: 'pause', label: 'Pause routing', enabled: running },
  );
  if (input.nextFreePort !== null) {
    items.push({
      type: 'action',
      action: 'use-next-port',
      label: `Use port ${input.nextFreePort} instead`,
      enabled: true,
    });
  }
  items.push({ type: 'separator' });
  items.push({
    type: 'checkbox',
    action: 'toggle-start-at-login',
    label: 'Start at login',
    checked: input.startAtLogin === true,
    enabled: input.startAtLogin !== null,
  });
  items.push({ type: 'separator' });
  items.push({
    type: 'action',
    action: 'quit',
    label: mode === 'attached' ? 'Quit (the router keeps running)' : 'Quit fcm-router',
    enabled: true,
  });
  return items;
}

/** The OpenAI base URL agents are pointed at. */
export function agentBaseUrl(routerUrl: string): string {
  return `${routerUrl.replace(/\/+$/, '')}/v1`;
}

/** On Windows and Linux `&` marks a keyboard accelerator in menu labels; `&&` shows one `&`. */
export function escapeMnemonics(label: string): string {
  return label.replaceAll('&', '&&');
}
