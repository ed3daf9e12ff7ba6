/**
 * PRD task files: a `prd.json` in the common Ralph shape or a Markdown checklist, parsed into one list of tasks with
 * dependencies; the choice of the next task; and the pure text edit that records a task's progress back into the file,
 * so the file stays the human's source of truth. No I/O and no node builtins (only zod): reading and the atomic
 * write-back are in src/activities/prd-file.ts, and nextTask / blockedByDependency can run in workflow code.
 *
 * prd.json (Ralph's shape; unknown keys such as `notes` are allowed and kept on write-back):
 * ```json
 * { "project": "MyApp", "branchName": "ralph/x", "description": "...",
 *   "userStories": [{ "id": "US-001", "title": "...", "description": "...", "acceptanceCriteria": ["..."],
 *                     "priority": 1, "passes": false, "dependsOn": ["US-000"], "notes": "" }] }
 * ```
 * `projectName` is read like `project`; `dependencies` like `dependsOn`; numeric ids are read as strings. A story
 * without `priority` gets its 1-based position; without `passes` it is not done (write-back adds the key).
 *
 * Markdown checklist:
 * ```md
 * # Project name            (the first level-1 heading is the project)
 * ## Backend                (a heading is the description of the tasks under it that have none of their own)
 * - [ ] **T1**: Add the priority column
 *   Optional description: indented text under the item.
 *   - a migration adds `priority` (indented bullets are acceptance criteria; their own boxes are not read)
 * - [x] T2: Already done (depends: T1)
 * - [ ] A task without an id
 * ```
 * - A task is a `-`, `*`, `+` or `1.` list item starting with `[ ]` or `[x]`/`[X]` that is not nested under another
 *   task. Items inside fenced code blocks, HTML comments and YAML front matter are ignored.
 * - Id: an optional `T1:`, `**T1**:`, `**T1:**` or `US-001:` prefix (capital letters, digits, `-` or `.`, with at
 *   least one digit). Without one, the id is the slug of the title (`a-task-without-an-id`), so it stays the same when
 *   other lines are added, moved or removed; repeated titles get `-2`, `-3`... in file order.
 * - Dependencies: a trailing `(depends: T1, T2)` (also `(depends on: T1)`), listing ids or slugs.
 * - Priority: position in the file (1 = first).
 */
import { z } from 'zod';
import { PrdError, StalePrdError, UnknownPrdTaskError, type PrdProblem } from './errors';

export { PrdError, StalePrdError, UnknownPrdTaskError, type PrdProblem } from './errors';

/** Where a task lives in its file: the index in `userStories`, or the 1-based line of the checklist item. */
export type PrdTaskSource = { kind: 'json'; index: number } | { kind: 'markdown'; line: number };

/** One task of a PRD, the same for both formats. */
export interface PrdTask {
  id: string;
  title: string;
  description: string;
  acceptanceCriteria: string[];
  /** Lower runs first; ties run in file order. */
  priority: number;
  /** `passes` in prd.json, a checked box in Markdown. */
  done: boolean;
  /** Ids of the tasks that must be done first. */
  dependsOn: string[];
  source: PrdTaskSource;
}

/** A parsed PRD. */
export interface Prd {
  kind: 'json' | 'markdown';
  project?: string;
  branchName?: string;
  /** prd.json's top-level `description`. */
  description?: string;
  tasks: PrdTask[];
}

/** One problem of a PRD file, located by line and/or JSON path. */
// ---------------------------------------------------------------------------------------------------------------------
// prd.json

const Id = z.union([z.string().min(1, 'must not be empty'), z.number().int()], {
  error: 'expected a string such as "US-001"',
});

/** One story of a Ralph `prd.json`. Unknown keys (`notes`, ...) are allowed and kept on write-back. */
export const PrdStory = z.looseObject({
  id: Id,
  title: z.string().min(1, 'must not be empty'),
  description: z.string().default(''),
  acceptanceCriteria: z.array(z.string()).default([]),
  /** Lower runs first; default: the story's 1-based position. */
  priority: z.number().optional(),
  passes: z.boolean().default(false),
  dependsOn: z.array(Id).optional(),
  /** Alias of `dependsOn` found in some Ralph variants. */
  dependencies: z.array(Id).optional(),
});
/** One story of a Ralph `prd.json`. */
export type PrdStory = z.infer<typeof PrdStory>;

/** A Ralph `prd.json`. Unknown top-level keys are allowed and kept on write-back. */
export const PrdJson = z.looseObject({
  project: z.string().optional(),
  projectName: z.string().optional(),
  branchName: z.string().optional(),
  description: z.string().optional(),
  userStories: z.array(PrdStory).min(1, 'must list at least one story'),
});
/** A Ralph `prd.json`. */
export type PrdJson = z.infer<typeof PrdJson>;

/** Parses and validates a Ralph `prd.json`; throws a {@link PrdError} listing every problem with its line and path. */
export function parsePrdJson(text: string, file = 'prd.json'): Prd {
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  let raw: unknown;
  try {
    raw = JSON.parse(text.slice(bom));
  } catch (e) {
    throw jsonSyntaxError(text, file, e);
  }
  // Spans are needed only to put line numbers on problems: scanned lazily.
  let spans: JsonNode | undefined;
  const lineOf = (p: PropertyKey[]): number => {
    spans ??= scanJson(text);
    return lineAt(text, nodeAt(spans, p).start);
  };
  const where = (p: PropertyKey[]): Omit<PrdProblem, 'message'> => ({
    line: lineOf(p),
    ...(p.length ? { path: issuePath(p) } : {}),
  });

  const r = PrdJson.safeParse(raw);
  if (!r.success)
    throw new PrdError(
      file,
      r.error.issues.map((i) => ({ ...where(i.path), message: describeIssue(i, raw) })),
    );

  const tasks = r.data.userStories.map((s, index): PrdTask => ({
    id: String(s.id),
    title: s.title,
    description: s.description,
    acceptanceCriteria: s.acceptanceCriteria,
    priority: s.priority ?? index + 1,
    done: s.passes,
    dependsOn: [...new Set([...(s.dependsOn ?? []), ...(s.dependencies ?? [])].map(String))],
    source: { kind: 'json', index },
  }));
  const problems = [
    ...duplicateIdProblems(tasks, (t, first) => ({
      ...where(['userStories', jsonIndex(t), 'id']),
      message: `duplicate id "${t.id}" (also userStories[${jsonIndex(first)}])`,
    })),
    ...dependencyProblems(tasks, (t, dep) => {
      const i = jsonIndex(t);
      const s = r.data.userStories[i];
      const keys = (['dependsOn', 'dependencies'] as const).filter((k) => s[k] !== undefined);
      for (const k of keys) {
        const j = dep === undefined ? -1 : s[k]!.map(String).indexOf(dep);
        if (j >= 0) return where(['userStories', i, k, j]);
      }
      return where(['userStories', i, keys[0] ?? 'dependsOn']);
    }),
  ];
  if (problems.length) throw new PrdError(file, problems);
  return {
    kind: 'json',
    project: r.data.project ?? r.data.projectName,
    branchName: r.data.branchName,
    description: r.data.description,
    tasks,
  };
}

const jsonIndex = (t: PrdTask): number => (t.source.kind === 'json' ? t.source.index : -1);

/** Formats a zod issue path as `userStories[2].priority` (as load-config's issuePath; kept here so this module stays free of node builtins). */
const issuePath = (p: PropertyKey[]): string =>
  p.map((s, i) => (typeof s === 'number' ? `[${s}]` : `${i ? '.' : ''}${String(s)}`)).join('');

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

function describeIssue(i: z.core.$ZodIssue, raw: unknown): string {
  if (i.code !== 'invalid_type') return i.message;
  const expected = TYPE_NAMES[i.expected] ?? i.expected;
  let v: unknown = raw;
  for (const k of i.path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v === undefined ? `missing: expected ${expected}` : `expected ${expected}, got ${describeValue(v)}`;
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  const s = JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

// A small JSON scanner: JSON.parse gives values, this gives where they are. It locates syntax errors by line and
// column (Node 20's JSON.parse messages often carry no position) and finds the bytes of one `passes` value, so a
// write-back changes that value only and leaves every other byte of the human's file as it was.

type JsonNode =
  | { type: 'object'; start: number; end: number; members: JsonMember[] }
  | { type: 'array'; start: number; end: number; items: JsonNode[] }
  | { type: 'scalar'; start: number; end: number };
interface JsonMember {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: JsonNode;
}

class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const MAX_DEPTH = 500;

function scanJson(text: string): JsonNode {
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

function jsonSyntaxError(text: string, file: string, parseError: unknown): PrdError {
  try {
    scanJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) {
      const { line, column } = lineColumn(text, e.offset);
      return new PrdError(file, [{ message: `invalid JSON at line ${line} column ${column}: ${e.message}` }], {
        cause: parseError,
      });
    }
  }
  // The scanner accepted what JSON.parse rejected: report JSON.parse's own words.
  return new PrdError(file, [{ message: `invalid JSON: ${(parseError as Error).message}` }], { cause: parseError });
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

const lineAt = (text: string, offset: number): number => lineColumn(text, offset).line;

/** The node at `path`, or the deepest node on the way to it that exists. */
function nodeAt(root: JsonNode, path: PropertyKey[]): JsonNode {
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
function memberOf(node: JsonNode | undefined, key: string): JsonMember | undefined {
  if (node?.type !== 'object') return undefined;
  for (let i = node.members.length - 1; i >= 0; i--) if (node.members[i].key === key) return node.members[i];
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------------
// Markdown checklist

const ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+)\[(.?)\](?=[ \t]|$)(.*)$/;
const LIST = /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const FENCE = /^[ \t]*(`{3,}|~{3,})/;
const DEPENDS = /[ \t]*\([ \t]*depends(?:[ \t]+on)?[ \t]*:([^()]*)\)[ \t]*$/i;
const ID_BODY = '[A-Z][A-Z0-9]*(?:[-.][A-Z0-9]+)*';
const ID_PREFIXES = [
  new RegExp(`^(\\*\\*|__)(${ID_BODY})\\1:[ \\t]*(.*)$`), // **T1**: title
  new RegExp(`^(\\*\\*|__)(${ID_BODY}):\\1[ \\t]*(.*)$`), // **T1:** title
  new RegExp(`^()(${ID_BODY}):(?:[ \\t]+(.*)|$)`), // T1: title
];

/** A checklist item line: its box's column and mark, and the text after the box. */
function parseItemLine(line: string): { indent: number; boxColumn: number; mark: string; body: string } | undefined {
  const m = ITEM.exec(line);
  if (!m) return undefined;
  return {
    indent: columns(m[1]),
    boxColumn: m[1].length + m[2].length + m[3].length + 1,
    mark: m[4],
    body: m[5].trim(),
  };
}

/** Splits an item's text into its optional id, title and `(depends: ...)` list. */
function parseItemBody(body: string): { id?: string; title: string; dependsOn: string[]; emptyDepends: boolean } {
  let rest = body;
  let dependsOn: string[] = [];
  let emptyDepends = false;
  const d = DEPENDS.exec(rest);
  if (d) {
    rest = rest.slice(0, d.index);
    dependsOn = d[1]
      .split(/[\s,]+/)
      .map((s) => s.replace(/^(\*\*|__|`)(.*)\1$/, '$2'))
      .filter(Boolean);
    emptyDepends = dependsOn.length === 0;
  }
  for (const re of ID_PREFIXES) {
    const m = re.exec(rest);
    if (m && /\d/.test(m[2])) return { id: m[2], title: (m[3] ?? '').trim(), dependsOn, emptyDepends };
  }
  return { title: rest.trim(), dependsOn, emptyDepends };
}

/** Indentation width, a tab counting to the next multiple of 4. */
function columns(ws: string): number {
  let n = 0;
  for (const c of ws) n = c === '\t' ? n + 4 - (n % 4) : n + 1;
  return n;
}

const leading = (line: string): number => columns(/^[ \t]*/.exec(line)![0]);

/** The id of a task without an explicit one: its title, lower-case, words joined by `-`. */
export function slugOf(title: string): string {
  const s = title
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const cut = s.length > 60 ? s.slice(0, 60).replace(/-[^-]*$/, '') || s.slice(0, 60) : s;
  return cut || 'task';
}

interface MarkdownDraft {
  line: number;
  indent: number;
  id?: string;
  title: string;
  done: boolean;
  dependsOn: string[];
  heading?: string;
  description: string[];
  criteria: string[];
  criterionIndent: number;
  blank: boolean;
}

/**
 * Parses a Markdown checklist PRD (syntax in this module's header); throws a {@link PrdError} listing every problem
 * with its line.
 */
export function parsePrdMarkdown(text: string, file = 'PRD.md'): Prd {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const problems: PrdProblem[] = [];
  const drafts: MarkdownDraft[] = [];
  let project: string | undefined;
  let heading: string | undefined;
  let cur: MarkdownDraft | undefined;
  let fence: string | undefined;
  let inComment = false;
  let start = 0;
  if (lines[0]?.trimEnd() === '---') {
    const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)$/.test(l.trimEnd()));
    if (end > 0) start = end + 1;
  }
  for (let n = start; n < lines.length; n++) {
    const line = lines[n].replace(/\r$/, '');
    const lineNo = n + 1;
    if (fence !== undefined) {
      const f = FENCE.exec(line);
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) fence = undefined;
      continue;
    }
    if (inComment) {
      if (line.includes('-->')) inComment = false;
      continue;
    }
    const f = FENCE.exec(line);
    if (f) {
      fence = f[1];
      if (cur && leading(line) <= cur.indent) cur = undefined;
      continue;
    }
    if (/^[ \t]*<!--/.test(line)) {
      inComment = !line.slice(line.indexOf('<!--') + 4).includes('-->');
      continue;
    }
    if (!line.trim()) {
      if (cur) cur.blank = true;
      continue;
    }
    const indent = leading(line);
    const h = HEADING.exec(line);
    if (h) {
      cur = undefined;
      heading = (h[2] ?? '').trim() || undefined;
      if (h[1].length === 1 && project === undefined && heading) project = heading;
      continue;
    }
    if (RULE.test(line)) {
      cur = undefined;
      continue;
    }
    const item = parseItemLine(line);
    if (item && (!cur || item.indent <= cur.indent)) {
      cur = undefined;
      if (!' xX'.includes(item.mark) || item.mark === '') {
        problems.push({ line: lineNo, message: `unrecognised checkbox "[${item.mark}]": use "[ ]" or "[x]"` });
        continue;
      }
      const b = parseItemBody(item.body);
      if (b.emptyDepends)
        problems.push({ line: lineNo, message: 'empty "(depends: )": list task ids, e.g. "(depends: T1, T2)"' });
      if (!b.title) {
        problems.push({ line: lineNo, message: 'checklist item has no title' });
        continue;
      }
      cur = {
        line: lineNo,
        indent: item.indent,
        id: b.id,
        title: b.title,
        done: item.mark !== ' ',
        dependsOn: [...new Set(b.dependsOn)],
        heading,
        description: [],
        criteria: [],
        criterionIndent: Infinity,
        blank: false,
      };
      drafts.push(cur);
      continue;
    }
    if (!cur || indent <= cur.indent) {
      cur = undefined;
      continue;
    }
    const list = LIST.exec(line);
    if (list) {
      const c = (list[1] ?? '').replace(/^\[.?\](?:[ \t]+|$)/, '').trim();
      if (c) cur.criteria.push(c);
      cur.criterionIndent = indent;
    } else if (cur.criteria.length && indent > cur.criterionIndent && !cur.blank) {
      // A wrapped criterion: its continuation line belongs to the bullet above.
      cur.criteria[cur.criteria.length - 1] += ` ${line.trim()}`;
    } else {
      if (cur.blank && cur.description.length) cur.description.push('');
      cur.description.push(line.trim());
    }
    cur.blank = false;
  }

  if (!drafts.length && !problems.length)
    problems.push({
      message: 'no checklist items found: write each task as "- [ ] title" (or "- [x] title" when done)',
    });

  const slugs = new Set<string>();
  const tasks = drafts.map((d, i): PrdTask => {
    let id = d.id;
    if (id === undefined) {
      const base = slugOf(d.title);
      id = base;
      for (let k = 2; slugs.has(id); k++) id = `${base}-${k}`;
      slugs.add(id);
    }
    return {
      id,
      title: d.title,
      description: d.description.join('\n') || d.heading || '',
      acceptanceCriteria: d.criteria,
      priority: i + 1,
      done: d.done,
      dependsOn: d.dependsOn,
      source: { kind: 'markdown', line: d.line },
    };
  });
  const lineOf = (t: PrdTask): number => (t.source.kind === 'markdown' ? t.source.line : 0);
  problems.push(
    ...duplicateIdProblems(tasks, (t, first) => ({
      line: lineOf(t),
      message: `duplicate id "${t.id}" (also line ${lineOf(first)})`,
    })),
    ...dependencyProblems(tasks, (t) => ({ line: lineOf(t) })),
  );
  if (problems.length)
    throw new PrdError(
      file,
      problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)),
    );
  return { kind: 'markdown', project, tasks };
}

// ---------------------------------------------------------------------------------------------------------------------
// Both formats

/** The PRD format of a file name: `.json` or `.md`/`.markdown`; undefined for anything else. */
export function prdKindOf(file: string): Prd['kind'] | undefined {
  if (/\.json$/i.test(file)) return 'json';
  if (/\.(md|markdown)$/i.test(file)) return 'markdown';
  return undefined;
}

/** Parses a PRD of either format, chosen by `file`'s extension (a `.json` file is prd.json, anything else Markdown). */
export function parsePrd(text: string, file: string): Prd {
  return prdKindOf(file) === 'json' ? parsePrdJson(text, file) : parsePrdMarkdown(text, file);
}

function duplicateIdProblems(tasks: PrdTask[], problem: (t: PrdTask, first: PrdTask) => PrdProblem): PrdProblem[] {
  const first = new Map<string, PrdTask>();
  const out: PrdProblem[] = [];
  for (const t of tasks) {
    const f = first.get(t.id);
    if (f) out.push(problem(t, f));
    else first.set(t.id, t);
  }
  return out;
}

/** Unknown ids, self-dependencies and cycles; `where(task, dep)` locates one entry (dep undefined: the whole list). */
function dependencyProblems(
  tasks: PrdTask[],
  where: (t: PrdTask, dep?: string) => Omit<PrdProblem, 'message'>,
): PrdProblem[] {
  const byId = new Map<string, PrdTask>();
  for (const t of tasks) if (!byId.has(t.id)) byId.set(t.id, t);
  const out: PrdProblem[] = [];
  for (const t of tasks)
    for (const d of t.dependsOn) {
      if (d === t.id) out.push({ ...where(t, d), message: `"${t.id}" depends on itself` });
      else if (!byId.has(d)) out.push({ ...where(t, d), message: `depends on unknown task "${d}"` });
    }

  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string): void => {
    state.set(id, 'visiting');
    stack.push(id);
    for (const d of byId.get(id)!.dependsOn) {
      if (d === id || !byId.has(d)) continue;
      const s = state.get(d);
      if (s === 'visiting') {
        const cycle = stack.slice(stack.indexOf(d));
        const key = [...cycle].sort().join('\n');
        if (!seen.has(key)) {
          seen.add(key);
          out.push({ ...where(byId.get(d)!), message: `dependency cycle: ${[...cycle, d].join(' → ')}` });
        }
      } else if (!s) visit(d);
    }
    stack.pop();
    state.set(id, 'done');
  };
  for (const t of byId.values()) if (!state.has(t.id)) visit(t.id);
  return out;
}

/**
 * The task to work on next: among tasks not done, not blocked and whose dependencies are all done, the lowest
 * priority number, ties in file order. Undefined when none can run.
 */
export function nextTask(
  prd: Prd,
  opts: { blocked: ReadonlySet<string> } = { blocked: new Set() },
): PrdTask | undefined {
  const done = new Set(prd.tasks.filter((t) => t.done).map((t) => t.id));
  let best: PrdTask | undefined;
  for (const t of prd.tasks) {
    if (t.done || opts.blocked.has(t.id) || !t.dependsOn.every((d) => done.has(d))) continue;
    if (!best || t.priority < best.priority) best = t;
  }
  return best;
}

/**
 * Tasks that can never run: not done, not blocked themselves, but depending (directly or through other tasks) on a
 * blocked task that isn't done, or on an id that isn't in the PRD. In file order.
 */
export function blockedByDependency(prd: Prd, blocked: ReadonlySet<string>): PrdTask[] {
  const byId = new Map(prd.tasks.map((t) => [t.id, t]));
  const memo = new Map<string, boolean>();
  const stuck = (t: PrdTask): boolean => {
    const known = memo.get(t.id);
    if (known !== undefined) return known;
    memo.set(t.id, false); // a cycle (only in a hand-built Prd: parsing rejects them) ends here
    const r = t.dependsOn.some((d) => {
      const dep = byId.get(d);
      if (!dep) return true;
      if (dep.done) return false;
      return blocked.has(d) || stuck(dep);
    });
    memo.set(t.id, r);
    return r;
  };
  return prd.tasks.filter((t) => !t.done && !blocked.has(t.id) && stuck(t));
}

/**
 * Records a task's progress in the PRD's text and returns the new text: in prd.json the story's `passes` value is
 * replaced (or `"passes": ...` added after its last key, in the file's own layout) and every other byte is kept; in
 * Markdown only that item's box flips between `[ ]` and `[x]`. Returns `text` itself when it already says so.
 * `prd` must have been parsed from `text` ({@link StalePrdError} otherwise).
 */
export function markTaskDone(text: string, prd: Prd, taskId: string, done: boolean): string {
  const task = prd.tasks.find((t) => t.id === taskId);
  if (!task)
    throw new UnknownPrdTaskError(
      taskId,
      prd.tasks.map((t) => t.id),
    );
  return task.source.kind === 'json'
    ? markJson(text, task, task.source.index, done)
    : markMarkdown(text, task, task.source.line, done);
}

function markJson(text: string, task: PrdTask, index: number, done: boolean): string {
  let root: JsonNode;
  try {
    root = scanJson(text);
  } catch {
    throw new StalePrdError(task.id, 'it is no longer valid JSON');
  }
  const stories = memberOf(root, 'userStories')?.value;
  const story = stories?.type === 'array' ? stories.items[index] : undefined;
  const idNode = memberOf(story, 'id')?.value;
  if (story?.type !== 'object' || !idNode || String(JSON.parse(text.slice(idNode.start, idNode.end))) !== task.id)
    throw new StalePrdError(task.id, `userStories[${index}] is no longer "${task.id}"`);

  const want = String(done);
  const passes = memberOf(story, 'passes')?.value;
  if (passes) {
    if (text.slice(passes.start, passes.end) === want) return text;
    return text.slice(0, passes.start) + want + text.slice(passes.end);
  }
  // No `passes` yet: add it after the last key, laid out like that key (its indentation and its `": "`).
  const last = story.members[story.members.length - 1];
  const prevEnd = story.members.length > 1 ? text.lastIndexOf(',', last.keyStart) + 1 : story.start + 1;
  const lead = text.slice(prevEnd, last.keyStart);
  const colon = text.slice(last.keyEnd, last.value.start);
  return `${text.slice(0, last.value.end)},${lead}"passes"${colon}${want}${text.slice(last.value.end)}`;
}

function markMarkdown(text: string, task: PrdTask, lineNo: number, done: boolean): string {
  let start = 0;
  for (let n = 1; n < lineNo; n++) {
    start = text.indexOf('\n', start) + 1;
    if (start === 0) throw new StalePrdError(task.id, `the file has fewer than ${lineNo} lines`);
  }
  if (lineNo === 1 && text.startsWith('\uFEFF')) start = 1;
  const nl = text.indexOf('\n', start);
  const line = text.slice(start, nl < 0 ? text.length : nl).replace(/\r$/, '');
  const item = parseItemLine(line);
  if (!item || !' xX'.includes(item.mark) || item.mark === '' || parseItemBody(item.body).title !== task.title)
    throw new StalePrdError(task.id, `line ${lineNo} is no longer the checklist item "${task.title}"`);
  if ((item.mark !== ' ') === done) return text;
  const at = start + item.boxColumn;
  return text.slice(0, at) + (done ? 'x' : ' ') + text.slice(at + 1);
}
