/**
 * Set up from the Overview, against a real daemon whose HOME is a throwaway folder: Codex's existing
 * config.toml gets our lines after the change is shown, with a backup beside it, and Undo puts it back
 * byte for byte; Claude Code's missing settings.json is created and removed again; a file changed between
 * the preview and the write brings a new preview, which is written. On the demo, the panel says the agent
 * would be pointed at the demo.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { watchBrowserErrors } from './helpers/browser-errors.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';

const CODEX = '# mine\nmodel = "o3" # the old one\n\n[mcp_servers.docs]\ncommand = "docs" # keep\n';

let home: string;
let daemon: Daemon;

test.beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'fcm-e2e-home-'));
  await mkdir(path.join(home, '.codex'));
  await writeFile(path.join(home, '.codex', 'config.toml'), CODEX);
  daemon = await startDaemon(
    { providers: { mine: { baseUrl: 'http://127.0.0.1:9/v1', models: ['m1'] } } },
    { env: { HOME: home } },
  );
});

test.afterAll(async () => {
  await daemon?.stop();
  await rm(home, { recursive: true, force: true });
});

function agentRow(page: Page, name: string) {
  return page.locator('.setup-agents').getByRole('listitem', { name, exact: true });
}

test('Set up Codex from the Overview: the change first, then written with a backup, then undone', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page);
  const file = path.join(home, '.codex', 'config.toml');
  await page.goto(`${daemon.url}/#/overview`);
  const codex = agentRow(page, 'Codex');
  await expect(codex).toContainText('not set up');
  await expect(codex).toContainText(file);

  await codex.getByRole('button', { name: 'Set up' }).click();
  const preview = codex.getByLabel(`Setup change to ${file}`);
  await expect(preview).toContainText(`+ base_url = "${daemon.url}/v1"`);
  await expect(preview).toContainText('- model = "o3" # the old one');
  expect(await readFile(file, 'utf8')).toBe(CODEX);

  await codex.getByRole('button', { name: 'Write it' }).click();
  await expect(codex.locator('.notice-ok')).toContainText(`Wrote ${file} (the previous version is in`);
  await expect(codex).toContainText('points at this router');
  const written = await readFile(file, 'utf8');
  expect(written).toContain(`base_url = "${daemon.url}/v1"`);
  expect(written).toContain('[mcp_servers.docs]\ncommand = "docs" # keep\n');
  expect(await readFile(`${file}.fcm-router.bak`, 'utf8')).toBe(CODEX);

  await codex.getByRole('button', { name: 'Undo' }).click();
  await expect(codex.getByLabel(`Undo change to ${file}`)).toContainText(`- base_url = "${daemon.url}/v1"`);
  await codex.getByRole('button', { name: 'Undo it' }).click();
  await expect(codex.locator('.notice-ok')).toContainText(`${file}: restored from`);
  await expect(codex).toContainText('not set up');
  expect(await readFile(file, 'utf8')).toBe(CODEX);
  expect(await readdir(path.dirname(file))).toEqual(['config.toml']);
  expect(errors()).toEqual([]);
});

test('Set up Claude Code where it has no settings.json yet: created, then removed by Undo', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page);
  const file = path.join(home, '.claude', 'settings.json');
  await page.goto(`${daemon.url}/#/overview`);
  const claude = agentRow(page, 'Claude Code');
  await claude.getByRole('button', { name: 'Set up' }).click();
  await expect(claude.getByLabel(`Setup change to ${file}`)).toContainText(
    `+     "ANTHROPIC_BASE_URL": "${daemon.url}"`,
  );
  await claude.getByRole('button', { name: 'Write it' }).click();
  await expect(claude.locator('.notice-ok')).toHaveText(`Wrote ${file}.`);
  const settings = JSON.parse(await readFile(file, 'utf8')) as { env: Record<string, string> };
  expect(settings.env.ANTHROPIC_BASE_URL).toBe(daemon.url);

  await claude.getByRole('button', { name: 'Undo' }).click();
  const folder = path.dirname(file);
  await expect(claude.getByLabel(`Undo change to ${file}`)).toContainText(
    `fcm-router created it; so is the folder ${folder} it made`,
  );
  await claude.getByRole('button', { name: 'Undo it' }).click();
  await expect(claude.locator('.notice-ok')).toHaveText(
    `${file}: removed, with the folder ${folder} setup made.`,
  );
  expect(await readdir(home)).not.toContain('.claude');
  expect(errors()).toEqual([]);
});

test('a write refused because the file changed since the preview shows the change as the file is now, and writes that', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page, [/status of 409/]);
  const file = path.join(home, '.qwen', 'settings.json');
  await page.goto(`${daemon.url}/#/overview`);
  const qwen = agentRow(page, 'Qwen Code');
  await qwen.getByRole('button', { name: /Set up/ }).click();
  await expect(qwen.getByLabel(`Setup change to ${file}`)).toContainText('--- /dev/null');

  // The user's own edit lands between the preview and the write.
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, '{ "theme": "dark" }\n');
  await qwen.getByRole('button', { name: 'Write it' }).click();
  await expect(qwen.getByRole('status')).toContainText('The file changed since the preview');
  const fresh = qwen.getByLabel(`Setup change to ${file}`);
  await expect(fresh).toContainText('"theme": "dark"');
  await expect(fresh).not.toContainText('/dev/null');
  expect(await readFile(file, 'utf8')).toBe('{ "theme": "dark" }\n');

  await qwen.getByRole('button', { name: 'Write it' }).click();
  await expect(qwen.locator('.notice-ok')).toContainText(`Wrote ${file}`);
  await expect(qwen).toContainText('points at this router');
  const written = JSON.parse(await readFile(file, 'utf8')) as { theme: string };
  expect(written.theme).toBe('dark');
  await rm(path.dirname(file), { recursive: true });
  expect(errors()).toEqual([]);
});

test('on the demo, Set up says the agent is pointed at the demo, to set it up again on your own daemon', async ({
  page,
}) => {
  const errors = watchBrowserErrors(page);
  const note = /This router is the demo: Set up points the agent at its port, with the demo set’s window/;
  await page.goto(`${daemon.url}/#/overview`);
  await expect(agentRow(page, 'Codex')).toBeVisible();
  await expect(page.getByRole('note').filter({ hasText: note })).toHaveCount(0);

  const demo = await startDaemon({}, { demo: true, env: { HOME: home } });
  try {
    await page.goto(`${demo.url}/#/overview`);
    await expect(page.getByRole('note').filter({ hasText: note })).toContainText(
      'Set the agent up again once your own daemon runs.',
    );
    // Checked while the demo runs: once it stops, the page's reconnects fail, as they should.
    expect(errors()).toEqual([]);
  } finally {
    await demo.stop();
  }
});
