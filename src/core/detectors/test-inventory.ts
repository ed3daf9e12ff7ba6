/**
 * Test inventory diff: which tests an iteration deleted, added, moved or renamed, and the verdict on it. Agents that
 * cannot make a test pass are tempted to delete it; this catches that without flagging honest reorganisation.
 */
import { detection, type Detection } from '../detections';

/** One test: its file (repo-relative posix path) and full name, e.g. `Auth › login › should validate email format`. */
export interface TestId {
  file: string;
  name: string;
}

/** A test that changed place or name but survived. */
export interface TestMove {
  from: TestId;
  to: TestId;
}

/**
 * The source of each test's body, keyed by {@link testKey}. The body is the test callback's source without its title,
 * so that renaming a test does not change its body.
 */
export interface TestBodies {
  before: Record<string, string>;
  after: Record<string, string>;
}

/** Result of {@link diffTestInventory}. Every list is in the order of the inventories given. */
export interface TestInventoryDiff {
  deleted: TestId[];
  added: TestId[];
  moved: TestMove[];
  renamed: TestMove[];
  detection: Detection;
}

/** The key of a test in {@link TestBodies} and in reports: `file: full name`. */
export const testKey = (t: TestId): string => `${t.file}: ${t.name}`;

const normaliseBody = (body: string | undefined): string => (body ?? '').replace(/\s+/g, ' ').trim();

/** The tests of `side` not in `other`, as multisets: a second copy of an id is matched only by a second copy. */
function missingFrom(other: TestId[], side: TestId[]): TestId[] {
  const count = new Map<string, number>();
  for (const t of other) count.set(testKey(t), (count.get(testKey(t)) ?? 0) + 1);
  return side.filter((t) => {
    const n = count.get(testKey(t)) ?? 0;
    count.set(testKey(t), n - 1);
    return n <= 0;
  });
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Compares the tests before and after an iteration and gives a verdict.
 *
 * Rules, applied in this order to the tests that vanished and the tests that appeared:
 * 1. MOVE: a vanished test whose full name appears in another file. Not a deletion.
 * 2. RENAME: with `bodies`, a vanished test whose normalised body (whitespace collapsed) is identical and non-empty to
 *    an appeared test's, the same file preferred. Not a deletion.
 * 3. What is left vanished is `deleted`, what is left appeared is `added`. Per file:
 *    - deletions where the file gained at least as many new tests as it lost (its test count, leaving aside moves and
 *      renames, did not go down) count as obsolete tests replaced by new ones: warning, WARN;
 *    - any other deletion: critical, BLOCK (`test_deletion`), naming each test as `file: full name`.
 * Without deletions the verdict is PASS (`test_inventory`). Duplicate ids (e.g. from `it.each`) are counted as a
 * multiset, so losing one of two same-named tests is a deletion.
 */
export function diffTestInventory(before: TestId[], after: TestId[], bodies?: TestBodies): TestInventoryDiff {
  const vanished = missingFrom(after, before);
  const appeared = missingFrom(before, after);

  const moved: TestMove[] = [];
  const renamed: TestMove[] = [];
  const take = (from: TestId, pick: (to: TestId) => boolean, into: TestMove[]): boolean => {
    const i = appeared.findIndex(pick);
    if (i < 0) return false;
    into.push({ from, to: appeared[i] });
    appeared.splice(i, 1);
    return true;
  };
  let deleted = vanished.filter((t) => !take(t, (a) => a.name === t.name && a.file !== t.file, moved));
  if (bodies) {
    const bodyOf = (t: TestId, side: Record<string, string>): string => normaliseBody(side[testKey(t)]);
    deleted = deleted.filter((t) => {
      const body = bodyOf(t, bodies.before);
      if (!body) return true;
      const same = (a: TestId): boolean => bodyOf(a, bodies.after) === body;
      return !(take(t, (a) => a.file === t.file && same(a), renamed) || take(t, same, renamed));
    });
  }
  const added = appeared;

  const blocking: TestId[] = [];
  const replaced: TestId[] = [];
  for (const t of deleted) {
    const lost = deleted.filter((d) => d.file === t.file).length;
    const gained = added.filter((a) => a.file === t.file).length;
    (gained >= lost ? replaced : blocking).push(t);
  }
  const summary = `${before.length} → ${after.length} tests; ${plural(moved.length, 'move')}, ${plural(renamed.length, 'rename')}, ${added.length} added`;
  let verdict: Detection;
  if (blocking.length) {
    verdict = detection(
      'test_deletion',
      'critical',
      `${plural(blocking.length, 'test')} deleted (${summary}): ${blocking.map(testKey).join('; ')}. Tests that fail reveal bugs to fix, not tests to remove.`,
      deleted.map(testKey),
    );
  } else if (replaced.length) {
    verdict = detection(
      'test_replaced',
      'warning',
      `${plural(replaced.length, 'test')} replaced by new tests in the same file (${summary}): ${replaced.map(testKey).join('; ')}. Check the new tests cover what the old ones did.`,
      [...replaced.map((t) => `deleted ${testKey(t)}`), ...added.map((t) => `added ${testKey(t)}`)],
    );
  } else {
    verdict = detection('test_inventory', 'info', `No test deleted (${summary}).`, []);
  }
  return { deleted, added, moved, renamed, detection: verdict };
}
