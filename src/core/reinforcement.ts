/**
 * Reinforcement: how hard the next prompt pushes the agent (MINIMAL → STANDARD → AGGRESSIVE), the prompt section of
 * each level, the feedback item of each detection, and the rotation that keeps accumulated feedback from bloating
 * prompts. Pure and deterministic: the workflow calls these to build the next prompt.
 */
import type { Detection } from './detections';
import type { AntiLazinessSettings, ReinforcementLevel } from './anti-laziness-types';
import { VALIDATION_BYPASS_TYPES } from './pdare';

/** What decides the level of the next prompt. */
export interface LevelInput {
  /** The iteration the prompt is for (1-based). */
  iteration: number;
  cfg: AntiLazinessSettings['reinforcement'];
  /** Quality has not improved over the plateau window. */
  plateau: boolean;
  /** The same error came back (stuck-loop risk). */
  repeatedError: boolean;
  /** A human rejected a regression: AGGRESSIVE up to and including this iteration. */
  forceAggressiveUntil?: number;
  /** The circuit breaker tripped (too many iterations without file changes). */
  circuitOpen?: boolean;
}

/**
 * The reinforcement level of the prompt for `i.iteration`: MINIMAL before `standardFrom`, STANDARD before
 * `aggressiveFrom`, AGGRESSIVE from then on; a quality plateau, a repeated error, an open circuit breaker or a forced
 * period after a human rejection make it AGGRESSIVE at once. `reason` names every fact that applied, e.g.
 * `iteration 5 (≥5) + quality plateau`.
 */
export function levelFor(i: LevelInput): { level: ReinforcementLevel; reason: string } {
  const { standardFrom, aggressiveFrom } = i.cfg;
  let level: ReinforcementLevel;
  let byIteration: string;
  if (i.iteration >= aggressiveFrom) {
    level = 'AGGRESSIVE';
    byIteration = `iteration ${i.iteration} (≥${aggressiveFrom})`;
  } else if (i.iteration >= standardFrom) {
    level = 'STANDARD';
    byIteration = `iteration ${i.iteration} (≥${standardFrom})`;
  } else {
    level = 'MINIMAL';
    byIteration = `iteration ${i.iteration} (<${standardFrom})`;
  }
  const forcing: string[] = [];
  if (i.forceAggressiveUntil !== undefined && i.iteration <= i.forceAggressiveUntil)
    forcing.push(`human rejected a regression (AGGRESSIVE through iteration ${i.forceAggressiveUntil})`);
  if (i.circuitOpen) forcing.push('circuit breaker open (repeated iterations without file changes)');
  if (i.plateau) forcing.push('quality plateau');
  if (i.repeatedError) forcing.push('repeated error');
  if (!forcing.length) return { level, reason: byIteration };
  return {
    level: 'AGGRESSIVE',
    reason: level === 'AGGRESSIVE' ? [byIteration, ...forcing].join(' + ') : forcing.join(' + '),
  };
}

/** Most findings named in a reinforcement section, and the longest each may be. */
const MAX_FINDINGS = 8;
const FINDING_CHARS = 200;

const oneLine = (s: string, n: number): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

function findingLines(findings: string[]): string[] {
  const list = [...new Set(findings.map((f) => oneLine(f, FINDING_CHARS)).filter(Boolean))];
  const shown = list.slice(0, MAX_FINDINGS).map((f) => `- ${f}`);
  if (list.length > MAX_FINDINGS) shown.push(`- … ${list.length - MAX_FINDINGS} more`);
  return shown;
}

const MINIMAL_RULES = [
  'Finish all of the task in this iteration: do not defer any part of it to a follow-up, a TODO or "out of scope".',
];

const STANDARD_RULES = [
  ...MINIMAL_RULES,
  'Do not delete, skip, comment out or weaken tests, and do not lower coverage thresholds or silence the type checker, the linter or CI: fix the code instead.',
  'Do not remove features or code paths to make errors go away.',
  'Do not claim the task is done unless you wrote the changes to files in the workspace in this iteration.',
  'List every file you created or changed under `## Evidence`, with what you changed in it.',
];

/**
 * The reinforcement section of a prompt at `level`, starting with `## Persistence (<LEVEL>)`. MINIMAL is a short
 * reminder to finish everything; STANDARD adds the anti-laziness rules and the findings so far; AGGRESSIVE opens with
 * a stern block (previous attempts failed or regressed, what was detected, take a different approach) and states
 * what must hold before completion may be claimed.
 */
export function reinforcementText(level: ReinforcementLevel, ctx: { iteration: number; findings: string[] }): string {
  const head = `## Persistence (${level})`;
  const bullets = (xs: string[]): string => xs.map((x) => `- ${x}`).join('\n');
  const findings = findingLines(ctx.findings);
  if (level === 'MINIMAL') return [head, bullets(MINIMAL_RULES)].join('\n\n');
  if (level === 'STANDARD') {
    const parts = [
      head,
      `This is iteration ${ctx.iteration}: the task is not done yet. Rules for this iteration:`,
      bullets(STANDARD_RULES),
    ];
    if (findings.length)
      parts.push(`Problems found in earlier iterations (do not repeat them):\n${findings.join('\n')}`);
    return parts.join('\n\n');
  }
  const parts = [
    head,
    `**ITERATION ${ctx.iteration}. Previous attempts failed or regressed.** Repeating them will fail again.`,
  ];
  parts.push(
    findings.length ? `What was detected:\n${findings.join('\n')}` : 'The previous iterations did not finish the task.',
  );
  parts.push(
    [
      'MANDATORY:',
      '1. Stop repeating the approach that failed: take a different approach.',
      '2. Find the root cause (in the source code, not in the tests) before you change anything.',
      '3. Make the changes in files in the workspace, not in your answer.',
      '4. Do not delete, skip or weaken tests or checks, and do not remove features, to make failures go away.',
    ].join('\n'),
  );
  parts.push(bullets(STANDARD_RULES));
  parts.push(
    '**Do not claim completion until** every requested change is written to the workspace, the completion check passes, no test or check was deleted, skipped or weakened, and every changed file is listed under `## Evidence`.',
  );
  return parts.join('\n\n');
}

/** Longest summary line of an older feedback item. */
const SUMMARY_CHARS = 160;

/**
 * Keeps accumulated feedback within `maxChars` (items plus one separator each). `items` are newest (most important)
 * first, and so is the result: the first items whole while they fit, then the older ones summarised to their first
 * line (≤160 characters), then one line `… N earlier feedback items omitted` for the rest. Identical items (after
 * trimming) appear once, at their first (newest) position, so adding the same feedback again changes nothing; and
 * rotating a rotated list returns it unchanged.
 */
export function rotateFeedback(items: string[], maxChars: number): string[] {
  const seen = new Set<string>();
  const newestFirst: string[] = [];
  for (const item of items) {
    const t = item.trim();
    if (!t || seen.has(t)) continue;
    seen.add(t);
    newestFirst.push(t);
  }
  const out: string[] = [];
  let used = 0;
  let k = 0;
  for (; k < newestFirst.length; k++) {
    const cost = newestFirst[k].length + 1;
    if (used + cost > maxChars) break;
    out.push(newestFirst[k]);
    used += cost;
  }
  for (; k < newestFirst.length; k++) {
    const summary = oneLine(newestFirst[k].split('\n')[0], SUMMARY_CHARS);
    // Two older items can share a first line: their summaries are identical, so keep one.
    if (out.includes(summary)) continue;
    const cost = summary.length + 1;
    if (used + cost > maxChars) break;
    out.push(summary);
    used += cost;
  }
  let omitted = newestFirst.length - out.length;
  if (omitted > 0) {
    // Make room for the omission line by dropping the oldest kept items (the line itself is always kept).
    const line = (n: number): string => `… ${n} earlier feedback item${n === 1 ? '' : 's'} omitted`;
    while (out.length && used + line(omitted).length + 1 > maxChars) {
      used -= out.pop()!.length + 1;
      omitted++;
    }
    out.push(line(omitted));
  }
  return out;
}

/** Most evidence lines quoted in one feedback item. */
const MAX_EVIDENCE = 10;

function evidenceBlock(evidence: string[]): string {
  if (!evidence.length) return '';
  const shown = evidence.slice(0, MAX_EVIDENCE).map((e) => `  - ${oneLine(e, 300)}`);
  if (evidence.length > MAX_EVIDENCE) shown.push(`  - … ${evidence.length - MAX_EVIDENCE} more`);
  return `\n${shown.join('\n')}`;
}

const LABEL: Record<Detection['severity'], string> = {
  critical: '**CRITICAL**',
  warning: '**WARNING**',
  info: '**NOTE**',
};

/**
 * The feedback item ("Previous iteration feedback (DO NOT IGNORE)") for one detection of `iteration`: what was found,
 * in the agent's terms, what it must do instead, and up to 10 lines of evidence.
 */
export function detectionFeedback(d: Detection, iteration: number): string {
  const label = LABEL[d.severity];
  const ev = evidenceBlock(d.evidence);
  const at = `In iteration ${iteration}`;
  switch (d.type) {
    case 'false_completion':
      return (
        `${LABEL.critical}: ${at}, you claimed completion but wrote NO FILES. Your completion signal was IGNORED; ` +
        'the task remains OPEN. You MUST edit files in the workspace (create or modify them with your tools), then ' +
        'list every change under `## Evidence`.' +
        ev
      );
    case 'no_files_written':
      return (
        `${label}: ${at}, you changed NO FILES in the workspace. Describing a change is not making it: edit the ` +
        'files with your tools, then list every file you changed under `## Evidence`.' +
        ev
      );
    case 'hallucinated_files':
      return (
        `${label}: ${at}, you listed files you did not create or change:${ev}\n` +
        'Only list files you actually changed, and make the changes you described.'
      );
    case 'test_deletion':
      return (
        `${LABEL.critical}: ${at}, you DELETED tests:${ev}\n` +
        'Tests that fail reveal bugs to fix in the source code, not tests to remove. Those tests must exist and ' +
        'pass: fix the code they test.'
      );
    case 'test_replaced':
      return (
        `${label}: ${at}, you replaced existing tests with new ones:${ev}\n` +
        'The new tests must check everything the old ones did. Do not rewrite tests to make them pass.'
      );
    case 'coverage_regression':
      return (
        `${label}: ${at}, test coverage dropped. ${d.details}${ev}\n` +
        'Add tests for the code you changed; do not delete tested code or tests to move the numbers.'
      );
    case 'feature_removal':
      return (
        `${label}: ${at}, you removed existing functionality. ${d.details}${ev}\n` +
        'Removing features to make errors go away is not a fix: restore it unless the task asks for its removal.'
      );
    case 'stuck_loop':
      return (
        `${label}: ${at}, the loop is stuck. ${d.details}${ev}\n` +
        'Repeating the same approach will fail again: find the root cause and take a different approach.'
      );
    case 'quality_plateau':
      return (
        `${label}: quality is not improving (as of iteration ${iteration}). ${d.details}${ev}\n` +
        'Small tweaks are not working: re-read the task and the failing checks, and change approach.'
      );
    case 'risky_action':
      return (
        `${label}: ${at}, you made a risky tool call. ${d.details}${ev}\n` +
        'Make sure it was a fix and not a deletion or bypass; prefer changes that keep tests and checks intact.'
      );
  }
  if (VALIDATION_BYPASS_TYPES.includes(d.type))
    return (
      `${label}: ${at}, you bypassed validation (${d.type}). ${d.details}${ev}\n` +
      'Undo it: make the checks pass by fixing the code, not by skipping, weakening or silencing them.'
    );
  return `${label}: ${at}, ${d.type}: ${d.details}${ev}`;
}
