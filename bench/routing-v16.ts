/**
 * Routing v16's splits. v16 is v15 (v8's weights, no fit of its own) with more keywords: what testers, users and staff
 * say of a trade's work in their own words (src/core/routing/vocabulary.ts, `VOCABULARY_V16`: a PIN hashed with MD5, a
 * page that jumps back to the top, a job that stops without telling anyone, numbers re-pulled for the affected days,
 * prebuilt binaries on the releases page, automatic checks so old features don't quietly break, a cost billed back).
 * Its sense rules and worlds are v15's.
 *
 * - read while writing the rules (V16_READ): every split before them, and v15's held-out splits
 *   (heldout-thirtyninth.json and heldout-fortieth.json), read after v15 was judged on them;
 * - held out (V16_HELD_OUT): heldout-fortyfirst.json (judged: task texts developers hand a coding agent: one-line
 *   imperatives, tasks with a done-check, PRD entries, mixed-domain tasks) and heldout-fortysecond.json (real GitHub
 *   pull requests and maintainers' issues, and written PR descriptions), written blind and committed before any
 *   measurement (426598e), with the v16 rules final before either was first measured.
 */
import { V15_READ } from './routing-v15';

export const V16_READ = [...V15_READ, 'thirtyninth', 'fortieth'] as const;
/** The blind splits no v16 rule was written on: bench:routing judges the first, and reports the second. */
export const V16_HELD_OUT = { judged: 'fortyfirst', second: 'fortysecond' } as const;
