/**
 * Routing v24's splits. v24 is v23 (v8's weights, no fit of its own) with:
 * - SRE's world where an escalation is an incident's or a pager's (an escalation policy, escalated to the on-call
 *   engineer), not a ticket's way in ("Escalation from the front desk") or a trade's ("escalation to the foreman");
 * - backend's rest, email and message as everyday words: REST is an API's, not ten hours' rest between shifts, and a
 *   server's mail and messages are backend's beside what goes wrong with them (sent twice, out of order, retried);
 * - testing's world where tests and test results are software's, not a trade's (a rind swab test, a smoke-draw test),
 *   and a contract is a contract test's (`SRE_WORLD_V24`, `BACKEND_WORLD_V24`, `TESTING_WORLD_V24`,
 *   `EVERYDAY_WORDS_V24` in src/core/routing/sense.ts);
 * - `VOCABULARY_V24` (src/core/routing/vocabulary.ts): the words of v23's held-out splits.
 *
 * - read while writing the rules (V24_READ): every split before them, and v23's held-out splits
 *   (heldout-fiftyfifth.json and heldout-fiftysixth.json), read after v23 was judged on them;
 * - held out (V24_HELD_OUT): heldout-fiftyseventh.json (judged: developers' task texts, TODO and commit-style lines)
 *   and heldout-fiftyeighth.json (review comments, planning lines, small-business owners, support escalations),
 *   written blind and committed before any measurement (38b930b), with the v24 rules final before either was first
 *   measured.
 */
import { V23_READ } from './routing-v23';

export const V24_READ = [...V23_READ, 'fiftyfifth', 'fiftysixth'] as const;
/** The blind splits no v24 rule was written on: bench:routing judges the first, and reports the second. */
export const V24_HELD_OUT = { judged: 'fiftyseventh', second: 'fiftyeighth' } as const;
