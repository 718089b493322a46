import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import { refusalWords } from './cli-refusal.js';

/** The error `parseArgs` throws for `args` against one string option and one flag. */
function parseError(args: string[], allowPositionals = false): unknown {
  try {
    parseArgs({
      args,
      strict: true,
      allowPositionals,
      options: { 'state-dir': { type: 'string' }, yes: { type: 'boolean' } },
    });
  } catch (error) {
    return error;
  }
  throw new Error(`parseArgs took ${args.join(' ')}`);
}

test("Node's argument parser's refusals are said in the CLI's words, naming the command", () => {
  assert.equal(refusalWords(parseError(['--bogus']), 'status'), '"status" has no option --bogus');
  assert.equal(refusalWords(parseError(['--bogus'], true), 'reset'), '"reset" has no option --bogus');
  assert.equal(refusalWords(parseError(['now']), 'pause'), '"pause" takes no argument "now"');
  assert.equal(refusalWords(parseError(['--state-dir']), 'stop'), '--state-dir needs a value');
  assert.equal(refusalWords(parseError(['--yes=1']), 'setup'), '--yes takes no value');
});

test('any other refusal keeps its own words', () => {
  assert.equal(refusalWords(new Error('"reset" needs a model'), 'reset'), '"reset" needs a model');
  assert.equal(
    refusalWords(new Error("--port must be a port number, got 'x'"), 'daemon'),
    "--port must be a port number, got 'x'",
  );
});
