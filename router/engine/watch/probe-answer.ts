import type { AnswerEncoder } from '../../faces/answer-encoder.js';
import { Answer, type AnswerTarget } from '../answer/answer.js';

/** Nobody reads a probe's answer: the gate's verdict is all it is for. */
const SINK: AnswerTarget = {
  headersSent: false,
  destroyed: false,
  writableEnded: false,
  writeHead: () => undefined,
  write: () => true,
  end: () => undefined,
  once: () => undefined,
  off: () => undefined,
};

const DISCARD: AnswerEncoder = {
  face: 'chat',
  // Bytes: the gate's cheapest reading (no frame is parsed after the commit).
  reads: 'bytes',
  json: () => '',
  streamBytes: () => null,
  streamClose: () => null,
  streamFailure: () => '',
  error: () => '',
};

/** The answer of a health probe: it goes through the same gate and bookkeeping, and is thrown away. */
export function probeAnswer(requestId: string): Answer {
  return new Answer(SINK, DISCARD, requestId);
}
