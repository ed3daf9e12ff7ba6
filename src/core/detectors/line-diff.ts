/**
 * A line diff of two texts of one file, in the shape the detectors read ({@link FileDiff}): the lines removed, the
 * lines added and the added lines' numbers in the new text. Pure, so that the hook process (one per tool call) needs no
 * diff package: the common head and tail are skipped and the middle is diffed by longest common subsequence, which
 * gives the same lines a unified diff does for the edits an agent makes.
 */
import type { FileDiff } from './unified-diff';

/** Most cells of the LCS table (middle lines before × after); above it every middle line counts as changed. */
const MAX_CELLS = 4_000_000;

/** The lines of a text, without the empty string after a final newline; none for an absent or empty file. */
const linesOf = (text: string | undefined): string[] => {
  if (!text) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
};

/** The diff of `before` → `after` (undefined: the file is absent on that side). */
export function lineDiff(path: string, before: string | undefined, after: string | undefined): FileDiff {
  const a = linesOf(before);
  const b = linesOf(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const out: FileDiff = { path, added: [], removed: [], addedLineNumbers: [] };
  const add = (j: number): void => {
    out.added.push(y[j]);
    out.addedLineNumbers!.push(head + j + 1);
  };
  if (x.length * y.length > MAX_CELLS || !x.length || !y.length) {
    out.removed.push(...x);
    y.forEach((_, j) => add(j));
    return out;
  }
  // lcs[i][j]: the longest common subsequence of x[i..] and y[j..], row-major in one array.
  const w = y.length + 1;
  const lcs = new Uint32Array((x.length + 1) * w);
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--)
      lcs[i * w + j] =
        x[i] === y[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      i++;
      j++;
    } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) out.removed.push(x[i++]);
    else add(j++);
  }
  while (i < x.length) out.removed.push(x[i++]);
  while (j < y.length) add(j++);
  return out;
}
