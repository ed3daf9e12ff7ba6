/**
 * Task complexity and adaptive timeouts: a deterministic keyword classifier (`simple` < `medium` < `complex` <
 * `ui_heavy`), the timeout an agent attempt gets for a class and its history of timeouts, and what to suggest for a
 * blocked task. Pure: the same task and config always give the same class, timeout and suggestion, so workflows can
 * call it and every number can be explained (`reasons`, `why`).
 *
 * Why these rules: one fixed timeout per mode blocked 55% of the UI tasks of a production run (each after 3 timed-out
 * attempts) while backend tasks finished; keyword heuristics are simple, fast and explainable, and good enough
 * (design doc 003, "Adaptive timeout & unblock").
 */
/** How much agent time a task is expected to need, from least to most. */
export const Complexity = {
  simple: 'simple',
  medium: 'medium',
  complex: 'complex',
  ui_heavy: 'ui_heavy',
} as const;
/** One of {@link Complexity}. */
export type Complexity = (typeof Complexity)[keyof typeof Complexity];

/** Complexity classes in ascending order: a class's index orders it. */
export const COMPLEXITIES = ['simple', 'medium', 'complex', 'ui_heavy'] as const satisfies readonly Complexity[];

/** Base timeout and multiplier of one complexity class. */
export interface ComplexityTiming {
  /** The attempt's base timeout when no operator override is given (the "mode timeout"). */
  baseSeconds: number;
  /** How much the base is scaled for this class. */
  multiplier: number;
}

/** Default timing per class (design doc 003's complexity matrix). */
export const COMPLEXITY_TIMING: Readonly<Record<Complexity, Readonly<ComplexityTiming>>> = {
  simple: { baseSeconds: 60, multiplier: 1.0 },
  medium: { baseSeconds: 180, multiplier: 1.5 },
  complex: { baseSeconds: 300, multiplier: 2.0 },
  ui_heavy: { baseSeconds: 600, multiplier: 3.0 },
};

/** Default keywords per class: a task mentioning one is at least that class. */
export const COMPLEXITY_KEYWORDS: Readonly<Record<Complexity, readonly string[]>> = {
  simple: ['fix', 'update', 'refactor', 'add'],
  medium: ['test', 'mock', 'fixture'],
  complex: ['CLI', 'command', 'parser'],
  ui_heavy: ['UI', 'View', 'Chart', 'Dashboard', 'SwiftUI', 'component', 'page', 'screen'],
};

/** Default scalar settings of adaptive timeouts and unblocking; the config schema's defaults come from here. */
export const TIMEOUT_DEFAULTS = {
  /** Factor per previous timed-out attempt of the task (50% more each time). */
  backoff: 1.5,
  /** No attempt gets less than this. */
  minSeconds: 60,
  /** No attempt gets more than this (one hour). */
  maxSeconds: 3600,
  /** More acceptance criteria than this raise the class one level. */
  criteriaRaiseThreshold: 3,
  /**
   * The class of a task no keyword matches. `medium`, not `simple`: the simple keywords would mean nothing if simple
   * were the default, and the failure the design answers is timeouts too short (simple's 60 s is half the old 120 s).
   */
  defaultComplexity: 'medium' as Complexity,
  /** Attempts of one task before it is blocked (`attempt_limit`). */
  maxAttemptsPerTask: 3,
  /** Unblocks the loop may do on its own per task; 0 leaves every unblock to an operator. */
  maxAutoUnblockAttempts: 1,
} as const;

/**
 * Adaptive-timeout and unblock settings, resolved (every field present). The config schema
 * (config/timeouts-config.ts) parses a file into this shape with the defaults above; core never imports config.
 */
export interface TimeoutSettings {
  /** Base seconds and multiplier per complexity class. */
  table: Record<Complexity, ComplexityTiming>;
  /** Factor per previous timed-out attempt (1 turns backoff off). */
  backoff: number;
  minSeconds: number;
  maxSeconds: number;
  /** Keywords per complexity class. */
  keywords: Record<Complexity, string[]>;
  /** More acceptance criteria than this raise the class one level. */
  criteriaRaiseThreshold: number;
  /** The class of a task no keyword matches. */
  defaultComplexity: Complexity;
  /** Attempts of one task before it is blocked. */
  maxAttemptsPerTask: number;
  /** Unblocks the loop may do on its own per task. */
  maxAutoUnblockAttempts: number;
}

/** The class one level above `c`; `ui_heavy` stays `ui_heavy` (there is nothing above it). */
export function raiseComplexity(c: Complexity): Complexity {
  return COMPLEXITIES[Math.min(COMPLEXITIES.indexOf(c) + 1, COMPLEXITIES.length - 1)];
}

/** The text of a task that {@link classifyComplexity} reads. */
export interface TaskText {
  title: string;
  description?: string;
  /** One entry per criterion; blank entries are not counted. */
  acceptanceCriteria?: readonly string[];
}

/** What {@link classifyComplexity} decided, and why. */
export interface ComplexityResult {
  complexity: Complexity;
  /** One clause each: matched keywords per class (highest class first), the default if none, the criteria raise. */
  reasons: string[];
}

/** The settings {@link classifyComplexity} uses (a whole {@link TimeoutSettings} will do). */
export type ClassifierConfig = Pick<TimeoutSettings, 'keywords' | 'criteriaRaiseThreshold' | 'defaultComplexity'>;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A keyword as a whole word, case-insensitive, with an optional plural `s`/`es`. A word is a run of letters and
 * digits (so `_`, `-`, `.`, `/` separate words and `review` never matches `view`); spaces inside a keyword match any
 * whitespace.
 */
const keywordPattern = (keyword: string): RegExp =>
  new RegExp(
    `(?<![\\p{L}\\p{N}])${keyword.trim().split(/\s+/).map(escapeRegExp).join('\\s+')}(?:e?s)?(?![\\p{L}\\p{N}])`,
    'iu',
  );

/**
 * Splits camelCase and PascalCase humps (`AnalyticsDashboardView` → `Analytics Dashboard View`, `JSONParser` →
 * `JSON Parser`): Swift and TypeScript tasks name types, and a type's humps are its words.
 */
const splitHumps = (s: string): string =>
  s.replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2');

/**
 * Classifies a task from the keywords in its title, description and acceptance criteria, then its criteria count.
 *
 * - The highest class with a matching keyword wins (`ui_heavy` > `complex` > `medium` > `simple`); matching is
 *   whole-word, case-insensitive, allows a plural `s`/`es`, and sees camelCase humps as words.
 * - No keyword at all: `cfg.defaultComplexity` (`medium` by default).
 * - More than `cfg.criteriaRaiseThreshold` non-blank criteria raise the class one level; `ui_heavy` stays `ui_heavy`.
 */
export function classifyComplexity(task: TaskText, cfg: ClassifierConfig): ComplexityResult {
  const criteria = (task.acceptanceCriteria ?? []).filter((c) => c.trim() !== '');
  const text = [task.title, task.description ?? '', ...criteria].join('\n');
  const haystack = `${text}\n${splitHumps(text)}`;
  const reasons: string[] = [];
  let complexity: Complexity | undefined;
  for (const level of [...COMPLEXITIES].reverse()) {
    // One word per keyword (its first form in the text): "Charts" and "chart" are one finding.
    const found = new Set<string>();
    for (const keyword of cfg.keywords[level]) {
      const m = keyword.trim() ? keywordPattern(keyword).exec(haystack) : null;
      if (m) found.add(m[0]);
    }
    if (!found.size) continue;
    complexity ??= level;
    reasons.push(`${level} keywords: ${[...found].map((w) => `"${w}"`).join(', ')}`);
  }
  if (!complexity) {
    complexity = cfg.defaultComplexity;
    reasons.push(`no keyword matched: default ${complexity}`);
  }
  if (criteria.length > cfg.criteriaRaiseThreshold) {
    const raised = raiseComplexity(complexity);
    const head = `${criteria.length} acceptance criteria (> ${cfg.criteriaRaiseThreshold})`;
    reasons.push(
      raised === complexity
        ? `${head}: already ${complexity}, the highest`
        : `${head}: raised ${complexity} to ${raised}`,
    );
    complexity = raised;
  }
  return { complexity, reasons };
}

/** Input of {@link adaptiveTimeout}. */
export interface AdaptiveTimeoutInput {
  complexity: Complexity;
  /** Earlier attempts of this task that timed out; each multiplies the timeout by `cfg.backoff`. */
  previousTimeoutFailures: number;
  cfg: Pick<TimeoutSettings, 'table' | 'backoff' | 'minSeconds' | 'maxSeconds'>;
  /** An operator's timeout (`ralph unblock <task> --timeout 1800`): replaces the class's base seconds. */
  overrideSeconds?: number;
  /** An operator's extra factor (`ralph unblock --filter ui_heavy --timeout-multiplier 3.0`). */
  extraMultiplier?: number;
}

/** The timeout of one attempt, in whole seconds, and the formula with its numbers. */
export interface AdaptiveTimeoutResult {
  seconds: number;
  /** E.g. `ui_heavy base 600 s x3.0 x1.5^1 = 2700 s`, or `... = 4050 s, clamped to max 3600 s`. */
  why: string;
}

/** A factor as written in `why`: at least one decimal (`3.0`, `1.5`, `1.25`). */
const factor = (n: number): string => (Number.isInteger(n) ? n.toFixed(1) : String(n));

const positive = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n) && n > 0;

/**
 * The timeout of a task's next attempt:
 * `clamp(base x multiplier[complexity] x backoff^previousTimeoutFailures x extraMultiplier, minSeconds, maxSeconds)`,
 * rounded to whole seconds, where `base` is `overrideSeconds` when given, else the class's `baseSeconds`.
 *
 * Never throws (workflow code calls it): a negative or fractional failure count counts as its floor (at least 0), and
 * an override or extra multiplier that is not a positive number is ignored; the edges (CLI, config) validate them.
 */
export function adaptiveTimeout(i: AdaptiveTimeoutInput): AdaptiveTimeoutResult {
  const { cfg, complexity } = i;
  const timing = cfg.table[complexity];
  const failures = Number.isFinite(i.previousTimeoutFailures) ? Math.max(0, Math.floor(i.previousTimeoutFailures)) : 0;
  const override = positive(i.overrideSeconds) ? i.overrideSeconds : undefined;
  const extra = positive(i.extraMultiplier) ? i.extraMultiplier : 1;
  // An operator's `unblock --timeout 1800` means 1800 s: it replaces base x class multiplier, not just the base.
  const base = override ?? timing.baseSeconds;
  const multiplier = override !== undefined ? 1 : timing.multiplier;
  const raw = Math.round(base * multiplier * cfg.backoff ** failures * extra);
  // The floor protects adaptive guesses; an operator who types a shorter timeout gets it (1 s at least).
  const floor = override !== undefined ? 1 : cfg.minSeconds;
  const seconds = Math.min(Math.max(raw, floor), cfg.maxSeconds);
  const formula =
    `${complexity} ${override !== undefined ? `operator timeout ${base} s` : `base ${base} s x${factor(multiplier)}`} ` +
    `x${factor(cfg.backoff)}^${failures}${extra !== 1 ? ` x${factor(extra)} (operator)` : ''} = ${raw} s`;
  const clamp =
    raw > cfg.maxSeconds ? `, clamped to max ${cfg.maxSeconds} s` : raw < floor ? `, raised to min ${floor} s` : '';
  return { seconds, why: formula + clamp };
}

/** Why a task was blocked. */
export const BlockReason = {
  /** Its attempts ran out of time. */
  timeout: 'timeout',
  /** The agent changed no files. */
  no_files: 'no_files',
  /** Quality gates kept failing. */
  gate_failure: 'gate_failure',
  /** It used up its attempts (`maxAttemptsPerTask`) for other reasons. */
  attempt_limit: 'attempt_limit',
  /** It waits on another task or on something outside the workspace. */
  dependency: 'dependency',
  /** An operator blocked it. */
  manual: 'manual',
} as const;
/** One of {@link BlockReason}. */
export type BlockReason = (typeof BlockReason)[keyof typeof BlockReason];

/** What to do about a blocked task (`ralph blocked --suggest`). */
export const UnblockStrategy = {
  increase_timeout: 'increase_timeout',
  split_task: 'split_task',
  manual_review: 'manual_review',
  fix_dependency: 'fix_dependency',
  clarify_task: 'clarify_task',
} as const;
/** One of {@link UnblockStrategy}. */
export type UnblockStrategy = (typeof UnblockStrategy)[keyof typeof UnblockStrategy];

/** What {@link suggestStrategy} knows about a blocked task. */
export interface SuggestContext {
  complexity: Complexity;
  /** Attempts made so far. */
  attempts: number;
  /** Timeouts (seconds) of the attempts that timed out, in order. */
  timeoutsTried: number[];
  /** The ceiling of timeouts (config `maxSeconds`); default {@link TIMEOUT_DEFAULTS}.maxSeconds. */
  maxSeconds?: number;
}

/** A suggested strategy and the one-sentence reason shown to the operator. */
export interface StrategySuggestion {
  strategy: UnblockStrategy;
  why: string;
}

const isLarge = (c: Complexity): boolean => c === 'complex' || c === 'ui_heavy';
const times = (n: number): string => `${n} attempt${n === 1 ? '' : 's'}`;

/**
 * Suggests how to unblock a task:
 * - `timeout`: `increase_timeout` while the longest timeout tried is below `maxSeconds`, else `split_task` (no more
 *   time can be given, so the work must get smaller);
 * - `no_files`: `clarify_task` (the agent talked instead of editing: name the files and the expected change);
 * - `gate_failure`, `attempt_limit`: `split_task` for `complex` and `ui_heavy` tasks, `manual_review` for the others
 *   (a small task that keeps failing needs a human look, not more pieces);
 * - `dependency`: `fix_dependency`; `manual`: `manual_review`.
 */
export function suggestStrategy(reason: BlockReason, ctx: SuggestContext): StrategySuggestion {
  const max = ctx.maxSeconds ?? TIMEOUT_DEFAULTS.maxSeconds;
  switch (reason) {
    case 'timeout': {
      const longest = ctx.timeoutsTried.length ? Math.max(...ctx.timeoutsTried) : 0;
      const tried = ctx.timeoutsTried.length ? `timed out at ${ctx.timeoutsTried.join(', ')} s` : 'timed out';
      return longest >= max
        ? {
            strategy: 'split_task',
            why: `${ctx.complexity} task ${tried}, already at the ${max} s maximum: split it into smaller tasks`,
          }
        : {
            strategy: 'increase_timeout',
            why: `${ctx.complexity} task ${tried}, below the ${max} s maximum: unblock it with a longer timeout`,
          };
    }
    case 'no_files':
      return {
        strategy: 'clarify_task',
        why: `the agent changed no files in ${times(ctx.attempts)}: name the files and the expected change in the task`,
      };
    case 'gate_failure':
    case 'attempt_limit': {
      const what = reason === 'gate_failure' ? 'gates kept failing' : 'attempts ran out';
      return isLarge(ctx.complexity)
        ? {
            strategy: 'split_task',
            why: `${what} after ${times(ctx.attempts)} on a ${ctx.complexity} task: split it into smaller tasks`,
          }
        : {
            strategy: 'manual_review',
            why: `${what} after ${times(ctx.attempts)} on a ${ctx.complexity} task: a human should look at it`,
          };
    }
    case 'dependency':
      return { strategy: 'fix_dependency', why: 'it waits on something else: finish or unblock that first' };
    case 'manual':
      return { strategy: 'manual_review', why: 'an operator blocked it: only an operator should unblock it' };
  }
}
