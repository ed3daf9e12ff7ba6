/**
 * A gate's evidence rendered for people: the protected files' diff per file, coloured (`+` green, `-` red, hunk
 * headers cyan), and the original check's failure excerpt with its headline lines marked. As HTML for the console
 * (the caller's `escape` makes every text safe, and redacts) and as terminal lines (ANSI colours, or plain).
 */
import type { DiffEvidence, FileDiff, GateEvidence } from './evidence';
import type { FailureExcerpt } from './failure-excerpt';

/** Escapes text for HTML (the console's escaper, which also redacts secrets). */
export type Escape = (text: string) => string;

/** The styles of {@link diffHtml} and {@link failureHtml}. */
export const EVIDENCE_CSS = `
.diff-file{border:1px solid #d0d7de;margin:8px 0;background:#fff}
.diff-file-head{background:#eaeef2;padding:4px 8px;font-family:ui-monospace,monospace}
.diff-file-head .added{color:#1a7f37;font-weight:600}.diff-file-head .removed{color:#cf222e;font-weight:600}
table.diff{margin:0;border:0;font:12px/1.45 ui-monospace,monospace}
table.diff td{border:0;padding:0 6px;white-space:pre-wrap;word-break:break-all}
table.diff td.ln{width:1%;color:#6e7781;text-align:right;user-select:none;white-space:nowrap}
tr.diff-add td{background:#dafbe1}tr.diff-add td.code{color:#116329}
tr.diff-del td{background:#ffebe9}tr.diff-del td.code{color:#82071e}
tr.diff-hunk td{background:#ddf4ff;color:#0550ae}tr.diff-meta td{color:#6e7781;font-style:italic}
.failure-headline{font-family:ui-monospace,monospace;color:#82071e;font-weight:600}
pre.failure-excerpt mark{background:#ffebe9;color:#82071e;font-weight:600}
`;

const CHANGE_LETTER: Record<FileDiff['change'], string> = { added: 'A', modified: 'M', deleted: 'D' };

/** The kind of a diff line: `add`, `del`, `meta` (`\ No newline at end of file`) or `ctx`. */
function lineKind(l: string): 'add' | 'del' | 'meta' | 'ctx' {
  return l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : l.startsWith('\\') ? 'meta' : 'ctx';
}

/** One file's diff as an HTML block: its header (change, path, +/-), then a table of hunks with line numbers. */
function fileHtml(f: FileDiff, esc: Escape): string {
  const head =
    `<div class="diff-file-head"><strong>${CHANGE_LETTER[f.change]}</strong> <code>${esc(f.path)}</code> ` +
    `<span class="added">+${f.added}</span> <span class="removed">-${f.removed}</span>` +
    `${f.binary ? ' (binary or too large to show)' : ''}${f.truncated ? ' (cut: the whole diff is in the file below)' : ''}</div>`;
  const rows: string[] = [];
  for (const h of f.hunks) {
    rows.push(
      `<tr class="diff-hunk"><td class="ln"></td><td class="ln"></td><td class="code">` +
        `${esc(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`)}</td></tr>`,
    );
    let o = h.oldStart;
    let n = h.newStart;
    for (const l of h.lines) {
      const k = lineKind(l);
      const old = k === 'add' || k === 'meta' ? '' : String(o++);
      const now = k === 'del' || k === 'meta' ? '' : String(n++);
      rows.push(
        `<tr class="diff-${k}"><td class="ln">${old}</td><td class="ln">${now}</td><td class="code">${esc(l)}</td></tr>`,
      );
    }
  }
  const table = rows.length ? `<table class="diff"><tbody>${rows.join('')}</tbody></table>` : '';
  return `<div class="diff-file" data-path="${esc(f.path)}">${head}${table}</div>`;
}

/** The diff as HTML: one block per file, a note on files left out and where the whole diff is. */
export function diffHtml(d: DiffEvidence, esc: Escape): string {
  const more = d.omittedFiles ? `<p>${d.omittedFiles} more file(s) not shown.</p>` : '';
  const where = d.path ? `<p>The whole diff: <code>${esc(d.path)}</code></p>` : '';
  return `${d.files.map((f) => fileHtml(f, esc)).join('')}${more}${where}`;
}

/** The lines of the excerpt that make its headline (marked in both views). */
function headlineLines(f: FailureExcerpt): Set<string> {
  return new Set(
    f.headline
      .split(' / ')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

/** The failure as HTML: the runner and headline, then the excerpt with the headline lines marked. */
export function failureHtml(f: FailureExcerpt & { path?: string }, esc: Escape): string {
  const marked = headlineLines(f);
  const lines = f.excerpt
    .split('\n')
    .map((l) => (marked.has(l.trim()) ? `<mark>${esc(l)}</mark>` : esc(l)))
    .join('\n');
  return (
    `<p class="failure-headline">${esc(f.runner === 'unknown' ? '' : `${f.runner}: `)}${esc(f.headline)}</p>` +
    `<pre class="failure-excerpt">${lines}</pre>` +
    (f.path ? `<p>The whole output: <code>${esc(f.path)}</code></p>` : '')
  );
}

const SGR = { reset: '\u001b[0m', bold: '\u001b[1m', dim: '\u001b[2m', red: '\u001b[31m', green: '\u001b[32m' };
const CYAN = '\u001b[36m';

/** Wraps text in an ANSI style when colour is on. */
const paint = (on: boolean, style: string, text: string): string => (on ? `${style}${text}${SGR.reset}` : text);

/** The diff as terminal lines: a header per file, the hunks indented, `+` green, `-` red, `@@` cyan. */
export function diffLines(d: DiffEvidence, color: boolean): string[] {
  const out: string[] = [];
  for (const f of d.files) {
    const stat = `${paint(color, SGR.green, `+${f.added}`)} ${paint(color, SGR.red, `-${f.removed}`)}`;
    const notes = `${f.binary ? ' (binary or too large to show)' : ''}${f.truncated ? ' (cut)' : ''}`;
    out.push(`  ${paint(color, SGR.bold, `${CHANGE_LETTER[f.change]} ${f.path}`)}  ${stat}${notes}`);
    for (const h of f.hunks) {
      out.push(`    ${paint(color, CYAN, `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`)}`);
      for (const l of h.lines) {
        const k = lineKind(l);
        const style = k === 'add' ? SGR.green : k === 'del' ? SGR.red : k === 'meta' ? SGR.dim : '';
        out.push(`    ${style ? paint(color, style, l) : l}`);
      }
    }
  }
  if (d.omittedFiles) out.push(`  ${d.omittedFiles} more file(s) not shown`);
  if (d.path) out.push(`  the whole diff: ${d.path}`);
  return out;
}

/** The failure as terminal lines: the excerpt indented, its headline lines bold red. */
export function failureLines(f: FailureExcerpt & { path?: string }, color: boolean): string[] {
  const marked = headlineLines(f);
  const out = f.excerpt
    .split('\n')
    .map(
      (l) =>
        `  ${marked.has(l.trim()) ? paint(color, SGR.bold + SGR.red, l) : l === '⋮' ? paint(color, SGR.dim, l) : l}`,
    );
  if (f.path) out.push(`  the whole output: ${f.path}`);
  return out;
}

/** A gate's evidence as terminal lines, under two headings; empty when the gate has none. */
export function evidenceLines(e: GateEvidence | undefined, color: boolean): string[] {
  const out: string[] = [];
  if (e?.diff?.files.length) {
    const n = e.diff.files.length + (e.diff.omittedFiles ?? 0);
    out.push(paint(color, SGR.bold, `diff of the protected files the agent changed (${n} file${n === 1 ? '' : 's'}):`));
    out.push(...diffLines(e.diff, color));
  }
  if (e?.failure) {
    if (out.length) out.push('');
    const runner = e.failure.runner === 'unknown' ? '' : ` (${e.failure.runner})`;
    out.push(paint(color, SGR.bold, `original check failure${runner}, from its first error:`));
    out.push(...failureLines(e.failure, color));
  }
  return out;
}
