/**
 * Draws the desktop app's icons with pngjs: tray dots in the four health colours at 16 px and 32 px
 * (`@2x`), macOS template variants (black + alpha, one shape per state so they differ without colour),
 * the 512 px app icon, and the preview strip the README shows. Run at build time:
 * `node --import tsx scripts/gen-icons.ts` writes `build/icons/` and `docs/tray-icons.png`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { TRAY_COLOUR_HEX, TRAY_COLOURS, trayIconName } from '../electron/tray-icons.js';
import type { TrayColour } from '../electron/tray-health.js';

type Rgb = [number, number, number];
/** Coverage of a shape at a point, 0..1. */
type Shape = (x: number, y: number) => number;

const SUPERSAMPLE = 4;

export function hexToRgb(hex: string): Rgb {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const disc =
  (cx: number, cy: number, r: number): Shape =>
  (x, y) =>
    Math.hypot(x - cx, y - cy) <= r ? 1 : 0;

const ring =
  (cx: number, cy: number, r: number, width: number): Shape =>
  (x, y) => {
    const d = Math.hypot(x - cx, y - cy);
    return d <= r && d >= r - width ? 1 : 0;
  };

const union =
  (...shapes: Shape[]): Shape =>
  (x, y) =>
    Math.max(...shapes.map((s) => s(x, y)));

const clipped =
  (shape: Shape, keep: (x: number, y: number) => boolean): Shape =>
  (x, y) =>
    keep(x, y) ? shape(x, y) : 0;

function segment(ax: number, ay: number, bx: number, by: number, width: number): Shape {
  return (x, y) => {
    const t = Math.max(
      0,
      Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)),
    );
    return Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))) <= width / 2 ? 1 : 0;
  };
}

function roundedRect(x0: number, y0: number, x1: number, y1: number, r: number): Shape {
  return (x, y) => {
    const dx = Math.max(x0 + r - x, 0, x - (x1 - r));
    const dy = Math.max(y0 + r - y, 0, y - (y1 - r));
    return x >= x0 && x <= x1 && y >= y0 && y <= y1 && Math.hypot(dx, dy) <= r ? 1 : 0;
  };
}

/** Antialiased coverage of each pixel, by supersampling. */
function coverage(shape: Shape, x: number, y: number): number {
  let sum = 0;
  for (let i = 0; i < SUPERSAMPLE; i++) {
    for (let j = 0; j < SUPERSAMPLE; j++)
      sum += shape(x + (i + 0.5) / SUPERSAMPLE, y + (j + 0.5) / SUPERSAMPLE);
  }
  return sum / SUPERSAMPLE ** 2;
}

/** Paints `shape` in `rgb` over the image (source-over). */
function paint(png: PNG, shape: Shape, rgb: Rgb, opacity = 1): void {
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const a = coverage(shape, x, y) * opacity;
      if (a === 0) continue;
      const i = (png.width * y + x) * 4;
      const da = (png.data[i + 3] ?? 0) / 255;
      const outA = a + da * (1 - a);
      for (let c = 0; c < 3; c++) {
        const src = rgb[c] ?? 0;
        const dst = png.data[i + c] ?? 0;
        png.data[i + c] = Math.round((src * a + dst * da * (1 - a)) / outA);
      }
      png.data[i + 3] = Math.round(outA * 255);
    }
  }
}

function blank(width: number, height = width): PNG {
  const png = new PNG({ width, height });
  png.data.fill(0);
  return png;
}

/** A round dot in the health colour with a slightly darker rim, so it reads on light and dark bars. */
export function renderTrayIcon(colour: TrayColour, size: number): PNG {
  const png = blank(size);
  const rgb = hexToRgb(TRAY_COLOUR_HEX[colour]);
  const c = size / 2;
  const r = size * 0.36;
  paint(png, disc(c, c, r), rgb.map((v) => Math.round(v * 0.72)) as Rgb);
  paint(png, disc(c, c, r - size / 16), rgb);
  return png;
}

/**
 * The macOS template image: black + alpha only. Green is a full dot, amber a ring half filled, red a ring
 * with a bar (a no-entry sign), grey an empty ring.
 */
export function renderTemplateIcon(colour: TrayColour, size: number): PNG {
  const png = blank(size);
  const c = size / 2;
  const r = size * 0.36;
  const w = size / 8;
  const shapes: Record<TrayColour, Shape> = {
    green: disc(c, c, r),
    amber: union(
      ring(c, c, r, w),
      clipped(disc(c, c, r), (x) => x < c),
    ),
    red: union(ring(c, c, r, w), segment(c - r * 0.55, c, c + r * 0.55, c, w * 1.2)),
    grey: ring(c, c, r, w),
  };
  paint(png, shapes[colour], [0, 0, 0]);
  return png;
}

/** The app icon: a dark rounded square with three routes converging on a green dot. */
export function renderAppIcon(size = 512): PNG {
  const png = blank(size);
  const s = size / 512;
  paint(png, roundedRect(24 * s, 24 * s, 488 * s, 488 * s, 104 * s), hexToRgb('#0f172a'));
  const target: [number, number] = [360 * s, 256 * s];
  const sources: [number, number, TrayColour][] = [
    [140 * s, 150 * s, 'red'],
    [140 * s, 256 * s, 'amber'],
    [140 * s, 362 * s, 'green'],
  ];
  for (const [x, y, colour] of sources) {
    paint(png, segment(x, y, target[0], target[1], 22 * s), hexToRgb('#334155'));
    paint(png, disc(x, y, 34 * s), hexToRgb(TRAY_COLOUR_HEX[colour]));
  }
  paint(png, disc(target[0], target[1], 70 * s), hexToRgb('#14532d'));
  paint(png, disc(target[0], target[1], 58 * s), hexToRgb(TRAY_COLOUR_HEX.green));
  return png;
}

/** The README picture: the four @2x tray icons, shown twice as large, on a light and on a dark bar. */
export function renderPreview(): PNG {
  const cell = 96;
  const png = blank(cell * TRAY_COLOURS.length, cell * 2);
  paint(png, (_x, y) => (y < cell ? 1 : 0), hexToRgb('#f3f4f6'));
  paint(png, (_x, y) => (y >= cell ? 1 : 0), hexToRgb('#1f2937'));
  TRAY_COLOURS.forEach((colour, index) => {
    const icon = renderTrayIcon(colour, 32);
    for (const row of [0, 1]) {
      const ox = index * cell + (cell - 64) / 2;
      const oy = row * cell + (cell - 64) / 2;
      for (let y = 0; y < 64; y++) {
        for (let x = 0; x < 64; x++) {
          const si = (32 * Math.floor(y / 2) + Math.floor(x / 2)) * 4;
          const a = (icon.data[si + 3] ?? 0) / 255;
          const di = (png.width * (oy + y) + ox + x) * 4;
          for (let c = 0; c < 3; c++) {
            png.data[di + c] = Math.round((icon.data[si + c] ?? 0) * a + (png.data[di + c] ?? 0) * (1 - a));
          }
        }
      }
    }
  });
  return png;
}

/** Writes every icon under `outDir` (and the preview when a path is given); returns the files written. */
export async function generateIcons(outDir: string, previewFile?: string): Promise<string[]> {
  const trayDir = path.join(outDir, 'tray');
  await mkdir(trayDir, { recursive: true });
  const files: [string, PNG][] = [[path.join(outDir, 'icon.png'), renderAppIcon(512)]];
  for (const colour of TRAY_COLOURS) {
    for (const template of [false, true]) {
      const name = trayIconName(colour, template);
      const render = template ? renderTemplateIcon : renderTrayIcon;
      files.push([path.join(trayDir, name), render(colour, 16)]);
      files.push([path.join(trayDir, name.replace(/\.png$/, '@2x.png')), render(colour, 32)]);
    }
  }
  if (previewFile) files.push([previewFile, renderPreview()]);
  for (const [file, png] of files) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, PNG.sync.write(png));
  }
  return files.map(([file]) => file);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const written = await generateIcons(
    path.join(root, 'build', 'icons'),
    path.join(root, 'docs', 'tray-icons.png'),
  );
  process.stdout.write(`gen-icons: wrote ${written.length} files to build/icons and docs/tray-icons.png\n`);
}
