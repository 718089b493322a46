import type { FcmDesktopBridge, FcmDesktopGlobal } from '../../../electron/bridge-types.js';

/** The Electron preload bridge, or null in a plain browser tab. */
export function desktopBridge(): FcmDesktopBridge | null {
  return (window as Window & FcmDesktopGlobal).fcmDesktop ?? null;
}
