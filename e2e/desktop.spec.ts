/**
 * The desktop app, driven for real through Playwright's Electron support: launch, tray health after a
 * model fails, the dashboard window and its bridge, and a graceful quit that flushes breaker state. Runs
 * wherever an Electron binary is installed; elsewhere (CI, types-only installs) it prints one line saying
 * why it did not run and skips.
 */
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronPackageDir, locateElectron } from '../electron/electron-binary.js';
import type { FcmDesktopGlobal } from '../electron/bridge-types.js';
import type { TrayView } from '../electron/tray-health.js';
import type { MenuItemModel } from '../electron/tray-menu-model.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const binary = locateElectron(electronPackageDir(root), process.env);

/** What electron/main.ts exposes on globalThis when FCM_ROUTER_TEST=1. */
interface DesktopTestHook {
  view(): TrayView;
  status(): string;
  menu(): MenuItemModel[];
  routerUrl(): string | null;
  mode(): string | null;
  openDashboard(): void;
}

/**
 * Calls one hook method inside the Electron main process. The function is serialised into that process,
 * so it may use nothing but its argument and the globals there.
 */
function call<K extends keyof DesktopTestHook>(
  desktop: ElectronApplication,
  method: K,
): Promise<ReturnType<DesktopTestHook[K]>> {
  return desktop.evaluate(
    (_electron, name) =>
      (globalThis as unknown as { __fcmDesktopTest: DesktopTestHook }).__fcmDesktopTest[name](),
    method,
  ) as Promise<ReturnType<DesktopTestHook[K]>>;
}

/** An OpenAI-compatible upstream: model `bad` answers 200 with no choices, `good` answers properly. */
async function fakeUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const model = (JSON.parse(body || '{}') as { model?: string }).model;
      res.setHeader('content-type', 'application/json');
      if (model === 'bad') {
        res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [] }));
        return;
      }
      res.end(
        JSON.stringify({
          id: 'y',
          object: 'chat.completion',
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test.describe.configure({ mode: 'serial' });

let app: ElectronApplication | undefined;
let upstream: Awaited<ReturnType<typeof fakeUpstream>> | undefined;
let stateDir = '';

test.beforeAll(async () => {
  if (!binary.ok) {
    const line = `desktop e2e not run: no Electron binary on this machine (${binary.reason})`;
    console.log(line);
    // No Electron binary can be obtained on this machine or in CI: the run says so and reports these tests
    // as skipped, never as passed. Where a binary is installed they run in full.
    test.skip(true, line);
    return;
  }
  test.setTimeout(180_000);
  // The app runs compiled JavaScript and the generated tray icons; build both first.
  for (const args of [
    [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.electron.json'],
    ['--import', 'tsx', path.join(root, 'scripts', 'gen-icons.ts')],
  ]) {
    const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  }

  upstream = await fakeUpstream();
  stateDir = await mkdtemp(path.join(os.tmpdir(), 'fcm-desktop-e2e-'));
  await writeFile(
    path.join(stateDir, 'config.json'),
    JSON.stringify({
      providers: {
        up: { name: 'Fake upstream', baseUrl: upstream.url, apiKey: 'k', models: ['bad', 'good'] },
      },
      sets: { default: ['up/bad', 'up/good'] },
      activeSet: 'default',
      router: { breaker: { failureThreshold: 1, initialCooldownMs: 600_000, maxCooldownMs: 600_000 } },
    }),
  );
  app = await electron.launch({
    executablePath: binary.path,
    args: [root],
    env: { ...process.env, FCM_ROUTER_TEST: '1', FCM_ROUTER_STATE_DIR: stateDir, FCM_ROUTER_PORT: '0' },
  });
});

test.afterAll(async () => {
  await app?.close().catch(() => undefined);
  await upstream?.close();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

test('starts its own router and shows a green tray', async () => {
  const desktop = app!;
  await expect.poll(() => call(desktop, 'status'), { timeout: 30_000 }).toBe('running');
  expect(await call(desktop, 'mode')).toBe('owned');
  await expect.poll(async () => (await call(desktop, 'view')).colour).toBe('green');
  expect((await call(desktop, 'view')).tooltip).toBe('fcm-router — next request goes to up/bad');
});

test('a failing model turns the tray amber, names the failover and shows the model open', async () => {
  const desktop = app!;
  const url = await call(desktop, 'routerUrl');
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer any' },
    body: JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(res.status).toBe(200);
  // The breaker event and the request event arrive separately; the tray catches up with both.
  await expect
    .poll(async () => (await call(desktop, 'view')).tooltip)
    .toBe(
      'fcm-router — 1 of 2 models out (1 OPEN); next request goes to up/good · last: up/good (1 failover)',
    );
  const view = await call(desktop, 'view');
  expect(view.colour).toBe('amber');
  expect(view.menuModels.map((m) => m.glyph)).toEqual(['○', '●']);
  const labels = (await call(desktop, 'menu')).flatMap((item) => ('label' in item ? [item.label] : []));
  expect(labels.some((label) => label.startsWith('1 of 2 models out (1 OPEN)'))).toBe(true);
  expect(labels).toContain('Pause routing');
});

test('opens the hardened dashboard window with the desktop bridge', async () => {
  const desktop = app!;
  const url = await call(desktop, 'routerUrl');
  await call(desktop, 'openDashboard');
  const page = await desktop.firstWindow();
  await page.waitForLoadState('domcontentloaded');
  expect(new URL(page.url()).origin).toBe(url);
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  expect(await page.evaluate(() => (globalThis as FcmDesktopGlobal).fcmDesktop?.getAppVersion())).toBe(
    pkg.version,
  );
  expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
  // A bad argument is refused by main, not passed on.
  const refused = await page.evaluate(() =>
    (
      globalThis as unknown as { fcmDesktop: { setNotificationsEnabled(v: unknown): Promise<boolean> } }
    ).fcmDesktop
      .setNotificationsEnabled('yes')
      .then(
        () => 'accepted',
        () => 'refused',
      ),
  );
  expect(refused).toBe('refused');
});

test('quitting stops the router gracefully and flushes the breaker state', async () => {
  const desktop = app!;
  const url = await call(desktop, 'routerUrl');
  await desktop.close();
  app = undefined;
  await expect(fetch(`${url}/health`)).rejects.toThrow();
  const breakers = path.join(stateDir, 'breakers.json');
  expect(existsSync(breakers)).toBe(true);
  expect(await readFile(breakers, 'utf8')).toContain('up/bad');
});
