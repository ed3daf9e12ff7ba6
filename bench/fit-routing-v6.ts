/**
 * npm run fit:routing-v6 — fits the routing v6 model (src/core/routing/model-v6.ts: v5's features and fit) and writes
 * its weights to src/core/routing/model-v6-weights.ts. The fit is v5's (bench/fit-routing-v5.ts: token dropout keeping
 * 50 % of a text's words, light L2 on the keyword and lexicon features, L2 strength, temperature and general offset
 * chosen on the calibration split) on more text:
 * - training: v5's, plus
 *   - eight blind splits (heldout-seventh.json to heldout-fourteenth.json: real GitHub issues with a sentence of their
 *     body, and task descriptions written blind), each spent by its one measurement on the v6 of that moment (the
 *     figures and what each measurement changed: docs/benchmarks.md, "Routing v6");
 *   - four sets written for training by engineers who saw no model: labelled-business.json and
 *     labelled-business2.json (general tasks that use a specialist's word in its business sense, and specialist tasks
 *     using the same words technically), labelled-plain.json (specialist tasks without jargon) and
 *     labelled-general2.json (general tasks a naive router would route: upgrades, business logic, refactors);
 * - calibration: calibration.json and heldout.json, as v4 and v5;
 * - held out (V6_HELD_OUT): heldout-fifteenth.json and heldout-sixteenth.json, committed before the final v6 was
 *   measured on them, are NOT read here; nor are V6_LATER (heldout-seventeenth.json to heldout-twentysecond.json),
 *   written after the final v6. RALPH_ROUTING_DEV=1 leaves the spent held-out splits out of training, to
 *   compare variants on them.
 */
import { V5_KEEP, V5_TRAIN } from './fit-routing-v5';
import { V4_CALIBRATION, fitAndWrite, fitV4As, v4Inputs } from './fit-routing-v4';

export const V6_TRAIN = [
  ...V5_TRAIN,
  'heldout-seventh.json',
  'heldout-eighth.json',
  'heldout-ninth.json',
  'heldout-tenth.json',
  'heldout-eleventh.json',
  'heldout-twelfth.json',
  'heldout-thirteenth.json',
  'heldout-fourteenth.json',
  'labelled-business.json',
  'labelled-plain.json',
  'labelled-general2.json',
  'labelled-business2.json',
].filter((f) => !(process.env.RALPH_ROUTING_DEV === '1' && f.startsWith('heldout-')));
export const V6_CALIBRATION = V4_CALIBRATION;
/** The blind splits v6 never read (heldout-<name>.json): bench:routing judges the first, and reports the second. */
export const V6_HELD_OUT = { judged: 'fifteenth', second: 'sixteenth' } as const;
/**
 * Blind splits written after the final v6 (session 33), never read by a fit: bench:routing reports v6 on them
 * (`accuracy.v6`); v7's rules were read on the first four (bench/routing-v7.ts).
 */
export const V6_LATER = [
  'seventeenth',
  'eighteenth',
  'nineteenth',
  'twentieth',
  'twentyfirst',
  'twentysecond',
] as const;

/** Reads v6's training and calibration splits and the fixture profiles. */
export const v6Inputs = () => v4Inputs(V6_TRAIN, V6_CALIBRATION);

/** Fits the v6 weights: the object model-v6-weights.ts holds. */
export const fitV6 = fitV4As(6, V6_TRAIN, V6_CALIBRATION, V5_KEEP);

async function main(): Promise<void> {
  await fitAndWrite(6, v6Inputs, fitV6);
}

if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
