/**
 * PDARE recovery rules (Pause, Diagnose, Adapt, Retry, Escalate): from an iteration's findings and the loop's recent
 * history, the likeliest root cause, the strategy for it, the prompt section of the retry, and whether a human must
 * decide now. Pure and rule-based: the same facts always give the same diagnosis.
 */
import type { Detection } from './detections';
import type {
  Diagnosis,
  DiagnosisCause,
  IterationFingerprint,
  AntiLazinessSettings,
  Strategy,
  TrajectoryPoint,
} from './anti-laziness-types';

/**
 * Detection types of validation bypass (core/detectors/validation-bypass.ts): ways to make the gates pass without
 * doing the work. With test deletion they are the signature of reward hacking.
 */
export const VALIDATION_BYPASS_TYPES: readonly string[] = [
  'skip_added',
  'test_commented_out',
  'ts_suppression',
  'eslint_disable_unjustified',
  'any_added',
  'ci_bypass',
  'test_ignore_added',
  'strict_disabled',
  'coverage_threshold_lowered',
  'assertion_weakened',
  'assertion_count_decreased',
];

/**
 * Detection types of verification (core/verification): the original checks fail with the agent's changes to them
 * undone (`tampered_verification`), or the code special-cases the checks. Seed 001 calls these reward hacking: block
 * and escalate.
 */
export const VERIFICATION_CHEAT_TYPES: readonly string[] = [
  'tampered_verification',
  'special_cased_test_input',
  'test_only_switch',
  'mock_of_subject',
];

/**
 * Detection types that make gates pass by weakening them: test deletion, {@link VALIDATION_BYPASS_TYPES} and
 * {@link VERIFICATION_CHEAT_TYPES}.
 */
export const REWARD_HACKING_TYPES: readonly string[] = [
  'test_deletion',
  'test_replaced',
  ...VALIDATION_BYPASS_TYPES,
  ...VERIFICATION_CHEAT_TYPES,
];

/** Detection types of an agent that does less than it says: nothing written, a false claim, invented files. */
export const OVERLOAD_TYPES: readonly string[] = ['no_files_written', 'false_completion', 'hallucinated_files'];

/** Below this quality (0-100) an iteration counts as "low quality" for the diagnosis. */
export const LOW_QUALITY = 60;
/** A task description longer than this (characters) is "long" for the cognitive-load rule. */
export const LONG_TASK_CHARS = 4000;

/** What {@link diagnose} looks at besides the detections. */
export interface DiagnoseContext {
  /** The iteration being diagnosed. */
  iteration: number;
  /** Recent fingerprints, oldest first (the loop keeps the last 8). */
  fingerprints: IterationFingerprint[];
  /** Quality trajectory, oldest first. */
  trajectory: TrajectoryPoint[];
  /** Recovery retries already made in the current recovery. */
  retries: number;
  /** Length of the task description in characters. */
  taskChars: number;
}

interface Candidate {
  cause: DiagnosisCause;
  confidence: number;
  evidence: string[];
}

/** Tie-break order when two causes are equally likely: the more actionable/dangerous first. */
const PRIORITY: readonly DiagnosisCause[] = [
  'reward_hacking',
  'task_complexity',
  'cognitive_load',
  'specification_ambiguity',
];

const round2 = (x: number): number => Math.round(Math.min(1, Math.max(0, x)) * 100) / 100;
const clip = (s: string, n = 140): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};
const live = (ds: Detection[]): Detection[] => ds.filter((d) => d.verdict !== 'PASS');
const uniq = (xs: string[]): string[] => [...new Set(xs)];

/** Iterations (numbers) at the end of `fps` that share the newest fingerprint's error signature. */
function trailingSameError(fps: IterationFingerprint[]): number[] {
  const last = fps[fps.length - 1];
  if (!last?.errorSig) return [];
  const run: number[] = [];
  for (let i = fps.length - 1; i >= 0 && fps[i].errorSig === last.errorSig; i--) run.unshift(fps[i].n);
  return run;
}

/** The last four workspace states alternate A-B-A-B (A ≠ B). */
function oscillates(fps: IterationFingerprint[]): boolean {
  const s = fps.slice(-4).map((f) => f.stateSig);
  if (s.length < 4 || s.some((x) => !x)) return false;
  return s[0] === s[2] && s[1] === s[3] && s[0] !== s[1];
}

function rewardHacking(ds: Detection[]): Candidate | undefined {
  const hits = ds.filter((d) => REWARD_HACKING_TYPES.includes(d.type));
  if (!hits.length) return undefined;
  const types = uniq(hits.map((d) => d.type));
  const critical = hits.some((d) => d.verdict === 'BLOCK');
  // Critical bypasses (tests deleted/skipped, CI made to pass) leave little doubt; warnings (`any`, a lint disable,
  // fewer assertions, tests replaced) can be legitimate, so they count less.
  const confidence = critical ? 0.9 + 0.03 * (types.length - 1) : 0.55 + 0.05 * (types.length - 1);
  return {
    cause: 'reward_hacking',
    confidence: Math.min(critical ? 0.98 : 0.75, confidence),
    evidence: hits.slice(0, 5).map((d) => `${d.type} (${d.severity}): ${clip(d.details)}`),
  };
}

function taskComplexity(ds: Detection[], ctx: DiagnoseContext): Candidate | undefined {
  const stuck = ds.find((d) => d.type === 'stuck_loop');
  const same = trailingSameError(ctx.fingerprints);
  const osc = oscillates(ctx.fingerprints);
  const evidence: string[] = [];
  let confidence = 0;
  if (stuck) {
    evidence.push(`stuck_loop: ${clip(stuck.details)}`);
    confidence = 0.6;
  }
  if (same.length >= 2) {
    const err = ctx.fingerprints[ctx.fingerprints.length - 1].error;
    evidence.push(`same error in iterations ${same.join(', ')}${err ? `: ${clip(err, 100)}` : ''}`);
    confidence = Math.max(confidence, stuck ? 0.8 : 0.5) + (stuck ? 0.05 * Math.min(2, same.length - 2) : 0);
  }
  if (osc) {
    const ns = ctx.fingerprints.slice(-4).map((f) => f.n);
    evidence.push(`workspace oscillates between two states over iterations ${ns.join(', ')}`);
    confidence = Math.max(confidence, stuck ? 0.75 : 0.5);
  }
  if (ctx.retries > 0 && confidence > 0) {
    evidence.push(`${ctx.retries} recovery retr${ctx.retries === 1 ? 'y' : 'ies'} did not help`);
    confidence += 0.05;
  }
  return confidence > 0 ? { cause: 'task_complexity', confidence, evidence } : undefined;
}

function cognitiveLoad(ds: Detection[], ctx: DiagnoseContext): Candidate | undefined {
  const hits = ds.filter((d) => OVERLOAD_TYPES.includes(d.type));
  const evidence: string[] = [];
  let confidence = 0;
  if (hits.length) {
    evidence.push(...uniq(hits.map((d) => d.type)).map((t) => `${t} at iteration ${ctx.iteration}`));
    const idle = ctx.fingerprints.filter((f) => f.n < ctx.iteration && f.changed === 0).map((f) => f.n);
    const repeated = idle.length > 0 || ctx.retries > 0;
    if (idle.length) evidence.push(`no files changed before in iterations ${idle.join(', ')}`);
    if (ctx.retries > 0) evidence.push(`after ${ctx.retries} recovery retr${ctx.retries === 1 ? 'y' : 'ies'}`);
    confidence = repeated ? 0.75 : 0.5;
  }
  const quality = ctx.trajectory[ctx.trajectory.length - 1]?.quality;
  if (ctx.taskChars > LONG_TASK_CHARS && quality !== undefined && quality < LOW_QUALITY) {
    evidence.push(`long task (${ctx.taskChars} chars > ${LONG_TASK_CHARS}) with low quality ${quality}%`);
    confidence = confidence ? confidence + 0.1 : 0.6;
  }
  return confidence > 0 ? { cause: 'cognitive_load', confidence, evidence } : undefined;
}

function specificationAmbiguity(ds: Detection[], ctx: DiagnoseContext): Candidate | undefined {
  const evidence: string[] = [];
  let confidence = 0;
  const plateau = ds.find((d) => d.type === 'quality_plateau');
  const quality = ctx.trajectory[ctx.trajectory.length - 1]?.quality;
  if (plateau && quality !== undefined && quality < LOW_QUALITY) {
    evidence.push(`quality plateau at ${quality}% (< ${LOW_QUALITY}%): ${clip(plateau.details, 100)}`);
    confidence = 0.65;
  }
  const removal = ds.find((d) => d.type === 'feature_removal');
  if (removal) {
    evidence.push(`feature_removal: ${clip(removal.details)}`);
    confidence = confidence ? confidence + 0.1 : 0.6;
  }
  return confidence > 0 ? { cause: 'specification_ambiguity', confidence, evidence } : undefined;
}

/**
 * Diagnoses why an iteration went wrong. Rules, strongest first:
 * - test deletion, validation bypass, weakened assertions, or checks that fail once the agent's changes to them are
 *   undone (`tampered_verification`) → `reward_hacking` (0.9+ when critical);
 * - a stuck loop, the same error repeated or A-B-A-B oscillation → `task_complexity`;
 * - no files written, false completion or hallucinated files (more so when repeated), or a long task with low quality
 *   → `cognitive_load`;
 * - a quality plateau at low quality, or feature removal → `specification_ambiguity`.
 * When no rule applies, or two different causes are equally likely, the signals conflict: `specification_ambiguity`
 * with low confidence. Confidence is 0..1 with 2 decimals; `evidence` names the facts used.
 */
export function diagnose(detections: Detection[], ctx: DiagnoseContext): Diagnosis {
  const ds = live(detections);
  const found = [
    rewardHacking(ds),
    taskComplexity(ds, ctx),
    cognitiveLoad(ds, ctx),
    specificationAmbiguity(ds, ctx),
  ].filter((c): c is Candidate => !!c);
  if (!found.length) {
    const types = uniq(ds.map((d) => d.type));
    return {
      cause: 'specification_ambiguity',
      confidence: 0.3,
      evidence: [
        types.length
          ? `no rule matched the findings (${types.join(', ')}): the goal may be unclear`
          : 'no finding explains the failure: the goal may be unclear',
      ],
    };
  }
  const score = (c: Candidate): number => round2(c.confidence);
  found.sort((a, b) => score(b) - score(a) || PRIORITY.indexOf(a.cause) - PRIORITY.indexOf(b.cause));
  const [top, second] = found;
  // Equal scores for different causes (reward hacking aside, which always wins on its own evidence) mean the
  // signals contradict each other: ask instead of guessing.
  if (second && score(second) === score(top) && top.cause !== 'reward_hacking') {
    return {
      cause: 'specification_ambiguity',
      confidence: 0.4,
      evidence: [
        `conflicting signals: ${top.cause} and ${second.cause} equally likely (${score(top)})`,
        ...top.evidence,
        ...second.evidence,
      ],
    };
  }
  return { cause: top.cause, confidence: score(top), evidence: top.evidence };
}

const STRATEGY: Record<DiagnosisCause, Strategy> = {
  cognitive_load: 'decompose',
  task_complexity: 'simpler_approach',
  specification_ambiguity: 'ask_clarification',
  reward_hacking: 'block',
};

/** The recovery strategy for a diagnosis: decompose, simpler approach, ask for clarification, or block. */
export function strategyFor(d: Diagnosis): Strategy {
  return STRATEGY[d.cause];
}

const CAUSE_TEXT: Record<DiagnosisCause, string> = {
  cognitive_load: 'the task is too big to do in one go',
  task_complexity: 'the current approach keeps failing the same way',
  specification_ambiguity: 'the goal seems unclear',
  reward_hacking: 'the checks were weakened instead of the work being done',
};

/** `ask_clarification`'s invitation to ask, when the loop has a question left. */
export const CLARIFY_ASK =
  'If you cannot proceed without an answer, end your answer with `<question>your question</question>`: a human will answer it.';
/** What replaces {@link CLARIFY_ASK} when asking is off (`questions.max: 0`) or no question is left. */
export const CLARIFY_NO_ASK =
  'No human will answer a question in this loop (a `<question>` block is read as ordinary text): decide yourself and go on.';

/**
 * The adapted section without its invitation to ask (asking is off, or no question is left): {@link CLARIFY_ASK} is
 * replaced by {@link CLARIFY_NO_ASK}. Other sections are returned as they are.
 */
export function withoutAsking(section: string): string {
  return section.split(CLARIFY_ASK).join(CLARIFY_NO_ASK);
}

/**
 * The prompt section of a recovery retry: what went wrong (cause and facts) and how to work this time. With
 * `canAsk: false`, `ask_clarification` does not invite a question (see {@link withoutAsking}).
 */
export function adaptText(strategy: Strategy, d: Diagnosis, opts: { canAsk?: boolean } = {}): string {
  const text = adaptSection(strategy, d);
  return opts.canAsk === false ? withoutAsking(text) : text;
}

function adaptSection(strategy: Strategy, d: Diagnosis): string {
  const why = [
    `Diagnosis: ${CAUSE_TEXT[d.cause]} (${d.cause}, confidence ${Math.round(d.confidence * 100)}%).`,
    ...d.evidence.slice(0, 5).map((e) => `- ${e}`),
  ].join('\n');
  const body: Record<Strategy, string[]> = {
    decompose: [
      'Split the task into small, numbered steps and write them down first under `## Plan`.',
      'Do step 1 fully, in files in the workspace, before you start step 2; then continue step by step.',
      'Save progress to files early and often: partial work in files counts, intentions in your answer do not.',
      'Do not claim completion until every step is done and the files are written.',
    ],
    simpler_approach: [
      'Stop repeating the approach that failed: it will fail again.',
      'Find the root cause of the error (in the source code, not in the tests) before you change anything.',
      'Take a different, simpler approach: the smallest change that makes the failing check pass for the right reason.',
      'If a step still fails, say exactly which error remains and why under `## Blockers`.',
    ],
    ask_clarification: [
      'If the requirement is ambiguous, state your assumption under `## Assumptions` and proceed with the most literal reading of the task.',
      'Do not remove or change behaviour the task does not mention.',
      CLARIFY_ASK,
    ],
    block: [
      'Your change was BLOCKED: it weakened the checks (deleted, skipped or weakened tests, or bypassed validation) instead of fixing the code, and it may have been reverted.',
      'Restore every deleted, skipped or weakened test and check; they reveal bugs to fix, not obstacles to remove.',
      'Fix the source code so the unchanged checks pass. Do not touch test expectations, thresholds or CI configuration.',
    ],
  };
  const title: Record<Strategy, string> = {
    decompose: 'decompose the task',
    simpler_approach: 'take a simpler approach',
    ask_clarification: 'clarify the requirement',
    block: 'change blocked',
  };
  return [`## Recovery: ${title[strategy]}`, why, body[strategy].map((l) => `- ${l}`).join('\n')].join('\n\n');
}

/**
 * PDARE's `ask_clarification` as a question to a human: what the diagnosis saw at iteration `n`, and what to clarify.
 */
export function clarificationQuestion(d: Diagnosis, n: number): string {
  return [
    `The work at iteration ${n} suggests the goal is unclear (${d.cause}, confidence ${Math.round(d.confidence * 100)}%):`,
    ...d.evidence.slice(0, 5).map((e) => `- ${e}`),
    'What exactly should the agent do (which behaviour to keep, what the task includes)?',
  ].join('\n');
}

/**
 * Whether a human must decide now: a critical finding (any BLOCK verdict) when `escalateOnCritical`, or the retries
 * of the current recovery are used up. `why` says which, or which retry comes next.
 */
export function shouldEscalate(
  detections: Detection[],
  retries: number,
  cfg: AntiLazinessSettings['recovery'],
): { escalate: boolean; why: string } {
  const critical = uniq(detections.filter((d) => d.verdict === 'BLOCK').map((d) => d.type));
  if (critical.length && cfg.escalateOnCritical) return { escalate: true, why: `critical: ${critical.join(', ')}` };
  if (retries >= cfg.maxRetries)
    return {
      escalate: true,
      why: `${cfg.maxRetries} recovery retr${cfg.maxRetries === 1 ? 'y' : 'ies'} exhausted`,
    };
  return { escalate: false, why: `retry ${retries + 1} of ${cfg.maxRetries}` };
}
