/**
 * The stand-in's side of the test's commands: each arrives on the child's IPC channel, acts as the user or
 * the OS would, and is answered with a reply carrying the same id. Test-only.
 */
import type { EventEmitter } from 'node:events';
import { app, fakeEvent } from './fake-app.js';
import { FakeBaseWindow, FakeBrowserWindow } from './fake-windows.js';
import type { Command, CommandMessage, ReplyMessage } from './protocol.js';
import { record } from './record.js';

interface MenuItemLike {
  label?: string;
  click?: (...args: unknown[]) => void;
}

/** The stand-in's objects the commands drive. */
export interface CommandTargets {
  Tray: { current: { menu: { items: MenuItemLike[] } | null } | null };
  Notification: { shown: WeakRef<EventEmitter>[] };
  ipcMain: { handlers: Map<string, (...args: unknown[]) => unknown> };
  nativeTheme: EventEmitter;
  powerMonitor: EventEmitter;
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run node with --expose-gc');
  // A WeakRef target stays alive until the end of the turn that created or read it: collect on later turns.
  for (let i = 0; i < 3; i++) {
    await turn();
    gc();
  }
}

function firstWindow(): FakeBrowserWindow {
  const window = FakeBrowserWindow.all.find((w) => !w.isDestroyed());
  if (!window) throw new Error('no window is open');
  return window;
}

function emitTarget(
  name: Extract<Command, { cmd: 'emit' }>['target'],
  targets: CommandTargets,
): EventEmitter {
  switch (name) {
    case 'window':
      return firstWindow();
    case 'sessionWatcher': {
      const watcher = FakeBaseWindow.all.at(-1);
      if (!watcher || watcher.isDestroyed()) throw new Error('no hidden window is open');
      return watcher;
    }
    case 'nativeTheme':
      return targets.nativeTheme;
    case 'powerMonitor':
      return targets.powerMonitor;
  }
}

async function run(command: Command, targets: CommandTargets): Promise<unknown> {
  switch (command.cmd) {
    case 'quit':
      app.quit();
      return null;
    case 'click-notification': {
      await collectGarbage();
      const notification = targets.Notification.shown[command.index]?.deref();
      if (!notification) return { clicked: false };
      notification.emit('click', fakeEvent());
      return { clicked: true };
    }
    case 'click-tray-item': {
      const item = currentTray(targets).menu?.items.find((entry) => entry.label === command.label);
      if (!item?.click) throw new Error(`no tray menu item ${JSON.stringify(command.label)}`);
      item.click(item, undefined, {});
      return null;
    }
    case 'invoke': {
      const handler = targets.ipcMain.handlers.get(command.channel);
      if (!handler) throw new Error(`No handler registered for '${command.channel}'`);
      const frame = { url: command.senderUrl, parent: command.isMainFrame ? null : {} };
      return await handler({ senderFrame: frame }, ...command.args);
    }
    case 'emit': {
      const target = emitTarget(command.target, targets);
      const event = fakeEvent({ reasons: ['shutdown'] });
      target.emit(command.event, event);
      record(command.target, `emitted:${command.event}`, { prevented: event.defaultPrevented });
      return { prevented: event.defaultPrevented };
    }
    case 'reload-window':
      firstWindow().webContents.reload();
      return null;
  }
}

function currentTray(targets: CommandTargets): { menu: { items: MenuItemLike[] } | null } {
  const tray = targets.Tray.current;
  if (!tray) throw new Error('no tray');
  return tray;
}

/** Listens for commands when the process was started with an IPC channel. */
export function startCommands(targets: CommandTargets): void {
  const send = process.send?.bind(process);
  if (!send) return;
  process.on('message', (message: CommandMessage) => {
    void run(message, targets).then(
      (value) => send({ type: 'reply', id: message.id, ok: true, value } satisfies ReplyMessage),
      (error: unknown) =>
        send({
          type: 'reply',
          id: message.id,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        } satisfies ReplyMessage),
    );
  });
}
