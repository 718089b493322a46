import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMANDS, commandUsage, parseCli, USAGE } from './cli-args.js';

test('--help and -h after any command ask for that command’s usage', () => {
  for (const command of COMMANDS) {
    for (const flag of ['--help', '-h']) {
      assert.deepEqual(parseCli([command, flag]), { command: 'help', topic: command }, `${command} ${flag}`);
    }
    // Even with other (or wrong) options around it: asking for help never fails.
    assert.deepEqual(parseCli([command, '--bogus', '--help']), { command: 'help', topic: command });
    assert.match(commandUsage(command), new RegExp(`fcm-router ${command}\\b`));
  }
  assert.deepEqual(parseCli(['help', 'status']), { command: 'help', topic: 'status' });
  assert.deepEqual(parseCli(['--help']), { command: 'help' });
  assert.deepEqual(parseCli([]), { command: 'help' });
  assert.throws(() => parseCli(['help', 'nope']), /unknown command "nope"/);
});

test('the general usage lists every command', () => {
  for (const command of COMMANDS) assert.match(USAGE, new RegExp(`fcm-router ${command}\\b`), command);
});

test('daemon options are parsed and checked', () => {
  assert.deepEqual(parseCli(['daemon', '--port', '0', '--host', '::1', '--demo']), {
    command: 'daemon',
    port: 0,
    host: '::1',
    stateDir: undefined,
    configPath: undefined,
    demo: true,
    allowRemote: false,
  });
  assert.equal(parseCli(['daemon', '--host', '0.0.0.0', '--allow-remote']).command, 'daemon');
  assert.throws(() => parseCli(['daemon', '--port', '70000']), /--port must be a port number/);
  assert.throws(() => parseCli(['daemon', '--host', '0.0.0.0']), /--allow-remote/);
  assert.throws(() => parseCli(['daemon', 'extra']), /"daemon" takes no argument "extra"/);
  assert.throws(
    () => parseCli(['daemon', '--demo', '--config', 'mine.json']),
    /--demo and --config cannot be used together: the demo keeps its own config/,
  );
});

test('the commands that talk to a running daemon take a state dir and their one argument', () => {
  assert.deepEqual(parseCli(['status', '--state-dir', '/tmp/x']), { command: 'status', stateDir: '/tmp/x' });
  assert.deepEqual(parseCli(['pause']), { command: 'pause', stateDir: undefined });
  assert.deepEqual(parseCli(['resume']), { command: 'resume', stateDir: undefined });
  assert.deepEqual(parseCli(['reset', 'groq/llama-3.3-70b']), {
    command: 'reset',
    model: 'groq/llama-3.3-70b',
    stateDir: undefined,
  });
  assert.deepEqual(parseCli(['set-key', 'groq', '--state-dir', 'd']), {
    command: 'set-key',
    provider: 'groq',
    stateDir: 'd',
    configPath: undefined,
  });
  assert.deepEqual(parseCli(['set-key', 'groq', '--config', 'c.json']), {
    command: 'set-key',
    provider: 'groq',
    stateDir: undefined,
    configPath: 'c.json',
  });
  assert.throws(() => parseCli(['reset', 'a/b', '--config', 'c.json']), /"reset" has no option --config/);
  assert.throws(() => parseCli(['reset']), /"reset" needs a model \(provider\/model\)/);
  assert.throws(() => parseCli(['reset', 'a/b', 'c/d']), /"reset" takes one model \(provider\/model\)/);
  assert.throws(() => parseCli(['set-key']), /"set-key" needs a provider id/);
  assert.throws(() => parseCli(['status', '--port', '1']), /"status" has no option --port/);
  assert.throws(() => parseCli(['pause', 'now']), /"pause" takes no argument "now"/);
  assert.throws(() => parseCli(['launch']), /unknown command "launch"/);
});

test('the daemon takes its port from FCM_ROUTER_PORT when --port is left out, and refuses one that is no port', () => {
  const portOf = (argv: string[], env: Record<string, string>) => {
    const cmd = parseCli(['daemon', ...argv], env);
    return cmd.command === 'daemon' ? cmd.port : 'not a daemon';
  };
  assert.equal(portOf([], { FCM_ROUTER_PORT: '19382' }), 19382);
  assert.equal(portOf([], { FCM_ROUTER_PORT: '0' }), 0);
  assert.equal(portOf([], {}), undefined);
  assert.equal(portOf([], { FCM_ROUTER_PORT: ' ' }), undefined, 'blank is unset');
  assert.equal(portOf(['--port', '19383'], { FCM_ROUTER_PORT: '19382' }), 19383, '--port wins');
  for (const value of ['abc', '70000', '-1', '80.5', '1e3']) {
    assert.throws(
      () => parseCli(['daemon'], { FCM_ROUTER_PORT: value }),
      new RegExp(
        `^Error: FCM_ROUTER_PORT must be a port number \\(0-65535\\), got "${value.replace('.', '\\.')}"$`,
      ),
      value,
    );
  }
});

test('setup refuses a --url that is no router address, and without one an FCM_ROUTER_PORT that is no port', () => {
  const ok = parseCli(['setup', 'codex', '--url', 'http://127.0.0.1:19302/v1/']);
  assert.equal(ok.command === 'setup' ? ok.url : null, 'http://127.0.0.1:19302/v1/');
  const refused: [string, RegExp][] = [
    ['http://127.0.0.1:19302?x=1', /^--url has a query \(\?…\)/],
    ['http://127.0.0.1:19302#top', /^--url has a fragment \(#…\)/],
    ['http://me:s3cret@127.0.0.1:19302', /^--url holds a user name or password/],
    ['ftp://127.0.0.1:19302', /^--url is not an http or https URL/],
    ['notaurl', /^--url must be a URL such as http:\/\/127\.0\.0\.1:19280, got "notaurl"$/],
  ];
  for (const [url, message] of refused) {
    assert.throws(
      () => parseCli(['setup', 'codex', '--url', url]),
      (error: Error) => message.test(error.message) && !error.message.includes('s3cret'),
      url,
    );
  }
  assert.throws(() => parseCli(['setup', 'codex'], { FCM_ROUTER_PORT: 'abc' }), /FCM_ROUTER_PORT must be/);
  assert.equal(
    parseCli(['setup', 'codex', '--url', 'http://h:1'], { FCM_ROUTER_PORT: 'abc' }).command,
    'setup',
  );
});
