/**
 * Routing v22's splits. v22 is v21 (v8's weights, no fit of its own) with:
 * - a product element's quoted name is a name: a domain whose every keyword is inside one ("the 'Security Breach'
 *   card" of a card game, a chat bot's `!budget` command) counts as general (`elementNames` in
 *   src/core/routing/classifier.ts);
 * - FinOps's cloud words where logs are a system's (log ingestion, log groups), not a verb ("flatmates can log shared
 *   grocery costs") (`CLOUD_CONTEXT_V22`);
 * - `VOCABULARY_V22` (src/core/routing/vocabulary.ts): the words of v21's held-out splits.
 *
 * - read while writing the rules (V22_READ): every split before them, and v21's held-out splits
 *   (heldout-fiftyfirst.json and heldout-fiftysecond.json), read after v21 was judged on them;
 * - held out (V22_HELD_OUT): heldout-fiftythird.json (judged: task texts developers hand a coding agent, TODO and
 *   commit-style lines, product features of software tools named with a domain's words) and heldout-fiftyfourth.json
 *   (real GitHub issues and pull requests, testers', users' and staff's reports), written blind and committed before
 *   any measurement, with the v22 rules final before either was first measured.
 */
import { V21_READ } from './routing-v21';

export const V22_READ = [...V21_READ, 'fiftyfirst', 'fiftysecond'] as const;
/** The blind splits no v22 rule was written on: bench:routing judges the first, and reports the second. */
export const V22_HELD_OUT = { judged: 'fiftythird', second: 'fiftyfourth' } as const;
