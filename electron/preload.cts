/**
 * The preload of the dashboard window. It runs sandboxed, so it is CommonJS and can load nothing but
 * `electron`: the contract is imported as types only, and the channel table below must equal the
 * contract's `BRIDGE_CHANNELS` literal for literal or this file does not compile. Main validates the
 * sender and every argument again; nothing here is trusted.
 */
// A sandboxed preload is CommonJS, and under verbatimModuleSyntax a .cts file spells its import this way.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import electron = require('electron');
import type { FcmDesktopBridge } from './bridge-types.js' with { 'resolution-mode': 'import' };
import type { BRIDGE_CHANNELS } from './ipc-contract.js' with { 'resolution-mode': 'import' };

const { contextBridge, ipcRenderer } = electron;

const CHANNELS: typeof BRIDGE_CHANNELS = {
  getAppVersion: 'fcm-desktop:get-app-version',
  getStartAtLogin: 'fcm-desktop:get-start-at-login',
  setStartAtLogin: 'fcm-desktop:set-start-at-login',
  getNotificationsEnabled: 'fcm-desktop:get-notifications-enabled',
  setNotificationsEnabled: 'fcm-desktop:set-notifications-enabled',
};

// One method per message; no generic send, and ipcRenderer itself never reaches the page.
const bridge: FcmDesktopBridge = {
  getAppVersion: () => ipcRenderer.invoke(CHANNELS.getAppVersion),
  getStartAtLogin: () => ipcRenderer.invoke(CHANNELS.getStartAtLogin),
  setStartAtLogin: (enabled) => ipcRenderer.invoke(CHANNELS.setStartAtLogin, enabled),
  getNotificationsEnabled: () => ipcRenderer.invoke(CHANNELS.getNotificationsEnabled),
  setNotificationsEnabled: (enabled) => ipcRenderer.invoke(CHANNELS.setNotificationsEnabled, enabled),
};

contextBridge.exposeInMainWorld('fcmDesktop', bridge);
