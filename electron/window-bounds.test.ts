import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_WINDOW_SIZE, restoreBounds } from './window-bounds.js';

const laptop = { x: 0, y: 0, width: 1440, height: 875 };
const external = { x: 1440, y: -200, width: 2560, height: 1415 };

test('no saved bounds: the default size, centred', () => {
  assert.deepEqual(restoreBounds(null, [laptop]), DEFAULT_WINDOW_SIZE);
});

test('saved bounds on a connected display are kept', () => {
  const saved = { x: 1600, y: 0, width: 1200, height: 800 };
  assert.deepEqual(restoreBounds(saved, [laptop, external]), saved);
});

test('a window left on an unplugged monitor comes back at the default size', () => {
  assert.deepEqual(restoreBounds({ x: 1600, y: 0, width: 1200, height: 800 }, [laptop]), DEFAULT_WINDOW_SIZE);
});

test('a title bar above the screen or barely touching it does not count as visible', () => {
  assert.deepEqual(
    restoreBounds({ x: 100, y: -500, width: 800, height: 600 }, [laptop]),
    DEFAULT_WINDOW_SIZE,
  );
  assert.deepEqual(
    restoreBounds({ x: 1400, y: 100, width: 800, height: 600 }, [laptop]),
    DEFAULT_WINDOW_SIZE,
  );
});

test('a window larger than its display shrinks to fit; a tiny one grows to the minimum', () => {
  assert.deepEqual(restoreBounds({ x: 10, y: 10, width: 3000, height: 2000 }, [laptop]), {
    x: 10,
    y: 10,
    width: 1440,
    height: 875,
  });
  assert.deepEqual(restoreBounds({ x: 10, y: 10, width: 100, height: 50 }, [laptop]), {
    x: 10,
    y: 10,
    width: 520,
    height: 420,
  });
});

test('garbage from a hand-edited prefs file is ignored', () => {
  assert.deepEqual(
    restoreBounds({ x: Number.NaN, y: 0, width: 800, height: 600 }, [laptop]),
    DEFAULT_WINDOW_SIZE,
  );
  assert.deepEqual(restoreBounds({ x: 0, y: 0, width: 0, height: 600 }, [laptop]), DEFAULT_WINDOW_SIZE);
});
