import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NetworkInterfaceInfo } from 'node:os';
import { isOnline } from './online-check.js';

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
