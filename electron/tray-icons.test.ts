import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TRAY_COLOURS, trayIconFor, trayIconName } from './tray-icons.js';

test('file names: colour, template suffix for macOS', () => {
  assert.deepEqual(TRAY_COLOURS, ['green', 'amber', 'red', 'grey']);
  assert.equal(trayIconName('amber'), 'tray-amber.png');
  assert.equal(trayIconName('green', true), 'tray-greenTemplate.png');
});

test('macOS shows calm states as template images and warnings in colour; others always in colour', () => {
  assert.equal(trayIconFor('green', 'darwin'), 'tray-greenTemplate.png');
  assert.equal(trayIconFor('grey', 'darwin'), 'tray-greyTemplate.png');
  assert.equal(trayIconFor('amber', 'darwin'), 'tray-amber.png');
  assert.equal(trayIconFor('red', 'darwin'), 'tray-red.png');
  for (const colour of TRAY_COLOURS) {
    assert.equal(trayIconFor(colour, 'linux'), `tray-${colour}.png`);
    assert.equal(trayIconFor(colour, 'win32'), `tray-${colour}.png`);
  }
});
