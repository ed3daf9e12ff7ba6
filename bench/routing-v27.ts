/**
 * Routing v27's splits. v27 is v26 (v8's weights, no fit of its own) with:
 * - a word joined in camel case read as written too ("QuickCheck", "OpenTelemetry", "WebAuthn"), so the vocabulary's
 *   joined words match it, and a count like "400 lines" read as no status code (`readNormV27` in
 *   src/core/routing/classifier.ts);
 * - FinOps's own trade words and the machines it prices as cloud words (RI utilization, convertible RIs, Graviton, p4d,
 *   an instance size), a zone only a cloud's, idle only a machine's, a quarter a calendar's (`CLOUD_CONTEXT_V27`,
 *   `FINOPS_EVERYDAY_V27`);
 * - backend's handler and client, docs' changelog, wording and translate, and SRE's slow as everyday words; a break-in
 *   and how it happens as security's world (`TECHNICAL_WORLD_V27`, `EVERYDAY_WORDS_V27` in src/core/routing/sense.ts);
 * - `VOCABULARY_V27` (src/core/routing/vocabulary.ts): the words of v26's held-out splits.
 *
 * - read while writing the rules (V27_READ): every split before them and v26's held-out splits (heldout-sixtythird.json
 *   and heldout-sixtyfourth.json), read after v26 was measured on them;
 * - held out (V27_HELD_OUT): heldout-sixtyfifth.json (judged: real GitHub threads, hobbyists' questions, tech leads'
 *   backlog items, a startup founder's Slack asks, trades' freelance posts) and heldout-sixtysixth.json (real GitHub
 *   threads, PR-title lines, end users' bug reports, public bodies' requests to IT, a mentor's next steps), written
 *   blind and committed before any measurement, with the v27 rules final before either was first measured.
 */
import { V26_READ } from './routing-v26';

export const V27_READ = [...V26_READ, 'sixtythird', 'sixtyfourth'] as const;
/** The blind splits no v27 rule was written on: bench:routing judges the first, and reports the second. */
export const V27_HELD_OUT = { judged: 'sixtyfifth', second: 'sixtysixth' } as const;
