import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dayWindow, isTimeZone } from './day-start.js';

const PACIFIC = 'America/Los_Angeles';
const HOUR = 3_600_000;

test('the day of a zone runs from its midnight to the next: Pacific winter days start at 08:00 UTC', () => {
  // 00:30 UTC on the 16th is still the afternoon of the 15th in California.
  assert.deepEqual(dayWindow(Date.UTC(2030, 0, 16, 0, 30), PACIFIC), {
    start: Date.UTC(2030, 0, 15, 8),
    end: Date.UTC(2030, 0, 16, 8),
  });
  // Summer: Pacific daylight time, midnight at 07:00 UTC.
  assert.deepEqual(dayWindow(Date.UTC(2030, 6, 1, 7), PACIFIC), {
    start: Date.UTC(2030, 6, 1, 7),
    end: Date.UTC(2030, 6, 2, 7),
  });
  assert.deepEqual(dayWindow(Date.UTC(2030, 6, 1, 7) - 1, PACIFIC).end, Date.UTC(2030, 6, 1, 7));
  assert.deepEqual(dayWindow(Date.UTC(2030, 0, 16, 0, 30), 'UTC'), {
    start: Date.UTC(2030, 0, 16),
    end: Date.UTC(2030, 0, 17),
  });
  assert.deepEqual(dayWindow(Date.UTC(2030, 0, 16, 20), 'Asia/Kolkata'), {
    start: Date.UTC(2030, 0, 16, 18, 30),
    end: Date.UTC(2030, 0, 17, 18, 30),
  });
});

test('clock changes: the day clocks go forward lasts 23 hours, the day they go back 25', () => {
  const spring = dayWindow(Date.UTC(2030, 2, 10, 12), PACIFIC);
  assert.deepEqual(spring, { start: Date.UTC(2030, 2, 10, 8), end: Date.UTC(2030, 2, 11, 7) });
  assert.equal(spring.end - spring.start, 23 * HOUR);
  const autumn = dayWindow(Date.UTC(2030, 10, 3, 12), PACIFIC);
  assert.deepEqual(autumn, { start: Date.UTC(2030, 10, 3, 7), end: Date.UTC(2030, 10, 4, 8) });
  assert.equal(autumn.end - autumn.start, 25 * HOUR);
  // The repeated hour (01:00–02:00 local, twice) belongs to the same day.
  assert.deepEqual(dayWindow(Date.UTC(2030, 10, 3, 9, 30), PACIFIC), autumn);
});

test('a zone that skips midnight starts the day at the first instant with its date', () => {
  // São Paulo moved its clocks from 00:00 to 01:00 on 2018-11-04 (UTC-3 to UTC-2).
  assert.deepEqual(dayWindow(Date.UTC(2018, 10, 4, 12), 'America/Sao_Paulo'), {
    start: Date.UTC(2018, 10, 4, 3),
    end: Date.UTC(2018, 10, 5, 2),
  });
});

test('within a day the same window comes back without being worked out again', () => {
  const first = dayWindow(Date.UTC(2030, 0, 20, 9), 'Europe/Paris');
  assert.equal(dayWindow(Date.UTC(2030, 0, 20, 22, 59), 'Europe/Paris'), first);
  const next = dayWindow(Date.UTC(2030, 0, 20, 23), 'Europe/Paris');
  assert.notEqual(next, first);
  assert.equal(next.start, first.end);
});

test('time zones: IANA names and UTC are, anything else is not', () => {
  for (const zone of ['UTC', PACIFIC, 'Europe/Paris', 'Etc/GMT+8'])
    assert.equal(isTimeZone(zone), true, zone);
  for (const zone of ['', 'Pacific', 'Mars/Olympus_Mons', 'PST8PDT/x', 'America/Los Angeles'])
    assert.equal(isTimeZone(zone), false, zone);
});
