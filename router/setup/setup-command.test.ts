/**
 * `runSetup` on a throwaway HOME holding each agent's existing config: a preview writes nothing, --yes
 * writes our part only and keeps a backup, a second run changes nothing, --undo puts the file back byte for
 * byte, and a file that is not valid JSON is refused untouched. Each fixture is that agent's own format. The window comes from a real router.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { withScenario } from '../test-support/scenario.js';
import { options, place, URL_, withHome, type Fixture } from '../test-support/setup-home.js';
import { backupPath, runSetup } from './setup-command.js';

const FIXTURES: Fixture[] = [
  {
    agent: 'claude-code',
    file: '.claude/settings.json',
    text: '{\n    "theme": "dark",\n    "env": { "FOO": "bar", "ANTHROPIC_MODEL": "opus" },\n    "permissions": { "allow": ["Bash"] }\n}\n',
  },
  {
    agent: 'codex',
    file: '.codex/config.toml',
    text: '# my settings\nmodel = "o3" # the old one\napproval_policy = "never"\n\n[mcp_servers.docs]\ncommand = "docs-server" # keep me\n',
  },
  {
    agent: 'opencode',
    file: '.config/opencode/opencode.json',
    text: '{\n  "theme": "system",\n  "provider": { "other": { "name": "Other" } },\n  "model": "other/x"\n}\n',
  },
  {
    agent: 'qwen-code',
    file: '.qwen/settings.json',
    text: '{\n  "$version": 4,\n  "modelProviders": {\n    "openai": [{ "id": "qwen3-coder-plus", "envKey": "DASHSCOPE_API_KEY" }]\n  },\n  "security": { "auth": { "selectedType": "qwen-oauth" } },\n  "model": { "name": "qwen3-coder-plus" },\n  "ui": { "theme": "GitHub" }\n}\n',
  },
  {
    agent: 'continue',
    file: '.continue/config.yaml',
    text: '# my assistant\nname: Local Config\nversion: 1.0.0\nschema: v1\nmodels:\n  - name: Llama # local one\n    provider: ollama\n    model: llama3.1:8b\n\n# tools next\nmcpServers:\n  - name: docs\n    command: docs-server\n',
  },
];

for (const fixture of FIXTURES) {
  test(`${fixture.agent}: preview, write with a backup, idempotent, undo byte for byte`, async () => {
    await withHome(async (home) => {
      const file = await place(home, fixture);
      const preview = options(home, { agent: fixture.agent });
      assert.equal(await runSetup(preview), 0);
      assert.match(preview.out.join('\n'), /\+ .*127\.0\.0\.1:1/);
      assert.equal(await readFile(file, 'utf8'), fixture.text, 'a preview writes nothing');
      assert.deepEqual(await readdir(path.dirname(file)), [path.basename(file)]);

      assert.equal(await runSetup(options(home, { agent: fixture.agent, yes: true })), 0);
      const written = await readFile(file, 'utf8');
      assert.match(written, /127\.0\.0\.1:1/);
      assert.equal(await readFile(backupPath(file), 'utf8'), fixture.text);

      const again = options(home, { agent: fixture.agent, yes: true });
      assert.equal(await runSetup(again), 0);
      assert.equal(await readFile(file, 'utf8'), written, 'a second run changes nothing');
      assert.match(again.out.join('\n'), /nothing to change/);

      assert.equal(await runSetup(options(home, { agent: fixture.agent, undo: true, yes: true })), 0);
      assert.equal(await readFile(file, 'utf8'), fixture.text, 'undo restores the file byte for byte');
      assert.deepEqual(await readdir(path.dirname(file)), [path.basename(file)], 'the backup is gone');
    });
  });
}

for (const fixture of FIXTURES) {
  test(`${fixture.agent}: setup run again on another port, then one undo brings back what was there first`, async () => {
    await withHome(async (home) => {
      const file = path.join(home, fixture.file);
      const second = `${URL_.slice(0, -1)}2`;
      // No file before: setup creates it, a second run on another port rewrites it, one undo removes it.
      assert.equal(await runSetup(options(home, { agent: fixture.agent, yes: true })), 0);
      const rerun = options(home, { agent: fixture.agent, yes: true, url: second });
      assert.equal(await runSetup(rerun), 0);
      assert.match(await readFile(file, 'utf8'), /127\.0\.0\.1:2/);
      assert.doesNotMatch(rerun.out.join('\n'), /previous version/, 'no backup of the file setup wrote');
      const undo = options(home, { agent: fixture.agent, undo: true, yes: true });
      assert.equal(await runSetup(undo), 0);
      const top = path.join(home, fixture.file.split('/')[0] ?? '');
      assert.match(undo.out.join('\n'), new RegExp(`removed, with the folder ${top} setup made\\.$`));
      assert.deepEqual(await readdir(home), [], 'no file, no backup, no folder setup made');

      // The user's own file: one undo after both runs puts it back byte for byte.
      await place(home, fixture);
      await runSetup(options(home, { agent: fixture.agent, yes: true }));
      await runSetup(options(home, { agent: fixture.agent, yes: true, url: second }));
      await runSetup(options(home, { agent: fixture.agent, undo: true, yes: true }));
      assert.equal(await readFile(file, 'utf8'), fixture.text);
      assert.deepEqual(await readdir(path.dirname(file)), [path.basename(file)]);
    });
  });
}

test('a file the user wrote where setup had created one is theirs: backed up before setup, kept by undo', async () => {
  await withHome(async (home) => {
    const file = path.join(home, '.codex/config.toml');
    const mine = 'model = "o3"\n';
    assert.equal(await runSetup(options(home, { agent: 'codex', yes: true })), 0);
    // The user removes setup's file and writes their own in its place.
    await rm(file);
    await writeFile(file, mine);
    const undoFirst = options(home, { agent: 'codex', undo: true, yes: true });
    assert.equal(await runSetup(undoFirst), 0);
    assert.equal(await readFile(file, 'utf8'), mine, 'undo leaves a file setup did not write');

    const again = options(home, { agent: 'codex', yes: true });
    assert.equal(await runSetup(again), 0);
    assert.match(again.out.join('\n'), /the previous version is in .*config\.toml\.fcm-router\.bak/);
    assert.equal(await runSetup(options(home, { agent: 'codex', undo: true, yes: true })), 0);
    assert.equal(await readFile(file, 'utf8'), mine, 'undo brings back what the user wrote');
    assert.deepEqual(await readdir(path.dirname(file)), ['config.toml'], 'no backup or note left');
  });
});

test('a file edited while the change is shown is not overwritten: nothing is written', async () => {
  await withHome(async (home) => {
    const [fixture] = FIXTURES;
    assert.ok(fixture);
    const file = await place(home, fixture);
    const edited = fixture.text.replace('"dark"', '"light"');
    const run = options(home, { agent: fixture.agent });
    // The user edits the file while the diff waits for a "y".
    run.confirm = async () => {
      await writeFile(file, edited);
      return true;
    };
    assert.equal(await runSetup(run), 1);
    assert.match(run.out.join('\n'), /changed since setup read it; nothing written: run setup again/);
    assert.equal(await readFile(file, 'utf8'), edited, 'the edit is kept');
    assert.deepEqual(await readdir(path.dirname(file)), [path.basename(file)], 'no backup made');
  });
});

test('claude-code: our env entries set, every other key kept', async () => {
  await withHome(async (home) => {
    const [fixture] = FIXTURES;
    assert.ok(fixture);
    const file = await place(home, fixture);
    await runSetup(options(home, { agent: 'claude-code', yes: true }));
    const settings = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(settings, {
      theme: 'dark',
      env: {
        FOO: 'bar',
        ANTHROPIC_MODEL: 'fcm',
        ANTHROPIC_BASE_URL: URL_,
        ANTHROPIC_AUTH_TOKEN: 'fcm-local',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
      permissions: { allow: ['Bash'] },
    });
  });
});

test('opencode: our provider beside the others, the model switched to it', async () => {
  await withHome(async (home) => {
    const fixture = FIXTURES[2];
    assert.ok(fixture);
    const file = await place(home, fixture);
    await runSetup(options(home, { agent: 'opencode', yes: true, url: `${URL_}/v1/` }));
    const settings = JSON.parse(await readFile(file, 'utf8')) as {
      provider: Record<string, { options?: { baseURL: string } }>;
      model: string;
      theme: string;
    };
    assert.deepEqual(Object.keys(settings.provider), ['other', 'fcm']);
    assert.equal(settings.provider.fcm?.options?.baseURL, `${URL_}/v1`);
    assert.equal(settings.model, 'fcm/fcm');
    assert.equal(settings.theme, 'system');
  });
});

test('opencode: with an opencode.jsonc beside it (read after opencode.json), setup refuses and writes nothing', async () => {
  await withHome(async (home) => {
    const text = '{\n  // my default\n  "model": "anthropic/claude-sonnet-4-5",\n}\n';
    const jsonc = await place(home, { agent: 'opencode', file: '.config/opencode/opencode.jsonc', text });
    for (const existing of [false, true]) {
      if (existing) await writeFile(path.join(path.dirname(jsonc), 'opencode.json'), '{}\n');
      const before = await readdir(path.dirname(jsonc));
      const run = options(home, { agent: 'opencode', yes: true });
      assert.equal(await runSetup(run), 1);
      assert.match(
        run.out.join('\n'),
        /opencode\.jsonc holds OpenCode's settings and is read after opencode\.json, so its settings win; .*add the settings to it by hand, as docs\/agents\.md shows; nothing was changed/,
      );
      assert.deepEqual(await readdir(path.dirname(jsonc)), before, 'nothing written');
      assert.equal(await readFile(jsonc, 'utf8'), text);
    }
  });
});

test('a settings file that is not valid JSON is refused, named, and left as it was', async () => {
  await withHome(async (home) => {
    for (const agent of ['claude-code', 'opencode']) {
      const fixture = FIXTURES.find((one) => one.agent === agent);
      assert.ok(fixture);
      const file = await place(home, { ...fixture, text: '{ "theme": "dark", // a comment\n' });
      const run = options(home, { agent, yes: true });
      assert.equal(await runSetup(run), 1);
      const said = run.out.join('\n');
      assert.match(said, new RegExp(`${file.replaceAll('.', '\\.')} is not valid JSON`));
      assert.match(said, /holds comments, which setup cannot keep/);
      assert.doesNotMatch(said, /theme|dark/, 'the file is not quoted');
      assert.equal(await readFile(file, 'utf8'), '{ "theme": "dark", // a comment\n');
      assert.deepEqual(await readdir(path.dirname(file)), [path.basename(file)], 'no backup, no write');
    }
  });
});

test('a settings file holding a name twice in one object is refused, with its lines, and left as it was', async () => {
  await withHome(async (home) => {
    for (const agent of ['claude-code', 'opencode']) {
      const fixture = FIXTURES.find((one) => one.agent === agent);
      assert.ok(fixture);
      const text =
        '{\n  "env": { "KEY": "sk-one" },\n  "theme": "dark",\n  "env": { "OTHER": "sk-two" }\n}\n';
      const file = await place(home, { ...fixture, text });
      const run = options(home, { agent, yes: true });
      assert.equal(await runSetup(run), 1);
      const said = run.out.join('\n');
      assert.match(
        said,
        /holds a name twice in one object \(lines 2 and 4\): setup would keep only the last/,
      );
      assert.doesNotMatch(said, /sk-one|sk-two|theme/, 'the file is not quoted');
      assert.equal(await readFile(file, 'utf8'), text);
      assert.deepEqual(await readdir(path.dirname(file)), [path.basename(file)], 'no backup, no write');
    }
  });
});

test('a settings file broken without comments is refused with the line where it breaks, not quoted', async () => {
  await withHome(async (home) => {
    const fixture = FIXTURES.find((one) => one.agent === 'claude-code');
    assert.ok(fixture);
    const broken = '{\n  "theme": "dark",\n  "env": { "KEY": "sk-secret" }}\n}\n';
    const file = await place(home, { ...fixture, text: broken });
    const run = options(home, { agent: 'claude-code', yes: true });
    assert.equal(await runSetup(run), 1);
    const said = run.out.join('\n');
    assert.match(said, /is not valid JSON \(at line 4, column 1: fix or move it\); nothing was changed/);
    assert.doesNotMatch(said, /sk-secret/);
    assert.equal(await readFile(file, 'utf8'), broken);
  });
});

test('codex: a config.toml that is not valid TOML, or one broken since setup, is refused by setup and undo, untouched', async () => {
  await withHome(async (home) => {
    const fixture = { agent: 'codex', file: '.codex/config.toml', text: 'model = "gpt-5\n[broken\n' };
    const file = await place(home, fixture);
    const run = options(home, { agent: 'codex', yes: true });
    assert.equal(await runSetup(run), 1);
    assert.match(
      run.out.join('\n'),
      /config\.toml is not valid TOML \(line 1, [^)]*\): nothing was changed; fix it or move it aside/,
    );
    assert.equal(await readFile(file, 'utf8'), fixture.text);
    assert.deepEqual(await readdir(path.dirname(file)), ['config.toml'], 'no backup, no write');

    await writeFile(file, 'model = "gpt-5"\n');
    assert.equal(await runSetup(options(home, { agent: 'codex', yes: true })), 0);
    const broken = `${await readFile(file, 'utf8')}x = \n`;
    await writeFile(file, broken);
    const undo = options(home, { agent: 'codex', undo: true, yes: true });
    assert.equal(await runSetup(undo), 1);
    assert.match(undo.out.join('\n'), /is not valid TOML \(line \d+, [^)]*\): nothing was changed/);
    assert.equal(await readFile(file, 'utf8'), broken);
  });
});

test('codex: a multi-line string, a comment on the model line and CRLF endings survive setup and both kinds of undo', async () => {
  await withHome(async (home) => {
    const text = [
      'developer_instructions = """',
      'model = "gpt-5" is what I use',
      '"""',
      'model = "gpt-5"   # my favourite',
      '',
      '[profiles.x]',
      'model = "o3"',
      '',
    ].join('\r\n');
    const file = await place(home, { agent: 'codex', file: '.codex/config.toml', text });
    assert.equal(await runSetup(options(home, { agent: 'codex', yes: true })), 0);
    const written = await readFile(file, 'utf8');
    assert.match(written, /\r\nmodel = "gpt-5" is what I use\r\n"""\r\nmodel = "fcm" {3}# my favourite\r\n/);
    assert.doesNotMatch(written, /[^\r]\n/, 'every line ends in CRLF');
    assert.equal(await runSetup(options(home, { agent: 'codex', undo: true, yes: true })), 0);
    assert.equal(await readFile(file, 'utf8'), text, 'undo gives it back byte for byte');

    // Changed since: undo removes setup's part, gives the model back from the backup where it stands, and
    // what the user added at the end stays.
    assert.equal(await runSetup(options(home, { agent: 'codex', yes: true })), 0);
    await writeFile(file, `${await readFile(file, 'utf8')}model_reasoning_effort = "high"\r\n`);
    assert.equal(await runSetup(options(home, { agent: 'codex', undo: true, yes: true })), 0);
    assert.equal(
      await readFile(file, 'utf8'),
      [
        'developer_instructions = """',
        'model = "gpt-5" is what I use',
        '"""',
        'model = "gpt-5"   # my favourite',
        '',
        '[profiles.x]',
        'model = "o3"',
        'model_reasoning_effort = "high"',
        '',
      ].join('\r\n'),
    );
  });
});

test('without --url or a daemon, FCM_ROUTER_PORT gives the port, and one that is no port is refused', async () => {
  await withHome(async (home) => {
    const env = { FCM_ROUTER_PORT: '1' };
    const run = options(home, { agent: 'codex', url: undefined, env });
    await runSetup(run);
    assert.match(run.out.join('\n'), /No fcm-router is running; using http:\/\/127\.0\.0\.1:1 /);
    const bad = options(home, { agent: 'codex', url: undefined, yes: true, env: { FCM_ROUTER_PORT: 'abc' } });
    assert.equal(await runSetup(bad), 1);
    assert.match(bad.out.join('\n'), /FCM_ROUTER_PORT must be a port number \(0-65535\), got "abc"/);
    assert.deepEqual(await readdir(home), [], 'nothing written');
  });
});

test('undo after the user changed the file since removes our part, keeps their change and gives back their model', async () => {
  await withHome(async (home) => {
    const fixture = FIXTURES[1];
    assert.ok(fixture);
    const file = await place(home, fixture);
    await runSetup(options(home, { agent: 'codex', yes: true }));
    await writeFile(file, `${await readFile(file, 'utf8')}\n[profiles.mine]\nmodel = "x"\n`);
    await runSetup(options(home, { agent: 'codex', undo: true, yes: true }));
    const after = await readFile(file, 'utf8');
    assert.doesNotMatch(after, /fcm/);
    assert.match(after, /\[profiles\.mine\]\nmodel = "x"/);
    assert.match(after, /\[mcp_servers\.docs\]\ncommand = "docs-server" # keep me/);
    // The model the backup held is back on its line, with the comment that stood there.
    assert.match(after, /^# my settings\nmodel = "o3" # the old one\napproval_policy = "never"/);
  });
});

test('a file setup created is removed by undo; an unknown agent is a usage error', async () => {
  await withHome(async (home) => {
    await mkdir(path.join(home, '.config'));
    await runSetup(options(home, { agent: 'opencode', yes: true }));
    const file = path.join(home, '.config/opencode/opencode.json');
    assert.match(await readFile(file, 'utf8'), /"\$schema"/);
    const preview = options(home, { agent: 'opencode', undo: true });
    await runSetup(preview);
    assert.match(
      preview.out.join('\n'),
      /so is the folder .*\/\.config\/opencode it made, when nothing else/,
    );
    await runSetup(options(home, { agent: 'opencode', undo: true, yes: true }));
    // Setup made .config/opencode, not .config: undo takes only its own.
    assert.deepEqual(await readdir(path.join(home, '.config')), []);
    const unknown = options(home, { agent: 'cursor' });
    assert.equal(await runSetup(unknown), 2);
    assert.match(unknown.out.join('\n'), /unknown agent "cursor" \(expected claude-code, codex/);
    assert.match(unknown.out.join('\n'), /Cline, Aider and other agents .* by hand: see docs\/agents\.md/);
  });
});

test('undo keeps a folder setup made once the user has put a file in it, and goes only where its note may point', async () => {
  await withHome(async (home) => {
    const file = path.join(home, '.codex/config.toml');
    assert.equal(await runSetup(options(home, { agent: 'codex', yes: true })), 0);
    await writeFile(path.join(home, '.codex/auth.json'), '{}');
    const undo = options(home, { agent: 'codex', undo: true, yes: true });
    assert.equal(await runSetup(undo), 0);
    assert.deepEqual(undo.out.at(-1), `${file}: removed.`);
    assert.deepEqual(await readdir(path.join(home, '.codex')), ['auth.json']);

    // A note edited to name a folder that is not above the file: undo removes the file and no folder.
    await rm(path.join(home, '.codex'), { recursive: true });
    await mkdir(path.join(home, 'elsewhere'));
    assert.equal(await runSetup(options(home, { agent: 'codex', yes: true })), 0);
    const note = `${file}.fcm-router.created`;
    assert.match(await readFile(note, 'utf8'), new RegExp(`^folder ${home}/\\.codex$`, 'm'));
    await writeFile(note, (await readFile(note, 'utf8')).replace(/^folder .*$/m, `folder ${home}/elsewhere`));
    assert.equal(await runSetup(options(home, { agent: 'codex', undo: true, yes: true })), 0);
    assert.deepEqual((await readdir(home)).sort(), ['.codex', 'elsewhere']);
    assert.deepEqual(await readdir(path.join(home, '.codex')), []);
  });
});

test('the context window the running router (or the demo, named as such) lists for fcm goes into Codex, Claude Code and OpenCode', async () => {
  await withScenario({ providers: { cerebras: ['gpt-oss-120b'] } }, async ({ router }) => {
    await withHome(async (home) => {
      const run = options(home, {
        agent: 'codex',
        yes: true,
        url: undefined,
        daemon: { url: router.url, demo: false },
      });
      await runSetup(run);
      assert.doesNotMatch(run.out.join('\n'), /demo/);
      const toml = await readFile(path.join(home, '.codex/config.toml'), 'utf8');
      assert.match(toml, /^model_context_window = 65000$/m);
      assert.match(toml, new RegExp(`^base_url = "${router.url}/v1"$`, 'm'));
      assert.match(toml, /^wire_api = "responses"$/m);
      // The same from a demo daemon, which setup names as such.
      const demo = options(home, {
        agent: 'claude-code',
        yes: true,
        url: undefined,
        daemon: { url: router.url, demo: true },
      });
      await runSetup(demo);
      const demoLine = `The fcm-router running at ${router.url} is the demo: the agent is pointed at its port`;
      assert.ok(
        demo.out.some((line) => line.startsWith(demoLine)),
        demo.out.join('\n'),
      );
      const settings = await readFile(path.join(home, '.claude/settings.json'), 'utf8');
      assert.match(settings, /"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "65000"/);
      await runSetup(options(home, { agent: 'opencode', yes: true, url: router.url }));
      const opencode = JSON.parse(
        await readFile(path.join(home, '.config/opencode/opencode.json'), 'utf8'),
      ) as {
        provider: { fcm: { models: { fcm: { limit?: unknown } } } };
      };
      assert.deepEqual(opencode.provider.fcm.models.fcm.limit, { context: 65_000, output: 16_250 });
    });
  });
});

test('on a terminal the y/N answer decides; no answer is a no', async () => {
  await withHome(async (home) => {
    const fixture = FIXTURES[1];
    assert.ok(fixture);
    const file = await place(home, fixture);
    const asked: string[] = [];
    const no = options(home, { confirm: (question) => Promise.resolve(asked.push(question) < 0) });
    assert.equal(await runSetup(no), 0);
    assert.deepEqual(asked, ['Write this change? [y/N] ']);
    assert.equal(await readFile(file, 'utf8'), fixture.text);
    assert.equal(await runSetup(options(home, { confirm: () => Promise.resolve(true) })), 0);
    assert.match(await readFile(file, 'utf8'), /\[model_providers\.fcm\]/);
  });
});
