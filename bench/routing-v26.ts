/**
 * Routing v26's splits. v26 is v25 (v8's weights, no fit of its own) with:
 * - a command or subcommand named in backticks as a product element (the `changelog` subcommand of an internal CLI)
 *   (`ELEMENT_NAME_V26` in src/core/routing/classifier.ts);
 * - security's vault and DevOps's build as everyday words: a vault is a secrets manager's, not a bank's vault door; a
 *   renewal a certificate's or a key's, not a service contract's; a build software's, not "build the deploy checklist";
 *   a toast a UI's only when it names one (`TECHNICAL_WORLD_V26`, `EVERYDAY_WORDS_V26` in src/core/routing/sense.ts);
 * - `VOCABULARY_V26` (src/core/routing/vocabulary.ts): the words of v25's held-out splits and of the two blind splits
 *   written after them.
 *
 * - read while writing the rules (V26_READ): every split before them, v25's held-out splits (heldout-fiftyninth.json
 *   and heldout-sixtieth.json) and the two blind splits written after them (heldout-sixtyfirst.json and
 *   heldout-sixtysecond.json), read after v25 was measured on them;
 * - held out (V26_HELD_OUT): heldout-sixtythird.json (judged: ticket titles, second-language engineers, specs, on-call
 *   notes, TODO and commit-style lines) and heldout-sixtyfourth.json (real GitHub threads of less common ecosystems,
 *   review comments, owners' requests, support escalations), written blind and committed before any measurement, with
 *   the v26 rules final before either was first measured.
 */
import { V25_READ } from './routing-v25';

export const V26_READ = [...V25_READ, 'fiftyninth', 'sixtieth', 'sixtyfirst', 'sixtysecond'] as const;
/** The blind splits no v26 rule was written on: bench:routing judges the first, and reports the second. */
export const V26_HELD_OUT = { judged: 'sixtythird', second: 'sixtyfourth' } as const;
