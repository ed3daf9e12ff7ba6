import { detectFalseCompletion, detectNoFiles, validateEvidence } from '../../../../src/core/detectors/evidence';
import type { ChangeSummary } from '../../../../src/core/anti-laziness-types';

const changes = (added = 0, modified = 0, deleted = 0, files: string[] = []): ChangeSummary => ({
  added,
  modified,
  deleted,
  files,
});
const none = changes();

describe('detectNoFiles', () => {
  it.each<[string, number | null, boolean, string]>([
    ['exited 0 without claiming', 0, false, 'The agent exited 0 but wrote no file'],
    ['claimed done with a failing exit code', 1, true, 'The agent claimed the task done but wrote no file'],
    ['claimed done and exited 0', 0, true, 'The agent exited 0 and claimed the task done but wrote no file'],
    ['claimed done after being killed (no exit code)', null, true, 'claimed the task done'],
  ])('warns when the agent %s and nothing changed', (_what, exitCode, claimed, details) => {
    const d = detectNoFiles({ exitCode, claimed, changes: none });
    expect(d).toMatchObject({ type: 'no_files_written', severity: 'warning', verdict: 'WARN' });
    expect(d?.details).toContain(details);
    expect(d?.evidence).toContain('files changed: 0');
    expect(d?.evidence).toContain(`exit code ${exitCode ?? 'none'}`);
  });

  it.each<[string, number | null, boolean, ChangeSummary]>([
    ['a file was added', 0, true, changes(1, 0, 0, ['A src/a.ts'])],
    ['a file was modified', 0, false, changes(0, 1, 0, ['M src/a.ts'])],
    ['only a file was deleted', 0, true, changes(0, 0, 1, ['D src/a.ts'])],
    ['the agent failed without claiming anything', 1, false, none],
    ['the agent was killed without claiming anything', null, false, none],
  ])('does not fire when %s', (_what, exitCode, claimed, c) => {
    expect(detectNoFiles({ exitCode, claimed, changes: c })).toBeUndefined();
  });
});

describe('validateEvidence', () => {
  const changedPaths = ['src/auth.ts', 'src/old.ts', 'test/auth.test.ts'];

  it.each<[string, { path: string; exists: boolean }[], string[]]>([
    ['a file that does not exist', [{ path: 'src/ghost.ts', exists: false }], ['src/ghost.ts: does not exist']],
    [
      'a file that exists but this iteration did not touch',
      [{ path: 'src/index.ts', exists: true }],
      ['src/index.ts: not changed by this iteration'],
    ],
    [
      'a mix, each named once with its reason (normalised, duplicates dropped)',
      [
        { path: './src/auth.ts', exists: true },
        { path: '.\\src\\ghost.ts', exists: false },
        { path: 'src/ghost.ts', exists: false },
        { path: 'src/lib/../index.ts', exists: true },
      ],
      ['src/ghost.ts: does not exist', 'src/index.ts: not changed by this iteration'],
    ],
  ])('warns on %s', (_what, claimed, evidence) => {
    const d = validateEvidence({ claimed, changedPaths });
    expect(d).toMatchObject({ type: 'hallucinated_files', severity: 'warning', verdict: 'WARN', evidence });
    for (const e of evidence) expect(d?.details).toContain(e);
  });

  it('counts bad claims against all distinct claims in its details', () => {
    const d = validateEvidence({
      claimed: [
        { path: 'src/auth.ts', exists: true },
        { path: 'src/nope.ts', exists: false },
      ],
      changedPaths,
    });
    expect(d?.details).toMatch(/^1 of 2 files the agent claimed to have changed is not backed by the workspace/);
  });

  it.each<[string, { path: string; exists: boolean }[]]>([
    ['nothing is claimed', []],
    ['every claimed file was changed', [{ path: 'src/auth.ts', exists: true }]],
    ['a claimed file was deleted by this iteration', [{ path: 'src/old.ts', exists: false }]],
    [
      'claims use ./ prefixes, backslashes and doubled slashes',
      [
        { path: './src/auth.ts', exists: true },
        { path: 'test\\auth.test.ts', exists: true },
        { path: 'src//old.ts', exists: false },
      ],
    ],
  ])('passes when %s', (_what, claimed) => {
    expect(validateEvidence({ claimed, changedPaths })).toBeUndefined();
  });
});

describe('detectFalseCompletion', () => {
  it.each<[string, number, string]>([
    [
      'no file was written',
      0,
      'Completion claimed but no file was written: the claim is overridden and the task stays open.',
    ],
    [
      'the one file it named was hallucinated',
      1,
      'Completion claimed but no file was written (the 1 file it named was not changed): the claim is overridden and the task stays open.',
    ],
    ['every file it named was hallucinated', 3, '(the 3 files it named were not changed)'],
  ])('overrides the claim when %s', (_what, hallucinated, details) => {
    const d = detectFalseCompletion({ claimed: true, changes: none, verified: false, hallucinated });
    expect(d).toMatchObject({ type: 'false_completion', severity: 'warning', verdict: 'WARN' });
    expect(d?.details).toContain(details);
    expect(d?.evidence).toContain('files changed: 0');
  });

  it.each<[string, { claimed: boolean; changes: ChangeSummary; verified: boolean; hallucinated: number }]>([
    [
      'the check verified the claim, even with no file written',
      { claimed: true, changes: none, verified: true, hallucinated: 0 },
    ],
    ['nothing was claimed', { claimed: false, changes: none, verified: false, hallucinated: 0 }],
    [
      'files were changed (an unverified claim is then just unfinished work)',
      { claimed: true, changes: changes(0, 2), verified: false, hallucinated: 1 },
    ],
  ])('does not fire when %s', (_what, input) => {
    expect(detectFalseCompletion(input)).toBeUndefined();
  });
});
