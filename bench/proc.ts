/**
 * Child processes for the benchmark and the crash test: started with this Node and tsx, ready once a line
 * of their stdout names their URL, measured through /proc, stopped by their own pid only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ChildHandle {
  readonly pid: number;
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the child wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the child has exited. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL now; resolves when the child has exited. */
  kill(): Promise<void>;
}

const URL_LINE = /(http:\/\/127\.0\.0\.1:\d+)/;
const LOG_TAIL = 64 * 1024;

/**
 * Runs `node [--import tsx] <args>` and waits for the first `http://127.0.0.1:<port>` on its stdout.
 * Rejects (after killing the child) if none appears within `timeoutMs` or the child exits first.
 */
export async function startChild(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number; tsx?: boolean } = {},
): Promise<ChildHandle> {
  const nodeArgs = options.tsx === false ? [...args] : ['--import', 'tsx', ...args];
  const child = spawn(process.execPath, nodeArgs, {
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Only the tail of the output is kept: a daemon logs a line per request, and a long run must not grow this.
  let log = '';
  const keep = (text: string): void => {
    log = (log + text).slice(-LOG_TAIL);
  };
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', keep);
  child.stdout.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`no URL from ${args.join(' ')} within ${options.timeoutMs ?? 20_000} ms`)),
      options.timeoutMs ?? 20_000,
    );
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${log}`));
    };
    let seen = '';
    const onData = (text: string): void => {
      seen += text;
      const match = URL_LINE.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.off('exit', onExit);
        resolve(match[1]);
      }
    };
    const onExit = (code: number | null): void => fail(new Error(`${args.join(' ')} exited with ${code}`));
    child.stdout.on('data', onData);
    child.once('exit', onExit);
  });
  const pid = child.pid as number;
  const waitExit = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await exited;
  };
  return {
    pid,
    url,
    child,
    output: () => log,
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await waitExit();
      clearTimeout(timer);
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await waitExit();
    },
  };
}

/** Resident set size of one process in MB (VmRSS), or NaN when it cannot be read. */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match?.[1] ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** RSS of the direct children of `pid` in MB (tsx's esbuild service, for instance). */
export function childrenRssMb(pid: number): number {
  let total = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; the command name before it may hold spaces.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) total += rssMb(Number(name)) || 0;
    } catch {
      // The process ended while we looked.
    }
  }
  return total;
}

/** CPU time (user + system) a process has used so far, in ms. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
