/**
 * Routing v20's splits. v20 is v19 (v8's weights, no fit of its own, v19's worlds and everyday words) with
 * `VOCABULARY_V20` (src/core/routing/vocabulary.ts): the words of v19's held-out splits (raw SQL an f-string puts user
 * input into, XXE's external entities, an OpenSSH advisory, a shared password on a sticky note, Vector's sampled logs,
 * histogram quantile labels, an Absinthe resolver, a StreamingResponse, a scoped session, a 413, Drone pushing to ECR,
 * Haddock, SimpleCov, bytes billed, credit burn).
 *
 * - read while writing the rules (V20_READ): every split before them, and v19's held-out splits
 *   (heldout-fortyseventh.json and heldout-fortyeighth.json), read after v19 was judged on them;
 * - held out (V20_HELD_OUT): heldout-fortyninth.json (judged: task texts developers hand a coding agent, some naming
 *   code identifiers whose parts look like a domain's words) and heldout-fiftieth.json (maintainers' issues, staff's
 *   helpdesk tickets, engineers' quick asks), written blind and committed before any measurement (f0f30d2), with the
 *   v20 rules final before either was first measured.
 */
import { V19_READ } from './routing-v19';

export const V20_READ = [...V19_READ, 'fortyseventh', 'fortyeighth'] as const;
/** The blind splits no v20 rule was written on: bench:routing judges the first, and reports the second. */
export const V20_HELD_OUT = { judged: 'fortyninth', second: 'fiftieth' } as const;
