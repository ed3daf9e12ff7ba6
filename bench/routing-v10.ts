/**
 * Routing v10's splits. v10 is v8's weights (no fit of its own: bench/fit-routing-v8.ts) with v9's sense rules and more
 * (src/core/routing/sense.ts, `EVERYDAY_WORDS_V10`): SRE's "monitor", docs' "page" and "link", backend's "get" and
 * data's calendar words beside goods, each outside its technical world; and security's names for weakness classes,
 * advisories and unsafe comparison or loading (src/core/routing/vocabulary.ts, `VOCABULARY_V10`).
 * - read while writing the rules (V10_READ): every split before them, and v9's held-out splits
 *   (heldout-twentyseventh.json and heldout-twentyeighth.json), now read;
 * - held out (V10_HELD_OUT): heldout-twentyninth.json (judged: backlog stories, commit-style requests and retro items)
 *   and heldout-thirtieth.json (real GitHub issues plus TODO and review comments), written blind and committed before
 *   any measurement, with the v10 rules final before either was first measured.
 */
export const V10_READ = [
  'twentythird',
  'twentyfourth',
  'twentyfifth',
  'twentysixth',
  'twentyseventh',
  'twentyeighth',
] as const;
/** The blind splits no v10 rule was written on: bench:routing judges the first, and reports the second. */
export const V10_HELD_OUT = { judged: 'twentyninth', second: 'thirtieth' } as const;
