/**
 * The exact bytes the translating faces write for a few short streams: what the event-level tests read as
 * parsed JSON, pinned here byte for byte, so that a change in how events are built cannot change what a
 * client receives (key order, escapes, sequence numbers, ids).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessagesEncoder } from './anthropic-encoder.js';
import { ResponsesEncoder } from './responses-encoder.js';
import { chunk, DONE, runStream, toolPiece, usageChunk } from './test-kit.js';

const toolNames = new Map([['ns__run', { namespace: 'ns', name: 'run' }]]);
const messages = (): MessagesEncoder =>
  new MessagesEncoder({ idStem: 'req1', model: 'fcm', thinking: 'text', inputTokens: 42 });
const responses = (): ResponsesEncoder =>
  new ResponsesEncoder({ idStem: 'req2', model: 'fcm', createdAt: 1_800_000_000, toolNames });

/** Reasoning, text that needs escapes, a tool call split in two, one without an id, usage with cached tokens. */
const WHOLE = [
  chunk({ role: 'assistant', reasoning_content: 'Plan' }) +
    chunk({ reasoning_content: ' "it"\t\u0001\ud83d' }),
  chunk({ content: 'Line\n' }) + chunk({ content: 'é ✓ 😀 \\ \u2028' }),
  chunk({ tool_calls: [toolPiece(0, 'call_a', 'ns__run', '{"cmd":')] }),
  chunk({ tool_calls: [toolPiece(0, null, null, '"ls"}')] }),
  chunk({ tool_calls: [toolPiece(1, null, 'read', '{}')] }, 'tool_calls'),
  usageChunk(30, 7, { prompt_tokens_details: { cached_tokens: 10 } }) + DONE,
];
/** Text cut short by the length limit, no usage. */
const CUT = [chunk({ content: 'Hel' }), chunk({ content: 'lo' }, 'length') + DONE];
/** Text and usage, then the stream breaks. */
const BROKEN = [chunk({ content: 'Hel' }), usageChunk(5, 1)];

const MESSAGES_WHOLE = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_req1","type":"message","role":"assistant","model":"fcm","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":42,"output_tokens":0}}}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Plan"}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" \\"it\\"\\t\\u0001\\ud83d"}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"fcm-router"}}\n\n',
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Line\\n"}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"é ✓ 😀 \\\\ \u2028"}}\n\n',
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":1}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"call_a","name":"ns__run","input":{}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\\"cmd\\":"}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"\\"ls\\"}"}}\n\n',
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":2}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_req1_1","name":"read","input":{}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{}"}}\n\n',
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":3}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":7,"input_tokens":20,"cache_read_input_tokens":10}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
];

const MESSAGES_CUT = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_req1","type":"message","role":"assistant","model":"fcm","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":42,"output_tokens":0}}}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo"}}\n\n',
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":0,"input_tokens":42}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
];

const MESSAGES_FAILED = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_req1","type":"message","role":"assistant","model":"fcm","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":42,"output_tokens":0}}}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}\n\n',
  'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"fcm-router: the stream from up/m failed after part of the answer was sent (mid_stream_error); this answer is incomplete"}}\n\n',
];

const RESPONSES_WHOLE = [
  'event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_req2","object":"response","created_at":1800000000,"status":"in_progress","error":null,"incomplete_details":null,"model":"fcm","output":[],"output_text":"","usage":null,"metadata":{}}}\n\n',
  'event: response.in_progress\ndata: {"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_req2","object":"response","created_at":1800000000,"status":"in_progress","error":null,"incomplete_details":null,"model":"fcm","output":[],"output_text":"","usage":null,"metadata":{}}}\n\n',
  'event: response.output_item.added\ndata: {"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"rs_req2_0","type":"reasoning","summary":[]}}\n\n',
  'event: response.reasoning_summary_part.added\ndata: {"type":"response.reasoning_summary_part.added","sequence_number":3,"item_id":"rs_req2_0","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":""}}\n\n',
  'event: response.reasoning_summary_text.delta\ndata: {"type":"response.reasoning_summary_text.delta","sequence_number":4,"item_id":"rs_req2_0","output_index":0,"summary_index":0,"delta":"Plan"}\n\n',
  'event: response.reasoning_summary_text.delta\ndata: {"type":"response.reasoning_summary_text.delta","sequence_number":5,"item_id":"rs_req2_0","output_index":0,"summary_index":0,"delta":" \\"it\\"\\t\\u0001\\ud83d"}\n\n',
  'event: response.reasoning_summary_text.done\ndata: {"type":"response.reasoning_summary_text.done","sequence_number":6,"item_id":"rs_req2_0","output_index":0,"summary_index":0,"text":"Plan \\"it\\"\\t\\u0001\\ud83d"}\n\n',
  'event: response.reasoning_summary_part.done\ndata: {"type":"response.reasoning_summary_part.done","sequence_number":7,"item_id":"rs_req2_0","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":"Plan \\"it\\"\\t\\u0001\\ud83d"}}\n\n',
  'event: response.output_item.done\ndata: {"type":"response.output_item.done","sequence_number":8,"output_index":0,"item":{"id":"rs_req2_0","type":"reasoning","summary":[{"type":"summary_text","text":"Plan \\"it\\"\\t\\u0001\\ud83d"}]}}\n\n',
  'event: response.output_item.added\ndata: {"type":"response.output_item.added","sequence_number":9,"output_index":1,"item":{"id":"msg_req2_1","type":"message","status":"in_progress","role":"assistant","content":[]}}\n\n',
  'event: response.content_part.added\ndata: {"type":"response.content_part.added","sequence_number":10,"item_id":"msg_req2_1","output_index":1,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}\n\n',
  'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":11,"item_id":"msg_req2_1","output_index":1,"content_index":0,"delta":"Line\\n","logprobs":[]}\n\n',
  'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":12,"item_id":"msg_req2_1","output_index":1,"content_index":0,"delta":"é ✓ 😀 \\\\ \u2028","logprobs":[]}\n\n',
  'event: response.output_text.done\ndata: {"type":"response.output_text.done","sequence_number":13,"item_id":"msg_req2_1","output_index":1,"content_index":0,"text":"Line\\né ✓ 😀 \\\\ \u2028","logprobs":[]}\n\n',
  'event: response.content_part.done\ndata: {"type":"response.content_part.done","sequence_number":14,"item_id":"msg_req2_1","output_index":1,"content_index":0,"part":{"type":"output_text","text":"Line\\né ✓ 😀 \\\\ \u2028","annotations":[]}}\n\n',
  'event: response.output_item.done\ndata: {"type":"response.output_item.done","sequence_number":15,"output_index":1,"item":{"id":"msg_req2_1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Line\\né ✓ 😀 \\\\ \u2028","annotations":[]}]}}\n\n',
  'event: response.output_item.added\ndata: {"type":"response.output_item.added","sequence_number":16,"output_index":2,"item":{"id":"fc_req2_2","type":"function_call","status":"in_progress","arguments":"","call_id":"call_a","name":"run","namespace":"ns"}}\n\n',
  'event: response.function_call_arguments.delta\ndata: {"type":"response.function_call_arguments.delta","sequence_number":17,"item_id":"fc_req2_2","output_index":2,"delta":"{\\"cmd\\":"}\n\n',
  'event: response.function_call_arguments.delta\ndata: {"type":"response.function_call_arguments.delta","sequence_number":18,"item_id":"fc_req2_2","output_index":2,"delta":"\\"ls\\"}"}\n\n',
  'event: response.function_call_arguments.done\ndata: {"type":"response.function_call_arguments.done","sequence_number":19,"item_id":"fc_req2_2","output_index":2,"name":"run","arguments":"{\\"cmd\\":\\"ls\\"}"}\n\n',
  'event: response.output_item.done\ndata: {"type":"response.output_item.done","sequence_number":20,"output_index":2,"item":{"id":"fc_req2_2","type":"function_call","status":"completed","arguments":"{\\"cmd\\":\\"ls\\"}","call_id":"call_a","name":"run","namespace":"ns"}}\n\n',
  'event: response.output_item.added\ndata: {"type":"response.output_item.added","sequence_number":21,"output_index":3,"item":{"id":"fc_req2_3","type":"function_call","status":"in_progress","arguments":"","call_id":"call_req2_1","name":"read"}}\n\n',
  'event: response.function_call_arguments.delta\ndata: {"type":"response.function_call_arguments.delta","sequence_number":22,"item_id":"fc_req2_3","output_index":3,"delta":"{}"}\n\n',
  'event: response.function_call_arguments.done\ndata: {"type":"response.function_call_arguments.done","sequence_number":23,"item_id":"fc_req2_3","output_index":3,"name":"read","arguments":"{}"}\n\n',
  'event: response.output_item.done\ndata: {"type":"response.output_item.done","sequence_number":24,"output_index":3,"item":{"id":"fc_req2_3","type":"function_call","status":"completed","arguments":"{}","call_id":"call_req2_1","name":"read"}}\n\n',
  'event: response.completed\ndata: {"type":"response.completed","sequence_number":25,"response":{"id":"resp_req2","object":"response","created_at":1800000000,"status":"completed","error":null,"incomplete_details":null,"model":"fcm","output":[{"id":"rs_req2_0","type":"reasoning","summary":[{"type":"summary_text","text":"Plan \\"it\\"\\t\\u0001\\ud83d"}]},{"id":"msg_req2_1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Line\\né ✓ 😀 \\\\ \u2028","annotations":[]}]},{"id":"fc_req2_2","type":"function_call","status":"completed","arguments":"{\\"cmd\\":\\"ls\\"}","call_id":"call_a","name":"run","namespace":"ns"},{"id":"fc_req2_3","type":"function_call","status":"completed","arguments":"{}","call_id":"call_req2_1","name":"read"}],"output_text":"Line\\né ✓ 😀 \\\\ \u2028","usage":{"input_tokens":30,"input_tokens_details":{"cached_tokens":10},"output_tokens":7,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":37},"metadata":{}}}\n\n',
];

const RESPONSES_CUT = [
  'event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_req2","object":"response","created_at":1800000000,"status":"in_progress","error":null,"incomplete_details":null,"model":"fcm","output":[],"output_text":"","usage":null,"metadata":{}}}\n\n',
  'event: response.in_progress\ndata: {"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_req2","object":"response","created_at":1800000000,"status":"in_progress","error":null,"incomplete_details":null,"model":"fcm","output":[],"output_text":"","usage":null,"metadata":{}}}\n\n',
  'event: response.output_item.added\ndata: {"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"msg_req2_0","type":"message","status":"in_progress","role":"assistant","content":[]}}\n\n',
  'event: response.content_part.added\ndata: {"type":"response.content_part.added","sequence_number":3,"item_id":"msg_req2_0","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}\n\n',
  'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_req2_0","output_index":0,"content_index":0,"delta":"Hel","logprobs":[]}\n\n',
  'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":5,"item_id":"msg_req2_0","output_index":0,"content_index":0,"delta":"lo","logprobs":[]}\n\n',
  'event: response.output_text.done\ndata: {"type":"response.output_text.done","sequence_number":6,"item_id":"msg_req2_0","output_index":0,"content_index":0,"text":"Hello","logprobs":[]}\n\n',
  'event: response.content_part.done\ndata: {"type":"response.content_part.done","sequence_number":7,"item_id":"msg_req2_0","output_index":0,"content_index":0,"part":{"type":"output_text","text":"Hello","annotations":[]}}\n\n',
  'event: response.output_item.done\ndata: {"type":"response.output_item.done","sequence_number":8,"output_index":0,"item":{"id":"msg_req2_0","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Hello","annotations":[]}]}}\n\n',
  'event: response.incomplete\ndata: {"type":"response.incomplete","sequence_number":9,"response":{"id":"resp_req2","object":"response","created_at":1800000000,"status":"incomplete","error":null,"incomplete_details":{"reason":"max_output_tokens"},"model":"fcm","output":[{"id":"msg_req2_0","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Hello","annotations":[]}]}],"output_text":"Hello","usage":null,"metadata":{}}}\n\n',
];

const RESPONSES_FAILED = [
  'event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_req2","object":"response","created_at":1800000000,"status":"in_progress","error":null,"incomplete_details":null,"model":"fcm","output":[],"output_text":"","usage":null,"metadata":{}}}\n\n',
  'event: response.in_progress\ndata: {"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_req2","object":"response","created_at":1800000000,"status":"in_progress","error":null,"incomplete_details":null,"model":"fcm","output":[],"output_text":"","usage":null,"metadata":{}}}\n\n',
  'event: response.output_item.added\ndata: {"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"msg_req2_0","type":"message","status":"in_progress","role":"assistant","content":[]}}\n\n',
  'event: response.content_part.added\ndata: {"type":"response.content_part.added","sequence_number":3,"item_id":"msg_req2_0","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}\n\n',
  'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_req2_0","output_index":0,"content_index":0,"delta":"Hel","logprobs":[]}\n\n',
  'event: response.failed\ndata: {"type":"response.failed","sequence_number":5,"response":{"id":"resp_req2","object":"response","created_at":1800000000,"status":"failed","error":{"code":"rate_limit_exceeded","message":"fcm-router: the stream from up/m failed after part of the answer was sent (rate_limit); this answer is incomplete"},"incomplete_details":null,"model":"fcm","output":[{"id":"msg_req2_0","type":"message","status":"incomplete","role":"assistant","content":[{"type":"output_text","text":"Hel","annotations":[]}]}],"output_text":"Hel","usage":{"input_tokens":5,"input_tokens_details":{"cached_tokens":0},"output_tokens":1,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":6},"metadata":{}}}\n\n',
];

const FACES = [
  { face: 'Messages', encoder: messages, whole: MESSAGES_WHOLE, cut: MESSAGES_CUT, failed: MESSAGES_FAILED },
  {
    face: 'Responses',
    encoder: responses,
    whole: RESPONSES_WHOLE,
    cut: RESPONSES_CUT,
    failed: RESPONSES_FAILED,
  },
] as const;

for (const { face, encoder, whole, cut, failed } of FACES) {
  test(`a ${face} stream, whole and cut short, byte for byte`, () => {
    assert.equal(runStream(encoder(), WHOLE), whole.join(''));
    assert.equal(runStream(encoder(), CUT), cut.join(''));
  });

  test(`a ${face} stream that breaks after content, byte for byte`, () => {
    const broken = encoder();
    const sent = runStream(broken, BROKEN, false);
    const kind = face === 'Messages' ? 'mid_stream_error' : 'rate_limit';
    assert.equal(sent + broken.streamFailure(kind, 'up/m'), failed.join(''));
  });
}
