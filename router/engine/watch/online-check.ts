/**
 * Whether the machine looks connected: a cheap, local check (no packet is sent) that keeps background
 * probes from running, and failing, while the machine is offline.
 */
import type { NetworkInterfaceInfo } from 'node:os';

/**
 * Link-local addresses (169.254/16, fe80::/10) are self-assigned: an interface holding only those has no
 * network behind it.
 */
function isLinkLocal(info: NetworkInterfaceInfo): boolean {
  return info.family === 'IPv4' ? info.address.startsWith('169.254.') : /^fe[89ab]/i.test(info.address);
}

/**
 * Online when some non-internal interface has an address that is not link-local. Takes what
 * `os.networkInterfaces()` returns. Pure.
 */
export function isOnline(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): boolean {
  return Object.values(interfaces).some(
    (infos) => infos?.some((info) => !info.internal && info.address !== '' && !isLinkLocal(info)) ?? false,
  );
}
