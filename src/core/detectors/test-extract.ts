/**
 * Static test listing: the tests a test file declares, read from its source without running anything (JS/TS
 * describe/it/test, pytest functions and classes, Go `TestXxx`). Feeds the test inventory diff with names and bodies,
 * so that deletions are caught and renames are not mistaken for them.
 */
import { diffTestInventory, testKey, type TestBodies, type TestId, type TestInventoryDiff } from './test-inventory';
import { isTestFile } from './validation-bypass';

/** One test found in a file: its id and the source of its body (without its title, so a rename keeps it). */
export interface ExtractedTest {
  id: TestId;
  body: string;
}

// ---------------------------------------------------------------------------------------------------------------
// JS/TS: a small lexer (strings, templates, comments, regex literals) and a scan of the calls of the test API.

type TokenKind = 'id' | 'num' | 'str' | 'tpl' | 'regex' | 'punct';

interface Token {
  kind: TokenKind;
  /** The source text of the token. */
  raw: string;
  /** The value of a string, or of a template without `${}`; absent for other tokens. */
  value?: string;
  start: number;
  end: number;
}

const simpleEscapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0' };

/** Decodes the escape at `src[i] === '\\'`: its value and the index after it. */
function readEscape(src: string, i: number): [string, number] {
  const c = src[i + 1] ?? '';
  if (c === '\r' && src[i + 2] === '\n') return ['', i + 3];
  if (c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029') return ['', i + 2];
  const hex = c === 'x' ? /^[0-9a-fA-F]{2}/.exec(src.slice(i + 2, i + 4)) : null;
  if (hex) return [String.fromCharCode(parseInt(hex[0], 16)), i + 4];
  if (c === 'u') {
    const u = /^(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]{1,6})\})/.exec(src.slice(i + 2, i + 10));
    const cp = u ? parseInt(u[1] ?? u[2], 16) : NaN;
    if (u && cp <= 0x10ffff) return [String.fromCodePoint(cp), i + 2 + u[0].length];
  }
  return [simpleEscapes[c] ?? c, i + 2];
}

/** Reads a '…' or "…" string starting at `i`; an unterminated one ends at the line's end. */
function readString(src: string, i: number): { end: number; value: string } {
  const quote = src[i];
  let value = '';
  let j = i + 1;
  while (j < src.length) {
    const c = src[j];
    if (c === quote) return { end: j + 1, value };
    if (c === '\n') return { end: j, value };
    if (c === '\\') {
      const [v, next] = readEscape(src, j);
      value += v;
      j = next;
    } else {
      value += c;
      j++;
    }
  }
  return { end: src.length, value };
}

/** Reads a `…` template starting at `i`, skipping the code inside `${}`. */
function readTemplate(src: string, i: number): { end: number; value: string; substitutions: boolean } {
  let value = '';
  let substitutions = false;
  let j = i + 1;
  while (j < src.length) {
    const c = src[j];
    if (c === '`') return { end: j + 1, value, substitutions };
    if (c === '\\') {
      const [v, next] = readEscape(src, j);
      value += v;
      j = next;
    } else if (c === '$' && src[j + 1] === '{') {
      substitutions = true;
      j = skipCode(src, j + 2);
    } else {
      value += c;
      j++;
    }
  }
  return { end: src.length, value, substitutions };
}

/** Skips the code of a `${…}` from `i` to just after its closing brace (strings, templates and comments respected). */
function skipCode(src: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < src.length) {
    const c = src[j];
    if (c === '"' || c === "'") j = readString(src, j).end;
    else if (c === '`') j = readTemplate(src, j).end;
    else if (c === '/' && src[j + 1] === '/') j = lineEnd(src, j);
    else if (c === '/' && src[j + 1] === '*') j = blockCommentEnd(src, j);
    else if (c === '{') {
      depth++;
      j++;
    } else if (c === '}') {
      if (depth === 0) return j + 1;
      depth--;
      j++;
    } else j++;
  }
  return src.length;
}

const lineEnd = (src: string, i: number): number => {
  const j = src.indexOf('\n', i);
  return j < 0 ? src.length : j;
};
const blockCommentEnd = (src: string, i: number): number => {
  const j = src.indexOf('*/', i + 2);
  return j < 0 ? src.length : j + 2;
};

/** Reads a regex literal starting at `i`; one that does not close on its line ends there. */
function readRegex(src: string, i: number): number {
  let inClass = false;
  let j = i + 1;
  while (j < src.length) {
    const c = src[j];
    if (c === '\n') return j;
    if (c === '\\') j += 2;
    else {
      if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) {
        j++;
        while (j < src.length && /[a-z]/i.test(src[j])) j++;
        return j;
      }
      j++;
    }
  }
  return src.length;
}

const regexAfterWord = /^(?:return|typeof|instanceof|in|of|new|delete|void|throw|case|do|else|yield|await)$/;

/** Whether a `/` after this token starts a regex literal rather than a division. */
const regexMayFollow = (t: Token | undefined): boolean =>
  !t || (t.kind === 'punct' && !')]}'.includes(t.raw)) || (t.kind === 'id' && regexAfterWord.test(t.raw));

const isIdStart = (c: string): boolean => /[A-Za-z_$]/.test(c) || c.charCodeAt(0) > 127;
const isIdPart = (c: string): boolean => /[\w$]/.test(c) || c.charCodeAt(0) > 127;

/** Splits JS/TS source into tokens, without comments or whitespace. Never throws; malformed input ends early. */
function lex(src: string): Token[] {
  const tokens: Token[] = [];
  const push = (kind: TokenKind, start: number, end: number, value?: string): void => {
    tokens.push({ kind, raw: src.slice(start, end), value, start, end });
  };
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) i++;
    else if (c === '/' && src[i + 1] === '/') i = lineEnd(src, i);
    else if (c === '/' && src[i + 1] === '*') i = blockCommentEnd(src, i);
    else if (c === '"' || c === "'") {
      const s = readString(src, i);
      push('str', i, s.end, s.value);
      i = s.end;
    } else if (c === '`') {
      const t = readTemplate(src, i);
      push('tpl', i, t.end, t.substitutions ? undefined : t.value);
      i = t.end;
    } else if (isIdStart(c)) {
      let j = i + 1;
      while (j < src.length && isIdPart(src[j])) j++;
      push('id', i, j);
      i = j;
    } else if (/\d/.test(c)) {
      let j = i + 1;
      while (j < src.length && /[\w.]/.test(src[j])) j++;
      push('num', i, j);
      i = j;
    } else if (c === '/' && regexMayFollow(tokens[tokens.length - 1])) {
      const j = readRegex(src, i);
      push('regex', i, j);
      i = j;
    } else {
      push('punct', i, i + 1);
      i++;
    }
  }
  return tokens;
}

const closerOf: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** For each opening bracket token, the index of its closing token (-1 when it never closes). */
function matchBrackets(tokens: Token[]): number[] {
  const match = new Array<number>(tokens.length).fill(-1);
  const open: number[] = [];
  tokens.forEach((t, i) => {
    if (t.kind !== 'punct') return;
    if (closerOf[t.raw]) open.push(i);
    else if (t.raw === ')' || t.raw === ']' || t.raw === '}') {
      // A stray closer closes the nearest opener of its kind; unclosed openers in between stay -1.
      const k = open.map((o) => closerOf[tokens[o].raw]).lastIndexOf(t.raw);
      if (k < 0) return;
      match[open[k]] = i;
      open.length = k;
    }
  });
  return match;
}

const suiteFns = new Set(['describe', 'context', 'suite', 'xdescribe', 'fdescribe', 'xcontext']);
const testFns = new Set(['it', 'test', 'specify', 'xit', 'fit', 'xtest', 'xspecify']);

/** JS/TS tests: `describe`/`it`/`test` calls and their variants, named `suite › … › test`. */
function extractJs(file: string, src: string, out: ExtractedTest[]): void {
  const tokens = lex(src);
  const match = matchBrackets(tokens);
  const isPunct = (i: number, p: string): boolean => tokens[i]?.kind === 'punct' && tokens[i].raw === p;
  /** The index just after a group opened at `i` (the end of input when it never closes). */
  const after = (i: number): number => (match[i] < 0 ? tokens.length : match[i] + 1);
  /** Skips `<…>` type arguments at `i` (`=>` inside them is not a closer). */
  const skipTypeArgs = (i: number): number => {
    if (!isPunct(i, '<')) return i;
    let depth = 0;
    for (let k = i; k < tokens.length; k++) {
      const t = tokens[k];
      if (isPunct(k, '<')) depth++;
      else if (isPunct(k, '>') && !(isPunct(k - 1, '=') && tokens[k - 1].end === t.start)) {
        if (--depth === 0) return k + 1;
      } else if (t.kind === 'punct' && closerOf[t.raw]) k = after(k) - 1;
      else if (isPunct(k, ';') || isPunct(k, ')') || isPunct(k, '}')) return i;
    }
    return i;
  };

  const suites: { title: string; end: number }[] = [];
  let i = 0;
  while (i < tokens.length) {
    while (suites.length && suites[suites.length - 1].end < i) suites.pop();
    const t = tokens[i];
    const isSuite = suiteFns.has(t.raw);
    if (
      t.kind !== 'id' ||
      !(isSuite || testFns.has(t.raw)) ||
      isPunct(i - 1, '.') ||
      tokens[i - 1]?.raw === 'function'
    ) {
      i++;
      continue;
    }
    // Modifiers: .skip/.only/.todo/.concurrent/..., and .each(table) or .each`table`, which a second call follows.
    let j = i + 1;
    while (isPunct(j, '.') && tokens[j + 1]?.kind === 'id') {
      const modifier = tokens[j + 1].raw;
      j = skipTypeArgs(j + 2);
      if (modifier === 'each') {
        if (isPunct(j, '(')) j = after(j);
        else if (tokens[j]?.kind === 'tpl') j++;
      }
    }
    j = skipTypeArgs(j);
    if (!isPunct(j, '(')) {
      i++;
      continue;
    }
    const close = match[j] < 0 ? tokens.length : match[j];
    // `test() { … }` is a method definition, not a call.
    if (isPunct(close + 1, '{')) {
      i = close + 1;
      continue;
    }
    // The first argument ends at a comma at depth 0.
    let k = j + 1;
    while (k < close && !isPunct(k, ',')) k = tokens[k].kind === 'punct' && closerOf[tokens[k].raw] ? after(k) : k + 1;
    const first = tokens.slice(j + 1, Math.min(k, close));
    const title =
      first.length === 1 && first[0].value !== undefined
        ? first[0].value
        : first.length
          ? src.slice(first[0].start, first[first.length - 1].end).replace(/\s+/g, ' ')
          : '';
    if (isSuite) {
      suites.push({ title, end: close });
      i = j + 1;
      continue;
    }
    const bodyEnd = close < tokens.length ? tokens[close].start : src.length;
    const body = k < close ? src.slice(tokens[k].end, bodyEnd).trim() : '';
    out.push({ id: { file, name: [...suites.map((s) => s.title), title].join(' › ') }, body });
    i = close + 1;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Python: pytest's rules (`test*` functions at module level, in `Test*` classes or in unittest.TestCase classes).

const indentOf = (line: string): number => /^[ \t]*/.exec(line)?.[0].replace(/\t/g, '        ').length ?? 0;
const isBlank = (line: string): boolean => /^\s*(#.*)?$/.test(line);

/** For each line, whether it starts inside a triple-quoted string (such lines say nothing about structure). */
function tripleQuoted(lines: string[]): boolean[] {
  const inside: boolean[] = [];
  let open: string | null = null;
  for (const line of lines) {
    inside.push(open !== null);
    let k = 0;
    while (k < line.length) {
      if (open !== null) {
        if (line[k] === '\\') k += 2;
        else if (line.startsWith(open, k)) {
          open = null;
          k += 3;
        } else k++;
        continue;
      }
      const c = line[k];
      if (c === '#') break;
      if (line.startsWith('"""', k) || line.startsWith("'''", k)) {
        open = line.slice(k, k + 3);
        k += 3;
      } else if (c === '"' || c === "'") {
        k++;
        while (k < line.length && line[k] !== c) k += line[k] === '\\' ? 2 : 1;
        k++;
      } else k++;
    }
  }
  return inside;
}

/** The last line of a `def` header starting at `i` (its parentheses may span lines). */
function headerEnd(lines: string[], i: number): number {
  let depth = 0;
  for (let j = i; j < lines.length && j < i + 200; j++) {
    for (const c of lines[j].replace(/#.*$/, '')) {
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth--;
    }
    if (depth <= 0) return j;
  }
  return i;
}

function extractPython(file: string, src: string, out: ExtractedTest[]): void {
  const lines = src.split(/\r?\n/);
  const inString = tripleQuoted(lines);
  const scopes: { kind: 'class' | 'def'; name: string; indent: number; collects: boolean }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (inString[i] || isBlank(lines[i])) continue;
    const line = lines[i];
    const indent = indentOf(line);
    while (scopes.length && scopes[scopes.length - 1].indent >= indent) scopes.pop();
    const cls = /^\s*class\s+([A-Za-z_]\w*)\s*(\([^)]*\)?)?/.exec(line);
    const def = /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/.exec(line);
    if (cls) {
      const collects = /^Test/.test(cls[1]) || /\bTestCase\b/.test(cls[2] ?? '');
      scopes.push({ kind: 'class', name: cls[1], indent, collects });
    } else if (def) {
      if (/^test/.test(def[1]) && scopes.every((s) => s.kind === 'class' && s.collects)) {
        const last = headerEnd(lines, i);
        let end = last;
        for (let j = last + 1; j < lines.length; j++) {
          if (inString[j] || (!isBlank(lines[j]) && indentOf(lines[j]) > indent)) end = j;
          else if (!isBlank(lines[j])) break;
        }
        let body = lines.slice(last + 1, end + 1).join('\n');
        // A one-line test (`def test_x(): assert f()`): what follows its name.
        if (!body.trim())
          body = lines
            .slice(i, last + 1)
            .join('\n')
            .slice(def.index + def[0].length);
        out.push({ id: { file, name: [...scopes.map((s) => s.name), def[1]].join('::') }, body });
      }
      scopes.push({ kind: 'def', name: def[1], indent, collects: false });
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Go: top-level `func TestXxx(t *testing.T)` in *_test.go.

/** The index just after the `}` closing the block that opens at `src[i] === '{'` (Go strings and comments respected). */
function goBlockEnd(src: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < src.length) {
    const c = src[j];
    if (c === '"' || c === "'") {
      j++;
      while (j < src.length && src[j] !== c && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1;
      j++;
    } else if (c === '`') {
      const k = src.indexOf('`', j + 1);
      j = k < 0 ? src.length : k + 1;
    } else if (c === '/' && src[j + 1] === '/') j = lineEnd(src, j);
    else if (c === '/' && src[j + 1] === '*') j = blockCommentEnd(src, j);
    else {
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) return j + 1;
      j++;
    }
  }
  return src.length;
}

function extractGo(file: string, src: string, out: ExtractedTest[]): void {
  for (const m of src.matchAll(/^func\s+(Test(?:[^a-z\W]\w*)?)\s*\(\s*\w+\s+\*testing\.T\s*\)\s*\{/gm)) {
    const open = (m.index ?? 0) + m[0].length - 1;
    const end = goBlockEnd(src, open);
    out.push({ id: { file, name: m[1] }, body: src.slice(open + 1, Math.max(open + 1, end - 1)) });
  }
}

/**
 * Lists the tests a test file declares, statically, by its extension:
 * - JS/TS: `describe`/`context`/`suite` blocks and `it`/`test`/`specify` calls with their modifiers (`.skip`,
 *   `.only`, `.todo`, `xit`, `fit`...: a skipped test is still present). The full name is the suite titles and the
 *   test title joined with ` › `. Titles are the values of string literals and of templates without `${}`; any other
 *   title is its source text, whitespace collapsed. `it.each(table)('adds %i', fn)` is one test named by its
 *   template. The body is the source of the arguments after the title (the callback).
 * - Python: `test*` functions at module level, or inside `Test*` classes or unittest.TestCase subclasses, named
 *   `TestClass::test_x`; the body is the indented block.
 * - Go (`*_test.go`): top-level `func TestXxx(t *testing.T)`; the body is the brace block.
 * Other files have none. Never throws: malformed input yields the tests found before the damage.
 */
export function extractTests(file: string, content: string): ExtractedTest[] {
  const out: ExtractedTest[] = [];
  try {
    if (/\.[cm]?[jt]sx?$/.test(file)) extractJs(file, content, out);
    else if (/\.py$/.test(file)) extractPython(file, content, out);
    else if (/_test\.go$/.test(file)) extractGo(file, content, out);
  } catch {
    // Defensive only: a parser slip must not fail the workflow; the tests read so far are kept.
  }
  return out;
}

/**
 * Diffs the test inventory of the changed files: lists the tests of each test file among `files` before and after the
 * iteration (`before`/`after` undefined: the file did not exist), with their bodies, and passes them to
 * {@link diffTestInventory}, which tells deletions from moves, renames and replacements.
 *
 * With `task`: a test the task asks to remove is not a deletion to block. That is a task that says remove / delete /
 * drop / deprecate and names the test's file, or a code identifier (camelCase, snake_case, PascalCase) that the test's
 * name or body uses, e.g. "Remove the deprecated legacyAdd and its test". Those tests are listed in `requested`.
 */
export function staticInventoryDiff(
  files: { path: string; before?: string; after?: string }[],
  task?: string,
): TestInventoryDiff & { requested: TestId[] } {
  const before: TestId[] = [];
  const after: TestId[] = [];
  const bodies: TestBodies = { before: {}, after: {} };
  const requested: TestId[] = [];
  const asks = task ? removalRequest(task) : undefined;
  for (const f of files) {
    if (!isTestFile(f.path)) continue;
    const stillThere = new Set((f.after === undefined ? [] : extractTests(f.path, f.after)).map((t) => testKey(t.id)));
    for (const t of f.before === undefined ? [] : extractTests(f.path, f.before)) {
      if (asks && !stillThere.has(testKey(t.id)) && asks(f.path, `${t.id.name}\n${t.body}`)) {
        requested.push(t.id);
        continue;
      }
      before.push(t.id);
      bodies.before[testKey(t.id)] = t.body;
    }
    for (const t of f.after === undefined ? [] : extractTests(f.path, f.after)) {
      after.push(t.id);
      bodies.after[testKey(t.id)] = t.body;
    }
  }
  return { ...diffTestInventory(before, after, bodies), requested };
}

const REMOVAL_VERB =
  /\b(remove|removes|removing|delete|deletes|deleting|drop|drops|dropping|deprecated?|get rid of)\b/i;
/** camelCase, PascalCase with an inner capital, snake_case: words that name code, not prose. */
const CODE_IDENT =
  /\b(?:[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+)\b/g;

/** When the task asks to remove something: a predicate "does this test (file, name + body) belong to it?". */
function removalRequest(task: string): ((file: string, text: string) => boolean) | undefined {
  if (!REMOVAL_VERB.test(task)) return undefined;
  const named = new Set(task.match(CODE_IDENT) ?? []);
  const lower = task.toLowerCase();
  return (file, text) => {
    const base = file.split('/').pop() ?? file;
    if (lower.includes(file.toLowerCase()) || lower.includes(base.toLowerCase())) return true;
    return (text.match(CODE_IDENT) ?? []).some((w) => named.has(w));
  };
}
