/**
 * Routing v19's splits. v19 is v18 (v8's weights, no fit of its own) with narrower technical worlds and more everyday
 * words (src/core/routing/sense.ts, `TECHNICAL_WORLD_V19` and `EVERYDAY_WORDS_V19`):
 * - SRE: a severity or a dashboard alone is not SRE's; logs, a service and a freeze are a system's, not a vessel that
 *   logs a catch, a transit service alert or a gym membership freeze;
 * - DevOps: a job or a deploy is software's, not portable toilets deployed to a festival or a restorer's jobs;
 * - docs: a guide or a how-to is documentation's, not a glacier guide;
 * - frontend's first everyday words: fruit pickers, a horse's feed, a safari lodge;
 * - security: a key is a credential (an SSH key, a key for the payment account), not a locksmith's restricted key;
 * - `VOCABULARY_V19` (src/core/routing/vocabulary.ts): Alertmanager, the OOM killer, an SVG's onload attribute, DNS
 *   rebinding, unknown JSON properties, Retry-After, paid seats, reservation coverage, a DAG's logical date,
 *   CrashLoopBackOff, Homebrew.
 *
 * - read while writing the rules (V19_READ): every split before them, and v18's held-out splits
 *   (heldout-fortyfifth.json and heldout-fortysixth.json), read after v18 was judged on them;
 * - held out (V19_HELD_OUT): heldout-fortyseventh.json (judged: task texts developers hand a coding agent) and
 *   heldout-fortyeighth.json (real GitHub issues and pull requests, and written reports), written blind and committed before any
 *   measurement (bc534f8), with the v19 rules final before either was first measured.
 */
import { V18_READ } from './routing-v18';

export const V19_READ = [...V18_READ, 'fortyfifth', 'fortysixth'] as const;
/** The blind splits no v19 rule was written on: bench:routing judges the first, and reports the second. */
export const V19_HELD_OUT = { judged: 'fortyseventh', second: 'fortyeighth' } as const;
