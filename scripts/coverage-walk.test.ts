import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { coverageWalk, mergeTakes, type ScriptCoverageLike } from './coverage-walk.js';

const ROOT = '/repo';
const scope = { root: ROOT, folder: 'router' };
const url = (file: string) => pathToFileURL(`${ROOT}/${file}`).href;
const fn = (functionName: string, startOffset: number, count: number) => ({
  functionName,
  ranges: [{ startOffset, endOffset: startOffset + 10, count }],
});

test('lists the called functions of the folder by file, in source order, with totals', () => {
  const taken: ScriptCoverageLike[] = [
    { url: url('router/b.ts'), functions: [fn('later', 50, 1), fn('', 20, 3), fn('idle', 5, 0)] },
    { url: `${url('router/a.ts')}?v=1`, functions: [fn('first', 0, 2), fn('__name', 1, 9)] },
  ];
  assert.deepEqual(coverageWalk(taken, scope), {
    files: [
      { file: 'router/a.ts', functions: [{ name: 'first', calls: 2 }] },
      {
        file: 'router/b.ts',
        functions: [
          { name: '(anonymous)', calls: 3 },
          { name: 'later', calls: 1 },
        ],
      },
    ],
    functionCount: 3,
    callCount: 6,
  });
});

test('leaves out files outside the folder, tests, test support and scripts not on disk', () => {
  const taken: ScriptCoverageLike[] = [
    { url: url('electron/main.ts'), functions: [fn('boot', 0, 1)] },
    { url: url('router/x.test.ts'), functions: [fn('case', 0, 1)] },
    { url: url('router/test-support/fake-upstream.ts'), functions: [fn('start', 0, 1)] },
    { url: 'node:http', functions: [fn('request', 0, 1)] },
    { url: url('routerish/y.ts'), functions: [fn('y', 0, 1)] },
  ];
  assert.deepEqual(coverageWalk(taken, scope), { files: [], functionCount: 0, callCount: 0 });
});

test('two takes of one request merge into one walk, counts summed per function', () => {
  const before: ScriptCoverageLike[] = [
    { url: url('router/a.ts'), functions: [fn('a', 0, 1), fn('b', 9, 0)] },
  ];
  const after: ScriptCoverageLike[] = [
    { url: url('router/a.ts'), functions: [fn('a', 0, 2), fn('b', 9, 1)] },
    { url: url('router/c.ts'), functions: [fn('c', 0, 1)] },
  ];
  assert.deepEqual(coverageWalk(mergeTakes(before, after), scope), {
    files: [
      {
        file: 'router/a.ts',
        functions: [
          { name: 'a', calls: 3 },
          { name: 'b', calls: 1 },
        ],
      },
      { file: 'router/c.ts', functions: [{ name: 'c', calls: 1 }] },
    ],
    functionCount: 3,
    callCount: 5,
  });
});
