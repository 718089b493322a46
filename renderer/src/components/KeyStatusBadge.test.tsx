import { render, screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { KeyStatusBadge } from './KeyStatusBadge.js';

test('a catalogue provider without a key needs none; one added in the config is called without one', () => {
  render(<KeyStatusBadge status="not_required" source={null} />);
  expect(screen.getByText('no key needed')).toBeTruthy();
  render(<KeyStatusBadge status="not_required" source={null} custom />);
  expect(screen.getByText('no key: sent without one').getAttribute('title')).toBe(
    'Called without a key until one is added',
  );
});

test('a key from the environment names its variable', () => {
  render(<KeyStatusBadge status="env" source="GROQ_API_KEY" custom />);
  expect(screen.getByText('key from env').getAttribute('title')).toBe(
    'From the environment variable GROQ_API_KEY',
  );
});
