import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { generateIcons, hexToRgb, renderAppIcon, renderTemplateIcon, renderTrayIcon } from './gen-icons.js';
import { TRAY_COLOUR_HEX, TRAY_COLOURS } from '../electron/tray-icons.js';

function pixel(png: PNG, x: number, y: number): [number, number, number, number] {
  const i = (png.width * y + x) * 4;
  return [png.data[i] ?? -1, png.data[i + 1] ?? -1, png.data[i + 2] ?? -1, png.data[i + 3] ?? -1];
}

test('writes 16 px and @2x 32 px icons, colour and template, plus the app icon and the preview', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-icons-'));
  try {
    const preview = path.join(dir, 'docs', 'tray-icons.png');
    const files = await generateIcons(path.join(dir, 'icons'), preview);
    assert.equal(files.length, 18);
    const tray = (await readdir(path.join(dir, 'icons', 'tray'))).sort();
    assert.equal(tray.length, 16);
    for (const colour of TRAY_COLOURS) {
      for (const name of [`tray-${colour}`, `tray-${colour}Template`]) {
        const one = PNG.sync.read(await readFile(path.join(dir, 'icons', 'tray', `${name}.png`)));
        const two = PNG.sync.read(await readFile(path.join(dir, 'icons', 'tray', `${name}@2x.png`)));
        assert.deepEqual([one.width, one.height, two.width, two.height], [16, 16, 32, 32], name);
      }
    }
    const app = PNG.sync.read(await readFile(path.join(dir, 'icons', 'icon.png')));
    assert.deepEqual([app.width, app.height], [512, 512]);
    const strip = PNG.sync.read(await readFile(preview));
    assert.deepEqual([strip.width, strip.height], [384, 192]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('tray dots: the health colour in the middle, transparent corners, antialiased edges', () => {
  for (const colour of TRAY_COLOURS) {
    for (const size of [16, 32]) {
      const png = renderTrayIcon(colour, size);
      const [r, g, b, a] = pixel(png, size / 2, size / 2);
      assert.deepEqual([r, g, b, a], [...hexToRgb(TRAY_COLOUR_HEX[colour]), 255], `${colour} ${size}`);
      assert.equal(pixel(png, 0, 0)[3], 0);
      assert.equal(pixel(png, size - 1, size - 1)[3], 0);
      const alphas = new Set<number>();
      for (let i = 3; i < png.data.length; i += 4) alphas.add(png.data[i] ?? 0);
      assert.ok(
        [...alphas].some((v) => v > 0 && v < 255),
        'partial alpha at the rim',
      );
    }
  }
});

test('template images are black + alpha only, and each state has its own shape', () => {
  const masks = TRAY_COLOURS.map((colour) => {
    const png = renderTemplateIcon(colour, 32);
    for (let i = 0; i < png.data.length; i += 4) {
      if ((png.data[i + 3] ?? 0) > 0)
        assert.deepEqual([png.data[i], png.data[i + 1], png.data[i + 2]], [0, 0, 0]);
    }
    return Buffer.from(png.data.filter((_v, i) => i % 4 === 3)).toString('base64');
  });
  assert.equal(new Set(masks).size, 4);
});

test('the app icon is opaque inside and transparent at the rounded corners', () => {
  const png = renderAppIcon(512);
  assert.equal(pixel(png, 256, 60)[3], 255);
  assert.equal(pixel(png, 26, 26)[3], 0);
});
