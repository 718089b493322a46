/**
 * Whether the machine looks connected: a cheap, local check (no packet is sent) that keeps probes of models
 * off this machine from running, and failing, while the machine is offline.
 */
import type { NetworkInterfaceInfo } from 'node:os';

/**
 * Interfaces that hold an address with no uplink of their own: container and VM bridges (Docker's
 * `docker0` and `br-…`, their `veth…` ends, libvirt's `virbr…`, LXC's and LXD's, VirtualBox's and VMware's
 * host-only networks, macOS's `bridge1…` for VM and internet sharing, Hyper-V's WSL and default switches)
 * keep their address with Wi-Fi off. A bridge the user made (`br0`) may carry the uplink itself, and is not
 * among them.
 */
const BRIDGE_NAMES: readonly RegExp[] = [
  /^(docker|br-|veth|virbr|lxcbr|lxdbr|cni|flannel|podman|vboxnet|vmnet|bridge1\d\d)/i,
  /^vEthernet \((WSL|Default Switch)/i,
  /VirtualBox|VMware/i,
];

/**
 * VPN and overlay tunnels (WireGuard, Tailscale, ZeroTier, OpenVPN's `tun`/`tap`, macOS's `utun…`): on a
 * machine they reach the internet only through a physical uplink, which counts on its own; but in a
 * container's namespace a tunnel may be the only way out (rootless Podman's `tap0`).
 */
const TUNNEL_NAMES: readonly RegExp[] = [
  /^(tailscale|wg|zt|utun|tun|tap)/i,
  /ZeroTier|Tailscale|WireGuard|OpenVPN/i,
];

const named = (patterns: readonly RegExp[], name: string): boolean => patterns.some((p) => p.test(name));

/** Whether an interface, by its name, is virtual (a bridge or a tunnel): no uplink of its own. Pure. */
export function isVirtualInterface(name: string): boolean {
  return named(BRIDGE_NAMES, name) || named(TUNNEL_NAMES, name);
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
 * not link-local, or when tunnels alone hold such addresses (a namespace whose only way out is a tunnel;
 * beside a bridge, they are a machine with Wi-Fi off). Takes what `os.networkInterfaces()` returns. Pure.
 */
export function isOnline(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): boolean {
  const addressed = Object.entries(interfaces)
    .filter(([, infos]) => infos?.some((info) => !info.internal && info.address !== '' && !isLinkLocal(info)))
    .map(([name]) => name);
  if (addressed.some((name) => !isVirtualInterface(name))) return true;
  return addressed.length > 0 && addressed.every((name) => named(TUNNEL_NAMES, name));
}
