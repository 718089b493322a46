/** Reading a management call's JSON body and answering a config change: shared by the `/api/*` routes. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod/v3';
import type { ConfigSaveResponse, EditResponse } from '../api-types.js';
import type { LiveConfig, UpdateResult } from '../config/live-config.js';
import { plainWords } from '../config/schema.js';
import { parseJson } from '../gate/safe-json.js';
import { issueParam, issueSentence } from './body-issue.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH, readBody, refuseTooLarge } from './request-body.js';
import { sendError, sendJson } from './respond.js';

/** Largest body a management call may send. */
const MAX_API_BODY_BYTES = 1024 * 1024;

/**
 * Reads and validates a small JSON body. Answers a 4xx itself on bad input; the result says whether it did
 * (a body of `null` is a value like any other, not "already answered").
 */
export async function readJson<T>(
  req: IncomingMessage,
  res: ServerResponse,
  schema: z.ZodType<T>,
): Promise<{ ok: true; value: T } | { ok: false }> {
  const read = await readBody(req, MAX_API_BODY_BYTES);
  if (!read.ok) {
    if (read.reason === 'too_large') refuseTooLarge(req, res, 'fcm-router: body is over 1 MiB');
    else res.destroy();
    return { ok: false };
  }
  if (exceedsJsonDepth(read.body)) {
    sendError(res, 400, 'invalid_json', `fcm-router: body nests deeper than ${MAX_JSON_DEPTH} levels`);
    return { ok: false };
  }
  const parsed = parseJson(read.body.toString('utf8'));
  if (!parsed.ok) {
    sendError(res, 400, 'invalid_json', `fcm-router: body is not valid JSON (${parsed.error})`);
    return { ok: false };
  }
  const checked = schema.safeParse(parsed.value, { errorMap: plainWords });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const message = issue ? issueSentence(issue, parsed.value) : 'the body is not valid';
    sendError(res, 400, 'invalid_request', `fcm-router: ${message}`, {
      extra: { param: issue ? issueParam(issue) : 'body' },
    });
    return { ok: false };
  }
  return { ok: true, value: checked.data };
}

/** `If-Match: "<revision>"` (quotes and a weak `W/` optional); at most one. */
const ifMatchHeader = z
  .string()
  .max(200)
  .transform((value) =>
    value
      .trim()
      .replace(/^W\//, '')
      .replace(/^"(.*)"$/, '$1'),
  )
  .pipe(z.string().regex(/^[A-Za-z0-9:_-]{1,100}$/, 'a revision from GET /api/config'))
  .optional();

/**
 * The revision a change is based on, from `If-Match` (undefined without one). Answers `400` itself when
 * the header is no revision; the result says whether it did.
 */
export function readIfMatch(
  req: IncomingMessage,
  res: ServerResponse,
): { ok: true; revision: string | undefined } | { ok: false } {
  const basedOn = ifMatchHeader.safeParse(req.headers['if-match']);
  if (basedOn.success) return { ok: true, revision: basedOn.data };
  const message = basedOn.error.issues[0]?.message ?? 'invalid';
  sendError(res, 400, 'invalid_request', `fcm-router: If-Match: ${message}`, {
    extra: { param: 'If-Match' },
  });
  return { ok: false };
}

/** Answers a config change: what changed, or why it was refused or not saved. */
export function answerUpdate(res: ServerResponse, result: UpdateResult, live: LiveConfig): void {
  if (result.ok) {
    const saved: ConfigSaveResponse = {
      ok: true,
      changed: result.changed,
      config: live.response().config,
      keysDropped: result.keysDropped,
      revision: result.revision,
    };
    sendJson(res, 200, saved);
  } else if ('conflict' in result) {
    const code = result.reason === 'stale' ? 'config_changed_on_disk' : 'config_file_invalid';
    sendError(res, 409, code, `fcm-router: ${result.conflict}`);
  } else if ('saveFailed' in result) {
    sendError(
      res,
      500,
      'save_failed',
      `fcm-router: could not save: ${result.saveFailed} (${live.path}); the config in use is unchanged`,
    );
  } else {
    sendError(
      res,
      400,
      'invalid_config',
      `fcm-router: invalid config: ${result.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      { extra: { issues: result.issues } },
    );
  }
}

/**
 * Answers a change made by one of the dashboard's editing calls: `{ ok: true, revision }` once saved (the
 * view reloads what it shows), else why it was refused or not saved, as {@link answerUpdate} says it.
 */
export function answerEdit(res: ServerResponse, result: UpdateResult, live: LiveConfig): void {
  if (result.ok) {
    const saved: EditResponse = { ok: true, revision: result.revision };
    sendJson(res, 200, saved);
  } else answerUpdate(res, result, live);
}
