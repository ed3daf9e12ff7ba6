/**
 * Routing v25's splits. v25 is v24 (v8's weights, no fit of its own) with:
 * - a product element's quoted name as no evidence of a domain's world (a luthier's 'release' step is not a release),
 *   and more elements named so: a game's (a 'latency' power-up, a tower, a buff) and a product's (a panel, a tile);
 *   a name in backticks is code's (a `fail-fast` option) (`ELEMENT_NAME_V25` in src/core/routing/classifier.ts);
 * - frontend's toast and docs' docs as everyday words: a UI's toasts, not a cooper's toast level; docs named by a
 *   trade's paperwork (species permit docs) are not documentation; more of a trade's tests (germination, purity)
 *   (`TECHNICAL_WORLD_V25`, `EVERYDAY_WORDS_V25` in src/core/routing/sense.ts);
 * - `VOCABULARY_V25` (src/core/routing/vocabulary.ts): the words of v24's held-out splits.
 *
 * - read while writing the rules (V25_READ): every split before them, and v24's held-out splits
 *   (heldout-fiftyseventh.json and heldout-fiftyeighth.json), read after v24 was judged on them;
 * - held out (V25_HELD_OUT): heldout-fiftyninth.json (judged: ticket titles, second-language engineers, specs, on-call
 *   notes) and heldout-sixtieth.json (real GitHub threads, testers', users' and staff's reports), written blind and
 *   committed before any measurement (685beaa), with the v25 rules final before either was first measured.
 */
import { V24_READ } from './routing-v24';

export const V25_READ = [...V24_READ, 'fiftyseventh', 'fiftyeighth'] as const;
/** The blind splits no v25 rule was written on: bench:routing judges the first, and reports the second. */
export const V25_HELD_OUT = { judged: 'fiftyninth', second: 'sixtieth' } as const;
