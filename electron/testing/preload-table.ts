/**
 * Runs the built preload as Electron runs a sandboxed one: as a CommonJS function whose `require` serves
 * only `electron`, here a recorder of `contextBridge` and `ipcRenderer`. Calling each exposed method shows
 * the channel it sends on: the preload's real table, not its source text. Test-only.
 */
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

export interface PreloadBridge {
  /** The global name the bridge was exposed under (`fcmDesktop`). */
  exposedAs: string;
  /** Each bridge method and the channel it invokes. */
  channels: Record<string, string>;
}

export async function loadPreloadBridge(file: string): Promise<PreloadBridge> {
  let exposed: { name: string; api: Record<string, (...args: unknown[]) => Promise<unknown>> } | null = null;
  let lastChannel: string | null = null;
  const electron = {
    contextBridge: {
      exposeInMainWorld(name: string, api: Record<string, (...args: unknown[]) => Promise<unknown>>) {
        exposed = { name, api };
      },
    },
    ipcRenderer: {
      invoke(channel: string): Promise<unknown> {
        lastChannel = channel;
        return Promise.resolve(null);
      },
    },
  };
  const sandboxRequire = (name: string): unknown => {
    if (name === 'electron') return electron;
    throw new Error(`module not found: ${name} (a sandboxed preload can only require electron)`);
  };
  const module = { exports: {} };
  const wrapper = vm.runInNewContext(
    `(function (exports, require, module) {${readFileSync(file, 'utf8')}\n})`,
    {},
    { filename: file },
  ) as (exports: object, require: (name: string) => unknown, module: object) => void;
  wrapper(module.exports, sandboxRequire, module);

  const bridge = exposed as {
    name: string;
    api: Record<string, (...args: unknown[]) => Promise<unknown>>;
  } | null;
  if (!bridge) throw new Error(`${file} exposed nothing`);
  const channels: Record<string, string> = {};
  for (const [method, fn] of Object.entries(bridge.api)) {
    lastChannel = null;
    await fn(true);
    if (lastChannel === null) throw new Error(`bridge method ${method} sent nothing`);
    channels[method] = lastChannel;
  }
  return { exposedAs: bridge.name, channels };
}
