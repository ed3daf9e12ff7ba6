/**
 * Evidence checks: does what the agent says it did match what the workspace shows? An agent that exits 0 having
 * written nothing, names files it never touched, or claims a completion nothing backs is caught here.
 */
import { detection, type Detection } from '../detections';
import type { ChangeSummary } from '../anti-laziness-types';

const changedCount = (c: ChangeSummary): number => c.added + c.modified + c.deleted;
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Repo-relative posix form of a path: backslashes to `/`, no `.` or empty segments, `x/..` resolved. */
function normalisePath(raw: string): string {
  const p = raw.trim().replace(/\\/g, '/');
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..' && parts.length && parts[parts.length - 1] !== '..') parts.pop();
    else parts.push(seg);
  }
  return (p.startsWith('/') ? '/' : '') + parts.join('/');
}

/**
 * Detects an iteration that wrote nothing although the agent exited 0 or claimed to be done: no file added, modified
 * or deleted. Gives a `no_files_written` warning (WARN), or undefined.
 */
export function detectNoFiles(i: {
  exitCode: number | null;
  claimed: boolean;
  changes: ChangeSummary;
}): Detection | undefined {
  if (changedCount(i.changes) > 0 || !(i.exitCode === 0 || i.claimed)) return undefined;
  const said = [i.exitCode === 0 ? 'exited 0' : '', i.claimed ? 'claimed the task done' : ''].filter(Boolean);
  return detection(
    'no_files_written',
    'warning',
    `The agent ${said.join(' and ')} but wrote no file: an iteration that changes nothing makes no progress.`,
    [`exit code ${i.exitCode ?? 'none'}`, `completion claimed: ${i.claimed ? 'yes' : 'no'}`, 'files changed: 0'],
  );
}

/**
 * Checks the files the agent claims to have changed against the workspace. A claimed path (normalised: `./` and
 * backslashes removed) is fine when it is among `changedPaths`, the files this iteration added, modified or deleted
 * (so a claimed deletion is fine); otherwise it is hallucinated, because it does not exist or because this iteration
 * did not change it. Gives a `hallucinated_files` warning (WARN) with one evidence line per bad path
 * (`src/x.ts: does not exist`), or undefined when nothing is claimed or every claim holds.
 */
export function validateEvidence(i: {
  claimed: { path: string; exists: boolean }[];
  changedPaths: string[];
}): Detection | undefined {
  const changed = new Set(i.changedPaths.map(normalisePath));
  const seen = new Set<string>();
  const bad: string[] = [];
  for (const c of i.claimed) {
    const p = normalisePath(c.path);
    if (!p || seen.has(p)) continue;
    seen.add(p);
    if (!changed.has(p)) bad.push(`${p}: ${c.exists ? 'not changed by this iteration' : 'does not exist'}`);
  }
  if (!bad.length) return undefined;
  return detection(
    'hallucinated_files',
    'warning',
    `${bad.length} of ${plural(seen.size, 'file')} the agent claimed to have changed ${bad.length === 1 ? 'is' : 'are'} ` +
      `not backed by the workspace (${bad.join('; ')}). Only files in the diff count as work done.`,
    bad,
  );
}

/**
 * Detects a false completion: the agent claimed to be done, the deterministic check did not verify it, and the
 * iteration changed no file (which covers "every file it named was hallucinated": those are not in the diff either).
 * Gives a `false_completion` warning (WARN): the claim is overridden and the task stays open. Undefined when nothing
 * was claimed, when the check verified the claim (the check is the truth), or when files were changed.
 */
export function detectFalseCompletion(i: {
  claimed: boolean;
  changes: ChangeSummary;
  verified: boolean;
  hallucinated: number;
}): Detection | undefined {
  if (!i.claimed || i.verified || changedCount(i.changes) > 0) return undefined;
  const named =
    i.hallucinated > 0
      ? ` (the ${plural(i.hallucinated, 'file')} it named ${i.hallucinated === 1 ? 'was' : 'were'} not changed)`
      : '';
  return detection(
    'false_completion',
    'warning',
    `Completion claimed but no file was written${named}: the claim is overridden and the task stays open.`,
    [
      'completion claimed',
      'not verified by the completion check',
      'files changed: 0',
      ...(i.hallucinated > 0 ? [`hallucinated files: ${i.hallucinated}`] : []),
    ],
  );
}
