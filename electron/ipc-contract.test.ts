import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BRIDGE_CHANNELS, IPC_CHANNELS, isIpcChannel, parseArgs, validateSender } from './ipc-contract.js';

const ORIGIN = 'http://127.0.0.1:19280';

test('every contract channel is reachable from exactly one bridge method', () => {
  assert.deepEqual(Object.values(BRIDGE_CHANNELS).sort(), Object.keys(IPC_CHANNELS).sort());
});

test('parseArgs accepts the declared tuples', () => {
  assert.deepEqual(parseArgs('fcm-desktop:get-app-version', []), { ok: true, args: [] });
  assert.deepEqual(parseArgs('fcm-desktop:set-start-at-login', [true]), { ok: true, args: [true] });
  assert.deepEqual(parseArgs('fcm-desktop:set-notifications-enabled', [false]), { ok: true, args: [false] });
});

test('parseArgs rejects bad arguments: wrong type, missing, extra, not an array', () => {
  const bad: [keyof typeof IPC_CHANNELS, unknown][] = [
    ['fcm-desktop:set-start-at-login', ['true']],
    ['fcm-desktop:set-start-at-login', [1]],
    ['fcm-desktop:set-start-at-login', []],
    ['fcm-desktop:set-start-at-login', [true, 'extra']],
    ['fcm-desktop:set-notifications-enabled', [{ enabled: true }]],
    ['fcm-desktop:set-notifications-enabled', null],
    ['fcm-desktop:get-app-version', ['unexpected']],
    ['fcm-desktop:get-start-at-login', 'x'],
  ];
  for (const [channel, args] of bad) {
    const result = parseArgs(channel, args);
    assert.equal(result.ok, false, `${channel} ${JSON.stringify(args)}`);
    assert.match(result.ok ? '' : result.error, new RegExp(`^${channel}: `));
  }
  const typed = parseArgs('fcm-desktop:set-start-at-login', ['yes']);
  assert.equal(typed.ok ? '' : typed.error.startsWith('fcm-desktop:set-start-at-login: argument 0: '), true);
});

test('unknown channel names are not part of the contract', () => {
  assert.equal(isIpcChannel('fcm-desktop:get-app-version'), true);
  assert.equal(isIpcChannel('fcm-desktop:read-file'), false);
  assert.equal(isIpcChannel('__proto__'), false);
  assert.equal(isIpcChannel('constructor'), false);
});

test('validateSender accepts only frames on the router origin, by parsed origin', () => {
  assert.equal(validateSender('http://127.0.0.1:19280/', ORIGIN), true);
  assert.equal(validateSender('http://127.0.0.1:19280/settings?tab=desktop#x', ORIGIN), true);
  for (const url of [
    undefined,
    null,
    '',
    'http://127.0.0.1:19280.evil.example/',
    'http://127.0.0.1:1928/',
    'http://localhost:19280/',
    'https://127.0.0.1:19280/',
    'http://user@127.0.0.1:19280/',
    'file:///home/me/index.html',
    'devtools://devtools/bundled/inspector.html',
    'about:blank',
    'not a url',
  ]) {
    assert.equal(validateSender(url, ORIGIN), false, String(url));
  }
  assert.equal(validateSender('http://127.0.0.1:19280/', 'nonsense'), false);
});
