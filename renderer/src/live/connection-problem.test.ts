import { describe, expect, test } from 'vitest';
import { ApiError } from '../api/client.js';
import {
  causeOfRead,
  connectionProblem,
  loadFailureWords,
  PROBLEM_WORDS,
  tokenAddress,
} from './connection-problem.js';
import type { ConnectionStatus } from './event-stream.js';

const retrying = (cause: 'unreachable' | 'token'): ConnectionStatus => ({
  state: 'retrying',
  attempt: 1,
  retryAt: 2000,
  downSince: 1000,
  cause,
});

describe('causeOfRead', () => {
  test('a 403 forbidden_token is the token; anything else is not', () => {
    expect(causeOfRead(new ApiError(403, 'no token', 'forbidden_token', []))).toBe('token');
    expect(causeOfRead(new ApiError(403, 'other page', 'forbidden_fetch_site', []))).toBe('unreachable');
    expect(causeOfRead(new ApiError(0, 'The router is not reachable.', 'unreachable', []))).toBe(
      'unreachable',
    );
    expect(causeOfRead(new ApiError(502, 'HTTP 502', null, []))).toBe('unreachable');
    expect(causeOfRead(new Error('boom'))).toBe('unreachable');
  });
});

describe('connectionProblem', () => {
  test('nothing while open or on the first connect', () => {
    expect(connectionProblem({ state: 'open', since: 1 }, false)).toBeNull();
    expect(connectionProblem({ state: 'connecting' }, false)).toBeNull();
  });

  test('a refused token: none held is "no token", one held is "refused"', () => {
    expect(connectionProblem(retrying('token'), false)).toBe('no_token');
    expect(connectionProblem(retrying('token'), true)).toBe('token_refused');
    expect(connectionProblem({ state: 'connecting', downSince: 1000, cause: 'token' }, false)).toBe(
      'no_token',
    );
  });

  test('any other break is "unreachable", with or without a token', () => {
    expect(connectionProblem(retrying('unreachable'), true)).toBe('unreachable');
    expect(connectionProblem(retrying('unreachable'), false)).toBe('unreachable');
    expect(connectionProblem({ state: 'connecting', downSince: 1000 }, true)).toBe('unreachable');
  });
});

describe('the words', () => {
  test('the token problems say how to get the token, and never that the router is unreachable', () => {
    for (const problem of ['no_token', 'token_refused'] as const) {
      const words = PROBLEM_WORDS[problem];
      expect(words.banner).toContain('/#token=<token>');
      expect(words.banner).toContain('the token field of daemon.json in its state folder');
      expect(words.banner).toContain('Retrying with backoff');
      expect(`${words.banner} ${words.title} ${words.indicator}`).not.toMatch(/reachable/);
    }
    expect(PROBLEM_WORDS.no_token.banner).toMatch(/^This page has no token for the router/);
    expect(PROBLEM_WORDS.token_refused.banner).toMatch(/^The router refused this page’s token/);
    expect(PROBLEM_WORDS.unreachable.banner).toMatch(/^The router is not reachable — retrying/);
  });

  test('the address with the token is the page’s own origin with the fragment', () => {
    expect(tokenAddress('http://192.168.1.5:19280')).toBe('http://192.168.1.5:19280/#token=<token>');
  });
});

describe('loadFailureWords', () => {
  const refusal = new ApiError(
    403,
    'fcm-router: this router accepts remote connections: send x-fcm-token, or open the dashboard as /#token=<token> (the token field of daemon.json in its state folder)',
    'forbidden_token',
    [],
  );

  test('a read refused for want of the token points at the banner, quietly, without the router’s words', () => {
    for (const problem of ['no_token', 'token_refused'] as const)
      expect(loadFailureWords('models', refusal, problem)).toEqual({
        text: 'Could not load models without the router’s token: see the banner above.',
        alert: false,
      });
  });

  test('before the banner is up, the refusal is said the same way with nothing to point at', () => {
    for (const problem of [null, 'unreachable'] as const)
      expect(loadFailureWords('models', refusal, problem)).toEqual({
        text: 'Could not load models without the router’s token.',
        alert: false,
      });
  });

  const gone = new ApiError(0, 'The router is not reachable.', 'unreachable', []);

  test('a read that found the router gone is a quiet line while the banner says so, an alert before', () => {
    expect(loadFailureWords('models', gone, 'unreachable')).toEqual({
      text: 'Could not load models: the router is not reachable (see the banner above).',
      alert: false,
    });
    for (const problem of [null, 'no_token'] as const)
      expect(loadFailureWords('models', gone, problem)).toEqual({
        text: 'Could not load models: The router is not reachable.',
        alert: true,
      });
  });

  test('any other failure keeps its own words (without the router’s name), as an alert, whatever the banner says', () => {
    const failures: [unknown, string][] = [
      [new ApiError(500, 'fcm-router: internal error', 'internal_error', []), 'internal error'],
      [new ApiError(400, 'config: colour: unknown key', 'invalid_config', []), 'config: colour: unknown key'],
      [new ApiError(403, 'other page', 'forbidden_fetch_site', []), 'other page'],
      [new Error('boom'), 'unexpected error'],
    ];
    for (const [error, message] of failures)
      for (const problem of [null, 'no_token', 'unreachable'] as const)
        expect(loadFailureWords('the config', error, problem)).toEqual({
          text: `Could not load the config: ${message}`,
          alert: true,
        });
  });
});
