/**
 * npm run fit:routing-v4 — fits the routing v4 model (src/core/routing/model-v4.ts: v3 plus the lexicon features)
 * and writes its weights to src/core/routing/model-v4-weights.ts. The fit is v3's (bench/fit-routing-v3.ts: Adam on
 * the L2-regularised cross-entropy; L2 strength, temperature and general offset chosen on the calibration split) on
 * v4's splits:
 * - training: labelled.json, labelled-extra.json, heldout-blind.json (v3's blind split, measured twice, so no
 *   longer blind) and heldout-real.json (real issue titles plus blind-written texts: the first v4 was measured on it
 *   once, 75.6 %, and its misses were read, so it is spent too);
 * - calibration: calibration.json and heldout.json (v2's held-out, looked at while v2 was built);
 * - held out: heldout-fresh.json (real issue titles and new texts, written blind, committed before this v4 was
 *   frozen) is NOT read here. RALPH_ROUTING_DEV=1 leaves the spent held-out splits out of training, to compare
 *   variants on them.
 * The fit adds token dropout (fit-routing-v3.ts `keep`) and lighter L2 on the keyword and lexicon features: without
 * them the training texts' own words explain the training split alone, and the lexicon, which is what carries new
 * text, gets little weight.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadAgentProfiles } from '../src/activities/routing';
import {
  LEXICON_DOMAIN_FEATURES,
  LEXICON_GENERAL_FEATURES,
  routingLexicon,
  lexiconEvidence,
  lexiconFeatures,
  type ProfileKeywords,
} from '../src/core/routing';
import { fitV3, writeWeights } from './fit-routing-v3';
import type { Labelled } from './routing-eval';

const root = (): string => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
};

export const V4_TRAIN = ['labelled.json', 'labelled-extra.json', 'heldout-blind.json', 'heldout-real.json'].filter(
  // RALPH_ROUTING_DEV=1: v3's blind split is left out of training, to compare variants of the model on it.
  (f) => !(process.env.RALPH_ROUTING_DEV === '1' && f.startsWith('heldout-')),
);
export const V4_CALIBRATION = ['calibration.json', 'heldout.json'];
/** L2 strengths of the token weights (the one with the least calibration NLL is kept). */
const V4_L2_GRID = [0.0003, 0.001, 0.003];
/** L2 strength of the keyword and lexicon feature weights: light, they are few. */
const V4_L2_DENSE = 0.0001;
/** Token dropout: each step sees 30 % of a text's words, so the lexicon and keyword features learn to carry it. */
const V4_KEEP = 0.3;

/** Reads v4's training and calibration splits and the fixture profiles. */
export async function v4Inputs(
  trainSplits: readonly string[] = V4_TRAIN,
  calibrationSplits: readonly string[] = V4_CALIBRATION,
): Promise<{
  train: Labelled['tasks'];
  cal: Labelled['tasks'];
  profiles: ProfileKeywords[];
}> {
  const dir = path.join(root(), 'test', 'fixtures', 'routing');
  const read = (f: string): Labelled['tasks'] =>
    (JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Labelled).tasks;
  const { profiles } = await loadAgentProfiles({ workspace: dir, dir: path.join(dir, 'agents') });
  return { train: trainSplits.flatMap(read), cal: calibrationSplits.flatMap(read), profiles };
}

/** Fits the v4 weights: the object model-v4-weights.ts holds. */
export function fitV4(
  train: Labelled['tasks'],
  cal: Labelled['tasks'],
  profiles: readonly ProfileKeywords[],
  l2Grid: readonly number[] = V4_L2_GRID,
  trainSplits: readonly string[] = V4_TRAIN,
  calibrationSplits: readonly string[] = V4_CALIBRATION,
  keep: number = V4_KEEP,
) {
  return fitV3(train, cal, profiles, {
    extra: (tokens) => lexiconFeatures(lexiconEvidence(tokens)),
    l2Grid,
    l2Dense: V4_L2_DENSE,
    keep,
    domainFeatures: LEXICON_DOMAIN_FEATURES,
    generalFeatures: LEXICON_GENERAL_FEATURES,
    trainSplits: trainSplits.map((f) => `test/fixtures/routing/${f}`),
    calibrationSplits: calibrationSplits.map((f) => `test/fixtures/routing/${f}`),
    fitted: {
      by: 'bench/fit-routing-v4.ts (npm run fit:routing-v4)',
      lexicon: { tokens: Object.keys(routingLexicon().tokens).length, built: routingLexicon().built.by },
    },
  });
}

/** The text of model-v4-weights.ts for fitted weights `w` (before prettier). */
export function v4WeightsSource(w: ReturnType<typeof fitV4>): string {
  return (
    "/**\n * The routing v4 model's fitted weights: written by bench/fit-routing-v4.ts (`npm run fit:routing-v4`), not by\n" +
    ' * hand (see ./model-v4.ts). One JSON string, parsed on first use (see ./lexicon-weights.ts).\n */\n' +
    `export const ROUTING_MODEL_V4_WEIGHTS_JSON =\n  ${JSON.stringify(JSON.stringify(w))};\n`
  );
}

async function main(): Promise<void> {
  const { train, cal, profiles } = await v4Inputs();
  const w = fitV4(train, cal, profiles);
  writeWeights('model-v4-weights.ts', v4WeightsSource(w), w);
}

if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
