/**
 * Routing v28's splits. v28 is v27 (v8's weights, no fit of its own) with:
 * - an identifier in camel case whose joined form and parts name nothing of the vocabulary read as a name
 *   ("LoadProfile" is no load), a conventional commit's type as its domain's world (`test(...)`, `docs:`, `ci:`), and a
 *   quoted name before a figure (a 'latency' number) as a product element (`identifiersV28`, `conventionalDomainV28`,
 *   `ELEMENT_NAME_V28` in src/core/routing/classifier.ts);
 * - SRE's load, peak and hours, testing's harness and docs' "changelog for" as everyday words; an app that logs each
 *   batch as no app's logs, a safety test a trade's, a secret pushed to a public repo, a password in clear text, a key
 *   vault and leavers who keep access as security's world (`TECHNICAL_WORLD_V28`, `EVERYDAY_WORDS_V28` in
 *   src/core/routing/sense.ts);
 * - `VOCABULARY_V28` (src/core/routing/vocabulary.ts): the words of v27's held-out splits.
 *
 * - read while writing the rules (V28_READ): every split before them and v27's held-out splits (heldout-sixtyfifth.json
 *   and heldout-sixtysixth.json), read after v27 was measured on them;
 * - held out (V28_HELD_OUT): heldout-sixtyseventh.json (judged: real GitHub threads, Stack Overflow-style questions,
 *   a consultancy's statement of work, planning and retro bullets, small organisations' messages to a contractor) and
 *   heldout-sixtyeighth.json (real GitHub threads, one-liners to a coding assistant, maintainers' triage notes,
 *   requests from a company's analysts and staff, incident and support tickets), written blind and committed before any
 *   measurement, with the v28 rules final before either was first measured.
 */
import { V27_READ } from './routing-v27';

export const V28_READ = [...V27_READ, 'sixtyfifth', 'sixtysixth'] as const;
/** The blind splits no v28 rule was written on: bench:routing judges the first, and reports the second. */
export const V28_HELD_OUT = { judged: 'sixtyseventh', second: 'sixtyeighth' } as const;
