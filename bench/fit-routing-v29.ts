/**
 * Fits routing v29's weights (`npm run fit:routing-v29` writes src/core/routing/model-v29-weights.ts): v8's features
 * and optimizer (fitV3 with the routing lexicon's features and token dropout), refitted on every split read until v28
 * was judged, with the text read the way v28 reads it (its vocabulary, identifiers and counts), a vocabulary of the
 * words that occur at least twice, and 600 Adam steps.
 *
 * - training (V29_TRAIN): v8's training and calibration splits and every blind split v28's round read, up to
 *   heldout-sixtysixth.json (15,000 texts; v8 had 6,900);
 * - calibration (V29_CALIBRATION): v28's two held-out splits, heldout-sixtyseventh.json and heldout-sixtyeighth.json
 *   (the L2 strength, the temperature and the general offset are chosen on them): read after v28 was judged on them,
 *   and no rule or keyword of any version was written on them;
 * - held out (V29_HELD_OUT): heldout-sixtyninth.json (judged) and heldout-seventieth.json, written blind and committed
 *   before this fit was first run.
 */
import {
  LEXICON_DOMAIN_FEATURES,
  LEXICON_GENERAL_FEATURES,
  lexiconEvidence,
  lexiconFeatures,
  routingLexicon,
  type ProfileKeywords,
} from '../src/core/routing';
import { fitV3 } from './fit-routing-v3';
import { fitAndWrite, v4Inputs } from './fit-routing-v4';
import { V5_KEEP } from './fit-routing-v5';
import { V8_CALIBRATION, V8_TRAIN } from './fit-routing-v8';
import { V28_HELD_OUT, V28_READ } from './routing-v28';
import type { Labelled } from './routing-eval';

export const V29_TRAIN = [
  ...new Set([...V8_TRAIN, ...V8_CALIBRATION, ...V28_READ.map((n) => `heldout-${n}.json`)]),
] as readonly string[];
export const V29_CALIBRATION = [`heldout-${V28_HELD_OUT.judged}.json`, `heldout-${V28_HELD_OUT.second}.json`] as const;
/** The blind splits v29 never read (heldout-<name>.json): bench:routing judges the first, and reports the second. */
export const V29_HELD_OUT = { judged: 'sixtyninth', second: 'seventieth' } as const;
/** The L2 strengths of the token weights v29 chooses from, on its calibration splits. */
export const V29_L2_GRID = [0.00001, 0.00003, 0.0001] as const;
const V29_STEPS = 600;
const V29_MIN_DF = 2;

/** Reads v29's training and calibration splits and the fixture profiles. */
export const v29Inputs = () => v4Inputs(V29_TRAIN, V29_CALIBRATION);

/** Fits the v29 weights: the object model-v29-weights.ts holds. `l2Grid`: the strengths to choose from. */
export function fitV29(
  train: Labelled['tasks'],
  cal: Labelled['tasks'],
  profiles: readonly ProfileKeywords[],
  l2Grid: readonly number[] = V29_L2_GRID,
) {
  return fitV3(train, cal, profiles, {
    extra: (tokens) => lexiconFeatures(lexiconEvidence(tokens)),
    l2Grid,
    l2Dense: 0.0001,
    keep: V5_KEEP,
    steps: V29_STEPS,
    minDf: V29_MIN_DF,
    indexModel: 'calibrated-v28',
    domainFeatures: LEXICON_DOMAIN_FEATURES,
    generalFeatures: LEXICON_GENERAL_FEATURES,
    trainSplits: V29_TRAIN.map((f) => `test/fixtures/routing/${f}`),
    calibrationSplits: V29_CALIBRATION.map((f) => `test/fixtures/routing/${f}`),
    fitted: {
      by: 'bench/fit-routing-v29.ts (npm run fit:routing-v29)',
      lexicon: { tokens: Object.keys(routingLexicon().tokens).length, built: routingLexicon().built.by },
      keep: V5_KEEP,
      minDf: V29_MIN_DF,
      index: 'calibrated-v28',
    },
  });
}

async function main(): Promise<void> {
  await fitAndWrite(29, v29Inputs, fitV29);
}

if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
