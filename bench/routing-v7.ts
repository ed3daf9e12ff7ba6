/**
 * Routing v7's splits. v7 is v6's weights (no fit: bench/fit-routing-v6.ts) with rules on the sense of a specialist's
 * everyday words (src/core/routing/sense.ts, `finopsEverydayOnly` and the move chore in src/core/routing/classifier.ts).
 * - read while writing the rules (V7_READ): v6's training and calibration splits, and the blind splits written after
 *   v6's fit, each first measured once on v6: heldout-fifteenth.json to heldout-eighteenth.json, then
 *   heldout-nineteenth.json and heldout-twentieth.json, each measured once on the v7 of that moment before its misses
 *   were read (the figures: docs/benchmarks.md, "Routing v7");
 * - held out (V7_HELD_OUT): heldout-twentysecond.json (judged: real GitHub issues and tech-lead tasks) and
 *   heldout-twentyfirst.json (tasks as a new user types them), written blind and committed after the final v7 rules.
 */
export const V7_READ = ['fifteenth', 'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth', 'twentieth'] as const;
/** The blind splits no v7 rule was written on (judged and second while v7 was the default; v8 trains on them). */
export const V7_HELD_OUT = { judged: 'twentysecond', second: 'twentyfirst' } as const;
