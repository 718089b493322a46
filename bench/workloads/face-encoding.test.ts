import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AnswerEncoder } from '../../router/faces/answer-encoder.js';
import { ChatEncoder, MessagesEncoder, ResponsesEncoder } from '../../router/faces/index.js';
import { STREAM_CHUNKS, streamWrites } from '../fake-upstream-fast.js';
import { encodeStream, measureFaceEncoding } from './face-encoding.js';

/** Everything the client would get from `encoder`, as text. */
function sent(encoder: AnswerEncoder): string {
  let text = '';
  encodeStream(encoder, streamWrites(), (out) => {
    text += typeof out === 'string' ? out : Buffer.from(out).toString('utf8');
  });
  return text;
}

describe('encodeStream', () => {
  it("drives each face's whole stream through the gate, to the face's own end", () => {
    const chat = sent(new ChatEncoder());
    assert.equal(chat.split('"content":"tok "').length - 1, STREAM_CHUNKS);
    assert.ok(chat.endsWith('data: [DONE]\n\n'));
    const messages = sent(new MessagesEncoder({ idStem: 'r1', model: 'fcm' }));
    assert.equal(messages.split('"text_delta"').length - 1, STREAM_CHUNKS);
    assert.ok(messages.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n'));
    const responses = sent(
      new ResponsesEncoder({ idStem: 'r1', model: 'fcm', createdAt: 0, toolNames: new Map() }),
    );
    assert.equal(responses.split('event: response.output_text.delta').length - 1, STREAM_CHUNKS);
    assert.match(responses, /event: response\.completed\n[^\n]*\n\n$/);
  });
});

describe('measureFaceEncoding', () => {
  it('gives every face a CPU time and a heap figure per stream, translation costing more than relaying', () => {
    const cost = measureFaceEncoding(50);
    for (const face of ['chat', 'messages', 'responses'] as const) {
      assert.ok(Number.isFinite(cost[face].cpuUs) && cost[face].cpuUs > 0, face);
      assert.ok(Number.isFinite(cost[face].heapKb) && cost[face].heapKb > 0, face);
    }
    // Each translated chunk is parsed and written anew; relayed ones are not.
    assert.ok(cost.messages.heapKb > 2 * cost.chat.heapKb, JSON.stringify(cost));
    assert.ok(cost.responses.heapKb > 2 * cost.chat.heapKb, JSON.stringify(cost));
  });
});
