/** `POST /api/config/check`: the config editor's validation as the user types, by the save's own rules. */
import { z } from 'zod/v3';
import type { ConfigCheckResponse } from '../api-types.js';
import { readJson } from './api-io.js';
import type { ApiCall } from './api-routes.js';
import { sendJson } from './respond.js';

/** Checks a whole config as `PUT /api/config` would (masked keys as stored); saves nothing. */
export async function checkConfig({ deps, req, res }: ApiCall): Promise<void> {
  const body = await readJson(req, res, z.unknown());
  if (!body.ok) return;
  const { issues, keysDropped } = deps.live.check(body.value);
  const answer: ConfigCheckResponse = { valid: issues.length === 0, issues, keysDropped };
  sendJson(res, 200, answer);
}
