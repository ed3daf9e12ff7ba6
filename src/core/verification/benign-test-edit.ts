/**
 * Honest test edits that need no human: a test file the agent changed only by ADDING cases (a new `it`, a new
 * `it.each`/`parametrize` row, a new row of a Go table test), RENAMING tests or MOVING them within the file, every
 * existing test's body and every existing line otherwise kept. The verification tree still restores the file and runs
 * the original tests on the agent's code: this only decides whether a human must look at the edit when they pass.
 * Removing, skipping, mocking or changing an existing assertion or row stays a protected edit. Pure: texts in,
 * verdict out.
 */
import { extractTests, type ExtractedTest } from '../detectors/test-extract';

/** The verdict on one test file's edit. */
export interface TestEditVerdict {
  benign: boolean;
  /** Why not (the first offending line or test), for the record. */
  why?: string;
  added: number;
  renamed: string[];
}

/** Added anywhere: skips, focus, mocks, forced exits, expected failures. */
const SUSPICIOUS =
  /\.(?:skip|only|todo|fails)\b|\bx(?:it|test|describe)\s*\(|\bskip(?:If|Unless)?\s*\(|pytest\.(?:mark\.(?:skip|skipif|xfail)|skip|xfail|importorskip)\b|\bunittest\.skip|\bt\.Skip(?:Now|f)?\s*\(|\b(?:jest|vi)\.(?:mock|doMock|spyOn|fn|stubGlobal|stubEnv)\b|\bmonkeypatch\b|\bmock\.patch|@patch\b|\bprocess\.(?:exit|exitCode|reallyExit)\b|\bos\._?exit\b|\bsys\.exit\b|\bTestMain\b|\bexpect\.extend\b|\bconftest\b/;
/** Added inside an existing test's body: control flow that could route around its assertions. */
const CONTROL = /^(?:if|else|return|try|catch|except|finally|for|while|switch|case|break|continue|goto|defer|with)\b/;

/** A line as compared: trimmed, inner spaces collapsed, a trailing comma dropped; blank lines and comments skipped. */
const norm = (l: string): string => l.trim().replace(/\s+/g, ' ').replace(/,\s*$/, '');
const meaningful = (l: string): boolean => l !== '' && !/^(?:\/\/|#(?!\[)|\/\*|\*)/.test(l);
const linesOf = (text: string): string[] => text.split('\n').map(norm).filter(meaningful);

/** The multiset difference a − b. */
function minus(a: string[], b: string[]): string[] {
  const count = new Map<string, number>();
  for (const x of b) count.set(x, (count.get(x) ?? 0) + 1);
  return a.filter((x) => {
    const n = count.get(x) ?? 0;
    count.set(x, n - 1);
    return n <= 0;
  });
}

/** Most line pairs compared (a longest common subsequence costs lines x lines). */
const MAX_CELLS = 16_000_000;

/**
 * The lines of `a` outside a longest common subsequence with `b`: what a line diff shows as deleted (a line moved
 * elsewhere is deleted where it was). Undefined when the files are too large to compare.
 */
function deletedLines(a: string[], b: string[]): string[] | undefined {
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > MAX_CELLS) return undefined;
  const w = m + 1;
  const dp = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      dp[i * w + j] = a[i] === b[j] ? dp[(i + 1) * w + j + 1] + 1 : Math.max(dp[(i + 1) * w + j], dp[i * w + j + 1]);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      i++;
      j++;
    } else if (dp[(i + 1) * w + j] >= dp[i * w + j + 1]) out.push(a[i++]);
    else j++;
  }
  while (i < n) out.push(a[i++]);
  return out;
}

/** Whether `small`'s lines appear in `big` in order (lines may be added between them). */
function isSubsequence(small: string[], big: string[]): boolean {
  let j = 0;
  for (const line of big) if (j < small.length && line === small[j]) j++;
  return j === small.length;
}

const leaf = (name: string): string => name.split(' › ').pop() ?? name;

/**
 * Judges the edit of a test file from `before` to `after` (see the module's comment). `after` undefined (deleted) is
 * never benign.
 */
export function judgeTestEdit(file: string, before: string, after: string | undefined): TestEditVerdict {
  const no = (why: string): TestEditVerdict => ({ benign: false, why, added: 0, renamed: [] });
  if (after === undefined) return no('the file was deleted');
  const was = extractTests(file, before);
  const now = extractTests(file, after);
  if (!was.length && before.trim()) return no('no test could be read from the original file');
  const free = [...now];
  const renamed: string[] = [];
  // Lines a whole test carries with it when it moves (its body and its title line); a table row does not move alone.
  const carried = new Set<string>();
  // Renamed tests, old and new title: their title lines may change by the title alone.
  const renames: [string, string][] = [];
  for (const t of was) {
    const match = matchTest(t, free);
    if (!match) return no(`the test "${t.id.name}" was removed or its body changed`);
    const extra = minus(linesOf(match.body), linesOf(t.body)).find((l) => CONTROL.test(l));
    if (extra) return no(`control flow added inside the test "${t.id.name}": ${extra}`);
    if (match.id.name !== t.id.name) {
      renamed.push(leaf(t.id.name));
      renames.push([leaf(t.id.name), leaf(match.id.name)]);
    }
    for (const l of linesOf(t.body)) carried.add(l);
    free.splice(free.indexOf(match), 1);
  }
  const beforeLines = linesOf(before);
  const afterLines = linesOf(after);
  const gone = deletedLines(beforeLines, afterLines);
  if (!gone) return no('the file is too large to compare line by line');
  // Brackets alone (`});`, `]`) move with the block they close; a renamed test's title line may lose its old title
  // only for the new one, the rest of the line kept (`])("%s => %s"` becoming `].filter(...))("%s => %s"` is no rename).
  const afterSet = new Set(afterLines);
  const retitled = (l: string): boolean =>
    renames.some(([was, is]) => was.length > 3 && l.includes(was) && afterSet.has(l.replace(was, is)));
  const removed = gone.filter((l) => !carried.has(l) && !/^[\])}{([;,]+$/.test(l) && !retitled(l));
  if (removed.length) return no(`a line was removed or changed: ${removed[0].slice(0, 120)}`);
  const added = minus(afterLines, beforeLines);
  const bad = added.find((l) => SUSPICIOUS.test(l));
  if (bad) return no(`a line added to the tests skips, mocks or forces their outcome: ${bad.slice(0, 120)}`);
  return { benign: true, added: free.length, renamed };
}

/** The test of `candidates` that keeps `t`'s body (its lines in order, lines added allowed): same name first. */
function matchTest(t: ExtractedTest, candidates: ExtractedTest[]): ExtractedTest | undefined {
  const body = linesOf(t.body);
  const keeps = (c: ExtractedTest): boolean => isSubsequence(body, linesOf(c.body));
  return candidates.find((c) => c.id.name === t.id.name && keeps(c)) ?? candidates.find(keeps);
}
