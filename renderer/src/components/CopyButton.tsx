import { useEffect, useState } from 'react';
import { copyText } from '../lib/copy-text.js';

/** What the button says when nothing could be copied: the text is on the page to copy by hand. */
export const COPY_FAILED = 'Copy failed — select and copy';

/**
 * Copies `text` to the clipboard and says so for a moment; when the browser lets no copy through, says so
 * until the next try. `label` is its visible text, `name` its accessible name when the label alone would not
 * say what it copies (`Copy base URL`).
 */
export function CopyButton({ text, label = 'Copy', name }: { text: string; label?: string; name?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state !== 'copied') return undefined;
    const id = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(id);
  }, [state]);
  const copy = (): void => {
    void copyText(text).then((copied) => setState(copied ? 'copied' : 'failed'));
  };
  return (
    <button type="button" className="btn btn-small" onClick={copy} aria-live="polite" aria-label={name}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? COPY_FAILED : label}
    </button>
  );
}
