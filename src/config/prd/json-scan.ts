/**
 * Where the values of a JSON text are: JSON.parse gives values, this small scanner gives their byte ranges. It locates
 * syntax errors by line and column with what was expected (Node 20's JSON.parse messages often carry no position),
 * and lets a write-back change one value only, leaving every other byte of the human's file as it was.
 *
 * Kept over jsonc-parser: its first error has the right offset but names a token code, not what was expected where
 * (`InvalidSymbol` for a single-quoted key, for text after the value and for a misspelt `true`); turning codes back
 * into the messages users read took as much code as this scanner.
 */
import { JsonSyntaxError } from '../errors';

/** A JSON value's range, with its members or items. */
export type JsonNode =
  | { type: 'object'; start: number; end: number; members: JsonMember[] }
  | { type: 'array'; start: number; end: number; items: JsonNode[] }
  | { type: 'scalar'; start: number; end: number };
/** An object member: its key's range and its value. */
export interface JsonMember {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: JsonNode;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const MAX_DEPTH = 500;

/** Scans `text` (a leading BOM skipped); throws {@link JsonSyntaxError} at the first problem. */
export function scanJson(text: string): JsonNode {
  let i = text.startsWith('\uFEFF') ? 1 : 0;
  const ws = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const found = (): string => {
    if (i >= text.length) return 'the end of the file';
    if (text.startsWith('//', i) || text.startsWith('/*', i)) return 'a comment (JSON has no comments)';
    if (text[i] === "'") return `"'" (JSON strings use double quotes)`;
    return JSON.stringify(text[i]);
  };
  const fail = (expected: string, hint = ''): never => {
    throw new JsonSyntaxError(i, `expected ${expected}, found ${found()}${hint}`);
  };
  const string = (): void => {
    const start = i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) throw new JsonSyntaxError(start, 'unterminated string');
      if (c === '"') return void i++;
      if (c < ' ') throw new JsonSyntaxError(i, 'line break or control character inside a string (write \\n)');
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u' ? !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) : !'"\\/bfnrt'.includes(e ?? 'x'))
          throw new JsonSyntaxError(i, 'invalid escape in a string');
        i += e === 'u' ? 6 : 2;
      } else i++;
    }
  };
  const value = (depth: number): JsonNode => {
    ws();
    const start = i;
    if (depth > MAX_DEPTH) throw new JsonSyntaxError(i, 'nested too deeply');
    const c = text[i];
    if (c === '{') {
      i++;
      const members: JsonMember[] = [];
      ws();
      if (text[i] === '}') return { type: 'object', start, end: ++i, members };
      for (;;) {
        ws();
        if (text[i] !== '"')
          fail('a property name in double quotes', members.length && text[i] === '}' ? ' (a trailing comma?)' : '');
        const keyStart = i;
        string();
        const keyEnd = i;
        ws();
        if (text[i] !== ':') fail("':' after the property name");
        i++;
        members.push({
          key: JSON.parse(text.slice(keyStart, keyEnd)) as string,
          keyStart,
          keyEnd,
          value: value(depth + 1),
        });
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return { type: 'object', start, end: ++i, members };
        else fail("',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      const items: JsonNode[] = [];
      ws();
      if (text[i] === ']') return { type: 'array', start, end: ++i, items };
      for (;;) {
        ws();
        if (items.length && text[i] === ']') fail('a value', ' (a trailing comma?)');
        items.push(value(depth + 1));
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return { type: 'array', start, end: ++i, items };
        else fail("',' or ']'");
      }
    }
    if (c === '"') {
      string();
      return { type: 'scalar', start, end: i };
    }
    for (const lit of ['true', 'false', 'null'])
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return { type: 'scalar', start, end: i };
      }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m && m[0].length) {
      i += m[0].length;
      return { type: 'scalar', start, end: i };
    }
    return fail('a value');
  };
  const root = value(0);
  ws();
  if (i < text.length) fail('the end of the file after the JSON value');
  return root;
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

/** 1-based line of an offset. */
export const lineAt = (text: string, offset: number): number => lineColumn(text, offset).line;

/** The node at `path`, or the deepest node on the way to it that exists. */
export function nodeAt(root: JsonNode, path: PropertyKey[]): JsonNode {
  let node = root;
  for (const k of path) {
    let next: JsonNode | undefined;
    if (node.type === 'object' && typeof k === 'string') next = memberOf(node, k)?.value;
    else if (node.type === 'array' && typeof k === 'number') next = node.items[k];
    if (!next) return node;
    node = next;
  }
  return node;
}

/** The member `key` of an object node; the last one when the key repeats, as JSON.parse keeps the last. */
export function memberOf(node: JsonNode | undefined, key: string): JsonMember | undefined {
  if (node?.type !== 'object') return undefined;
  for (let i = node.members.length - 1; i >= 0; i--) if (node.members[i].key === key) return node.members[i];
  return undefined;
}
