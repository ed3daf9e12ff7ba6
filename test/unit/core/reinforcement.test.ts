import { detection } from '../../../src/core/detections';
import { detectionFeedback, levelFor, reinforcementText, rotateFeedback } from '../../../src/core/reinforcement';

const cfg = { standardFrom: 3, aggressiveFrom: 5 };
const base = { cfg, plateau: false, repeatedError: false };

describe('levelFor', () => {
  it.each([
    [1, 'MINIMAL', 'iteration 1 (<3)'],
    [2, 'MINIMAL', 'iteration 2 (<3)'],
    [3, 'STANDARD', 'iteration 3 (≥3)'],
    [4, 'STANDARD', 'iteration 4 (≥3)'],
    [5, 'AGGRESSIVE', 'iteration 5 (≥5)'],
    [9, 'AGGRESSIVE', 'iteration 9 (≥5)'],
  ])('gives iteration %i the level %s by the thresholds alone', (iteration, level, reason) => {
    expect(levelFor({ ...base, iteration })).toEqual({ level, reason });
  });

  it('goes AGGRESSIVE at once on a quality plateau, naming only the plateau', () => {
    expect(levelFor({ ...base, iteration: 2, plateau: true })).toEqual({
      level: 'AGGRESSIVE',
      reason: 'quality plateau',
    });
  });

  it('joins the threshold and every forcing fact when both apply', () => {
    expect(levelFor({ ...base, iteration: 5, plateau: true, repeatedError: true }).reason).toBe(
      'iteration 5 (≥5) + quality plateau + repeated error',
    );
  });

  it('stays AGGRESSIVE through forceAggressiveUntil and falls back after it', () => {
    const forced = levelFor({ ...base, iteration: 3, forceAggressiveUntil: 3 });
    expect(forced.level).toBe('AGGRESSIVE');
    expect(forced.reason).toContain('human rejected a regression');
    expect(levelFor({ ...base, iteration: 4, forceAggressiveUntil: 3 })).toEqual({
      level: 'STANDARD',
      reason: 'iteration 4 (≥3)',
    });
  });

  it('goes AGGRESSIVE when the circuit breaker is open', () => {
    const l = levelFor({ ...base, iteration: 1, circuitOpen: true });
    expect(l.level).toBe('AGGRESSIVE');
    expect(l.reason).toMatch(/circuit breaker open/);
  });

  it('follows configured thresholds', () => {
    expect(levelFor({ ...base, cfg: { standardFrom: 2, aggressiveFrom: 3 }, iteration: 2 }).level).toBe('STANDARD');
    expect(levelFor({ ...base, cfg: { standardFrom: 2, aggressiveFrom: 3 }, iteration: 3 }).level).toBe('AGGRESSIVE');
  });
});

describe('reinforcementText', () => {
  it('gives MINIMAL a short reminder without findings', () => {
    const t = reinforcementText('MINIMAL', { iteration: 1, findings: ['test_deletion'] });
    expect(t.startsWith('## Persistence (MINIMAL)\n')).toBe(true);
    expect(t).toMatch(/Finish all of the task/);
    expect(t).not.toContain('test_deletion');
    expect(t.length).toBeLessThan(300);
  });

  it('gives STANDARD the anti-laziness rules and the findings', () => {
    const t = reinforcementText('STANDARD', { iteration: 3, findings: ['no files written at iteration 2'] });
    expect(t.startsWith('## Persistence (STANDARD)')).toBe(true);
    expect(t).toMatch(/Do not delete, skip, comment out or weaken tests/);
    expect(t).toMatch(/Do not claim the task is done unless you wrote the changes to files/);
    expect(t).toContain('`## Evidence`');
    expect(t).toContain('- no files written at iteration 2');
  });

  it('gives AGGRESSIVE a stern block naming the findings once each and the completion condition', () => {
    const t = reinforcementText('AGGRESSIVE', {
      iteration: 6,
      findings: ['test_deletion: 2 tests deleted', 'test_deletion: 2 tests deleted', 'stuck_loop: same error'],
    });
    expect(t.startsWith('## Persistence (AGGRESSIVE)')).toBe(true);
    expect(t).toContain('ITERATION 6. Previous attempts failed or regressed.');
    expect(t.match(/test_deletion: 2 tests deleted/g)).toHaveLength(1);
    expect(t).toContain('- stuck_loop: same error');
    expect(t).toMatch(/take a different approach/);
    expect(t).toContain('**Do not claim completion until**');
  });

  it('caps the number of findings listed', () => {
    const findings = Array.from({ length: 12 }, (_, i) => `finding ${i}`);
    const t = reinforcementText('AGGRESSIVE', { iteration: 5, findings });
    expect(t).toContain('- finding 7');
    expect(t).not.toContain('- finding 8');
    expect(t).toContain('- … 4 more');
  });
});

describe('rotateFeedback', () => {
  it('returns every item, in order, when they fit', () => {
    expect(rotateFeedback(['c', 'b', 'a'], 1000)).toEqual(['c', 'b', 'a']);
  });

  it('keeps identical items once, at their first (newest) position', () => {
    expect(rotateFeedback(['x', 'y', 'x '], 1000)).toEqual(['x', 'y']);
    expect(rotateFeedback(['x', 'x', 'y', 'x'], 1000)).toEqual(rotateFeedback(['x', 'y'], 1000));
  });

  it('summarises older items to their first line once the newest fill the budget', () => {
    const old = `old headline\n${'detail '.repeat(50)}`;
    const newer = 'n'.repeat(120);
    expect(rotateFeedback([newer, old], 200)).toEqual([newer, 'old headline']);
  });

  it('clips summaries to 160 characters', () => {
    const out = rotateFeedback(['new', 'h'.repeat(300)], 200);
    expect(out[1]).toHaveLength(160);
    expect(out[1].endsWith('…')).toBe(true);
  });

  it('drops the oldest items with one omission line and stays within the budget', () => {
    const items = Array.from({ length: 30 }, (_, i) => `item ${29 - i} ${'z'.repeat(40)}\nmore`);
    const out = rotateFeedback(items, 300);
    expect(out[0]).toBe(items[0]);
    expect(out[out.length - 1]).toMatch(/^… \d+ earlier feedback items omitted$/);
    const omitted = Number(/… (\d+)/.exec(out[out.length - 1])![1]);
    expect(omitted + out.length - 1).toBe(30);
    expect(out.reduce((n, s) => n + s.length + 1, 0)).toBeLessThanOrEqual(300);
  });

  it('returns a rotated list unchanged (idempotent)', () => {
    const items = Array.from({ length: 12 }, (_, i) => `item ${i}\n${'body '.repeat(20)}`);
    const once = rotateFeedback(items, 500);
    expect(rotateFeedback(once, 500)).toEqual(once);
  });

  it('is deterministic', () => {
    const items = ['a\nb', 'c'.repeat(500), 'd'];
    expect(rotateFeedback(items, 400)).toEqual(rotateFeedback([...items], 400));
  });
});

describe('detectionFeedback', () => {
  it('tells a false completion it was ignored and the task stays open', () => {
    const f = detectionFeedback(detection('false_completion', 'critical', 'claimed done, 0 files'), 2);
    expect(f).toMatch(
      /^\*\*CRITICAL\*\*: In iteration 2, you claimed completion but wrote NO FILES\. Your completion signal was IGNORED; the task remains OPEN\. You MUST edit files in the workspace/,
    );
  });

  it('lists the hallucinated paths', () => {
    const f = detectionFeedback(detection('hallucinated_files', 'warning', 'x', ['src/a.ts', 'src/b.ts']), 4);
    expect(f).toContain('In iteration 4, you listed files you did not create or change');
    expect(f).toContain('  - src/a.ts\n  - src/b.ts');
  });

  it('names deleted tests', () => {
    const f = detectionFeedback(
      detection('test_deletion', 'critical', '1 test deleted', ['test/a.test.ts: validates email']),
      7,
    );
    expect(f).toMatch(/^\*\*CRITICAL\*\*: In iteration 7, you DELETED tests:/);
    expect(f).toContain('test/a.test.ts: validates email');
  });

  it('uses the details and evidence of a validation bypass', () => {
    const f = detectionFeedback(
      detection('skip_added', 'critical', 'test/a.test.ts:3: a test was skipped.', ["test/a.test.ts:3 it.skip('x')"]),
      3,
    );
    expect(f).toContain('you bypassed validation (skip_added)');
    expect(f).toContain('a test was skipped');
    expect(f).toContain("it.skip('x')");
  });

  it.each([
    'no_files_written',
    'coverage_regression',
    'feature_removal',
    'stuck_loop',
    'quality_plateau',
    'risky_action',
  ])('has its own wording for %s, quoting the details where they add facts', (type) => {
    const f = detectionFeedback(detection(type, 'warning', `DETAILS-${type}`), 5);
    expect(f.startsWith('**WARNING**')).toBe(true);
    if (type !== 'no_files_written') expect(f).toContain(`DETAILS-${type}`);
    expect(f).not.toContain(`${type}:`);
  });

  it('falls back to type, details and evidence for unknown types', () => {
    expect(detectionFeedback(detection('new_kind', 'info', 'something', ['e1']), 1)).toBe(
      '**NOTE**: In iteration 1, new_kind: something\n  - e1',
    );
  });

  it('caps evidence at 10 lines', () => {
    const ev = Array.from({ length: 15 }, (_, i) => `line ${i}`);
    const f = detectionFeedback(detection('ci_bypass', 'critical', 'd', ev), 1);
    expect(f).toContain('line 9');
    expect(f).not.toContain('line 10');
    expect(f).toContain('… 5 more');
  });
});
