import {
  IPC_CHANNELS,
  isIpcChannel,
  parseArgs,
  validateSender,
  type IpcChannel,
  type IpcHandlers,
} from './ipc-contract.js';

/** Who sent an IPC call, as main reads it from the event. */
export interface IpcSender {
  /** `event.senderFrame.url`; null when the frame is gone. */
  url: string | null | undefined;
  /** False for calls from an iframe: only the dashboard's top frame may use the bridge. */
  isMainFrame: boolean;
}

/** Refused IPC call; the message reaches the page as a rejected promise and names no secret. */
export class IpcRefusedError extends Error {
  readonly code = 'FCM_IPC_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'IpcRefusedError';
  }
}

/**
 * The one gate of every IPC call: the channel must be in the contract, the sender must be the top frame of
 * the router's own dashboard, and the arguments must parse. Only then does the handler run, and its result
 * is checked against the contract too. Main registers this once per channel.
 *
 * @param routerOrigin the origin the dashboard is served from right now, or null when there is none
 */
export function createIpcDispatcher(
  handlers: IpcHandlers,
  routerOrigin: () => string | null,
): (channel: string, sender: IpcSender, args: unknown) => Promise<unknown> {
  return async (channel, sender, args) => {
    if (!isIpcChannel(channel)) throw new IpcRefusedError(`unknown channel ${JSON.stringify(channel)}`);
    const origin = routerOrigin();
    if (!origin || !sender.isMainFrame || !validateSender(sender.url, origin)) {
      throw new IpcRefusedError(`${channel}: refused, the sender is not the dashboard`);
    }
    const parsed = parseArgs(channel, args);
    if (!parsed.ok) throw new IpcRefusedError(parsed.error);
    return IPC_CHANNELS[channel].result.parse(await call(handlers, channel, parsed.args));
  };
}

function call<C extends IpcChannel>(handlers: IpcHandlers, channel: C, args: unknown[]): unknown {
  // The tuple was validated against this very channel's schema just before.
  const handler = handlers[channel] as (...values: unknown[]) => unknown;
  return handler(...args);
}

/** The part of Electron's `ipcMain` the app registers its channels on. */
export interface IpcRegistry {
  handle(
    channel: string,
    listener: (
      event: { senderFrame?: { url: string; parent: unknown } | null },
      ...args: unknown[]
    ) => unknown,
  ): void;
}

/** Registers every channel of the contract on `ipc`, each through {@link createIpcDispatcher}'s checks. */
export function registerIpcHandlers(
  ipc: IpcRegistry,
  handlers: IpcHandlers,
  routerOrigin: () => string | null,
): void {
  const dispatch = createIpcDispatcher(handlers, routerOrigin);
  for (const channel of Object.keys(IPC_CHANNELS)) {
    ipc.handle(channel, (event, ...args) =>
      dispatch(
        channel,
        { url: event.senderFrame?.url, isMainFrame: event.senderFrame?.parent === null },
        args,
      ),
    );
  }
}
