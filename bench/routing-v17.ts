/**
 * Routing v17's splits. v17 is v16 (v8's weights, no fit of its own) with three rules and developers' jargon:
 * - small work that is only a constraint of docs or testing work does not make the task small (documenting a flag,
 *   testing an off-by-one, tests that keep behaviour), and "without breaking" a thing is a constraint on a change, not
 *   a refactor that keeps behaviour (`smallWorkV17` in src/core/routing/classifier.ts);
 * - an arrow between versions reads "to", so "Upgrade Django 4.2 → 5.1" is the upgrade chore (`choreLead`);
 * - a security deposit or a security guard is the business's own (`withoutEverydaySecurity`);
 * - `VOCABULARY_V17` (src/core/routing/vocabulary.ts): sqlc, a Marvin attack in cargo audit, Snowflake's resource
 *   monitors, a warm shutdown on SIGTERM, an incremental materialization, a Terraform state file's lock.
 *
 * - read while writing the rules (V17_READ): every split before them, and v16's held-out splits
 *   (heldout-fortyfirst.json and heldout-fortysecond.json), read after v16 was judged on them;
 * - held out (V17_HELD_OUT): heldout-fortythird.json (judged: task texts developers hand a coding agent, with
 *   constraints stated next to specialist work and chores naming a specialist's tool) and heldout-fortyfourth.json
 *   (real GitHub issues and staff's helpdesk tickets), written blind and committed before any measurement (ac9e97d),
 *   with the v17 rules final before either was first measured.
 */
import { V16_READ } from './routing-v16';

export const V17_READ = [...V16_READ, 'fortyfirst', 'fortysecond'] as const;
/** The blind splits no v17 rule was written on: bench:routing judges the first, and reports the second. */
export const V17_HELD_OUT = { judged: 'fortythird', second: 'fortyfourth' } as const;
