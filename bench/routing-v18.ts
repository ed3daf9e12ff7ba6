/**
 * Routing v18's splits. v18 is v17 (v8's weights, no fit of its own) with:
 * - SRE's world (src/core/routing/sense.ts, `TECHNICAL_WORLD_V18`): a zone is a cloud's or a cluster's (an
 *   availability zone, a zonal disk), not any zone (an exclusion zone, a delivery zone, a time zone);
 * - a lockout as one of security's everyday words (`EVERYDAY_WORDS_V18`: a locksmith's emergency lockout, a
 *   machine's lockout/tagout), outside security's world;
 * - `VOCABULARY_V18` (src/core/routing/vocabulary.ts): a loader that refetches on window focus, a logo that looks
 *   blurry, leavers who can still log in, two-factor, asynq's delayed tasks, a W3C traceparent, a bulkhead, a
 *   CONTRIBUTING.md, salting a skewed key, cibuildwheel, RI coverage.
 *
 * - read while writing the rules (V18_READ): every split before them, and v17's held-out splits
 *   (heldout-fortythird.json and heldout-fortyfourth.json), read after v17 was judged on them;
 * - held out (V18_HELD_OUT): heldout-fortyfifth.json (judged: task texts developers hand a coding agent: one-line
 *   imperatives, tasks with a done-check, PRD entries, mixed-domain tasks) and heldout-fortysixth.json (testers' and
 *   users' bug reports, requests from outside engineering, forum and app-store posts), written blind and committed
 *   before any measurement (2da474a), with the v18 rules final before either was first measured.
 */
import { V17_READ } from './routing-v17';

export const V18_READ = [...V17_READ, 'fortythird', 'fortyfourth'] as const;
/** The blind splits no v18 rule was written on: bench:routing judges the first, and reports the second. */
export const V18_HELD_OUT = { judged: 'fortyfifth', second: 'fortysixth' } as const;
