/**
 * In-iteration correction: the end-of-iteration detectors (test inventory, validation bypass, mocks of the module
 * under test) run by the PostToolUse hook on the files ONE tool call changed, so that a deleted test, an added skip, a
 * weakened assertion, a lowered threshold or a narrowed test configuration is answered at once (Claude Code's
 * `decision: "block"`), with the text the next prompt would carry, while the agent can still undo it in the same
 * iteration. And, after the run, whether it did: the `corrected_in_iteration` event. Pure.
 */
import { detection, type Detection } from '../detections';
import { staticInventoryDiff } from '../detectors/test-extract';
import type { FileDiff } from '../detectors/unified-diff';
import { detectValidationBypass, isTestFile } from '../detectors/validation-bypass';
import { detectionFeedback } from '../reinforcement';
import { detectSubjectMocks } from './cheat-detectors';
import { detectMockedNames } from './mocked-names';

import { CORRECTED_IN_ITERATION } from './watched';

export { CORRECTED_IN_ITERATION, IN_ITERATION_BLOCK, isWatchedFile } from './watched';

/** One file a tool call changed: its text before and after (undefined: absent), workspace-relative path. */
export interface ChangedFile {
  path: string;
  before?: string;
  after?: string;
  /** The text before the call is not known (a shell command deleted or rewrote it and nothing was stashed). */
  beforeUnknown?: boolean;
}

/** What the judgement knows besides the call's files. */
export interface JudgeOptions {
  /** The loop's task: tests it asks to remove are no deletions, and files it asks to move, split or rename are left to the end of the iteration. */
  task?: string;
  /** Other test files the iteration changed, as they are now: a test that went there was moved, not deleted. */
  others?: readonly { path: string; text: string }[];
}

const MOVE_VERB = String.raw`\b(?:renam\w*|mov(?:e|es|ed|ing)|split\w*|merg\w*|reorgani[sz]\w*|extract\w*|consolidat\w*)\b`;
const NEGATION = /\b(?:do not|don't|dont|never|must not|mustn't|should not|shouldn't|without|not)\b/;
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether the task asks for the tests of `file` to be moved, split, merged or renamed: such a verb, then within the
 * same clause (no `;`, at most 100 characters between) the file's path or file name, in a sentence with no negation.
 * Such a reorganisation takes several tool calls, and the first may take tests out of a file before the next puts
 * them elsewhere: only the end of the iteration can judge it.
 */
export function taskMovesTests(task: string, file: string): boolean {
  const p = file.toLowerCase();
  const b = p.slice(p.lastIndexOf('/') + 1);
  const names = [p, ...(b.includes('.') && b !== p ? [b] : [])].map(escapeRe).join('|');
  const asked = new RegExp(`${MOVE_VERB}[^;\\n]{0,100}?(?:^|[^\\w./-])(?:${names})(?![\\w-])`);
  return task
    .toLowerCase()
    .split(/[.!?](?=\s|$)|\n/)
    .some((s) => asked.test(s) && !NEGATION.test(s));
}

/**
 * The BLOCK findings of one tool call's changes: tests deleted (by the static inventory: renames, moves to the other
 * test files the iteration changed, and tests the task asks to remove are not deletions; a test file deleted whose
 * text is unknown counts as a deletion), and the validation bypasses and mocks the diff adds (skips, weakened
 * assertions, lowered coverage thresholds, narrowed test paths, CI that ignores failures, mocks of the module under
 * test or of the names a new test checks). Warnings and infos are left
 * to the end of the iteration, which sees the whole change: the hook blocks only what the loop would reject anyway.
 */
export function judgeToolChange(
  files: readonly ChangedFile[],
  diff: readonly FileDiff[],
  opts: JudgeOptions = {},
): Detection[] {
  const found: Detection[] = [];
  const moving = (file: string): boolean => !!opts.task && taskMovesTests(opts.task, file);
  const known = files.filter((f) => !f.beforeUnknown && isTestFile(f.path) && f.before !== f.after);
  if (known.some((f) => !moving(f.path))) {
    // The other files' tests count as new: a deleted test found there by name or body was moved or renamed.
    const elsewhere = (opts.others ?? [])
      .filter((o) => isTestFile(o.path) && !files.some((f) => f.path === o.path))
      .map((o) => ({ path: o.path, after: o.text }));
    const inv = staticInventoryDiff([...known, ...elsewhere], opts.task);
    const evidence = inv.detection.evidence.filter((e) => !moving(e.slice(0, e.indexOf(': '))));
    if (inv.detection.verdict === 'BLOCK' && evidence.length) found.push({ ...inv.detection, evidence });
  }
  const gone = files.filter((f) => f.beforeUnknown && f.after === undefined && isTestFile(f.path) && !moving(f.path));
  if (gone.length)
    found.push(
      detection(
        'test_deletion',
        'critical',
        `${gone.length} test file${gone.length === 1 ? '' : 's'} deleted: every test in ${gone.length === 1 ? 'it' : 'them'} is gone.`,
        gone.map((f) => `${f.path}: the whole file`),
      ),
    );
  const bypass = [...detectValidationBypass([...diff]), ...detectSubjectMocks(diff), ...detectMockedNames(diff)];
  found.push(...bypass.filter((d) => d.verdict === 'BLOCK'));
  return found;
}

/**
 * The hook's reason for a block: the same non-negotiable feedback items the next prompt would carry for these
 * findings, and what to do now (undo the change, then fix the product code).
 */
export function blockReason(found: readonly Detection[], iteration: number, files: readonly string[]): string {
  const list = files.length ? files.join(', ') : 'the files you just changed';
  return [
    '⛔ Blocked by ralph: this change is one the loop REJECTS. It was caught as you made it, so you can still fix it in this iteration.',
    ...found.map((d) => detectionFeedback(d, Math.max(1, iteration))),
    `Undo it NOW, before anything else: put ${list} back exactly as ${files.length === 1 ? 'it was' : 'they were'} ` +
      'before this change (every test, assertion and setting as before; a test file you created in this iteration: ' +
      'rewrite it without the cheat, or delete it), then make the product code pass the original tests. While the ' +
      "change stands, the iteration's work cannot be accepted.",
  ].join('\n\n');
}

/** A tool call the hook blocked, as the audit log keeps it. */
export interface BlockedCall {
  tool: string;
  /** The files the block was about. */
  files: string[];
  /** The blocking detection types. */
  types: string[];
}

/**
 * The `corrected_in_iteration` event (info: it never holds up acceptance) when the hook blocked tool calls during the
 * iteration and none of their files is named by a BLOCK finding of the end-of-iteration pass (the agent undid the
 * change). Undefined when nothing was blocked, or when a blocked change still stands (that finding speaks for itself).
 */
export function correctedInIteration(
  blocked: readonly BlockedCall[],
  endFindings: readonly Detection[],
): Detection | undefined {
  if (!blocked.length) return undefined;
  const standing = endFindings
    .filter((d) => d.verdict === 'BLOCK')
    .map((d) => `${d.details}\n${d.evidence.join('\n')}`);
  const stillThere = (f: string): boolean => standing.some((t) => t.includes(f));
  if (blocked.some((b) => b.files.some(stillThere))) return undefined;
  const n = blocked.length;
  return detection(
    CORRECTED_IN_ITERATION,
    'info',
    `The hook blocked ${n} risky change${n === 1 ? '' : 's'} to tests or checks during the iteration, and the agent undid ${n === 1 ? 'it' : 'them'} before it ended.`,
    blocked.map((b) => `${b.tool} ${b.files.join(', ')}: ${b.types.join(', ')}`),
  );
}
