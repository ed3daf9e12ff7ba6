/**
 * Routing v21's splits. v21 is v20 (v8's weights, no fit of its own) with:
 * - a command quoted alone is a command's name, not a payload: "add a `whoami` subcommand" is no remote code execution
 *   (`PAYLOADS_V21` in src/core/routing/classifier.ts; `; whoami` and `$(whoami)` still are);
 * - a threshold alone is not SRE's world (a thermostat app's `AlertThreshold` setting), and a trade's retention,
 *   migration, lineage, backfill or dedupe is its own record, not data's (`TECHNICAL_WORLD_V21`, `EVERYDAY_WORDS_V21`
 *   in src/core/routing/sense.ts);
 * - `VOCABULARY_V21` (src/core/routing/vocabulary.ts): the words of v20's held-out splits.
 *
 * - read while writing the rules (V21_READ): every split before them, and v20's held-out splits
 *   (heldout-fortyninth.json and heldout-fiftieth.json), read after v20 was judged on them;
 * - held out (V21_HELD_OUT): heldout-fiftyfirst.json (judged: task texts developers hand a coding agent, TODO comments
 *   and commit-style lines, product features of software tools named with a domain's words) and
 *   heldout-fiftysecond.json (real GitHub issues and pull requests, and testers', users' and staff's reports), written
 *   blind and committed before any measurement, with the v21 rules final before either was first measured.
 */
import { V20_READ } from './routing-v20';

export const V21_READ = [...V20_READ, 'fortyninth', 'fiftieth'] as const;
/** The blind splits no v21 rule was written on: bench:routing judges the first, and reports the second. */
export const V21_HELD_OUT = { judged: 'fiftyfirst', second: 'fiftysecond' } as const;
