import { describe, expect, test } from 'vitest';
import type { ProviderView } from '../../../router/api-types.js';
import { providerView } from '../test-support/fixtures.js';
import { lastResortChoices, lastResortWarning } from './last-resort.js';

function provider(id: string, over: Partial<ProviderView>, models: string[]): ProviderView {
  return providerView(id, {
    name: id.toUpperCase(),
    models: models.map((modelId) => ({
      key: `${id}/${modelId}`,
      modelId,
      label: null,
      tier: null,
      sweScore: null,
      context: null,
      vanished: modelId.startsWith('gone'),
    })),
    ...over,
  });
}

const PROVIDERS = [
  provider('groq', { keyStatus: 'missing' }, ['llama']),
  provider('mine', {}, ['m1', 'gone-1']),
  provider('free', { keyStatus: 'not_required' }, ['f1']),
  provider('off', { enabled: false }, ['o1']),
];

describe('last-resort picker', () => {
  test('usable models first, then the others with why they cannot serve; vanished ones left out', () => {
    expect(lastResortChoices(PROVIDERS, '')).toEqual([
      {
        label: 'Usable now',
        choices: [
          { key: 'mine/m1', text: 'mine/m1' },
          { key: 'free/f1', text: 'free/f1' },
        ],
      },
      {
        label: 'Cannot serve yet',
        choices: [
          { key: 'groq/llama', text: 'groq/llama — GROQ: no key' },
          { key: 'off/o1', text: 'off/o1 — OFF: switched off' },
        ],
      },
    ]);
  });

  test('a value the catalogue lacks is still offered, so the picker shows what the config says', () => {
    const groups = lastResortChoices(PROVIDERS, 'nope/x');
    expect(groups.at(-1)).toEqual({
      label: 'Not in the catalogue',
      choices: [{ key: 'nope/x', text: 'nope/x' }],
    });
  });

  test('warns when the chosen model’s provider has no key, is off, or no longer lists it', () => {
    expect(lastResortWarning(PROVIDERS, 'groq/llama')).toBe(
      'GROQ has no key: add one in Providers, or this model cannot serve as the last resort.',
    );
    expect(lastResortWarning(PROVIDERS, 'off/o1')).toMatch(/^OFF is switched off in Providers/);
    expect(lastResortWarning(PROVIDERS, 'mine/gone-1')).toMatch(/^MINE no longer lists this model/);
    expect(lastResortWarning(PROVIDERS, 'mine/m1')).toBeNull();
    expect(lastResortWarning(PROVIDERS, '')).toBeNull();
  });
});
