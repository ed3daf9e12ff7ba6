/**
 * Routing v23's splits. v23 is v22 (v8's weights, no fit of its own) with:
 * - data's world where a migration is data's or a schema's (a data migration, an Alembic migration), not a trade's (a
 *   winery's barrel migration), and Hive is Apache's, not a beekeeper's; a trade's records are everyday beside its
 *   lineage or migration (`DATA_WORLD_V23`, `EVERYDAY_WORDS_V23` in src/core/routing/sense.ts);
 * - `VOCABULARY_V23` (src/core/routing/vocabulary.ts): the words of v22's held-out splits.
 *
 * - read while writing the rules (V23_READ): every split before them, and v22's held-out splits
 *   (heldout-fiftythird.json and heldout-fiftyfourth.json), read after v22 was judged on them;
 * - held out (V23_HELD_OUT): heldout-fiftyfifth.json (judged: ticket titles, second-language engineers, product specs,
 *   on-call notes) and heldout-fiftysixth.json (review comments, planning lines, small-business owners, support
 *   escalations), written blind and committed before any measurement, with the v23 rules final before either was first
 *   measured.
 */
import { V22_READ } from './routing-v22';

export const V23_READ = [...V22_READ, 'fiftythird', 'fiftyfourth'] as const;
/** The blind splits no v23 rule was written on: bench:routing judges the first, and reports the second. */
export const V23_HELD_OUT = { judged: 'fiftyfifth', second: 'fiftysixth' } as const;
