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

/** The text of model-v<version>-weights.ts for fitted weights `w` (before prettier): v4 and the fits built on it. */
export function weightsSource(version: number, w: ReturnType<typeof fitV4>): string {
  return (
    `/**\n * The routing v${version} model's fitted weights: written by bench/fit-routing-v${version}.ts (\`npm run fit:routing-v${version}\`), not by\n` +
    ` * hand (see ./model-v${version}.ts). One JSON string, parsed on first use (see ./lexicon-weights.ts).\n */\n` +
    `export const ROUTING_MODEL_V${version}_WEIGHTS_JSON =\n  ${JSON.stringify(JSON.stringify(w))};\n`
  );
}

/**
 * v4's fit under a later version's name (v5, v6): that version's training and calibration splits and token dropout's
 * keep rate, `fitted.by` naming its script.
 */
export function fitV4As(
  version: number,
  trainSplits: readonly string[],
  calibrationSplits: readonly string[],
  keep: number,
): (
  train: Labelled['tasks'],
  cal: Labelled['tasks'],
  profiles: readonly ProfileKeywords[],
  l2Grid?: readonly number[],
) => ReturnType<typeof fitV4> {
  return (train, cal, profiles, l2Grid) => {
    const w = fitV4(train, cal, profiles, l2Grid, trainSplits, calibrationSplits, keep);
    return {
      ...w,
      fitted: { ...w.fitted, by: `bench/fit-routing-v${version}.ts (npm run fit:routing-v${version})`, keep },
    };
  };
}

/** Fits a version's weights on its splits and writes model-v<version>-weights.ts (the fit scripts' main). */
export async function fitAndWrite(
  version: number,
  inputs: () => ReturnType<typeof v4Inputs>,
  fit: (
    train: Labelled['tasks'],
    cal: Labelled['tasks'],
    profiles: readonly ProfileKeywords[],
  ) => ReturnType<typeof fitV4>,
): Promise<void> {
  const { train, cal, profiles } = await inputs();
  const w = fit(train, cal, profiles);
  writeWeights(`model-v${version}-weights.ts`, weightsSource(version, w), w);
}

async function main(): Promise<void> {
  await fitAndWrite(4, v4Inputs, fitV4);
}

if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
