import { expect, test } from 'vitest';
import type { ProviderView } from '../../../router/api-types.js';
import { providerView } from '../test-support/fixtures.js';
import { usability } from './usable-models.js';

const provider = (id: string, over: Partial<ProviderView>, models = 2): ProviderView =>
  providerView(id, {
    name: id.toUpperCase(),
    keyStatus: 'missing',
    keySource: null,
    models: Array.from({ length: models }, (_, i) => ({
      key: `${id}/m${i}`,
      modelId: `m${i}`,
      label: null,
      tier: null,
      sweScore: null,
      context: null,
      vanished: false,
    })),
    ...over,
  });

test('a first run: keyless providers are usable, the others wait for a key', () => {
  const result = usability([
    provider('kilo', { keyStatus: 'not_required' }, 3),
    provider('llm7', { keyStatus: 'not_required' }, 1),
    provider('groq', {}, 5),
    provider('cf', { unresolvable: true }, 4),
    provider('off', { enabled: false, keyStatus: 'set' }, 9),
    provider('mine', { keyStatus: 'set' }, 1),
  ]);
  expect(result).toEqual({ usableModels: 5, keyless: ['KILO', 'LLM7'], needKey: 1, needKeyModels: 5 });
});
