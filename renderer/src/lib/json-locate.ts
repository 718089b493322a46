/**
 * Where things are in a JSON text, for the config editor: the span of the value a dotted path names (as the
 * router's issues name them: `providers.groq.baseUrl`, `sets.main.0`), and where the text stops being JSON.
 * Read with the editor's own JSON grammar, which keeps going past a syntax error. Pure.
 */
import { jsonLanguage } from '@codemirror/lang-json';
import type { SyntaxNode } from '@lezer/common';

/** A stretch of the text, `[from, to)` in characters. */
export interface TextSpan {
  from: number;
  to: number;
}

const VALUE_TYPES = new Set(['Object', 'Array', 'String', 'Number', 'True', 'False', 'Null']);

function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) out.push(child);
  return out;
}

function keyOf(name: SyntaxNode, text: string): string {
  const raw = text.slice(name.from, name.to);
  try {
    return String(JSON.parse(raw));
  } catch {
    return raw.replace(/^"|"$/g, '');
  }
}

/** The property `part` of an object, or the element at index `part` of an array; null when absent. */
function step(
  node: SyntaxNode,
  part: string,
  text: string,
): { value: SyntaxNode | null; span: TextSpan } | null {
  if (node.name === 'Array' && /^\d+$/.test(part)) {
    const value = children(node).filter((child) => VALUE_TYPES.has(child.name))[Number(part)];
    return value ? { value, span: { from: value.from, to: value.to } } : null;
  }
  if (node.name !== 'Object') return null;
  // The last one wins, as in JSON.parse.
  const property = children(node)
    .filter((child) => child.name === 'Property')
    .reverse()
    .find((child) => {
      const name = child.getChild('PropertyName');
      return name !== null && keyOf(name, text) === part;
    });
  if (!property) return null;
  const value = children(property).find((child) => VALUE_TYPES.has(child.name)) ?? null;
  return { value, span: { from: property.from, to: property.to } };
}

/**
 * The span of what `path` names in `text`: the property (name and value) or array element, else the
 * deepest part of the path that is there (a missing key is reported on the object that should hold it).
 */
export function locatePath(text: string, path: string): TextSpan {
  const top = children(jsonLanguage.parser.parse(text).topNode).find((child) => VALUE_TYPES.has(child.name));
  if (!top) return { from: 0, to: Math.min(text.length, 1) };
  let node: SyntaxNode | null = top;
  let span: TextSpan = { from: top.from, to: top.to };
  if (path === '(root)' || path === '') return span;
  for (const part of path.split('.')) {
    const next: { value: SyntaxNode | null; span: TextSpan } | null = node ? step(node, part, text) : null;
    if (!next) break;
    node = next.value;
    span = next.span;
  }
  return span;
}

/** Where the text stops being JSON, as the grammar sees it (null when it reads through). */
export function firstSyntaxError(text: string): number | null {
  let at: number | null = null;
  jsonLanguage.parser.parse(text).iterate({
    enter: (node) => {
      if (at === null && node.type.isError) at = node.from;
      return at === null;
    },
  });
  return at;
}

/** The 1-based line of a character offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index += 1) if (text[index] === '\n') line += 1;
  return line;
}
