/**
 * Runs `bin/fcm-router.js` as a child process for CLI tests: collects its output by line, waits for a line
 * matching a pattern, and for the exit code. The environment holds no provider keys. Nothing here waits on
 * a deadline: a line that will never come fails as the process exits without it, and only a process that
 * neither prints it nor exits meets the hang guard.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { within } from './deferred.js';

const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'fcm-router.js');

/** A minimal environment: no provider keys, no FCM_* overrides, and no model list fetched by itself. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = { FCM_ROUTER_DISCOVERY_TICK_MS: '0' };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'SYSTEMROOT']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export interface CliOptions {
  stdin?: string;
  /** Variables set on top of the clean environment (a throwaway HOME, say). */
  env?: Record<string, string>;
  /**
   * Blocks (of 512 or 1024 bytes, as the shell counts) no file the process writes may grow past (`ulimit -f`,
   * POSIX only): a write past it is cut short by the kernel, as on a nearly full disk.
   */
  fileSizeBlocks?: number;
}

/** The command and arguments that run the CLI with `args`, under the file size limit when one is given. */
function command(args: readonly string[], options: CliOptions): [string, string[]] {
  const node = [process.execPath, BIN, ...args];
  if (options.fileSizeBlocks === undefined) return [process.execPath, node.slice(1)];
  return ['/bin/sh', ['-c', `ulimit -f ${options.fileSizeBlocks} && exec "$0" "$@"`, ...node]];
}

export class CliProcess {
  readonly lines: string[] = [];
  readonly #closed: Promise<number | null>;
  /** The process has exited and its output is all read. */
  #done = false;
  readonly #child: ChildProcess;
  readonly #waiters: {
    pattern: RegExp;
    resolve: (match: RegExpMatchArray) => void;
    reject: (error: Error) => void;
  }[] = [];

  /** `stdin`: text piped to the process (its standard input is closed when absent); `env`: added variables. */
  constructor(args: readonly string[], options: CliOptions = {}) {
    const [file, argv] = command(args, options);
    this.#child = spawn(file, argv, {
      env: { ...cleanEnv(), ...options.env },
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (options.stdin !== undefined) this.#child.stdin?.end(options.stdin);
    for (const stream of [this.#child.stdout, this.#child.stderr]) {
      let partial = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const parts = (partial + chunk).split('\n');
        partial = parts.pop() ?? '';
        for (const line of parts) this.#push(line);
      });
      stream?.on('end', () => {
        if (partial) this.#push(partial);
        partial = '';
      });
    }
    this.#closed = new Promise((resolve) =>
      this.#child.on('close', (code) => {
        this.#done = true;
        this.#exitedWithout();
        resolve(code);
      }),
    );
  }

  /** The exit code, once the process has exited (a daemon that never stops fails at the hang guard). */
  get exited(): Promise<number | null> {
    return within(this.#closed, () => `the process to exit; output:\n${this.output()}`);
  }

  /**
   * Resolves with the first line (already printed or to come) matching `pattern`; rejects, naming the
   * output, once the process has exited without printing one.
   */
  waitForLine(pattern: RegExp): Promise<RegExpMatchArray> {
    for (const line of this.lines) {
      const match = pattern.exec(line);
      if (match) return Promise.resolve(match);
    }
    const waiting = new Promise<RegExpMatchArray>((resolve, reject) => {
      this.#waiters.push({ pattern, resolve, reject });
      if (this.#done) this.#exitedWithout();
    });
    return within(waiting, () => `a line matching ${pattern}; output:\n${this.output()}`);
  }

  /** Closes the reading end of the process's standard output, as `| head -1` does: its next write fails. */
  closeStdout(): void {
    this.#child.stdout?.destroy();
  }

  signal(name: NodeJS.Signals): void {
    this.#child.kill(name);
  }

  /** Kills the process if it is still running (test cleanup). */
  async kill(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
    await this.#closed;
  }

  output(): string {
    return this.lines.join('\n');
  }

  /** Fails every wait for a line, once the process has exited and its output is all read. */
  #exitedWithout(): void {
    for (const waiter of this.#waiters.splice(0)) {
      waiter.reject(
        new Error(`the process exited without a line matching ${waiter.pattern}; output:\n${this.output()}`),
      );
    }
  }

  #push(line: string): void {
    this.lines.push(line);
    for (const waiter of [...this.#waiters]) {
      const match = waiter.pattern.exec(line);
      if (!match) continue;
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve(match);
    }
  }
}

/** Runs a CLI command to its end; resolves with its exit code and output. */
export async function runCli(
  args: readonly string[],
  options: CliOptions = {},
): Promise<{ code: number | null; output: string }> {
  const cli = new CliProcess(args, options);
  const code = await cli.exited;
  return { code, output: cli.output() };
}
