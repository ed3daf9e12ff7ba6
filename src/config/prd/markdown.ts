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
 * Parses a Markdown checklist PRD (syntax in src/config/prd.ts' header); throws a {@link PrdError} listing every
 * problem with its line.
 */
export function parsePrdMarkdown(text: string, file = 'PRD.md'): Prd {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const reader = new ChecklistReader();
  for (let n = frontMatterEnd(lines); n < lines.length; n++) reader.read(lines[n].replace(/\r$/, ''), n + 1);
  const problems = reader.problems;
  if (!reader.drafts.length && !problems.length)
    problems.push({
      message: 'no checklist items found: write each task as "- [ ] title" (or "- [x] title" when done)',
    });
  const tasks = tasksOf(reader.drafts);
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
  return { kind: 'markdown', project: reader.project, tasks };
}

/** The index of the first line after a YAML front matter block (`---` ... `---` or `...`), else 0. */
function frontMatterEnd(lines: string[]): number {
  if (lines[0]?.trimEnd() !== '---') return 0;
  const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)$/.test(l.trimEnd()));
  return end > 0 ? end + 1 : 0;
}

/** The tasks of the drafts, in file order: ids given or slugs of the titles (repeats get `-2`, `-3`...). */
function tasksOf(drafts: MarkdownDraft[]): PrdTask[] {
  const slugs = new Set<string>();
  return drafts.map((d, i): PrdTask => {
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
}

/** Reads a checklist line by line into task drafts: items, their descriptions and criteria, headings, problems. */
class ChecklistReader {
  readonly problems: PrdProblem[] = [];
  readonly drafts: MarkdownDraft[] = [];
  /** The first level-1 heading. */
  project: string | undefined;
  private heading: string | undefined;
  private cur: MarkdownDraft | undefined;
  private fence: string | undefined;
  private inComment = false;

  read(line: string, lineNo: number): void {
    if (this.skipped(line)) return;
    if (!line.trim()) {
      if (this.cur) this.cur.blank = true;
      return;
    }
    const h = HEADING.exec(line);
    if (h) {
      this.cur = undefined;
      this.heading = (h[2] ?? '').trim() || undefined;
      if (h[1].length === 1 && this.project === undefined && this.heading) this.project = this.heading;
      return;
    }
    if (RULE.test(line)) {
      this.cur = undefined;
      return;
    }
    const item = parseItemLine(line);
    if (item && (!this.cur || item.indent <= this.cur.indent)) this.item(item, lineNo);
    else this.underItem(line);
  }

  /** True for a line inside (or opening, or closing) a fenced code block or an HTML comment. */
  private skipped(line: string): boolean {
    if (this.fence !== undefined) {
      const f = FENCE.exec(line);
      if (f && f[1][0] === this.fence[0] && f[1].length >= this.fence.length && line.trim() === f[1])
        this.fence = undefined;
      return true;
    }
    if (this.inComment) {
      if (line.includes('-->')) this.inComment = false;
      return true;
    }
    const f = FENCE.exec(line);
    if (f) {
      this.fence = f[1];
      if (this.cur && leading(line) <= this.cur.indent) this.cur = undefined;
      return true;
    }
    if (/^[ \t]*<!--/.test(line)) {
      this.inComment = !line.slice(line.indexOf('<!--') + 4).includes('-->');
      return true;
    }
    return false;
  }

  /** A checklist item at the top level: a new task draft (or a problem). */
  private item(item: NonNullable<ReturnType<typeof parseItemLine>>, lineNo: number): void {
    this.cur = undefined;
    if (!' xX'.includes(item.mark) || item.mark === '') {
      this.problems.push({ line: lineNo, message: `unrecognised checkbox "[${item.mark}]": use "[ ]" or "[x]"` });
      return;
    }
    const b = parseItemBody(item.body);
    if (b.emptyDepends)
      this.problems.push({ line: lineNo, message: 'empty "(depends: )": list task ids, e.g. "(depends: T1, T2)"' });
    if (!b.title) {
      this.problems.push({ line: lineNo, message: 'checklist item has no title' });
      return;
    }
    this.cur = {
      line: lineNo,
      indent: item.indent,
      id: b.id,
      title: b.title,
      done: item.mark !== ' ',
      dependsOn: [...new Set(b.dependsOn)],
      heading: this.heading,
      description: [],
      criteria: [],
      criterionIndent: Infinity,
      blank: false,
    };
    this.drafts.push(this.cur);
  }

  /** A line under the current task: a criterion (indented bullet), its continuation, or description text. */
  private underItem(line: string): void {
    const cur = this.cur;
    const indent = leading(line);
    if (!cur || indent <= cur.indent) {
      this.cur = undefined;
      return;
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
}
