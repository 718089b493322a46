import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NetworkInterfaceInfo } from 'node:os';
import { isOnline, isVirtualInterface } from './online-check.js';

function face(address: string, internal: boolean): NetworkInterfaceInfo {
  const v6 = address.includes(':');
  return {
    address,
    netmask: v6 ? 'ffff:ffff:ffff:ffff::' : '255.255.255.0',
    family: v6 ? 'IPv6' : 'IPv4',
    mac: '02:00:00:00:00:01',
    internal,
    cidr: null,
    ...(v6 ? { scopeid: 0 } : {}),
  } as NetworkInterfaceInfo;
}

test('online when a non-internal interface has a routable address', () => {
  assert.equal(isOnline({ lo: [face('127.0.0.1', true)], eth0: [face('192.168.1.20', false)] }), true);
  assert.equal(isOnline({ wlan0: [face('fe80::1', false), face('2001:db8::5', false)] }), true);
});

test('offline with only loopback, no interfaces, or only link-local addresses', () => {
  assert.equal(isOnline({}), false);
  assert.equal(isOnline({ lo: [face('127.0.0.1', true), face('::1', true)] }), false);
  assert.equal(isOnline({ eth0: undefined }), false);
  assert.equal(isOnline({ eth0: [face('169.254.10.3', false), face('fe80::fc:ff:fe00:1', false)] }), false);
});

test('container, VM and VPN interfaces do not make the machine online: they keep their address with Wi-Fi off', () => {
  const lo = face('127.0.0.1', true);
  const docker0 = [face('172.17.0.1', false)];
  for (const name of [
    'docker0',
    'br-3f2a9c1d7e4b',
    'veth1a2b3c',
    'virbr0',
    'lxdbr0',
    'vboxnet0',
    'vmnet8',
    'bridge100',
    'vEthernet (WSL)',
    'VirtualBox Host-Only Network',
  ])
    assert.equal(isOnline({ lo: [lo], [name]: [face('172.17.0.1', false)] }), false, name);
  for (const name of ['tailscale0', 'wg0', 'zt5u4y6mnb', 'utun3', 'tun0', 'tap0']) {
    assert.equal(isVirtualInterface(name), true, name);
    // Beside a bridge, a tunnel is a machine with Wi-Fi off.
    assert.equal(isOnline({ lo: [lo], docker0, [name]: [face('100.64.0.7', false)] }), false, name);
  }
  // The physical uplink beside them counts.
  const wifiUp = { lo: [lo], docker0: [face('172.17.0.1', false)], wlan0: [face('192.168.1.20', false)] };
  assert.equal(isOnline(wifiUp), true);
  for (const name of ['eth0', 'enp3s0', 'wlp2s0', 'en0', 'br0', 'wwan0', 'ppp0', 'Wi-Fi', 'Ethernet'])
    assert.equal(isVirtualInterface(name), false, name);
});

test("a namespace whose only way out is a tunnel is online (rootless Podman's slirp4netns tap0)", () => {
  const lo = face('127.0.0.1', true);
  assert.equal(isOnline({ lo: [lo], tap0: [face('10.0.2.100', false)] }), true);
  assert.equal(isOnline({ lo: [lo], tun0: [face('10.8.0.2', false)] }), true);
});
