/**
 * What a face's stream costs, alone: the fast upstream's 200-chunk stream through the gate's stream
 * tracker, the stream shaper (with the default settings: tool calls checked), the answer's record of what
 * was sent and each face's encoder, in process, the way the engine drives them (hold until content, commit,
 * pass the rest, end, close). CPU time and V8 heap allocations per stream, per face: the part of a face's
 * 64-client figures that is its own, without the HTTP work around it or the shared machine's noise.
 */
import { DEFAULT_CONFIG } from '../../router/config/schema.js';
import { encodePart, type AnswerEncoder } from '../../router/faces/answer-encoder.js';
import { SentLines } from '../../router/engine/stream/answer-so-far.js';
import { shapingRules } from '../../router/engine/stream/shaping-rules.js';
import { StreamShaper } from '../../router/engine/stream/stream-shaper.js';
import { checkedToolNames } from '../../router/gate/answer-rules.js';
import { ChatEncoder, MessagesEncoder, ResponsesEncoder } from '../../router/faces/index.js';
import type { StreamPart } from '../../router/gate/stream-part.js';
import { StreamTracker } from '../../router/gate/stream-tracker.js';
import { streamWrites } from '../fake-upstream-fast.js';
import { heapCounter } from '../heap-count.mjs';
import type { RequestCost } from '../process-cost.js';
import { FACE_NAMES, type FaceName } from './faces.js';

const FAILOVER = DEFAULT_CONFIG.router.failover;
const REQUEST = { model: 'fcm', stream: true, messages: [{ role: 'user', content: 'Say something.' }] };
const discard = (): void => undefined;

function encoderFor(face: FaceName, stream: number): AnswerEncoder {
  const idStem = `bench${stream}`;
  if (face === 'messages') return new MessagesEncoder({ idStem, model: 'fcm' });
  if (face === 'responses')
    return new ResponsesEncoder({ idStem, model: 'fcm', createdAt: 0, toolNames: new Map() });
  return new ChatEncoder();
}

/** What the client would get: each piece the encoder writes, in order. */
export type ClientSink = (out: Uint8Array | string) => void;

/** One stream through the gate and the shaper into `encoder`, what it writes handed to `sink`. */
export function encodeStream(encoder: AnswerEncoder, writes: readonly Buffer[], sink: ClientSink): void {
  const reading = encoder.reads;
  const tracker = new StreamTracker({ holdLimitBytes: FAILOVER.holdBufferBytes, reading });
  const shaper = new StreamShaper(
    shapingRules(
      { tools: checkedToolNames(REQUEST, FAILOVER.contentValidation), forced: null },
      FAILOVER,
      null,
    ),
    reading,
  );
  const sent = new SentLines();
  const write = (part: StreamPart | null): void => {
    if (part === null) return;
    sent.add(part);
    const out = encodePart(encoder, part);
    if (out !== null) sink(out);
  };
  const send = (part: StreamPart | null): void => {
    if (part !== null) write(shaper.shape(part).out);
  };
  let committed = false;
  for (const chunk of writes) {
    if (committed) send(tracker.pass(chunk).forward);
    else if (tracker.hold(chunk).type !== 'pending') {
      committed = true;
      const first = tracker.commit().forward;
      shaper.readAlready(tracker.takeReadFrames());
      send(first);
    }
  }
  const last = tracker.end().forward;
  shaper.readAlready(tracker.takeReadFrames());
  send(last);
  write(shaper.end().out);
  const close = encoder.streamClose(sent.tail());
  if (close !== null) sink(close);
}

/** `streams` streams per face, after as many to warm up: each face's CPU time and heap per stream. */
export function measureFaceEncoding(streams: number): Record<FaceName, RequestCost> {
  const writes = streamWrites();
  const out = {} as Record<FaceName, RequestCost>;
  for (const face of FACE_NAMES) {
    for (let i = 0; i < streams; i += 1) encodeStream(encoderFor(face, i), writes, discard);
    const allocated = heapCounter();
    const cpu = process.cpuUsage();
    for (let i = 0; i < streams; i += 1) encodeStream(encoderFor(face, i), writes, discard);
    const used = process.cpuUsage(cpu);
    out[face] = { cpuUs: (used.user + used.system) / streams, heapKb: allocated() / 1024 / streams };
  }
  return out;
}
