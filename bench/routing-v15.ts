/**
 * Routing v15's splits. v15 is v14 (v8's weights, no fit of its own) with more keywords: what users and staff say of a
 * trade's work when they describe a symptom or ask for a change in their own words (src/core/routing/vocabulary.ts,
 * `VOCABULARY_V15`: a site that goes down, a page that hits the database hundreds of times, a script in a review that
 * pops up for every visitor, tests run on every pull request, what we pay for hosts we no longer use). Its sense
 * rules and worlds are v14's.
 *
 * - read while writing the rules (V15_READ): every split before them, and v14's held-out splits
 *   (heldout-thirtyseventh.json and heldout-thirtyeighth.json), read after v14 was judged on them;
 * - held out (V15_HELD_OUT): heldout-thirtyninth.json (judged: testers' and users' bug reports, requests from outside
 *   engineering, community-forum and app-store posts) and heldout-fortieth.json (real GitHub issues by users, and
 *   staff's internal helpdesk tickets), written blind and committed before any measurement (183fb35), with the v15
 *   rules final before either was first measured.
 */
import { V14_READ } from './routing-v14';

export const V15_READ = [...V14_READ, 'thirtyseventh', 'thirtyeighth'] as const;
/** The blind splits no v15 rule was written on: bench:routing judges the first, and reports the second. */
export const V15_HELD_OUT = { judged: 'thirtyninth', second: 'fortieth' } as const;
