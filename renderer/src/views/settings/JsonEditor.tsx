import { setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import type { TextProblem } from '../../lib/config-json.js';
import { editorExtensions } from './json-editor-setup.js';

/**
 * A CodeMirror 6 editor for a JSON text, its problems underlined and in the gutter. It lives in a shadow
 * root: CodeMirror then puts its styles in a constructed stylesheet, which the dashboard's CSP (styles
 * from our own files only) allows, where a `<style>` element would be refused.
 */
export function JsonEditor({
  value,
  onChange,
  problems,
  label,
}: {
  value: string;
  onChange(text: string): void;
  problems: readonly TextProblem[];
  label: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const element = host.current;
    if (!element) return undefined;
    const root = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
    const editor = new EditorView({
      root,
      parent: root,
      state: EditorState.create({
        doc: value,
        extensions: editorExtensions(label, (text) => changed.current(text)),
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is made once; later values come in through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.state.doc.toString() === value) return;
    // A new text from outside (the file reloaded): replaced whole.
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const length = editor.state.doc.length;
    const diagnostics: Diagnostic[] = problems.map((problem) => ({
      from: Math.min(problem.from, length),
      to: Math.min(Math.max(problem.to, problem.from), length),
      severity: 'error',
      message: problem.path ? `${problem.path}: ${problem.message}` : problem.message,
    }));
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [problems]);

  return <div ref={host} className="json-editor" />;
}
