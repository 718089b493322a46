/**
 * `/api/setup*` on a real router whose HOME is a throwaway folder holding agents' configs: each agent's
 * state, a preview that writes nothing, the previewed change applied (with the router's own address and
 * window), a stale preview refused, undo putting the file back byte for byte, and whether it is the demo.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type {
  ErrorResponse,
  SetupAgentsResponse,
  SetupApplyResponse,
  SetupPreviewResponse,
} from '../api-types.js';
import { startRouter } from '../daemon/start-router.js';
import { parseReply } from '../test-support/http-client.js';
import type { RouterHarness } from '../test-support/router-harness.js';
import { withScenario } from '../test-support/scenario.js';
import { place, withHome } from '../test-support/setup-home.js';

const CODEX = '# mine\nmodel = "o3"\n\n[mcp_servers.docs]\ncommand = "docs" # keep\n';

async function previewOf(router: RouterHarness, agent: string, undo = false): Promise<SetupPreviewResponse> {
  const reply = await router.api('POST', '/api/setup/preview', { agent, undo });
  assert.equal(reply.status, 200, reply.text);
  return parseReply<SetupPreviewResponse>(reply);
}

test('Set up through the API: states, a preview, the previewed change applied, a stale one refused, undo', async () => {
  await withHome(async (home) => {
    const codex = await place(home, { agent: 'codex', file: '.codex/config.toml', text: CODEX });
    await place(home, { agent: 'claude-code', file: '.claude/settings.json', text: '{ "env": ' });
    const env = { HOME: home };
    await withScenario({ providers: { cerebras: ['gpt-oss-120b'] }, env }, async ({ router }) => {
      const listed = parseReply<SetupAgentsResponse>(await router.api('GET', '/api/setup'));
      const states = Object.fromEntries(listed.agents.map((agent) => [agent.id, agent.state]));
      assert.deepEqual(states, {
        'claude-code': 'unreadable',
        codex: 'not_set',
        opencode: 'not_set',
        'qwen-code': 'not_set',
        continue: 'not_set',
      });
      assert.match(listed.agents[0]?.problem ?? '', /settings\.json is not valid JSON/);
      assert.equal(listed.demo, false);

      const preview = await previewOf(router, 'codex');
      assert.equal(preview.file, codex);
      assert.match(preview.diff, new RegExp(`\\+ base_url = "${router.url}/v1"`));
      assert.match(preview.diff, /\+ model_context_window = 65000/);
      assert.equal(await readFile(codex, 'utf8'), CODEX, 'a preview writes nothing');

      // The file changes after the preview: that preview's plan is refused, nothing written.
      await writeFile(codex, `${CODEX}\n[profiles.x]\nmodel = "y"\n`);
      const stale = await router.api('POST', '/api/setup/apply', {
        agent: 'codex',
        undo: false,
        plan: preview.plan,
      });
      assert.equal(stale.status, 409);
      assert.equal(parseReply<ErrorResponse>(stale).error.code, 'setup_changed');
      await writeFile(codex, CODEX);

      const applied = await router.api('POST', '/api/setup/apply', {
        agent: 'codex',
        undo: false,
        plan: preview.plan,
      });
      assert.equal(applied.status, 200, applied.text);
      assert.match(
        parseReply<SetupApplyResponse>(applied).message,
        /^Wrote .*config\.toml \(the previous version/,
      );
      assert.match(await readFile(codex, 'utf8'), /^wire_api = "responses"$/m);
      assert.equal(await readFile(`${codex}.fcm-router.bak`, 'utf8'), CODEX);
      const after = parseReply<SetupAgentsResponse>(await router.api('GET', '/api/setup'));
      assert.equal(after.agents.find((agent) => agent.id === 'codex')?.state, 'set');

      const undo = await previewOf(router, 'codex', true);
      const undone = await router.api('POST', '/api/setup/apply', {
        agent: 'codex',
        undo: true,
        plan: undo.plan,
      });
      assert.equal(undone.status, 200, undone.text);
      assert.equal(await readFile(codex, 'utf8'), CODEX);
      assert.deepEqual(await readdir(path.dirname(codex)), ['config.toml']);
    });
  });
});

test('Set up through the API refuses an unknown agent and a file it cannot edit, naming them', async () => {
  await withHome(async (home) => {
    await place(home, { agent: 'claude-code', file: '.claude/settings.json', text: '[1, 2]' });
    await withScenario({ providers: { up: ['m1'] }, env: { HOME: home } }, async ({ router }) => {
      const unknown = await router.api('POST', '/api/setup/preview', { agent: 'cursor', undo: false });
      assert.equal(unknown.status, 400);
      const { message, param } = parseReply<ErrorResponse>(unknown).error;
      assert.match(message, /^fcm-router: "cursor" is not one of claude-code, codex/);
      assert.equal(param, 'agent');
      const refused = await router.api('POST', '/api/setup/preview', { agent: 'claude-code', undo: false });
      assert.equal(refused.status, 409);
      assert.match(parseReply<ErrorResponse>(refused).error.message, /does not hold a JSON object/);
      const noToken = await router.api('POST', '/api/setup/preview', { agent: 'codex', undo: false }, false);
      assert.equal(noToken.status, 403);
    });
  });
});

test("Undo through the API on a gateway's settings setup never wrote: nothing to undo, the file kept", async () => {
  await withHome(async (home) => {
    const text =
      '{"env":{"ANTHROPIC_BASE_URL":"https://llm-gateway.example.com","ANTHROPIC_AUTH_TOKEN":"corp-token-abc","ANTHROPIC_MODEL":"claude-opus-4"}}';
    const file = await place(home, { agent: 'claude-code', file: '.claude/settings.json', text });
    await withScenario({ providers: { up: ['m1'] }, env: { HOME: home } }, async ({ router }) => {
      const undo = await previewOf(router, 'claude-code', true);
      assert.equal(undo.nothing, `${file} has nothing of fcm-router's; nothing to undo.`);
      assert.equal(undo.diff, '');
      const apply = { agent: 'claude-code', undo: true, plan: undo.plan };
      const refused = await router.api('POST', '/api/setup/apply', apply);
      assert.equal(refused.status, 409);
      assert.equal(await readFile(file, 'utf8'), text);
    });
  });
});

test('the demo says so in its list of agents, for the dashboard to tell what Set up would point at', async () => {
  await withHome(async (home) => {
    const stateDir = await mkdtemp(path.join(os.tmpdir(), 'fcm-setup-demo-'));
    const router = await startRouter({
      port: 0,
      stateDir,
      demo: true,
      demoTraffic: false,
      env: { HOME: home },
    });
    try {
      const listed = (await (await fetch(`${router.url}/api/setup`)).json()) as SetupAgentsResponse;
      assert.equal(listed.demo, true);
      assert.equal(listed.agents.length, 5);
    } finally {
      await router.stop();
      await rm(stateDir, { recursive: true, force: true });
    }
  });
});
