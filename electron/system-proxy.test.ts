import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envWithSystemProxy, PROVIDER_PROBE_URL, proxyFromChromium } from './system-proxy.js';

test('Chromium’s answer read as a proxy URL: its first entry, of a kind the router can use', () => {
  assert.equal(proxyFromChromium('PROXY proxy.corp:3128; DIRECT'), 'http://proxy.corp:3128');
  assert.equal(proxyFromChromium('HTTPS secure.corp:443'), 'https://secure.corp:443');
  assert.equal(proxyFromChromium('SOCKS5 127.0.0.1:1080;PROXY p:1'), 'socks5://127.0.0.1:1080');
  for (const direct of ['DIRECT', '', 'SOCKS4 s:1080', 'QUIC q:443', 'PROXY'])
    assert.equal(proxyFromChromium(direct), null, direct);
});

test('the system’s proxy is the router’s when the shell names none; the shell’s stands otherwise', async () => {
  const asked: string[] = [];
  const system = (answer: string) => async (url: string) => {
    asked.push(url);
    return answer;
  };
  const env = { HOME: '/home/ada' };
  assert.deepEqual(await envWithSystemProxy(env, system('PROXY proxy.corp:3128')), {
    HOME: '/home/ada',
    HTTPS_PROXY: 'http://proxy.corp:3128',
  });
  assert.deepEqual(asked, [PROVIDER_PROBE_URL]);
  assert.equal(await envWithSystemProxy(env, system('DIRECT')), env);
  const shell = { http_proxy: 'http://mine:8080' };
  assert.equal(await envWithSystemProxy(shell, system('PROXY other:1')), shell);
  const unreadable = { HTTPS_PROXY: 'ftp://proxy:21' };
  assert.equal(
    await envWithSystemProxy(unreadable, system('PROXY other:1')),
    unreadable,
    'the router names it',
  );
  assert.equal(asked.length, 2, 'the shell’s variables are not second-guessed');
  const failing = async (): Promise<string> => Promise.reject(new Error('no session'));
  assert.equal(await envWithSystemProxy(env, failing), env);
});
