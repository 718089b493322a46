/**
 * The built desktop main process (dist/electron/main.js) started under plain Node with the recording
 * stand-in for `electron` (fake-electron/). The test reads what the app did from the records and acts on it
 * through commands, as the user or the OS would. Test-only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, watch } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { within } from '../../router/test-support/deferred.js';
import { FAKE_ENV, type CallRecord, type Command, type ReplyMessage } from './fake-electron/protocol.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const MAIN = path.join(ROOT, 'dist', 'electron', 'main.js');
const REGISTER = path.join(ROOT, 'electron', 'testing', 'fake-electron', 'register.ts');

export interface LaunchOptions {
  /** The records file (inside the test's temporary folder). */
  records: string;
  /** Extra environment: FCM_ROUTER_STATE_DIR, FCM_ROUTER_PORT, FAKE_ELECTRON_*… */
  env: Record<string, string>;
  /** Arguments after the main script, as the OS passes them to the app (`--hidden` at login). */
  args?: string[];
}

export class BootedApp {
  readonly lines: string[] = [];
  readonly #child: ChildProcess;
  readonly #records: string;
  readonly #exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #pending = new Map<number, (reply: ReplyMessage) => void>();
  #nextId = 1;

  constructor(options: LaunchOptions) {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build:electron first`);
    this.#records = options.records;
    const env: Record<string, string> = { [FAKE_ENV.records]: options.records, ...options.env };
    for (const name of ['PATH', 'TMPDIR', 'LANG', 'SYSTEMROOT']) {
      const value = process.env[name];
      if (value !== undefined && env[name] === undefined) env[name] = value;
    }
    this.#child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--import', REGISTER, MAIN, ...(options.args ?? [])],
      {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      },
    );
    for (const stream of [this.#child.stdout, this.#child.stderr]) {
      // A chunk may end inside a line: only whole lines are kept, so a pattern never matches half a URL.
      let partial = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const parts = (partial + chunk).split('\n');
        partial = parts.pop() ?? '';
        this.lines.push(...parts.filter(Boolean));
      });
      stream?.on('end', () => {
        if (partial) this.lines.push(partial);
        partial = '';
      });
    }
    this.#child.on('message', (message: ReplyMessage) => {
      this.#pending.get(message.id)?.(message);
      this.#pending.delete(message.id);
    });
    this.#exited = new Promise((resolve) =>
      this.#child.on('close', (code, signal) => resolve({ code, signal })),
    );
  }

  get pid(): number {
    return this.#child.pid ?? -1;
  }

  /** Every call recorded so far, in order. */
  records(): CallRecord[] {
    if (!existsSync(this.#records)) return [];
    const text = readFileSync(this.#records, 'utf8');
    // The app may be appending right now: a line without its newline is not complete yet.
    return text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as CallRecord);
  }

  /** Records of one api (and call, if given). */
  calls(api: string | RegExp, call?: string): CallRecord[] {
    return this.records().filter(
      (r) =>
        (typeof api === 'string' ? r.api === api : api.test(r.api)) &&
        (call === undefined || r.call === call),
    );
  }

  /**
   * Resolves with what `pick` finds in the records, looking again whenever the records' folder changes or
   * the app writes or exits (events, not polling); fails the test if the app exits first (only an app
   * that hangs meets the hang guard).
   */
  async waitFor<T>(what: string, pick: (records: CallRecord[]) => T | undefined): Promise<T> {
    const found = pick(this.records());
    if (found !== undefined) return found;
    const failure = (): Error =>
      new Error(
        `no ${what}; the app ${this.#child.exitCode === null ? 'is running' : `exited ${this.#child.exitCode}`}; output:\n${this.output()}`,
      );
    let stop = (): void => undefined;
    const seen = new Promise<T>((resolve, reject) => {
      const look = (): void => {
        const value = pick(this.records());
        if (value !== undefined) resolve(value);
        else if (this.#child.exitCode !== null) reject(failure());
      };
      const watcher = watch(path.dirname(this.#records), look);
      const streams = [this.#child.stdout, this.#child.stderr];
      streams.forEach((stream) => stream?.on('data', look));
      this.#child.on('close', look);
      stop = () => {
        watcher.close();
        streams.forEach((stream) => stream?.off('data', look));
        this.#child.off('close', look);
      };
      look();
    });
    return within(seen, () => failure().message).finally(stop);
  }

  /** Resolves with the first output line matching `pattern` (bounded wait). */
  async waitForLine(pattern: RegExp): Promise<RegExpMatchArray> {
    return this.waitFor(`output line matching ${pattern}`, () => {
      for (const line of this.lines) {
        const match = pattern.exec(line);
        if (match) return match;
      }
      return undefined;
    });
  }

  /**
   * Sends a command and resolves with its reply's value (rejects with its error, or as soon as the app
   * exits without replying).
   */
  async command(command: Command): Promise<unknown> {
    const id = this.#nextId++;
    const reply = new Promise<ReplyMessage>((resolve) => this.#pending.set(id, resolve));
    this.#child.send({ ...command, id });
    const exitedFirst = this.#exited.then(({ code, signal }) => {
      throw new Error(`the app exited (${signal ?? code}) before replying to ${command.cmd}`);
    });
    const answer = await within(Promise.race([reply, exitedFirst]), `the reply to ${command.cmd}`);
    if (!answer.ok) throw new Error(answer.error);
    return answer.value;
  }

  /** Sends a command without waiting for its reply (for commands after which the app ends). */
  tell(command: Command): void {
    this.#child.send({ ...command, id: this.#nextId++ });
  }

  /** The exit code and signal once the app has ended and its output is read. */
  get exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return within(this.#exited, () => `the app to exit; output:\n${this.output()}`);
  }

  output(): string {
    return this.lines.join('\n');
  }

  /** Test cleanup: ends the app if it is still running. */
  async kill(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
    await this.#exited;
  }
}
