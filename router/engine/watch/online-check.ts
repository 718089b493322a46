/**
 * Whether the machine looks connected: a cheap, local check (no packet is sent) that keeps background
 * probes from running, and failing, while the machine is offline.
 */
import type { NetworkInterfaceInfo } from 'node:os';

/**
 * Interfaces that hold an address with no uplink of their own: container and VM bridges (Docker's
 * `docker0` and `br-…`, their `veth…` ends, libvirt's `virbr…`, LXC's and LXD's, VirtualBox's and VMware's
 * host-only networks, macOS's `bridge1…` for VM and internet sharing, Hyper-V's WSL and default switches)
 * keep their address with Wi-Fi off; VPN and overlay tunnels (WireGuard, Tailscale, ZeroTier, OpenVPN's
 * `tun`/`tap`, macOS's `utun…`) reach the internet only through a physical uplink, which counts on its own.
 * A bridge the user made (`br0`) may carry the uplink itself, and is not among them.
 */
const VIRTUAL_NAMES: readonly RegExp[] = [
  /^(docker|br-|veth|virbr|lxcbr|lxdbr|cni|flannel|podman|vboxnet|vmnet|bridge1\d\d)/i,
  /^(tailscale|wg|zt|utun|tun|tap)/i,
  /^vEthernet \((WSL|Default Switch)/i,
  /VirtualBox|VMware|ZeroTier|Tailscale|WireGuard|OpenVPN/i,
];

/** Whether an interface, by its name, is virtual: it says nothing of a way out of the machine. Pure. */
export function isVirtualInterface(name: string): boolean {
  return VIRTUAL_NAMES.some((pattern) => pattern.test(name));
}

/**
 * Link-local addresses (169.254/16, fe80::/10) are self-assigned: an interface holding only those has no
 * network behind it.
 */
function isLinkLocal(info: NetworkInterfaceInfo): boolean {
  return info.family === 'IPv4' ? info.address.startsWith('169.254.') : /^fe[89ab]/i.test(info.address);
}

/**
 * Online when some non-internal interface that is not virtual (`isVirtualInterface`) has an address that is
 * not link-local. Takes what `os.networkInterfaces()` returns. Pure.
 */
export function isOnline(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): boolean {
  return Object.entries(interfaces).some(
    ([name, infos]) =>
      !isVirtualInterface(name) &&
      (infos?.some((info) => !info.internal && info.address !== '' && !isLinkLocal(info)) ?? false),
  );
}
