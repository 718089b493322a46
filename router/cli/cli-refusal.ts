/**
 * A command line the CLI refuses: what is wrong, in the CLI's own words (Node's argument parser words its
 * refusals in its own style), and the command whose usage goes with it.
 */
import type { CommandName } from './cli-args.js';

/** A refused command line: `command` is the command it named, whose usage goes with the refusal. */
export class CliRefusal extends Error {
  readonly command: CommandName;

  constructor(message: string, command: CommandName) {
    super(message);
    this.command = command;
  }
}

/** The first quoted word of one of `node:util` `parseArgs`' messages: `'--bogus'` → `--bogus`. */
function quoted(message: string): string | null {
  return /'([^']*)'/.exec(message)?.[1] ?? null;
}

/**
 * What was wrong with `command`'s arguments, in the CLI's words: `parseArgs`' refusals reworded, any other
 * error's message as it is. Pure.
 * @example refusalWords({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION', message: "Unknown option '--x'" }, 'status')
 * // '"status" has no option --x'
 */
export function refusalWords(error: unknown, command: string): string {
  const { code, message = String(error) } = error as { code?: unknown; message?: string };
  const word = quoted(message);
  if (word === null) return message;
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `"${command}" has no option ${word}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `"${command}" takes no argument ${JSON.stringify(word)}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const option = word.split(' ')[0] ?? word;
      return message.includes('does not take an argument')
        ? `${option} takes no value`
        : `${option} needs a value`;
    }
    default:
      return message;
  }
}
