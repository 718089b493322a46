import { z } from 'zod/v3';
import type { FcmDesktopBridge } from './bridge-types.js';

/**
 * The one IPC contract of the desktop bridge: each channel's argument tuple and result, as zod schemas.
 * Main validates every call against it, the preload's channel table is type-checked against it, and the
 * renderer sees it through `FcmDesktopBridge`. A channel is declared here and nowhere else.
 */
export const IPC_CHANNELS = {
  'fcm-desktop:get-app-version': { args: z.tuple([]), result: z.string() },
  'fcm-desktop:get-start-at-login': { args: z.tuple([]), result: z.boolean() },
  'fcm-desktop:set-start-at-login': { args: z.tuple([z.boolean()]), result: z.boolean() },
  'fcm-desktop:get-notifications-enabled': { args: z.tuple([]), result: z.boolean() },
  'fcm-desktop:set-notifications-enabled': { args: z.tuple([z.boolean()]), result: z.boolean() },
} as const;

export type IpcChannel = keyof typeof IPC_CHANNELS;
export type IpcArgs<C extends IpcChannel> = z.output<(typeof IPC_CHANNELS)[C]['args']>;
export type IpcResult<C extends IpcChannel> = z.output<(typeof IPC_CHANNELS)[C]['result']>;

/** Which channel each bridge method sends on (the preload's table must equal this, literal for literal). */
export const BRIDGE_CHANNELS = {
  getAppVersion: 'fcm-desktop:get-app-version',
  getStartAtLogin: 'fcm-desktop:get-start-at-login',
  setStartAtLogin: 'fcm-desktop:set-start-at-login',
  getNotificationsEnabled: 'fcm-desktop:get-notifications-enabled',
  setNotificationsEnabled: 'fcm-desktop:set-notifications-enabled',
} as const satisfies Record<keyof FcmDesktopBridge, IpcChannel>;

/** The bridge as the contract defines it; must be the same type as `FcmDesktopBridge` (checked below). */
type BridgeFromContract = {
  [M in keyof typeof BRIDGE_CHANNELS]: (
    ...args: IpcArgs<(typeof BRIDGE_CHANNELS)[M]>
  ) => Promise<IpcResult<(typeof BRIDGE_CHANNELS)[M]>>;
};
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Fails to compile when the hand-written bridge type and the contract drift apart. */
export const BRIDGE_MATCHES_CONTRACT: Same<BridgeFromContract, FcmDesktopBridge> = true;

/** Handlers for every channel, as main registers them. */
export type IpcHandlers = {
  [C in IpcChannel]: (...args: IpcArgs<C>) => Promise<IpcResult<C>> | IpcResult<C>;
};

export type ParsedArgs<C extends IpcChannel> = { ok: true; args: IpcArgs<C> } | { ok: false; error: string };

/** True for a channel name of this contract (an unknown name is refused before any parsing). */
export function isIpcChannel(name: string): name is IpcChannel {
  return Object.hasOwn(IPC_CHANNELS, name);
}

/**
 * Validates the arguments of one call. IPC payloads come from a page, so they are `unknown` until this
 * says otherwise; extra or missing arguments are errors.
 */
export function parseArgs<C extends IpcChannel>(channel: C, args: unknown): ParsedArgs<C> {
  const schema = IPC_CHANNELS[channel].args;
  const result = schema.safeParse(args);
  if (result.success) return { ok: true, args: result.data as IpcArgs<C> };
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? `argument ${issue.path.map(String).join('.')}: ` : '';
  return { ok: false, error: `${channel}: ${where}${issue?.message ?? 'invalid arguments'}` };
}

/**
 * True when an IPC call comes from a frame showing the router's own dashboard. Compares parsed origins,
 * so `http://127.0.0.1:19280.evil.example` or a `file:` page never passes a prefix check.
 *
 * @param senderUrl `event.senderFrame.url` (missing when the frame is gone)
 * @param routerOrigin the router's origin, e.g. `http://127.0.0.1:19280`
 */
export function validateSender(senderUrl: string | null | undefined, routerOrigin: string): boolean {
  if (!senderUrl) return false;
  let sender: URL;
  let router: URL;
  try {
    sender = new URL(senderUrl);
    router = new URL(routerOrigin);
  } catch {
    return false;
  }
  if (sender.protocol !== 'http:' && sender.protocol !== 'https:') return false;
  if (sender.username !== '' || sender.password !== '') return false;
  return sender.origin === router.origin;
}
