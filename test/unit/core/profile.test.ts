import { detection } from '../../../src/core/detections';
import { circuitBreaker, emptyProfile, mergeProfiles, updateProfile } from '../../../src/core/profile';

const changes = (added: number, modified: number, deleted: number) => ({ added, modified, deleted, files: [] });
const noFiles = () => detection('no_files_written', 'warning', 'nothing changed');

describe('emptyProfile', () => {
  it('starts every count at zero for the agent', () => {
    expect(emptyProfile('claude-code')).toEqual({
      agent: 'claude-code',
      iterations: 0,
      noFilesCount: 0,
      falseCompletions: 0,
      hallucinatedFiles: 0,
      filesChanged: 0,
      filesPerIteration: 0,
      detections: {},
      noFilesIterations: [],
    });
  });
});

describe('updateProfile', () => {
  it('counts files, no-files iterations, false completions and non-PASS detections', () => {
    let p = emptyProfile('a');
    p = updateProfile(p, { iteration: 1, changes: changes(1, 1, 0), detections: [] });
    p = updateProfile(p, {
      iteration: 2,
      changes: changes(0, 0, 0),
      detections: [
        noFiles(),
        detection('false_completion', 'critical', 'x'),
        detection('test_inventory', 'info', 'ok'),
      ],
    });
    p = updateProfile(p, { iteration: 3, changes: changes(0, 1, 0), detections: [] });
    expect(p).toMatchObject({
      iterations: 3,
      filesChanged: 3,
      filesPerIteration: 1,
      noFilesCount: 1,
      noFilesIterations: [2],
      falseCompletions: 1,
      detections: { no_files_written: 1, false_completion: 1 },
    });
    expect(p.detections).not.toHaveProperty('test_inventory');
  });

  it('returns a new object and leaves the input unchanged', () => {
    const p = emptyProfile('a');
    const q = updateProfile(p, { iteration: 1, detections: [noFiles()] });
    expect(p).toEqual(emptyProfile('a'));
    expect(q).not.toBe(p);
    expect(q.noFilesIterations).not.toBe(p.noFilesIterations);
  });

  it('rounds files per iteration to 2 decimals', () => {
    let p = emptyProfile('a');
    for (const n of [1, 2, 3])
      p = updateProfile(p, { iteration: n, changes: changes(n === 1 ? 1 : 0, 0, 0), detections: [] });
    expect(p.filesPerIteration).toBe(0.33);
  });

  it('counts hallucinated files from evidence, expanding a capped "… N more" line', () => {
    const p = updateProfile(emptyProfile('a'), {
      iteration: 1,
      detections: [detection('hallucinated_files', 'warning', 'x', ['a.ts', 'b.ts', '… 3 more'])],
    });
    expect(p.hallucinatedFiles).toBe(5);
  });

  it('keeps the last 20 no-files iterations and records one iteration once', () => {
    let p = emptyProfile('a');
    for (let n = 1; n <= 25; n++) p = updateProfile(p, { iteration: n, detections: [noFiles()] });
    p = updateProfile(p, { iteration: 25, detections: [noFiles()] });
    expect(p.noFilesIterations).toEqual(Array.from({ length: 20 }, (_, i) => i + 6));
    expect(p.noFilesCount).toBe(26);
  });
});

describe('circuitBreaker', () => {
  const cfg = { noFiles: 3, window: 5 };
  const withNoFiles = (ns: number[]) => ({ ...emptyProfile('a'), noFilesIterations: ns });

  it('trips when 3 no-files iterations fall within the last 5', () => {
    expect(circuitBreaker(withNoFiles([2, 4, 6]), 6, cfg)).toBe(true);
    expect(circuitBreaker(withNoFiles([1, 4, 6]), 6, cfg)).toBe(false);
  });

  it('uses the window iteration - window < n ≤ iteration', () => {
    expect(circuitBreaker(withNoFiles([2, 3, 4]), 6, cfg)).toBe(true);
    expect(circuitBreaker(withNoFiles([1, 3, 4]), 5, cfg)).toBe(true);
    expect(circuitBreaker(withNoFiles([1, 3, 4]), 6, cfg)).toBe(false);
    expect(circuitBreaker(withNoFiles([3, 4, 7]), 6, cfg)).toBe(false);
  });

  it('stays closed below the count', () => {
    expect(circuitBreaker(withNoFiles([5, 6]), 6, cfg)).toBe(false);
  });
});

describe('mergeProfiles', () => {
  it('sums the counts of several loops and recomputes files per iteration', () => {
    const a = {
      ...emptyProfile('x'),
      iterations: 4,
      filesChanged: 10,
      noFilesCount: 1,
      noFilesIterations: [2],
      detections: { no_files_written: 1 },
    };
    const b = {
      ...emptyProfile('x'),
      iterations: 2,
      filesChanged: 1,
      falseCompletions: 2,
      hallucinatedFiles: 3,
      noFilesCount: 1,
      noFilesIterations: [1],
      detections: { no_files_written: 1, test_deletion: 1 },
    };
    expect(mergeProfiles('x', [a, b])).toEqual({
      agent: 'x',
      iterations: 6,
      noFilesCount: 2,
      falseCompletions: 2,
      hallucinatedFiles: 3,
      filesChanged: 11,
      filesPerIteration: 1.83,
      detections: { no_files_written: 2, test_deletion: 1 },
      noFilesIterations: [2, 1],
    });
  });

  it('gives an empty profile for no loops', () => {
    expect(mergeProfiles('x', [])).toEqual(emptyProfile('x'));
  });
});
