import type { IncomingMessage, ServerResponse } from 'node:http';
import { FACE_ROUTES, type ApiFace } from '../api-types.js';
import type { LiveConfig } from '../config/live-config.js';
import { Answer } from '../engine/answer/answer.js';
import { clientError } from '../engine/answer/final-answer.js';
import type { ErrorAnswer } from '../faces/answer-encoder.js';
import { advertisedModelNames, pinnableModels } from '../engine/routing/model-names.js';
import type { RouterEngine } from '../engine/router-engine.js';
import type { ResponseItemStore } from '../faces/index.js';
import type { Clock } from '../state/clock.js';
import { handleCountTokens } from './count-tokens-route.js';
import { handleFace, headFacts, requestIdOf, type FaceSpec } from './face-route.js';
import { chatFace, messagesFace, responsesFace } from './face-specs.js';
import { handleModel, handleModels } from './models-route.js';
import { dropUnreadBody } from './request-body.js';
import { sendError } from './respond.js';

/** A face whose `extra` the route does not need to know. */
export type AnyFace = FaceSpec<unknown>;

/** The agent protocols by path. */
export type AgentFaces = ReadonlyMap<string, AnyFace>;

/**
 * One router's faces: chat completions, Anthropic Messages (Claude Code), OpenAI Responses (Codex); the
 * Responses face keeps its answers' items in `items`.
 */
export function agentFaces(deps: { items: ResponseItemStore; clock: Clock }): AgentFaces {
  const specs: Record<ApiFace, AnyFace> = {
    chat: chatFace as AnyFace,
    messages: messagesFace as AnyFace,
    responses: responsesFace(deps) as AnyFace,
  };
  return new Map(FACE_ROUTES.map(({ face, path }) => [path, specs[face]]));
}

/** What the agent routes serve with. */
export interface AgentRouteDeps {
  engine: RouterEngine;
  live: LiveConfig;
  faces: AgentFaces;
}

/** How a refusal on a face is made: its headers, its outcome, and the engine that records it (if any). */
export interface FaceRefusalOptions {
  headers?: Readonly<Record<string, string>>;
  outcome?: 'rejected' | 'internal_error';
  /** Records the refusal as `rejected` in the history (an agent's request); absent, it is only answered. */
  recordIn?: RouterEngine;
}

/**
 * A refusal before the face read the request (a guard, a wrong method): in the face's own error shape and
 * with the decision headers, so every answer on an agent's path speaks its protocol.
 */
export function refuseOnFace(
  face: AnyFace,
  req: IncomingMessage,
  res: ServerResponse,
  error: ErrorAnswer,
  options: FaceRefusalOptions = {},
): void {
  const requestId = requestIdOf(req);
  const answer = new Answer(res, face.encoder(null), requestId);
  const { headers, recordIn } = options;
  if (recordIn === undefined) return answer.refuse(error, options.outcome ?? 'rejected', headers);
  recordIn.refuseBeforeRouting(headFacts(req, requestId), answer, { error, headers });
}

/** Where one model's entry is asked for: `/v1/models/<id>`. */
const MODEL_PATH = '/v1/models/';

/** `/v1/*`: the faces, the local token count, the model list and its entries, else 404. */
export async function handleAgentRoute(
  deps: AgentRouteDeps,
  method: string,
  pathname: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { engine, live } = deps;
  const face = deps.faces.get(pathname);
  if (face !== undefined) {
    if (method === 'POST') return handleFace(engine, face, req, res);
    const error = clientError(405, 'method_not_allowed', 'fcm-router: use POST');
    const headers = { allow: 'POST', ...dropUnreadBody(req) };
    return refuseOnFace(face, req, res, error, { headers, recordIn: engine });
  }
  if (pathname === '/v1/messages/count_tokens') {
    if (method === 'POST') return handleCountTokens(req, res);
    return methodNotAllowed(req, res, 'POST');
  }
  if (pathname === '/v1/models' || pathname.startsWith(MODEL_PATH)) {
    if (method !== 'GET') return methodNotAllowed(req, res, 'GET');
    const names = advertisedModelNames(live.resolved.sets, pinnableModels(live.resolved));
    const windowOf = (name: string): number | null => engine.contextWindow(name);
    if (pathname === '/v1/models') return handleModels(names, windowOf, res);
    return handleModel(names, windowOf, pathname.slice(MODEL_PATH.length), res);
  }
  const headers = dropUnreadBody(req);
  sendError(res, 404, 'not_found', `fcm-router: no route ${method} ${pathname}`, { headers });
}

/** 405 naming the method to use. */
export function methodNotAllowed(req: IncomingMessage, res: ServerResponse, allow: string): void {
  const headers = { allow, ...dropUnreadBody(req) };
  sendError(res, 405, 'method_not_allowed', `fcm-router: use ${allow}`, { headers });
}
