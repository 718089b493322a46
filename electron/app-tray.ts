/** Electron-only: puts a TrayView and a menu description on the system tray. */
import path from 'node:path';
import { Menu, nativeImage, Tray, type MenuItemConstructorOptions } from 'electron';
import { TRAY_ICON_DIR, trayIconFor } from './tray-icons.js';
import type { TrayColour, TrayView } from './tray-health.js';
import type { MenuAction, MenuItemModel } from './tray-menu-model.js';

export class AppTray {
  readonly #tray: Tray;
  readonly #iconDir: string;
  #colour: TrayColour | null = null;

  constructor(
    appPath: string,
    private readonly actions: Record<MenuAction, () => void>,
  ) {
    this.#iconDir = path.join(appPath, TRAY_ICON_DIR);
    this.#tray = new Tray(this.#icon('grey'));
    // Windows users expect a click on the tray icon to open the app; elsewhere a click opens the menu.
    if (process.platform === 'win32') this.#tray.on('click', actions['open-dashboard']);
  }

  render(view: TrayView, menu: readonly MenuItemModel[]): void {
    if (this.#tray.isDestroyed()) return;
    if (view.colour !== this.#colour) this.#tray.setImage(this.#icon(view.colour));
    this.#colour = view.colour;
    this.#tray.setToolTip(view.tooltip);
    this.#tray.setContextMenu(Menu.buildFromTemplate(menu.map((item) => this.#toMenuItem(item))));
  }

  destroy(): void {
    if (!this.#tray.isDestroyed()) this.#tray.destroy();
  }

  #icon(colour: TrayColour): Electron.NativeImage {
    return nativeImage.createFromPath(path.join(this.#iconDir, trayIconFor(colour, process.platform)));
  }

  #toMenuItem(item: MenuItemModel): MenuItemConstructorOptions {
    switch (item.type) {
      case 'label':
        return { label: item.label, enabled: false };
      case 'separator':
        return { type: 'separator' };
      case 'action':
        return { label: item.label, enabled: item.enabled, click: this.actions[item.action] };
      case 'checkbox':
        return {
          type: 'checkbox',
          label: item.label,
          checked: item.checked,
          enabled: item.enabled,
          click: this.actions[item.action],
        };
    }
  }
}
