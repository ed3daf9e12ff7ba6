/**
 * Routing v13's splits. v13 is v8's weights (no fit of its own: bench/fit-routing-v8.ts) with v12's rules, the attack
 * payloads a task quotes as evidence of their weakness (src/core/routing/classifier.ts, `payloadWeaknesses`: `' OR
 * 1=1`, `onerror=alert(1)`, `../../etc`, 169.254.169.254...), docs' "section" as an everyday word
 * (src/core/routing/sense.ts, `EVERYDAY_WORDS_V13`), and the plain words people outside a trade use for its work
 * (src/core/routing/vocabulary.ts, `VOCABULARY_V13`).
 * - read while writing the rules (V13_READ): every split before them, and v12's held-out splits
 *   (heldout-thirtythird.json and heldout-thirtyfourth.json), read after v12 was judged on them;
 * - held out (V13_HELD_OUT): heldout-thirtyfifth.json (judged: bug reports, requests from outside engineering and
 *   engineers' asks) and heldout-thirtysixth.json (real GitHub issues by an application's users plus forwarded
 *   support tickets), written blind and committed before any measurement, with the v13 rules final before either was
 *   first measured.
 */
export const V13_READ = [
  'twentythird',
  'twentyfourth',
  'twentyfifth',
  'twentysixth',
  'twentyseventh',
  'twentyeighth',
  'twentyninth',
  'thirtieth',
  'thirtyfirst',
  'thirtysecond',
  'thirtythird',
  'thirtyfourth',
] as const;
/** The blind splits no v13 rule was written on: bench:routing judges the first, and reports the second. */
export const V13_HELD_OUT = { judged: 'thirtyfifth', second: 'thirtysixth' } as const;
