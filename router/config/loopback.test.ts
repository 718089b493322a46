import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isLoopbackHost, isLoopbackUrl } from './loopback.js';

describe('isLoopbackHost', () => {
  it('accepts only addresses this machine alone can reach', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      'localhost',
      'LocalHost',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
      '[::ffff:7f00:1]',
    ])
      assert.equal(isLoopbackHost(host), true, host);
    for (const host of [
      '0.0.0.0',
      '::',
      '192.168.1.10',
      '10.0.0.1',
      'example.com',
      '128.0.0.1',
      '::ffff:10.0.0.1',
      '[::ffff:a00:1]',
    ])
      assert.equal(isLoopbackHost(host), false, host);
  });
});

describe('isLoopbackUrl', () => {
  it('reads the host of a base URL as the URL parser writes it', () => {
    for (const url of [
      'http://127.0.0.1:11434/v1',
      'http://localhost:1234/v1',
      'http://[::1]:8080',
      'http://127.1/v1',
      'http://[::ffff:127.0.0.1]:8000/v1',
      // Not loopback to listen on, but a connection to them reaches this machine alone.
      'http://0.0.0.0:11434',
      'http://[::]:11434/v1',
      'http://ollama.localhost:11434/v1',
    ])
      assert.equal(isLoopbackUrl(url), true, url);
    for (const url of [
      'https://api.groq.com/openai/v1',
      'http://fcm-test.invalid/v1',
      'http://localhost.example.com/v1',
      'http://localhost-proxy:8080/v1',
      'not a url',
    ])
      assert.equal(isLoopbackUrl(url), false, url);
    assert.equal(isLoopbackUrl(null), false);
  });
});
