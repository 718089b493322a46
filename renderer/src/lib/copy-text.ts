/**
 * Puts `text` on the clipboard: through the Clipboard API where the page has it (a secure context), else, or
 * when it refuses, through a hidden text area selected and copied (`document.execCommand('copy')`), which
 * a page on plain http (`--allow-remote`) still may. Resolves false when neither could.
 */
export async function copyText(text: string): Promise<boolean> {
  // Absent outside a secure context, whatever the types say.
  const clipboard = navigator.clipboard as Clipboard | undefined;
  if (typeof clipboard?.writeText === 'function') {
    try {
      await clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, the page not focused): the selection may still copy.
    }
  }
  return copyBySelection(text);
}

/** Copies `text` by selecting it in a hidden text area; the focus goes back where it was. */
function copyBySelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.readOnly = true;
  area.className = 'copy-buffer';
  area.setAttribute('aria-hidden', 'true');
  area.tabIndex = -1;
  const focused = document.activeElement;
  document.body.append(area);
  area.focus();
  area.select();
  let copied = false;
  try {
    // Deprecated, but the only way left to a page that is not a secure context.
    copied = typeof document.execCommand === 'function' && document.execCommand('copy');
  } catch {
    copied = false;
  }
  area.remove();
  if (focused instanceof HTMLElement) focused.focus();
  return copied;
}
