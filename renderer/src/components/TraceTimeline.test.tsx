import { render, screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import type { HistoryEntry } from '../../../router/api-types.js';
import { TraceTimeline } from './TraceTimeline.js';

const failover: HistoryEntry = {
  requestId: 'req-1',
  at: 0,
  modelRequested: 'fcm',
  set: 'default',
  pinned: null,
  servedModel: 'demo-fast/coder',
  outcome: 'served',
  stream: false,
  wallMs: 400,
  attempts: [
    {
      model: 'demo-flaky/empty-200',
      status: 200,
      kind: 'empty_choices',
      latencyMs: 120,
      breakerBefore: 'CLOSED',
      role: 'normal',
    },
    {
      model: 'demo-fast/coder',
      status: 200,
      kind: null,
      latencyMs: 250,
      breakerBefore: 'HALF_OPEN',
      role: 'trial',
    },
  ],
  skipped: [{ model: 'demo-limited/rate-limited', reason: 'quota_paused' }],
  client: 'opencode/1.0',
  clientStatus: 200,
  lastResortUsed: false,
  source: 'agent',
  api: 'chat',
  usage: null,
};

test('draws each skip, each attempt with status or kind and latency, then the result, in order', () => {
  render(<TraceTimeline entry={failover} />);
  const steps = within(screen.getByRole('list', { name: 'Decision trace of req-1' })).getAllByRole(
    'listitem',
  );
  expect(steps).toHaveLength(4);

  expect(steps[0]).toHaveTextContent('skipped');
  expect(steps[0]).toHaveTextContent('demo-limited/rate-limited');
  expect(steps[0]).toHaveTextContent('quota_paused');

  expect(steps[1]).toHaveTextContent('attempt 1');
  expect(steps[1]).toHaveTextContent('demo-flaky/empty-200');
  expect(steps[1]).toHaveTextContent('empty_choices');
  expect(steps[1]).toHaveTextContent('HTTP 200');
  expect(steps[1]).toHaveTextContent('120 ms');
  expect(steps[1]).toHaveClass('trace-fail');

  expect(steps[2]).toHaveTextContent('attempt 2');
  expect(steps[2]).toHaveTextContent('served');
  expect(steps[2]).toHaveTextContent('250 ms');
  expect(steps[2]).toHaveTextContent('breaker was HALF_OPEN');
  expect(steps[2]).toHaveTextContent('trial');
  expect(steps[2]).toHaveClass('trace-ok');

  expect(steps[3]).toHaveTextContent('served by');
  expect(steps[3]).toHaveTextContent('demo-fast/coder');
  expect(steps[3]).toHaveTextContent('HTTP 200 to the agent');
});

test('a request that failed everywhere ends in its outcome, and a transport failure shows no status', () => {
  render(
    <TraceTimeline
      entry={{
        ...failover,
        requestId: 'req-2',
        outcome: 'all_failed',
        servedModel: null,
        clientStatus: 504,
        skipped: [],
        lastResortUsed: true,
        attempts: [
          {
            model: 'demo-slow/hang',
            status: null,
            kind: 'timeout',
            latencyMs: 15000,
            breakerBefore: 'CLOSED',
            role: 'last_resort',
          },
        ],
      }}
    />,
  );
  const steps = within(screen.getByRole('list', { name: 'Decision trace of req-2' })).getAllByRole(
    'listitem',
  );
  expect(steps).toHaveLength(2);
  expect(steps[0]).toHaveTextContent('timeout');
  expect(steps[0]).toHaveTextContent('no response');
  expect(steps[0]).toHaveTextContent('last resort');
  expect(steps[1]).toHaveTextContent('all failed');
  expect(steps[1]).toHaveTextContent('HTTP 504 to the agent');
  expect(steps[1]).not.toHaveTextContent('served by');
});

test('a hedged race shows the stopped attempt as hedge_lost and tags the hedge that served', () => {
  render(
    <TraceTimeline
      entry={{
        ...failover,
        requestId: 'req-3',
        skipped: [],
        attempts: [
          {
            model: 'demo-slow/hang',
            status: null,
            kind: 'hedge_lost',
            latencyMs: 2300,
            breakerBefore: 'CLOSED',
            role: 'normal',
          },
          {
            model: 'demo-fast/coder',
            status: 200,
            kind: null,
            latencyMs: 300,
            breakerBefore: 'CLOSED',
            role: 'hedge',
          },
        ],
      }}
    />,
  );
  const steps = within(screen.getByRole('list', { name: 'Decision trace of req-3' })).getAllByRole(
    'listitem',
  );
  expect(steps[0]).toHaveTextContent('hedge_lost');
  expect(within(steps[0] as HTMLElement).getByText('hedge_lost')).toHaveAttribute(
    'title',
    expect.stringContaining('not blamed'),
  );
  expect(within(steps[1] as HTMLElement).getByText('hedge')).toHaveAttribute(
    'title',
    expect.stringContaining('hedge delay'),
  );
  expect(steps[2]).toHaveTextContent('served by');
});

test('a fit skip shows the limit it was over; a sticky request says so', () => {
  const entry: HistoryEntry = {
    ...failover,
    skipped: [{ model: 'cerebras/gpt-oss-120b', reason: 'context_window', limit: 65_000 }],
    sticky: 'demo-fast/coder',
    size: 110_000,
  };
  render(<TraceTimeline entry={entry} />);
  expect(screen.getByText('context_window')).toBeTruthy();
  expect(screen.getByText('limit 65,000 tokens')).toBeTruthy();
  expect(screen.getByText('sticky').getAttribute('title')).toContain('demo-fast/coder');
  expect(screen.getByText('~110,000 tokens')).toBeTruthy();
});

test('a model asked last for refusing what another model served is its own step, after the skips', () => {
  render(<TraceTimeline entry={{ ...failover, behind: ['strict/m'] }} />);
  const steps = within(screen.getByRole('list', { name: 'Decision trace of req-1' })).getAllByRole(
    'listitem',
  );
  expect(steps).toHaveLength(5);
  expect(steps[1]).toHaveTextContent('asked last');
  expect(steps[1]).toHaveTextContent('strict/m');
  expect(steps[1]).toHaveTextContent('it refused a request another model served within the hour');
  expect(steps[2]).toHaveTextContent('attempt 1');
});

test('a refused request shows the error code the agent got and the field at fault', () => {
  const refused: HistoryEntry = {
    ...failover,
    requestId: 'req-2',
    servedModel: null,
    outcome: 'rejected',
    attempts: [],
    skipped: [],
    clientStatus: 400,
    refusal: { code: 'invalid_request', param: 'messages[0].content[1].source' },
  };
  render(<TraceTimeline entry={refused} />);
  const steps = within(screen.getByRole('list', { name: 'Decision trace of req-2' })).getAllByRole(
    'listitem',
  );
  expect(steps).toHaveLength(1);
  expect(steps[0]).toHaveTextContent('HTTP 400 to the agent');
  expect(steps[0]).toHaveTextContent('invalid_request at messages[0].content[1].source');
});

test('an attempt says what the router changed in its request or its answer', () => {
  const noted: HistoryEntry = {
    ...failover,
    attempts: [
      {
        ...(failover.attempts[1] as HistoryEntry['attempts'][number]),
        note: "tool calls read from the answer's text",
      },
    ],
    skipped: [],
  };
  render(<TraceTimeline entry={noted} />);
  const steps = within(screen.getByRole('list', { name: 'Decision trace of req-1' })).getAllByRole(
    'listitem',
  );
  expect(steps[0]).toHaveTextContent("tool calls read from the answer's text");
});
