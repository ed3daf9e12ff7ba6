/** The Markdown checklist PRD (syntax in src/config/prd.ts' header): parsing, and the item lines write-back reads. */
import { PrdError, type PrdProblem } from '../errors';
import { dependencyProblems, duplicateIdProblems } from './problems';
import type { Prd, PrdTask } from './types';

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
export function parseItemLine(
  line: string,
): { indent: number; boxColumn: number; mark: string; body: string } | undefined {
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
export function parseItemBody(body: string): {
  id?: string;
  title: string;
  dependsOn: string[];
  emptyDepends: boolean;
} {
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
