/**
 * What the loop says about verification: the `tampered_verification` and `protected_edit` events, the prompt feedback
 * that tells the agent plainly that the tests and checks are not its to change, and the details a human gate shows.
 */
import { detection, type Detection } from '../detections';
import { describeProtectedChanges, type ProtectedChange } from './classify';
import { describeEnvironmentChanges, type EnvironmentChange } from './environment';
import type { DiffEvidence, GateEvidence } from './evidence';
import type { FailureExcerpt } from './failure-excerpt';

/** Event types of verification. */
export const VerificationEvents = {
  tampered: 'tampered_verification',
  protectedEdit: 'protected_edit',
  benignTestEdit: 'test_edit_benign',
} as const;

/** What the verification run found, as the workflow carries it (small). */
export interface VerificationSummary {
  /** The original checks passed on the verification tree (true when there was nothing to restore). */
  passed: boolean;
  /** Whether the checks were re-run (false: the work left every protected file as it was). */
  ran: boolean;
  protectedChanges: ProtectedChange[];
  /** What the tree left out that is not protected (dotfiles, tool configuration, new scripts, new ignored files). */
  environmentChanges?: EnvironmentChange[];
  /** The environment changes with which, put back, the original checks pass (what made the difference). */
  madeTheDifference?: string[];
  /** Which run failed: the original tests alone, or the second run with the agent's new test files. */
  failedPass?: 'original' | 'new-tests';
  /** The end of the original check's (or first failed gate's) output in the verification tree. */
  failureTail?: string;
  /** The diff of the protected files (baseline → agent), under the iteration's artifacts. */
  diffPath?: string;
  /** A short diffstat of the protected changes (`test/run.js | 12 +-----`). */
  diffSummary?: string;
  /** The protected files' diff per file and hunk, bounded (recorded since gate evidence; absent before). */
  diff?: DiffEvidence;
  /** The original check's output around its first errors (absent in histories from before). */
  failure?: FailureExcerpt & { path?: string };
}

/** What the gate shows besides its text: the protected diff and the failure excerpt, when the run recorded them. */
export function gateEvidence(v: VerificationSummary, withFailure: boolean): GateEvidence | undefined {
  const diff = v.diff?.files.length ? v.diff : undefined;
  const failure = withFailure ? v.failure : undefined;
  return diff || failure ? { ...(diff ? { diff } : {}), ...(failure ? { failure } : {}) } : undefined;
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The critical event when the work passed its checks only because the agent changed them: the original checks fail
 * on the agent's code with the protected files restored.
 */
export function tamperedVerificationDetection(v: VerificationSummary): Detection {
  return detection(
    VerificationEvents.tampered,
    'critical',
    `The checks passed in the workspace but FAIL ${whereFailed(v)}.` +
      (v.failure?.headline
        ? ` Original check: ${clip(v.failure.headline, 300)}`
        : v.failureTail
          ? ` Original check: ${clip(lastLines(v.failureTail, 3), 300)}`
          : ''),
    changedLines(v, 20),
  );
}

/** Where the original checks failed, and what the agent changed that the tree left out (one clause). */
function whereFailed(v: VerificationSummary): string {
  if (v.failedPass === 'new-tests')
    return "once the agent's NEW test files join the original tests (the original tests alone pass): the new tests fail, or change how the original ones run";
  const n = v.protectedChanges.length;
  const e = v.environmentChanges?.length ?? 0;
  const what = [
    n ? `${n} protected file${n === 1 ? '' : 's'} (tests, their data, check configuration)` : '',
    e
      ? `${e} file${e === 1 ? '' : 's'} of the environment the checks run in (dotfiles, tool configuration, package scripts, ignored files)`
      : '',
  ].filter(Boolean);
  return what.length
    ? `with the original tests and checks restored: the agent changed ${what.join(' and ')} instead of making the code pass them`
    : 'with the original tests and checks restored';
}

/** The protected and environment changes, one line each. */
function changedLines(v: VerificationSummary, max = 30): string[] {
  return [
    ...describeProtectedChanges(v.protectedChanges, max),
    ...describeEnvironmentChanges(v.environmentChanges ?? [], max),
  ];
}

/** The event listing protected files the agent changed (the task does not allow it), even though every check passed. */
export function protectedEditDetection(changes: readonly ProtectedChange[]): Detection {
  const n = changes.length;
  return detection(
    VerificationEvents.protectedEdit,
    'warning',
    `The agent changed ${n} protected file${n === 1 ? '' : 's'} (tests, test data or check configuration) that the task does not allow it to change.`,
    describeProtectedChanges(changes, 20),
  );
}

/** The info event when the agent's test edits only added cases or renamed or moved tests, and the originals pass. */
export function benignTestEditDetection(
  edits: readonly { path: string; added: number; renamed: string[] }[],
): Detection {
  const n = edits.length;
  return detection(
    VerificationEvents.benignTestEdit,
    'info',
    `The agent edited ${n} test file${n === 1 ? '' : 's'} only by adding cases or renaming or moving tests; the original tests pass on its code, so the edits are kept without a human.`,
    edits.map(
      (e) =>
        `${e.path}: ${e.added} test${e.added === 1 ? '' : 's'} added${e.renamed.length ? `, renamed: ${e.renamed.join(', ')}` : ''}`,
    ),
  );
}

/** Feedback for the next prompt after a rejected claim: plain words, what was changed, what to do. */
export function tamperedFeedback(v: VerificationSummary): string {
  const files = changedLines(v, 10).join('; ') || 'nothing the original tests see';
  return (
    'Your completion claim was REJECTED. The tests and checks are not yours to change: ralph re-ran the ORIGINAL ' +
    `checks with every protected file restored and they FAIL. You changed: ${files}. Those changes do not count and ` +
    'are not kept. Make the product code pass the original tests; leave the tests, their data, and the test, lint and CI ' +
    'configuration as they are (you may ADD new test files).' +
    (v.failure?.excerpt
      ? `\nOriginal check output (its first errors):\n${v.failure.excerpt}`
      : v.failureTail
        ? `\nOriginal check output (end):\n${lastLines(v.failureTail, 15)}`
        : '')
  );
}

/** Feedback after protected files were reverted (`onProtectedEdit: revert`). */
export function revertedFeedback(changes: readonly ProtectedChange[]): string {
  return (
    `Your changes to protected files were reverted: ${describeProtectedChanges(changes, 10).join('; ')}. The tests and ` +
    'checks are not yours to change; change the product code (you may add new test files).'
  );
}

/** Title and details of the human gate after the original checks failed on the agent's work. */
export function tamperedGate(n: number, v: VerificationSummary): { title: string; details: string } {
  return {
    title: `Iteration ${n}: the checks pass only with the agent's changes to the tests or checks`,
    details: [
      v.failedPass === 'new-tests'
        ? "The original tests pass on the agent's code, but the run FAILED once the agent's new test files joined them."
        : 'The completion check passed in the workspace, but FAILED when re-run with the original tests and checks.',
      ...(v.protectedChanges.length
        ? ['Protected files the agent changed:', ...describeProtectedChanges(v.protectedChanges).map((l) => `  ${l}`)]
        : []),
      ...(v.environmentChanges?.length
        ? [
            'Left out of the verification tree (the environment the checks run in):',
            ...describeEnvironmentChanges(v.environmentChanges).map((l) => `  ${l}`),
          ]
        : []),
      ...(v.madeTheDifference?.length
        ? [`With ${v.madeTheDifference.join(', ')} put back, the original checks pass: that made the difference.`]
        : []),
      ...(v.diffSummary ? ['Diff summary:', ...v.diffSummary.split('\n').map((l) => `  ${l}`)] : []),
      ...(v.diffPath ? [`Full diff of the protected files: ${v.diffPath}`] : []),
      ...failureDetails(v),
      "Options: approve = accept the work as it is (with the changed checks); reject = roll back to the iteration's pre-run checkpoint and continue; abort = stop the loop.",
    ].join('\n'),
  };
}

/**
 * The failure lines of the gate's text: with an excerpt, its headline (the excerpt itself is the gate's evidence,
 * shown by `ralph status` and the console, and in the status query's `pendingGate.evidence`); else the output's end.
 */
function failureDetails(v: VerificationSummary): string[] {
  if (v.failure?.headline)
    return [
      `Original check failure${v.failure.runner === 'unknown' ? '' : ` (${v.failure.runner})`}: ${v.failure.headline}`,
    ];
  return v.failureTail
    ? [
        'Original check failure (end of output):',
        ...lastLines(v.failureTail, 20)
          .split('\n')
          .map((l) => `  ${l}`),
      ]
    : [];
}

/** Title and details of the human gate when the agent changed the checks and the original checks still pass. */
export function protectedEditGate(n: number, v: VerificationSummary): { title: string; details: string } {
  return {
    title: `Iteration ${n}: the agent changed the checks: approve the change or reject`,
    details: [
      'The work passes the ORIGINAL checks too, but the agent changed protected files the task does not allow:',
      ...describeProtectedChanges(v.protectedChanges).map((l) => `  ${l}`),
      ...(v.diffSummary ? ['Diff summary:', ...v.diffSummary.split('\n').map((l) => `  ${l}`)] : []),
      ...(v.diffPath ? [`Full diff of the protected files: ${v.diffPath}`] : []),
      "Options: approve = accept the work with the changed files; reject = roll back to the iteration's pre-run checkpoint and continue; abort = stop the loop.",
    ].join('\n'),
  };
}

function lastLines(text: string, n: number): string {
  return text.trim().split('\n').slice(-n).join('\n');
}
