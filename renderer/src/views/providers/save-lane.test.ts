import { expect, test } from 'vitest';
import { SaveLane } from './save-lane.js';

/** The lane's queued work runs on: a macrotask lets every pending promise settle first. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A save the test settles by hand, recording the revision it was sent with. */
function heldSave(sentWith: string[]) {
  let settle = (_revision: string | Error): void => {};
  const save = (revision: string) => {
    sentWith.push(revision);
    return new Promise<{ revision: string }>((resolve, reject) => {
      settle = (answer) => (answer instanceof Error ? reject(answer) : resolve({ revision: answer }));
    });
  };
  return { save, settle: (answer: string | Error) => settle(answer) };
}

test('a save waits for the one before it, then goes with the revision that one made', async () => {
  const lane = new SaveLane();
  const sentWith: string[] = [];
  const limits = heldSave(sentWith);
  const probes = heldSave(sentWith);
  const first = lane.run('rev-1', limits.save);
  const second = lane.run('rev-1', probes.save);
  await tick();
  expect(sentWith).toEqual(['rev-1']);
  limits.settle('rev-2');
  await expect(first).resolves.toEqual({ revision: 'rev-2' });
  await tick();
  expect(sentWith).toEqual(['rev-1', 'rev-2']);
  probes.settle('rev-3');
  await expect(second).resolves.toEqual({ revision: 'rev-3' });
  // A form filled in at any revision of the lane's chain saves at its newest.
  const later = heldSave(sentWith);
  const third = lane.run('rev-1', later.save);
  await tick();
  later.settle('rev-4');
  await third;
  expect(sentWith).toEqual(['rev-1', 'rev-2', 'rev-3']);
});

test("a refused save makes no revision, and the lane goes on with the next save's own", async () => {
  const lane = new SaveLane();
  const sentWith: string[] = [];
  const refused = heldSave(sentWith);
  const next = heldSave(sentWith);
  const first = lane.run('rev-1', refused.save);
  const second = lane.run('rev-5', next.save);
  await tick();
  refused.settle(new Error('409'));
  await expect(first).rejects.toThrow('409');
  await tick();
  next.settle('rev-6');
  await expect(second).resolves.toEqual({ revision: 'rev-6' });
  expect(sentWith).toEqual(['rev-1', 'rev-5']);
});

test('a revision made by no save of the lane is sent as it is', async () => {
  const lane = new SaveLane();
  const sentWith: string[] = [];
  const save = heldSave(sentWith);
  const done = lane.run('rev-on-disk', save.save);
  await tick();
  save.settle('rev-after');
  await done;
  expect(sentWith).toEqual(['rev-on-disk']);
});
