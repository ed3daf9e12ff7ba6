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
  return new JsonScanner(text).document();
}

/** A recursive-descent pass over one JSON text, recording where each value is. */
class JsonScanner {
  private i: number;

  constructor(private readonly text: string) {
    this.i = text.startsWith('\uFEFF') ? 1 : 0;
  }

  document(): JsonNode {
    const root = this.value(0);
    this.ws();
    if (this.i < this.text.length) this.fail('the end of the file after the JSON value');
    return root;
  }

  private value(depth: number): JsonNode {
    this.ws();
    const start = this.i;
    if (depth > MAX_DEPTH) throw new JsonSyntaxError(start, 'nested too deeply');
    const c = this.text[start];
    if (c === '{') return this.object(start, depth);
    if (c === '[') return this.array(start, depth);
    if (c === '"') {
      this.string();
      return { type: 'scalar', start, end: this.i };
    }
    for (const lit of ['true', 'false', 'null'])
      if (this.text.startsWith(lit, start)) {
        this.i += lit.length;
        return { type: 'scalar', start, end: this.i };
      }
    NUMBER.lastIndex = start;
    const m = NUMBER.exec(this.text);
    if (m && m[0].length) {
      this.i += m[0].length;
      return { type: 'scalar', start, end: this.i };
    }
    return this.fail('a value');
  }

  private object(start: number, depth: number): JsonNode {
    const text = this.text;
    this.i++;
    const members: JsonMember[] = [];
    this.ws();
    if (text[this.i] === '}') return { type: 'object', start, end: ++this.i, members };
    for (;;) {
      this.ws();
      if (text[this.i] !== '"')
        this.fail(
          'a property name in double quotes',
          members.length && text[this.i] === '}' ? ' (a trailing comma?)' : '',
        );
      const keyStart = this.i;
      this.string();
      const keyEnd = this.i;
      this.ws();
      if (text[this.i] !== ':') this.fail("':' after the property name");
      this.i++;
      const key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
      members.push({ key, keyStart, keyEnd, value: this.value(depth + 1) });
      this.ws();
      if (text[this.i] === ',') this.i++;
      else if (text[this.i] === '}') return { type: 'object', start, end: ++this.i, members };
      else this.fail("',' or '}'");
    }
  }

  private array(start: number, depth: number): JsonNode {
    const text = this.text;
    this.i++;
    const items: JsonNode[] = [];
    this.ws();
    if (text[this.i] === ']') return { type: 'array', start, end: ++this.i, items };
    for (;;) {
      this.ws();
      if (items.length && text[this.i] === ']') this.fail('a value', ' (a trailing comma?)');
      items.push(this.value(depth + 1));
      this.ws();
      if (text[this.i] === ',') this.i++;
      else if (text[this.i] === ']') return { type: 'array', start, end: ++this.i, items };
      else this.fail("',' or ']'");
    }
  }

  private string(): void {
    const text = this.text;
    const start = this.i++;
    for (;;) {
      const c = text[this.i];
      if (c === undefined) throw new JsonSyntaxError(start, 'unterminated string');
      if (c === '"') return void this.i++;
      if (c < ' ') throw new JsonSyntaxError(this.i, 'line break or control character inside a string (write \\n)');
      if (c === '\\') {
        const e = text[this.i + 1];
        if (e === 'u' ? !/^[0-9a-fA-F]{4}$/.test(text.slice(this.i + 2, this.i + 6)) : !'"\\/bfnrt'.includes(e ?? 'x'))
          throw new JsonSyntaxError(this.i, 'invalid escape in a string');
        this.i += e === 'u' ? 6 : 2;
      } else this.i++;
    }
  }

  private ws(): void {
    const text = this.text;
    while (this.i < text.length && ' \t\n\r'.includes(text[this.i])) this.i++;
  }

  private found(): string {
    const { text, i } = this;
    if (i >= text.length) return 'the end of the file';
    if (text.startsWith('//', i) || text.startsWith('/*', i)) return 'a comment (JSON has no comments)';
    if (text[i] === "'") return `"'" (JSON strings use double quotes)`;
    return JSON.stringify(text[i]);
  }

  private fail(expected: string, hint = ''): never {
    throw new JsonSyntaxError(this.i, `expected ${expected}, found ${this.found()}${hint}`);
  }
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
