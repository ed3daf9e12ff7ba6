/**
 * npm run fit:routing-v9 — fits the routing v9 model (src/core/routing/model-v9.ts: v8's features and fit) and writes
 * its weights to src/core/routing/model-v9-weights.ts. The fit is v6's (token dropout, light L2 on the keyword and
 * lexicon features, L2 strength, temperature and general offset chosen on the calibration split) on more text:
 * - training: v8's, plus the four blind splits written since v8 was fitted and not held out from v9
 *   (heldout-twentythird.json and heldout-twentyfourth.json, v8's held-out splits; heldout-twentyfifth.json and
 *   heldout-twentysixth.json, written after v8 and read to shape v9's rules);
 * - calibration: calibration.json and heldout.json, as v4 to v8;
 * - held out (V9_HELD_OUT): heldout-twentyeighth.json (judged: real pull requests and hand-off notes) and
 *   heldout-twentyseventh.json (chat-voice tasks), written blind and committed before any model was measured on them
 *   (v8's overall figures on them were measured, none of their texts read), are NOT read here.
 *   RALPH_ROUTING_DEV=1 leaves the spent held-out splits out of training, to compare variants on them.
 */
import { V5_KEEP } from './fit-routing-v5';
import { V8_CALIBRATION, V8_HELD_OUT, V8_TRAIN } from './fit-routing-v8';
import { fitAndWrite, fitV4As, v4Inputs } from './fit-routing-v4';

/** The splits written after v8 that v9 trains on (heldout-<name>.json). */
export const V9_READ = ['twentyfifth', 'twentysixth'] as const;

export const V9_TRAIN = [
  ...V8_TRAIN,
  ...[V8_HELD_OUT.judged, V8_HELD_OUT.second, ...V9_READ].map((name) => `heldout-${name}.json`),
].filter((f) => !(process.env.RALPH_ROUTING_DEV === '1' && f.startsWith('heldout-')));
export const V9_CALIBRATION = V8_CALIBRATION;
/** The blind splits v9 never read (heldout-<name>.json): bench:routing judges the first, and reports the second. */
export const V9_HELD_OUT = { judged: 'twentyeighth', second: 'twentyseventh' } as const;

/** Reads v9's training and calibration splits and the fixture profiles. */
export const v9Inputs = () => v4Inputs(V9_TRAIN, V9_CALIBRATION);

/** Fits the v9 weights: the object model-v9-weights.ts holds. */
export const fitV9 = fitV4As(9, V9_TRAIN, V9_CALIBRATION, V5_KEEP);

async function main(): Promise<void> {
  await fitAndWrite(9, v9Inputs, fitV9);
}

if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
