/**
 * Hand edits of `config.json` the next save would change: a name written twice in an object (`JSON.parse`
 * keeps only the last) and a byte that is not UTF-8 (read as U+FFFD). A running router takes either for an
 * invalid edit: it names it in `fileProblem`, refuses every save with `409 config_file_invalid`, and leaves
 * the file byte for byte.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import type { ConfigResponse, ErrorResponse } from '../api-types.js';
import { httpRequest, parseReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import type { ConfigInput } from './schema.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] }, sets: { main: ['alpha/m1'], spare: ['beta/m2'] } };

/** Each edit, made to the scenario's file as the router wrote it, and the issue it must be named by. */
const EDITS: { what: string; edit: (text: string) => Buffer; path: string; message: RegExp }[] = [
  {
    what: 'a set block written twice',
    edit: (text) => Buffer.from(text.replace(/^\{/, '{\n  "sets": { "handmade": ["beta/m2"] },')),
    path: 'sets',
    message: /^written twice in one object, at line 2, column 3 and at line \d+, column 3: /,
  },
  {
    what: 'a Latin-1 byte in a provider name',
    edit: (text) => {
      const [head, tail] = text.split(/(?<="alpha": \{)/);
      return Buffer.concat([
        Buffer.from(`${head}\n      "name": "Caf`),
        Buffer.from([0xe9]),
        Buffer.from(`",${tail}`),
      ]);
    },
    path: '(root)',
    message: /^not UTF-8 text: the byte at line \d+, column 19 \(byte offset \d+\)/,
  },
];

for (const { what, edit, path, message } of EDITS)
  test(`${what}: the router names it and refuses every save, the file left byte for byte`, async () => {
    await withScenario(TWO, async ({ router }) => {
      const file = router.router.configPath;
      const edited = edit(await readFile(file, 'utf8'));
      await writeFile(file, edited);

      // The save reads the file first, whether or not the watcher has seen the edit yet.
      const key = await router.api('POST', '/api/providers/key', { provider: 'beta', apiKey: 'sk-new' });
      assert.equal(key.status, 409, key.text);
      assert.equal(parseReply<ErrorResponse>(key).error.code, 'config_file_invalid');
      const shown = parseReply<ConfigResponse>(await router.get('/api/config'));
      assert.equal(shown.fileProblem?.path, file);
      assert.deepEqual(
        shown.fileProblem?.issues.map((issue) => issue.path),
        [path],
      );
      assert.match(shown.fileProblem?.issues[0]?.message ?? '', message);

      const whole: ConfigInput = { ...shown.config, activeSet: 'spare' };
      const put = await httpRequest(`${router.url}/api/config`, {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          'x-fcm-token': router.token,
          'if-match': `"${shown.revision}"`,
        },
        body: JSON.stringify(whole),
      });
      assert.equal(put.status, 409, put.text);
      assert.deepEqual(await readFile(file), edited, 'the edit is as it was written');
    });
  });
