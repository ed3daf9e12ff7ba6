/**
 * A gate's evidence, bounded and rendered: the protected diff per file (HTML with line numbers and classes the
 * console colours; terminal lines with ANSI colours or plain) and the failure excerpt with its headline marked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { structuredPatch } from 'diff';
import { boundDiff, countChanges, type FileDiff } from '../../../../src/core/verification/evidence';
import {
  diffHtml,
  diffLines,
  evidenceLines,
  failureHtml,
  failureLines,
} from '../../../../src/core/verification/evidence-render';
import { excerptFailure } from '../../../../src/core/verification/failure-excerpt';

const BEFORE = `const assert = require('node:assert');
const { sum } = require('../src/sum');
assert.strictEqual(sum(1, 5), 6, 'sum(1,5) should be 6');
console.log('ok');
`;
const AFTER = BEFORE.replace("sum(1, 5), 6, 'sum(1,5) should be 6'", "sum(1, 5), 5, 'sum(1,5) should be 5 <b>'");

/** A file's diff as verifyWork builds it, from `diff`'s structured patch. */
function fileDiff(p: string, was: string, now: string, change: FileDiff['change'] = 'modified'): FileDiff {
  const hunks = structuredPatch(p, p, was, now, '', '', { context: 3 }).hunks.map((h) => ({
    ...h,
    lines: [...h.lines],
  }));
  return { path: p, change, ...countChanges(hunks), hunks };
}

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const FAILURE = excerptFailure(
  fs.readFileSync(path.resolve(__dirname, '../../../fixtures/failure-output/node-assert-message.txt'), 'utf8'),
);

describe('boundDiff', () => {
  const big = fileDiff('test/big.test.js', 'a\n'.repeat(300), 'b\n'.repeat(300));

  it('keeps small diffs whole and names the whole diff file', () => {
    const d = boundDiff([fileDiff('test/sum.test.js', BEFORE, AFTER)], undefined, '/s/protected.diff');
    expect(d.files[0]).toMatchObject({ path: 'test/sum.test.js', added: 1, removed: 1 });
    expect(d.files[0].truncated).toBeUndefined();
    expect(d.path).toBe('/s/protected.diff');
  });

  it('cuts files, lines and long lines to the limits, keeping the real counts', () => {
    const files = [big, ...Array.from({ length: 5 }, (_, i) => fileDiff(`t${i}.test.js`, 'x\n', 'y'.repeat(500)))];
    const d = boundDiff(files, { maxFiles: 3, maxLines: 100, maxLineChars: 50 });
    expect(d.files).toHaveLength(3);
    expect(d.omittedFiles).toBe(3);
    expect(d.files[0]).toMatchObject({ added: 300, removed: 300, truncated: true });
    expect(d.files[0].hunks.flatMap((h) => h.lines)).toHaveLength(100);
    expect(d.files[1]).toMatchObject({ truncated: true, hunks: [] });
    const all = boundDiff(files.slice(1), { maxFiles: 10, maxLines: 100, maxLineChars: 50 });
    expect(Math.max(...all.files.flatMap((f) => f.hunks.flatMap((h) => h.lines.map((l) => l.length))))).toBe(50);
  });
});

describe('diffHtml', () => {
  const out = diffHtml(
    boundDiff([fileDiff('test/sum.test.js', BEFORE, AFTER), fileDiff('test/new.test.js', '', 'x\n', 'added')]),
    escape,
  );

  it('renders one block per file with its change, path and counts', () => {
    expect(out.match(/<div class="diff-file" /g)).toHaveLength(2);
    expect(out).toContain('<strong>M</strong> <code>test/sum.test.js</code>');
    expect(out).toContain('<strong>A</strong> <code>test/new.test.js</code>');
    expect(out).toContain('<span class="added">+1</span> <span class="removed">-1</span>');
  });

  it('classes added, removed and hunk lines (coloured by the CSS) with old and new line numbers, escaped', () => {
    expect(out).toContain('<tr class="diff-hunk">');
    expect(out).toContain(
      `<tr class="diff-del"><td class="ln">3</td><td class="ln"></td><td class="code">-assert.strictEqual(sum(1, 5), 6, 'sum(1,5) should be 6');</td></tr>`,
    );
    expect(out).toContain(
      `<tr class="diff-add"><td class="ln"></td><td class="ln">3</td><td class="code">+assert.strictEqual(sum(1, 5), 5, 'sum(1,5) should be 5 &lt;b&gt;');</td></tr>`,
    );
    expect(out).not.toContain('<b>');
  });
});

describe('failureHtml and failureLines', () => {
  it('marks the headline lines of the excerpt', () => {
    const h = failureHtml({ ...FAILURE, path: '/s/check.log' }, escape);
    expect(h).toContain('<mark>AssertionError [ERR_ASSERTION]: sum(1,5) should be 6</mark>');
    expect(h).toContain('<mark>5 !== 6</mark>');
    expect(h).toContain('node-assert: AssertionError [ERR_ASSERTION]: sum(1,5) should be 6 / 5 !== 6');
    expect(h).toContain('<code>/s/check.log</code>');
    expect(h).not.toContain('Node.js v20');
  });

  it('paints the headline lines bold red in a terminal, and nothing without colour', () => {
    const coloured = failureLines(FAILURE, true);
    expect(coloured).toContain('  \u001b[1m\u001b[31m5 !== 6\u001b[0m');
    const plain = failureLines(FAILURE, false);
    expect(plain).toContain('  5 !== 6');
    expect(plain.join('\n')).not.toContain('\u001b[');
  });
});

describe('diffLines and evidenceLines', () => {
  const diff = boundDiff([fileDiff('test/sum.test.js', BEFORE, AFTER)], undefined, '/s/protected.diff');

  it('colours + green, - red and hunk headers cyan when asked', () => {
    const lines = diffLines(diff, true);
    expect(lines).toContain(`    \u001b[31m-assert.strictEqual(sum(1, 5), 6, 'sum(1,5) should be 6');\u001b[0m`);
    expect(lines).toContain(`    \u001b[32m+assert.strictEqual(sum(1, 5), 5, 'sum(1,5) should be 5 <b>');\u001b[0m`);
    expect(lines).toContain('    \u001b[36m@@ -1,4 +1,4 @@\u001b[0m');
  });

  it('prints plain lines without colour: file header, hunks, the whole diff path', () => {
    expect(diffLines(diff, false)).toEqual([
      '  M test/sum.test.js  +1 -1',
      '    @@ -1,4 +1,4 @@',
      "     const assert = require('node:assert');",
      "     const { sum } = require('../src/sum');",
      "    -assert.strictEqual(sum(1, 5), 6, 'sum(1,5) should be 6');",
      "    +assert.strictEqual(sum(1, 5), 5, 'sum(1,5) should be 5 <b>');",
      "     console.log('ok');",
      '  the whole diff: /s/protected.diff',
    ]);
  });

  it('puts the diff and the failure under headings, and nothing for a gate without evidence', () => {
    const lines = evidenceLines({ diff, failure: FAILURE }, false);
    expect(lines[0]).toBe('diff of the protected files the agent changed (1 file):');
    expect(lines).toContain('original check failure (node-assert), from its first error:');
    expect(lines).toContain('  AssertionError [ERR_ASSERTION]: sum(1,5) should be 6');
    expect(evidenceLines(undefined, true)).toEqual([]);
    expect(evidenceLines({ diff: { files: [] } }, true)).toEqual([]);
  });
});
