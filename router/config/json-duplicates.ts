/**
 * Member names written twice in one JSON object. `JSON.parse` keeps the last of them and drops the others
 * without a word, so a file edited by hand with two `"groq"` blocks would lose the first one at the next
 * save; a reader that must not lose what was written refuses such a text instead. One linear pass over
 * text `JSON.parse` has accepted (no recursion: any depth it accepts is read). Pure.
 */

/** A step of a path into a JSON value: a member's name, or an item's index. */
export type JsonStep = string | number;

/** A name written again in an object that already had a member by that name. */
export interface DuplicateMember {
  /** The steps from the top to the object (`[]` for the top-level one). */
  objectPath: JsonStep[];
  /** The name, as `JSON.parse` reads it (escapes decoded: `"a"` and `"\u0061"` are one name). */
  name: string;
  /** Where the name was first written, and where again: offsets of their opening quotes. */
  first: number;
  again: number;
}

/** An object or array being read, and how to reach it from the one around it. */
interface Container {
  parent: Container | null;
  /** The step from `parent` to this container (unused at the top). */
  step: JsonStep;
  /** An object's names so far, each with where it was first written; null for an array. */
  names: Map<string, number> | null;
  /** The step to the value being read: an object's member name, an array's item index. */
  at: JsonStep;
  /** In an object: whether the next string is a member's name. */
  nameNext: boolean;
}

/**
 * One token after blanks: a string (unrolled, so a long one is one step), a bracket, comma or colon, or a
 * run of anything else (a number, `true`, `false`, `null`). Only valid JSON is read, so this is enough.
 */
const TOKEN = /[ \t\n\r]*("[^"\\]*(?:\\.[^"\\]*)*"|[{}[\],:]|[^ \t\n\r{}[\],:"]+)/y;

/** The steps from the top to `container`. */
function pathOf(container: Container): JsonStep[] {
  const steps: JsonStep[] = [];
  for (let at = container; at.parent !== null; at = at.parent) steps.push(at.step);
  return steps.reverse();
}

/** The container a bracket opens inside `parent` (null at the top). */
function opened(bracket: string, parent: Container | null): Container {
  const object = bracket === '{';
  return {
    parent,
    step: parent?.at ?? '',
    names: object ? new Map() : null,
    at: object ? '' : 0,
    nameNext: object,
  };
}

/**
 * The member names written again in an object that already had them, in the order they occur, at most
 * `limit` of them. `text` must be JSON (`JSON.parse` accepted it); the reading of anything else is
 * unspecified.
 */
export function duplicateMembers(text: string, limit = Infinity): DuplicateMember[] {
  const found: DuplicateMember[] = [];
  let open = null as Container | null;
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match !== null && found.length < limit; match = TOKEN.exec(text)) {
    const token = match[1] ?? '';
    const char = token[0];
    if (char === '{' || char === '[') open = opened(char, open);
    else if (char === '}' || char === ']') open = open?.parent ?? null;
    else if (open === null) continue;
    else if (char === ',') {
      if (open.names === null) open.at = Number(open.at) + 1;
      else open.nameNext = true;
    } else if (char === '"' && open.names !== null && open.nameNext) {
      const name = JSON.parse(token) as string;
      const at = TOKEN.lastIndex - token.length;
      const first = open.names.get(name);
      if (first === undefined) open.names.set(name, at);
      else found.push({ objectPath: pathOf(open), name, first, again: at });
      open.at = name;
      open.nameNext = false;
    }
  }
  return found;
}
