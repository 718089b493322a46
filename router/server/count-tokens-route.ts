import type { IncomingMessage, ServerResponse } from 'node:http';
import { Answer } from '../engine/answer/answer.js';
import { clientError } from '../engine/answer/final-answer.js';
import { countMessagesTokens, MessagesEncoder } from '../faces/index.js';
import { freshIdStem } from '../gate/minted-ids.js';
import { readFaceBody, requestIdOf, type RefuseRequest } from './face-route.js';
import { sendJson } from './respond.js';

/**
 * `POST /v1/messages/count_tokens`: Claude Code asks how long a conversation is. Answered here with an
 * estimate (no provider counts tokens for Anthropic's format, and the question is not worth a request of
 * anybody's free quota); errors in Anthropic's shape.
 */
export async function handleCountTokens(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = requestIdOf(req);
  // Not recorded: a count is no request for an answer (its answers are not recorded either).
  const refuse: RefuseRequest = ({ error, headers, answered }) => {
    if (answered === true) return;
    const encoder = new MessagesEncoder({ idStem: freshIdStem(), model: 'fcm' });
    new Answer(res, encoder, requestId).refuse(error, 'rejected', headers);
  };
  const read = await readFaceBody(req, res, refuse);
  if (read === null) return;
  const counted = countMessagesTokens(read.body, read.bytes);
  if (!counted.ok) {
    const message = counted.message.startsWith('fcm-router:')
      ? counted.message
      : `fcm-router: ${counted.message}`;
    return refuse({ error: clientError(400, 'invalid_request', message) });
  }
  sendJson(res, 200, counted.body, { 'x-request-id': requestId });
}
