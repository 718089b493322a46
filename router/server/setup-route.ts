/**
 * `/api/setup*`: the dashboard's Set up buttons, with the plans `fcm-router setup` makes (the same code):
 * each agent's state, a preview of the change, then that change applied. They write files in the daemon's
 * HOME, so only a client on this machine may use them, whatever `--allow-remote` lets in.
 */
import os from 'node:os';
import { z } from 'zod/v3';
import type {
  SetupAgentView,
  SetupAgentsResponse,
  SetupApplyResponse,
  SetupPreviewResponse,
} from '../api-types.js';
import { AGENT_EDITORS, type AgentEditor } from '../setup/agents.js';
import type { RouterTarget } from '../setup/router-target.js';
import {
  carryOut,
  planId,
  planSetup,
  planUndo,
  type AgentHome,
  type SetupPlan,
} from '../setup/setup-plan.js';
import { readJson } from './api-io.js';
import type { ApiCall } from './api-routes.js';
import { isLoopbackHost } from '../config/loopback.js';
import { sendError, sendJson } from './respond.js';

const agentId = z.string().refine((id) => AGENT_EDITORS.some((agent) => agent.id === id), {
  message: `one of ${AGENT_EDITORS.map((agent) => agent.id).join(', ')}`,
});
const previewBody = z.strictObject({ agent: agentId, undo: z.boolean() });
const applyBody = previewBody.extend({ plan: z.string().regex(/^[0-9a-f]{32}$/, 'a plan from the preview') });

/** The daemon's HOME and environment (the one its config is resolved in): where the agents' files are. */
function agentHome(env: Record<string, string | undefined>): AgentHome {
  return { env, home: env.HOME ?? env.USERPROFILE ?? os.homedir() };
}

/** This router as the agent should reach it: the address the dashboard's request came in on. */
function targetOf(call: ApiCall): RouterTarget {
  const socket = call.req.socket;
  const address = (socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    origin: `http://${host}:${socket.localPort ?? 0}`,
    contextWindow: call.deps.engine.contextWindow('fcm'),
  };
}

function editorOf(id: string): AgentEditor {
  const editor = AGENT_EDITORS.find((agent) => agent.id === id);
  if (!editor) throw new Error(`unknown agent ${id}`);
  return editor;
}

function plan(call: ApiCall, editor: AgentEditor, undo: boolean): Promise<SetupPlan> {
  const where = agentHome(call.deps.live.env);
  return undo ? planUndo(editor, where) : planSetup(editor, where, targetOf(call));
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Refuses a client that is not on this machine; true when it did. */
function refusedRemote(call: ApiCall): boolean {
  if (isLoopbackHost(call.req.socket.remoteAddress ?? '')) return false;
  const why = 'fcm-router: setting up an agent writes files on the router’s machine: use the dashboard there';
  sendError(call.res, 403, 'forbidden_remote', why);
  return true;
}

async function agentView(call: ApiCall, editor: AgentEditor): Promise<SetupAgentView> {
  const where = agentHome(call.deps.live.env);
  const file = editor.file(where.env, where.home);
  const base = { id: editor.id, name: editor.name, file };
  try {
    const setup = await plan(call, editor, false);
    return { ...base, state: setup.nothing === null ? 'not_set' : 'set', problem: null };
  } catch (error) {
    return { ...base, state: 'unreadable', problem: message(error) };
  }
}

async function listAgents(call: ApiCall): Promise<void> {
  if (refusedRemote(call)) return;
  const agents = await Promise.all(AGENT_EDITORS.map((editor) => agentView(call, editor)));
  const body: SetupAgentsResponse = { agents, demo: call.deps.demo };
  sendJson(call.res, 200, body);
}

async function preview(call: ApiCall): Promise<void> {
  if (refusedRemote(call)) return;
  const read = await readJson(call.req, call.res, previewBody);
  if (!read.ok) return;
  try {
    const made = await plan(call, editorOf(read.value.agent), read.value.undo);
    const body: SetupPreviewResponse = {
      agent: made.agent,
      undo: made.undo,
      file: made.file,
      diff: made.diff,
      nothing: made.nothing,
      plan: planId(made),
    };
    sendJson(call.res, 200, body);
  } catch (error) {
    sendError(call.res, 409, 'setup_refused', `fcm-router: ${message(error)}`);
  }
}

async function apply(call: ApiCall): Promise<void> {
  if (refusedRemote(call)) return;
  const read = await readJson(call.req, call.res, applyBody);
  if (!read.ok) return;
  let made: SetupPlan;
  try {
    made = await plan(call, editorOf(read.value.agent), read.value.undo);
  } catch (error) {
    return sendError(call.res, 409, 'setup_refused', `fcm-router: ${message(error)}`);
  }
  if (made.nothing !== null || planId(made) !== read.value.plan) {
    const why = 'fcm-router: the file changed since the preview; look at the new preview first';
    return sendError(call.res, 409, 'setup_changed', why);
  }
  try {
    const body: SetupApplyResponse = { ok: true, message: await carryOut(made) };
    sendJson(call.res, 200, body);
  } catch (error) {
    sendError(call.res, 500, 'setup_failed', `fcm-router: ${message(error)}`);
  }
}

/** The setup routes, by `METHOD path`. */
export const SETUP_ROUTES: Readonly<Record<string, (call: ApiCall) => Promise<void>>> = {
  'GET /api/setup': listAgents,
  'POST /api/setup/preview': preview,
  'POST /api/setup/apply': apply,
};
