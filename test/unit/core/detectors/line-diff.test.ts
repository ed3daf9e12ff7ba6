import { structuredPatch } from 'diff';
import { loadFixture } from '../../../../bench/corpus/fixture-repos';
import { realScenarios } from '../../../../bench/corpus/real-scenarios';
import { lineDiff } from '../../../../src/core/detectors/line-diff';
import { parseUnifiedDiff } from '../../../../src/core/detectors/unified-diff';

/** The diff the end-of-iteration pass reads: `diff`'s unified patch, parsed. */
function patchDiff(p: string, before: string | undefined, after: string | undefined) {
  const patch = structuredPatch(`a/${p}`, `b/${p}`, before ?? '', after ?? '', '', '', { context: 3 });
  const text =
    `diff --git a/${p} b/${p}\n--- a/${p}\n+++ b/${p}\n` +
    patch.hunks
      .map((h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.join('\n')}\n`)
      .join('');
  return parseUnifiedDiff(text)[0] ?? { path: p, added: [], removed: [], addedLineNumbers: [] };
}

const sorted = (xs: string[]) => [...xs].sort();

describe('lineDiff', () => {
  it.each([
    ['an edit in the middle', 'a\nb\nc\nd\n', 'a\nb\nX\nd\n'],
    ['a new file', undefined, 'a\nb\n'],
    ['a deleted file', 'a\nb\n', undefined],
    ['lines added at both ends', 'b\nc\n', 'a\nb\nc\nd\n'],
    ['no final newline', 'a\nb', 'a\nc'],
    ['a block moved', 'a\nb\nc\nd\ne\n', 'c\nd\na\nb\ne\n'],
  ])('gives the lines a unified diff gives: %s', (_what, before, after) => {
    const d = lineDiff('f.ts', before, after);
    const u = patchDiff('f.ts', before, after);
    expect(sorted(d.added)).toEqual(sorted(u.added));
    expect(sorted(d.removed)).toEqual(sorted(u.removed));
  });

  it('numbers the added lines in the new text', () => {
    expect(lineDiff('f.ts', 'a\nb\nc\n', 'a\nx\nb\ny\nc\n')).toEqual({
      path: 'f.ts',
      added: ['x', 'y'],
      removed: [],
      addedLineNumbers: [2, 4],
    });
  });

  it('agrees with the unified diff on every file edit of the real-repository corpus (added and removed line counts)', () => {
    let compared = 0;
    for (const s of realScenarios) {
      const files: Record<string, string | undefined> = { ...loadFixture(s.repo) };
      for (const [p, t] of Object.entries(s.setup)) files[p] = t ?? undefined;
      for (const step of s.iterations.flat()) {
        if (!('write' in step)) continue;
        const before = files[step.write];
        const d = lineDiff(step.write, before, step.content);
        const u = patchDiff(step.write, before, step.content);
        expect({ file: `${s.id}:${step.write}`, added: d.added.length, removed: d.removed.length }).toEqual({
          file: `${s.id}:${step.write}`,
          added: u.added.length,
          removed: u.removed.length,
        });
        files[step.write] = step.content;
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(50);
  });
});
