import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createBufferedLogger } from '../../cli/cli-logger.js';
import { TestClock } from '../../test-support/test-clock.js';
import { logText } from './log-text.js';

test('log text: control characters, separators and bidi overrides are escaped, the rest kept', () => {
  assert.equal(logText('groq/llama-3.3 通义 é'), 'groq/llama-3.3 通义 é');
  assert.equal(logText('a\r\nb'), 'a\\x0d\\x0ab');
  assert.equal(logText('\u001b[31mred\0'), '\\x1b[31mred\\x00');
  assert.equal(logText('x\u0085y\u2028z\u202e'), 'x\\x85y\\u2028z\\u202e');
});

test('the daemon logger writes every line as one line, escaped', () => {
  let out = '';
  let err = '';
  const logger = createBufferedLogger(
    { write: (text: string) => (out += text) },
    { write: (text: string) => (err += text) },
    { time: new TestClock(0) },
  );
  logger.info('served fcm:\nforged line');
  logger.warn('model \u001b[2Jcleared');
  logger.flush();
  assert.equal(out.split('\n').length, 2);
  assert.match(out, /served fcm:\\x0aforged line\n$/);
  assert.match(err, /warn: model \\x1b\[2Jcleared\n$/);
});
