/**
 * The CodeMirror 6 pieces of the config editor: JSON language, history, line numbers, the lint gutter, and
 * a theme drawn from the dashboard's own colour tokens (so light and dark follow the page).
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter } from '@codemirror/lint';
import type { Extension } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';

const theme = EditorView.theme({
  '&': {
    color: 'var(--text)',
    backgroundColor: 'var(--surface)',
    border: '1px solid var(--border)',
    borderRadius: '6px',
    fontSize: '13px',
  },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5', maxHeight: '560px', overflow: 'auto' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-gutters': { backgroundColor: 'var(--surface-2)', color: 'var(--muted)', border: 'none' },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--focus) 7%, transparent)' },
  '.cm-activeLineGutter': { backgroundColor: 'color-mix(in srgb, var(--focus) 12%, transparent)' },
  '.cm-selectionBackground, &.cm-focused .cm-selectionBackground': {
    backgroundColor: 'color-mix(in srgb, var(--focus) 28%, transparent)',
  },
  '.cm-lintRange-error': { textDecorationColor: 'var(--state-open)' },
  '.cm-tooltip': {
    backgroundColor: 'var(--surface)',
    color: 'var(--text)',
    border: '1px solid var(--border)',
  },
});

const highlight = HighlightStyle.define([
  { tag: tags.propertyName, color: 'var(--state-half-open)' },
  { tag: tags.string, color: 'var(--state-closed)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--state-quota)' },
  { tag: tags.invalid, color: 'var(--state-open)' },
]);

/**
 * Everything the editor needs, `onDoc` told the whole text after each change. `label` names the editing
 * area for screen readers (and tests).
 */
export function editorExtensions(label: string, onDoc: (text: string) => void): Extension[] {
  return [
    lineNumbers(),
    history(),
    drawSelection(),
    highlightActiveLine(),
    bracketMatching(),
    json(),
    syntaxHighlighting(highlight),
    lintGutter(),
    keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
    EditorView.lineWrapping,
    EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true' }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) onDoc(update.state.doc.toString());
    }),
    theme,
  ];
}
