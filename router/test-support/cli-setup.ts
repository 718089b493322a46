/**
 * What a CLI test of the daemon starts from: a fake upstream, a throwaway folder with a config over it
 * (or the config given) and a state folder inside, removed afterwards; and a chat request to a daemon.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.js';
import { httpRequest, type HttpReply } from './http-client.js';
import { scenarioConfig } from './scenario.js';

export interface CliSetup {
  dir: string;
  stateDir: string;
  configFile: string;
  upstream: FakeUpstream;
  /** `daemon` on the state folder and the config (no port). */
  args: string[];
}

/** Runs `run` on a fresh setup; `config` null means one provider `alpha` with model `m1` on the upstream. */
export async function withCliSetup(config: unknown, run: (setup: CliSetup) => Promise<void>): Promise<void> {
  const upstream = await startFakeUpstream();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-cli-'));
  const configFile = path.join(dir, 'config.json');
  const written = config ?? scenarioConfig(upstream, { providers: { alpha: ['m1'] } });
  await writeFile(configFile, JSON.stringify(written), { mode: 0o600 });
  const stateDir = path.join(dir, 'state');
  try {
    await run({
      dir,
      stateDir,
      configFile,
      upstream,
      args: ['daemon', '--state-dir', stateDir, '--config', configFile],
    });
  } finally {
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** One plain chat request for model `fcm` to the daemon at `url`. */
export function chatTo(url: string): Promise<HttpReply> {
  return httpRequest(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }] }),
  });
}
