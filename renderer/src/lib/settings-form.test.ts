import { describe, expect, test } from 'vitest';
import type { ConfigInput } from '../../../router/api-types.js';
import { SETTINGS_FIELDS } from './settings-fields.js';
import { buildConfig, describeChanges, formFromConfig, splitIssues } from './settings-form.js';
import { DEFAULT_CONFIG } from '../test-support/default-config.js';

const defaults: ConfigInput = DEFAULT_CONFIG;

describe('settings form', () => {
  test('keeps the router sections the form does not edit (ranking, server)', () => {
    const base: ConfigInput = {
      router: {
        failover: { maxAttempts: 6 },
        ranking: { order: { main: 'fastest' } },
        server: { maxPendingBodies: 64 },
      },
    };
    const built = buildConfig(base, formFromConfig(defaults), defaults);
    expect(built.router?.ranking).toEqual({ order: { main: 'fastest' } });
    expect(built.router?.server).toEqual({ maxPendingBodies: 64 });
    expect(built.router?.failover).toBeUndefined();
  });

  test('covers every failover and breaker knob of the defaults', () => {
    const values = formFromConfig(defaults);
    expect(Object.keys(values).sort()).toEqual(SETTINGS_FIELDS.map((f) => f.path).sort());
    expect(values['router.failover.maxAttempts']).toBe('4');
    expect(values['router.failover.lastResortModel']).toBe('');
  });

  test('keeps the rest of the config, writes only values that differ from the default', () => {
    const base: ConfigInput = {
      providers: { groq: { apiKey: '********' } },
      activeSet: 'default',
      router: { failover: { maxAttempts: 6 } },
    };
    const values = { ...formFromConfig(defaults), 'router.breaker.failureThreshold': '5' };
    expect(buildConfig(base, values, defaults)).toEqual({
      providers: { groq: { apiKey: '********' } },
      activeSet: 'default',
      router: { breaker: { failureThreshold: 5 } },
    });
  });

  test('keeps what the form has no field for, and a default written by hand that the form left alone', () => {
    const base = {
      router: { failover: { maxAttempts: 4, futureKnob: 'kept' }, breaker: { failureThreshold: 3 } },
    } as ConfigInput;
    const written = { router: { failover: { maxAttempts: 4 }, breaker: { failureThreshold: 3 } } };
    const values = { ...formFromConfig(defaults), 'router.breaker.backoffMultiplier': '3' };
    expect(buildConfig(base, values, defaults)).toEqual({
      router: {
        failover: { ...written.router.failover, futureKnob: 'kept' },
        breaker: { failureThreshold: 3, backoffMultiplier: 3 },
      },
    });
    // Set back to its default in the form, a hand-written value is left out.
    const reset = { ...formFromConfig(defaults), 'router.failover.maxAttempts': '4' };
    expect(buildConfig({ router: { failover: { maxAttempts: 7 } } }, reset, defaults)).toEqual({});
  });

  test('continuing broken streams: a switch, left out at its default', () => {
    const field = 'router.failover.continueStreams';
    expect(formFromConfig(defaults)[field]).toBe('true');
    const base: ConfigInput = { router: { failover: { continueStreams: false } } };
    const values = { ...formFromConfig(defaults), [field]: 'false', 'router.failover.maxAttempts': '6' };
    expect(buildConfig(base, values, defaults)).toEqual({
      router: { failover: { continueStreams: false, maxAttempts: 6 } },
    });
    expect(buildConfig(base, { ...values, [field]: 'true' }, defaults)).toEqual({
      router: { failover: { maxAttempts: 6 } },
    });
  });

  test('the hedge delay: a number of ms, auto, or empty for off (the default, left out)', () => {
    const field = 'router.failover.hedgeAfterMs';
    expect(formFromConfig(defaults)[field]).toBe('');
    const withValue = (text: string) =>
      buildConfig({}, { ...formFromConfig(defaults), [field]: text }, defaults);
    expect(withValue('3000')).toEqual({ router: { failover: { hedgeAfterMs: 3000 } } });
    expect(withValue(' auto ')).toEqual({ router: { failover: { hedgeAfterMs: 'auto' } } });
    expect(withValue('')).toEqual({});
    expect(withValue('soon')).toEqual({ router: { failover: { hedgeAfterMs: 'soon' } } });
  });

  test('sends unparsable numbers as typed, so the server names the problem', () => {
    const values = { ...formFromConfig(defaults), 'router.failover.maxAttempts': 'lots' };
    expect(buildConfig({}, values, defaults)).toEqual({ router: { failover: { maxAttempts: 'lots' } } });
  });

  test('describes changes and routes issues to their fields', () => {
    const after: ConfigInput = { router: { breaker: { failureThreshold: 5 } } };
    expect(describeChanges(['router.breaker.failureThreshold'], defaults, after, defaults)).toEqual([
      { path: 'router.breaker.failureThreshold', label: 'Failure threshold', from: '3', to: '5' },
    ]);
    const before: ConfigInput = { router: { failover: { maxAttempts: 6 } } };
    expect(describeChanges(['router.failover.maxAttempts'], before, {}, defaults)).toEqual([
      { path: 'router.failover.maxAttempts', label: 'Max attempts', from: '6', to: '4' },
    ]);
    const { byPath, other } = splitIssues([
      { path: 'router.failover.maxAttempts', message: 'too big' },
      { path: 'activeSet', message: 'names no set' },
    ]);
    expect(byPath).toEqual({ 'router.failover.maxAttempts': ['too big'] });
    expect(other).toEqual([{ path: 'activeSet', message: 'names no set' }]);
  });
});
