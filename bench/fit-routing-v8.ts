/**
 * npm run fit:routing-v8 — fits the routing v8 model (src/core/routing/model-v8.ts: v6's features and fit) and writes
 * its weights to src/core/routing/model-v8-weights.ts. The fit is v6's (token dropout, light L2 on the keyword and
 * lexicon features, L2 strength, temperature and general offset chosen on the calibration split) on more text:
 * - training: v6's, plus the eight blind splits written and spent since v6 (heldout-fifteenth.json to
 *   heldout-twentysecond.json: v6's two held-out splits, and the six v7's rules were read on or judged by);
 * - calibration: calibration.json and heldout.json, as v4 to v6;
 * - held out (V8_HELD_OUT): heldout-twentyfourth.json (judged: real GitHub issues and PR-voice tasks) and
 *   heldout-twentythird.json (tasks as a new user types them), written blind and committed before any model was
 *   measured on them, are NOT read here. RALPH_ROUTING_DEV=1 leaves the spent held-out splits out of
 *   training, to compare variants on them.
 */
import { V5_KEEP } from './fit-routing-v5';
import { V6_CALIBRATION, V6_HELD_OUT, V6_LATER, V6_TRAIN } from './fit-routing-v6';
import { fitAndWrite, fitV4As, v4Inputs } from './fit-routing-v4';

export const V8_TRAIN = [
  ...V6_TRAIN,
  ...[V6_HELD_OUT.judged, V6_HELD_OUT.second, ...V6_LATER].map((name) => `heldout-${name}.json`),
].filter((f) => !(process.env.RALPH_ROUTING_DEV === '1' && f.startsWith('heldout-')));
export const V8_CALIBRATION = V6_CALIBRATION;
/** The blind splits v8 never read (heldout-<name>.json): bench:routing judges the first, and reports the second. */
export const V8_HELD_OUT = { judged: 'twentyfourth', second: 'twentythird' } as const;

/** Reads v8's training and calibration splits and the fixture profiles. */
export const v8Inputs = () => v4Inputs(V8_TRAIN, V8_CALIBRATION);

/** Fits the v8 weights: the object model-v8-weights.ts holds. */
export const fitV8 = fitV4As(8, V8_TRAIN, V8_CALIBRATION, V5_KEEP);

async function main(): Promise<void> {
  await fitAndWrite(8, v8Inputs, fitV8);
}

if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
