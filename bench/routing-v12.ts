/**
 * Routing v12's splits. v12 is v8's weights (no fit of its own: bench/fit-routing-v8.ts) with v11's rules and more
 * (src/core/routing/sense.ts, `EVERYDAY_WORDS_V12`: SRE's "capacity", security's "session" and "signature", each
 * outside its technical world; src/core/routing/classifier.ts, `withoutEscalationLead`: a ticket's "Support
 * escalation:" lead is not SRE's escalation) and more of the trades' names (src/core/routing/vocabulary.ts,
 * `VOCABULARY_V12`).
 * - read while writing the rules (V12_READ): every split before them, and v11's held-out splits
 *   (heldout-thirtyfirst.json and heldout-thirtysecond.json), read after v11 was judged on them;
 * - held out (V12_HELD_OUT): heldout-thirtythird.json (judged: QA bug reports and non-engineers' requests) and
 *   heldout-thirtyfourth.json (real GitHub issues and pull requests plus TODO.md lines), written blind and committed
 *   before any measurement, with the v12 rules final before either was first measured.
 */
export const V12_READ = [
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
] as const;
/** The blind splits no v12 rule was written on: bench:routing judges the first, and reports the second. */
export const V12_HELD_OUT = { judged: 'thirtythird', second: 'thirtyfourth' } as const;
