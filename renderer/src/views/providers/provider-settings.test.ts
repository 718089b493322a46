import { expect, test } from 'vitest';
import { limitFields, limitsBody, probeBody, probeFields, settingIssues } from './provider-settings.js';

test('limits: blank keeps the catalogue’s, none removes one, numbers may have separators', () => {
  expect(limitsBody({ rpm: ' 30 ', rpd: '14,400', tpm: 'none', tpd: '' })).toEqual({
    rpm: 30,
    rpd: 14_400,
    tpm: null,
  });
  expect(limitsBody({ rpm: 'many', rpd: '-1', tpm: '1.5', tpd: '' })).toEqual({
    rpm: 'many',
    rpd: '-1',
    tpm: '1.5',
  });
  expect(limitsBody({ rpm: '', rpd: ' ', tpm: '', tpd: '' })).toBeNull();
  expect(limitFields({ rpm: 30, tpm: null })).toEqual({ rpm: '30', rpd: '', tpm: 'none', tpd: '' });
});

test('probes: the idle interval is typed in minutes and sent in ms; blank is none', () => {
  const fields = probeFields({ enabled: true, dailyBudget: 50, idleIntervalMs: 1_800_000, spentToday: 3 });
  expect(fields).toEqual({ enabled: true, dailyBudget: '50', idleMinutes: '30' });
  expect(probeBody(fields)).toEqual({
    ok: true,
    probe: { enabled: true, dailyBudget: 50, idleIntervalMs: 1_800_000 },
  });
  expect(probeBody({ ...fields, idleMinutes: '', dailyBudget: 'lots' })).toEqual({
    ok: true,
    probe: { enabled: true, dailyBudget: 'lots', idleIntervalMs: null },
  });
  expect(probeBody({ ...fields, idleMinutes: 'hourly' })).toEqual({
    ok: false,
    errors: { idleIntervalMs: 'a number of minutes, or blank for none' },
  });
});

test('the router’s issues by setting, the idle interval in minutes', () => {
  const issues = [
    { path: 'providers.up.probe.dailyBudget', message: 'a whole number of probes, at least 1' },
    { path: 'providers.up.probe.idleIntervalMs', message: 'a whole number of milliseconds, at least 60000' },
    { path: 'providers.up.limits.rpm', message: 'a whole number of requests per minute, at least 1' },
    { path: 'providers.other.limits.rpm', message: 'elsewhere' },
  ];
  expect(settingIssues(issues, 'up', 'probe')).toEqual({
    dailyBudget: 'a whole number of probes, at least 1',
    idleIntervalMs: 'from 1 to 1440 minutes, or blank for none',
  });
  expect(settingIssues(issues, 'up', 'limits')).toEqual({
    rpm: 'a whole number of requests per minute, at least 1',
  });
});
