/**
 * Routing v14's splits. v14 is v8's weights (no fit of its own: bench/fit-routing-v8.ts; a refit on every spent split,
 * with v13's vocabulary as its features, moved the spent plain-language splits by between 2 fewer and 5 more tasks
 * and routed one general task more, so it was left out) with v13's rules and:
 * - a person logging an incident of the trade records it ("the harbour office logs an incident like a fog delay"):
 *   src/core/routing/classifier.ts, `withoutLoggedIncident`;
 * - the tools that price a cluster's workloads (Kubecost, VPA...) are cloud words for FinOps (`CLUSTER_COST_V14`);
 * - more of security's, SRE's, docs' and testing's worlds in the sense rule (src/core/routing/sense.ts,
 *   `TECHNICAL_WORLD_V14`: a security researcher, localhost, a reset link, the engineers on call, "Getting Started");
 * - more plain words of the trades (src/core/routing/vocabulary.ts, `VOCABULARY_V14`: a JS bundle's size, a dbt
 *   model's lookback, "still logged in", "passes locally").
 *
 * - read while writing the rules (V14_READ): every split before them, and v13's held-out splits
 *   (heldout-thirtyfifth.json and heldout-thirtysixth.json), read after v13 was judged on them;
 * - held out (V14_HELD_OUT): heldout-thirtyseventh.json (judged: chat and email asks, change-list lines, hand-off
 *   notes and end users' bug reports) and heldout-thirtyeighth.json (real GitHub issues and discussions by users, and
 *   small-business clients' emails), written blind and committed before any measurement (eedcead), with the v14 rules
 *   final before either was first measured.
 */
export const V14_READ = [
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
  'thirtyfifth',
  'thirtysixth',
] as const;
/** The blind splits no v14 rule was written on: bench:routing judges the first, and reports the second. */
export const V14_HELD_OUT = { judged: 'thirtyseventh', second: 'thirtyeighth' } as const;
