/**
 * Routing v11's splits. v11 is v8's weights (no fit of its own: bench/fit-routing-v8.ts) with v10's sense rules and
 * more (src/core/routing/sense.ts, `EVERYDAY_WORDS_V11`: data's "report" beside a product's own export; security's
 * world where what expires is a credential and a scan looks for weaknesses; FinOps's "project" no cloud word), and
 * the trades' names v10's vocabulary missed (src/core/routing/vocabulary.ts, `VOCABULARY_V11`).
 * - read while writing the rules (V11_READ): every split before them, and v10's held-out splits
 *   (heldout-twentyninth.json and heldout-thirtieth.json), read after v10 was judged on them;
 * - held out (V11_HELD_OUT): heldout-thirtyfirst.json (judged: tracker tickets, support escalations and sprint notes)
 *   and heldout-thirtysecond.json (real GitHub issues and pull requests plus founders' emails), written blind and
 *   committed before any measurement, with the v11 rules final before either was first measured.
 */
export const V11_READ = [
  'twentythird',
  'twentyfourth',
  'twentyfifth',
  'twentysixth',
  'twentyseventh',
  'twentyeighth',
  'twentyninth',
  'thirtieth',
] as const;
/** The blind splits no v11 rule was written on: bench:routing judges the first, and reports the second. */
export const V11_HELD_OUT = { judged: 'thirtyfirst', second: 'thirtysecond' } as const;
