import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { CATALOGUE_MODELS } from '../router/catalogue/models.js';
import { parseModelsTsv, renderModelsModule } from './gen-catalogue-models.js';

const HEADER = 'provider\tmodel_id\tlabel\ttier\tswe_score\tcontext';

test('parses scores, unknown cells and ids with slashes', () => {
  const tsv = `${HEADER}\r\ngroq\topenai/gpt-oss-120b\tGPT OSS 120B\tS\t62.4%\t131k\r\nkilo\tkilo-auto/free\tKilo Auto\t-\t-\t-\n\n`;
  assert.deepEqual(parseModelsTsv(tsv), [
    {
      provider: 'groq',
      id: 'openai/gpt-oss-120b',
      label: 'GPT OSS 120B',
      tier: 'S',
      sweScore: 62.4,
      context: '131k',
    },
    { provider: 'kilo', id: 'kilo-auto/free', label: 'Kilo Auto', tier: null, sweScore: null, context: null },
  ]);
});

test('rejects a wrong header, a short row, a bad score and a duplicate', () => {
  assert.throws(() => parseModelsTsv('provider\tid\n'), /header/);
  assert.throws(() => parseModelsTsv(`${HEADER}\ngroq\tx\tX\tS\n`), /row 2/);
  assert.throws(() => parseModelsTsv(`${HEADER}\ngroq\tx\tX\tS\tlots\t1k\n`), /swe_score/);
  assert.throws(
    () => parseModelsTsv(`${HEADER}\ngroq\tx\tX\tS\t-\t1k\ngroq\tx\tY\tA\t-\t1k\n`),
    /duplicate groq\/x/,
  );
});

test('router/catalogue/models.ts is exactly what the generator writes for its data', async () => {
  const onDisk = await readFile(new URL('../router/catalogue/models.ts', import.meta.url), 'utf8');
  assert.equal(await renderModelsModule(CATALOGUE_MODELS), onDisk);
});
