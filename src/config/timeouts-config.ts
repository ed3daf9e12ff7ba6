/**
 * Configuration of adaptive timeouts and unblocking: base seconds and multiplier per complexity class, the backoff per
 * timed-out attempt, the clamp, the classifier's keywords and criteria threshold, and the attempt limits. Every field
 * has the default of design doc 003 (the numbers live in core/complexity), so `{}` gives the standard behaviour; a
 * class's keyword list, when given, replaces that class's defaults.
 */
import { z } from 'zod';
import {
  COMPLEXITIES,
  COMPLEXITY_KEYWORDS,
  COMPLEXITY_TIMING,
  TIMEOUT_DEFAULTS,
  type Complexity,
  type TimeoutSettings,
} from '../core/complexity';

/** Base seconds and multiplier of one class; each field defaults to that class's default. */
const timing = (c: Complexity) => {
  const d = COMPLEXITY_TIMING[c];
  return z
    .object({
      /** The class's base timeout. */
      baseSeconds: z.number().int().positive().default(d.baseSeconds),
      /** The class's multiplier. */
      multiplier: z.number().positive().default(d.multiplier),
    })
    .strict()
    .default(() => ({ ...d }));
};

/** Keywords of one class: non-empty words or phrases; an empty list disables the class's keywords. */
const keywords = (c: Complexity) =>
  z.array(z.string().trim().min(1, 'a keyword must not be empty')).default(() => [...COMPLEXITY_KEYWORDS[c]]);

const TimingTable = z
  .object({
    simple: timing('simple'),
    medium: timing('medium'),
    complex: timing('complex'),
    ui_heavy: timing('ui_heavy'),
  })
  .strict();

const KeywordLists = z
  .object({
    /** Words and phrases that make a task `simple`. */
    simple: keywords('simple'),
    /** Words and phrases that make a task `medium`. */
    medium: keywords('medium'),
    /** Words and phrases that make a task `complex`. */
    complex: keywords('complex'),
    /** Words and phrases that make a task `ui_heavy`. */
    ui_heavy: keywords('ui_heavy'),
  })
  .strict();

/** Adaptive timeouts, the complexity classifier and unblock limits. */
export const TimeoutsConfig = z
  .object({
    /** Base seconds and multiplier per complexity class. */
    table: TimingTable.default(() => TimingTable.parse({})),
    /** Factor per previous timed-out attempt (1 turns backoff off). */
    backoff: z.number().min(1).default(TIMEOUT_DEFAULTS.backoff),
    /** No attempt gets less than this. */
    minSeconds: z.number().int().positive().default(TIMEOUT_DEFAULTS.minSeconds),
    /** No attempt gets more than this. */
    maxSeconds: z.number().int().positive().default(TIMEOUT_DEFAULTS.maxSeconds),
    /** Keywords per complexity class; a list given here replaces the class's defaults. */
    keywords: KeywordLists.default(() => KeywordLists.parse({})),
    /** More acceptance criteria than this raise the class one level. */
    criteriaRaiseThreshold: z.number().int().min(0).default(TIMEOUT_DEFAULTS.criteriaRaiseThreshold),
    /** The class of a task no keyword matches. */
    defaultComplexity: z
      .enum(COMPLEXITIES, { error: `must be one of ${COMPLEXITIES.join(', ')}` })
      .default(TIMEOUT_DEFAULTS.defaultComplexity),
    /** Attempts of one task before it is blocked. */
    maxAttemptsPerTask: z.number().int().positive().default(TIMEOUT_DEFAULTS.maxAttemptsPerTask),
    /** Unblocks the loop may do on its own per task; 0 leaves every unblock to an operator. */
    maxAutoUnblockAttempts: z.number().int().min(0).default(TIMEOUT_DEFAULTS.maxAutoUnblockAttempts),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.maxSeconds < c.minSeconds)
      ctx.addIssue({
        code: 'custom',
        path: ['maxSeconds'],
        message: `must be at least minSeconds (${c.minSeconds})`,
      });
  });
/** An adaptive-timeouts configuration, after defaults: core's {@link TimeoutSettings}. */
export type TimeoutsConfig = z.infer<typeof TimeoutsConfig>;
// The schema's output must be exactly core's settings type (checked by the compiler, both ways).
({}) as TimeoutsConfig satisfies TimeoutSettings;
({}) as TimeoutSettings satisfies TimeoutsConfig;
/** An adaptive-timeouts configuration as written. */
export type TimeoutsConfigRaw = z.input<typeof TimeoutsConfig>;

/** The defaults, as a fresh value (safe to mutate). */
export const defaultTimeoutsConfig = (): TimeoutsConfig => TimeoutsConfig.parse({});
