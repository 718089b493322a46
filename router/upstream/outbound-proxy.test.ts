import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errors } from 'undici';
import {
  agentProxyWarning,
  isProxyRefusal,
  ProxyEnvError,
  proxyLine,
  readOutboundProxy,
  systemOutboundProxy,
} from './outbound-proxy.js';

const LOOPBACK = 'localhost,127.0.0.1,[::1]';

test('no proxy variable, or only empty ones: providers are reached directly', () => {
  assert.equal(readOutboundProxy({}), null);
  assert.equal(readOutboundProxy({ HTTPS_PROXY: '', http_proxy: '  ', NO_PROXY: 'corp' }), null);
});

test('the proxy variables as curl reads them: lower-case names first, host:port as http://', () => {
  assert.deepEqual(readOutboundProxy({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2' }), {
    http: '',
    https: 'http://lower:2',
    noProxy: LOOPBACK,
  });
  assert.deepEqual(readOutboundProxy({ HTTP_PROXY: 'proxy.corp:3128', NO_PROXY: '.corp, intranet' }), {
    http: 'http://proxy.corp:3128',
    https: '',
    noProxy: `.corp,intranet,${LOOPBACK}`,
  });
  assert.equal(
    readOutboundProxy({ ALL_PROXY: 'socks5://s:1080', HTTPS_PROXY: 'socks5://s:1080' })?.https,
    'socks5://s:1080',
  );
});

test('ALL_PROXY serves both kinds of provider where their own variable is unset, as curl reads it', () => {
  assert.deepEqual(readOutboundProxy({ all_proxy: 'socks5://s:1080' }), {
    http: 'socks5://s:1080',
    https: 'socks5://s:1080',
    noProxy: LOOPBACK,
  });
  assert.deepEqual(readOutboundProxy({ ALL_PROXY: 'socks5://s:1080', HTTPS_PROXY: 'http://h:3128' }), {
    http: 'socks5://s:1080',
    https: 'http://h:3128',
    noProxy: LOOPBACK,
  });
  assert.throws(
    () => readOutboundProxy({ ALL_PROXY: 'ftp://me:s3cret@x:21' }),
    (error: unknown) =>
      error instanceof ProxyEnvError &&
      error.message.startsWith('ALL_PROXY is not a proxy URL') &&
      !error.message.includes('s3cret'),
  );
});

test('a proxy variable that is not a proxy URL refuses the start, naming it and not echoing its value', () => {
  for (const value of ['ftp://proxy:21', 'http://', 'http://user:s3cret@:80', '::::']) {
    assert.throws(
      () => readOutboundProxy({ HTTPS_PROXY: value }),
      (error: unknown) =>
        error instanceof ProxyEnvError &&
        error.message.startsWith('HTTPS_PROXY is not a proxy URL') &&
        !error.message.includes('s3cret'),
      value,
    );
  }
});

test('the log line names the proxy without its credentials, and the hosts reached directly', () => {
  const both = readOutboundProxy({ HTTP_PROXY: 'http://me:s3cret@proxy.corp:3128', NO_PROXY: '.corp' });
  assert.ok(both);
  assert.equal(
    proxyLine(both),
    'calls to providers go through the proxy http://proxy.corp:3128; not for .corp, localhost, 127.0.0.1, [::1]',
  );
  const split = readOutboundProxy({ HTTPS_PROXY: 'http://a:1', HTTP_PROXY: 'http://b:2' });
  assert.ok(split);
  assert.match(
    proxyLine(split),
    /^calls to https:\/\/ providers go through the proxy http:\/\/a:1, http:\/\/ ones through http:\/\/b:2;/,
  );
  const httpsOnly = readOutboundProxy({ HTTPS_PROXY: 'http://a:1' });
  assert.ok(httpsOnly);
  assert.match(
    proxyLine(httpsOnly),
    /^calls to https:\/\/ providers go through the proxy http:\/\/a:1, http:\/\/ ones directly;/,
  );
});

test('agents would send their requests for the router to the proxy: HTTP_PROXY set, NO_PROXY without 127.0.0.1', () => {
  assert.equal(agentProxyWarning({}), null);
  assert.equal(agentProxyWarning({ HTTPS_PROXY: 'http://p:1' }), null, 'the router is http://');
  assert.match(
    agentProxyWarning({ HTTP_PROXY: 'http://p:1' }) ?? '',
    /^HTTP_PROXY is set and NO_PROXY does not name 127\.0\.0\.1/,
  );
  assert.ok(
    agentProxyWarning({ HTTP_PROXY: 'http://p:1', NO_PROXY: 'localhost,.corp' }),
    'localhost is another host',
  );
  assert.ok(
    agentProxyWarning({ http_proxy: 'http://p:1', NO_PROXY: '127.0.0.1', no_proxy: '.corp' }),
    'lower case wins',
  );
  for (const noProxy of ['127.0.0.1', '.corp, 127.0.0.1:19280', '*', '127.0.0.0/8'])
    assert.equal(agentProxyWarning({ HTTP_PROXY: 'http://p:1', NO_PROXY: noProxy }), null, noProxy);
});

test('a refusal is the proxy’s 407 or 403 to the tunnel; its 502 and a refused connection are network errors', () => {
  const tunnel = (status: number): Error =>
    new errors.RequestAbortedError(`Proxy response (${status}) !== 200 when HTTP Tunneling`);
  assert.equal(isProxyRefusal(tunnel(407)), true);
  assert.equal(isProxyRefusal(tunnel(403)), true);
  assert.equal(isProxyRefusal(tunnel(502)), false, 'the proxy could not reach the provider');
  assert.equal(isProxyRefusal(new errors.RequestAbortedError()), false, 'an abort of the router’s own');
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3128'), { code: 'ECONNREFUSED' });
  assert.equal(isProxyRefusal(refused), false);
  const socks = (code: string): Error => Object.assign(new Error('SOCKS5'), { code });
  assert.equal(isProxyRefusal(socks('UND_ERR_SOCKS5_AUTH_FAILED')), true);
  assert.equal(isProxyRefusal(socks('UND_ERR_SOCKS5_REPLY_2')), true, 'not allowed by its rules');
  assert.equal(isProxyRefusal(socks('UND_ERR_SOCKS5_REPLY_4')), false, 'host unreachable');
});

test('the system’s proxy serves https:// providers, with the environment’s NO_PROXY and loopback direct', () => {
  assert.deepEqual(systemOutboundProxy({ no_proxy: '.corp' }, 'proxy.corp:3128'), {
    http: '',
    https: 'http://proxy.corp:3128',
    noProxy: `.corp,${LOOPBACK}`,
  });
  assert.equal(systemOutboundProxy({ NO_PROXY: '.corp' }, null), null);
  assert.equal(systemOutboundProxy({}, ' '), null);
});
