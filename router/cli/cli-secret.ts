/**
 * Reads a secret (an API key) from standard input without ever echoing it: typed at a terminal with echo
 * off, or piped in. The value is never written anywhere by this module.
 */

/** Longest secret accepted (the config schema allows 4096 characters for a key). */
export const MAX_SECRET_LENGTH = 4096;

export interface TypedSecret {
  value: string;
  /** Enter (or Ctrl-D) ended the input. */
  done: boolean;
  /** Ctrl-C: nothing is to be saved. */
  cancelled: boolean;
}

/**
 * Applies raw-mode keystrokes to what was typed so far: Enter or Ctrl-D ends, Ctrl-C cancels, Backspace
 * removes the last character, other control characters are ignored. Pure.
 */
export function applyKeystrokes(typed: TypedSecret, chunk: string): TypedSecret {
  let { value } = typed;
  for (const char of chunk) {
    if (char === '\r' || char === '\n' || char === '\u0004') return { value, done: true, cancelled: false };
    if (char === '\u0003') return { value: '', done: true, cancelled: true };
    if (char === '\u007f' || char === '\b') value = [...value].slice(0, -1).join('');
    else if (char >= ' ' && value.length < MAX_SECRET_LENGTH) value += char;
  }
  return { value, done: false, cancelled: false };
}

/** Piped input: everything up to the end, without the final line break and surrounding blanks. */
export function secretFromPipe(text: string): string {
  return text.trim();
}

interface SecretInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
}

/**
 * Reads the secret from `input`. At a terminal `prompt` goes to `promptOut` and the keys typed are not
 * shown; from a pipe the whole input is read (bounded). Rejects on Ctrl-C or an oversized pipe.
 */
export function readSecret(
  input: SecretInput,
  promptOut: { write(text: string): unknown },
  prompt: string,
): Promise<string> {
  if (input.isTTY && input.setRawMode) {
    const setRaw = input.setRawMode.bind(input);
    promptOut.write(prompt);
    return new Promise((resolve, reject) => {
      let typed: TypedSecret = { value: '', done: false, cancelled: false };
      setRaw(true);
      input.setEncoding('utf8');
      input.resume();
      const onData = (chunk: string): void => {
        typed = applyKeystrokes(typed, chunk);
        if (!typed.done) return;
        input.off('data', onData);
        setRaw(false);
        input.pause();
        promptOut.write('\n');
        if (typed.cancelled) reject(new Error('cancelled'));
        else resolve(typed.value.trim());
      };
      input.on('data', onData);
    });
  }
  return new Promise((resolve, reject) => {
    let text = '';
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > MAX_SECRET_LENGTH + 2) {
        input.pause();
        reject(new Error(`the key on standard input is longer than ${MAX_SECRET_LENGTH} characters`));
      }
    });
    input.on('end', () => resolve(secretFromPipe(text)));
    input.on('error', reject);
  });
}
