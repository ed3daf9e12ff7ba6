/**
 * npm run fit:routing-v3 — fits the routing v3 model (src/core/routing/model-v3.ts) and writes its weights to
 * src/core/routing/model-v3-weights.ts:
 * - the weights (token weights per class, class biases, the keyword-feature weights) by full-batch gradient descent
 *   (Adam, from zero, deterministic) on the L2-regularised cross-entropy of the TRAINING split (labelled.json plus
 *   labelled-extra.json);
 * - the L2 strength (a small grid), then the softmax temperature and an offset of `general`'s logit, each by the
 *   negative log-likelihood of the CALIBRATION split (calibration.json).
 * Neither held-out split (heldout.json, heldout-blind.json) is read here. Texts are classified against the fixture
 * profiles (test/fixtures/routing/agents), as bench:routing does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { loadAgentProfiles } from '../src/activities/routing';
import {
  DOMAIN_FEATURES,
  GENERAL_FEATURES,
  buildRoutingIndex,
  domainFeatures,
  generalFeatures,
  keywordPass,
  normalizeText,
  softmax,
  textTokens,
  v3Candidates,
  type ExtraFeatures,
  type ConfidenceModel,
  type ProfileKeywords,
  type RoutingIndex,
} from '../src/core/routing';

import type { Labelled } from './routing-eval';

export type { Labelled } from './routing-eval';

/** The classes of the text part: the built-in domains, `general` last. */
export const V3_CLASSES = [
  'security',
  'sre',
  'frontend',
  'backend',
  'data',
  'devops',
  'docs',
  'testing',
  'finops',
  'general',
] as const;
const G = V3_CLASSES.length - 1;
const L2_GRID = [0.0003, 0.001, 0.003];
const STEPS = 1200;
const RATE = 0.05;
/** A bigram is a feature when it is in at least this many training texts (a unigram: in one). */
const BIGRAM_MIN_DF = 2;
/** Token weights this small (every class) are dropped from the committed file. */
const PRUNE = 0.01;

/** One example: candidates' keyword features and text-class index, general's features, tokens, target. */
interface Example {
  cands: { f: number[]; cls: number }[];
  general: number[];
  tokens: number[];
  /** Index into cands, or cands.length for general. */
  target: number;
}

const root = (): string => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
};

/** The feature vocabulary: every unigram of the training texts, bigrams in at least BIGRAM_MIN_DF of them. */
export function tokenVocabulary(texts: readonly string[], minDf = 1): string[] {
  const df = new Map<string, number>();
  for (const t of texts) for (const k of textTokens(normalizeText(t))) df.set(k, (df.get(k) ?? 0) + 1);
  return [...df.entries()]
    .filter(([k, n]) => (!k.includes('_') || n >= BIGRAM_MIN_DF) && n >= minDf)
    .map(([k]) => k)
    .sort();
}

/** Extra features of a text (v4's lexicon), from its tokens. */
export type ExtraOf = (tokens: readonly string[]) => ExtraFeatures;

function example(
  text: string,
  label: string,
  index: RoutingIndex,
  vocab: Map<string, number>,
  extra?: ExtraOf,
): Example {
  const e = keywordPass(text, index);
  const toks = textTokens(normalizeText(text));
  const x = extra?.(toks);
  let total = 0;
  let best = 0;
  for (const v of e.scores.values()) {
    total += v;
    best = Math.max(best, v);
  }
  const names = v3Candidates(e, V3_CLASSES);
  const at = names.indexOf(label);
  return {
    cands: names.map((d) => ({
      f: x ? [...domainFeatures(e, d, total, best), ...x.domain(d)] : domainFeatures(e, d, total, best),
      cls: (V3_CLASSES as readonly string[]).indexOf(d),
    })),
    general: x ? [...generalFeatures(e, total, best), ...x.general] : generalFeatures(e, total, best),
    tokens: toks.map((k) => vocab.get(k) ?? -1).filter((i) => i >= 0),
    target: at >= 0 ? at : names.length,
  };
}

interface Params {
  w: number[];
  v: number[];
  bias: number[];
  /** Token weights, row-major: token i, class c at i * classes + c. */
  W: Float64Array;
}

const dot = (a: number[], f: number[]): number => {
  let s = 0;
  for (let i = 0; i < f.length; i++) s += a[i] * f[i];
  return s;
};

function logits(x: Example, p: Params, offset = 0, tokens = x.tokens, scale = 1): number[] {
  const C = V3_CLASSES.length;
  const text = p.bias.slice();
  for (const t of tokens) for (let c = 0; c < C; c++) text[c] += scale * p.W[t * C + c];
  return [
    ...x.cands.map((c) => dot(p.w, c.f) + (c.cls >= 0 ? text[c.cls] : 0)),
    dot(p.v, x.general) + text[G] + offset,
  ];
}

/** Mean negative log-likelihood. */
function nll(xs: Example[], p: Params, t = 1, offset = 0): number {
  return xs.reduce((a, x) => a - Math.log(Math.max(1e-12, softmax(logits(x, p, offset), t)[x.target])), 0) / xs.length;
}

/** Full-batch Adam on the mean cross-entropy plus (l2 / 2)·|weights|² (biases free). */
/*
 * Math's functions held in module constants: jest runs this module in a vm context, where every read of a global
 * such as `Math` in the fit's inner loops is a slow lookup (the v5 fit took 105 s there against 21 s under node).
 */
const { imul, sqrt } = Math;

/** A deterministic number in [0, 1) of (step, example, token): which tokens token dropout keeps. */
function keepDraw(step: number, example: number, token: number): number {
  let h = (imul(step, 0x9e3779b1) ^ imul(example + 1, 0x85ebca6b) ^ imul(token + 1, 0xc2b2ae35)) >>> 0;
  h = imul(h ^ (h >>> 16), 0x45d9f3b) >>> 0;
  h = imul(h ^ (h >>> 16), 0x45d9f3b) >>> 0;
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/**
 * Full-batch Adam on the mean cross-entropy plus (l2 / 2)·|weights|² (biases free). With `keep` < 1, token dropout:
 * each step sees each token of each example with probability `keep` (scaled by 1 / keep), so the keyword and
 * lexicon features must carry the examples too, as they must on new text whose words training never saw.
 */
function fit(xs: Example[], tokens: number, l2: number, l2Dense = l2, keep = 1, steps = STEPS): Params {
  const C = V3_CLASSES.length;
  const p: Params = {
    w: xs[0].cands[0].f.map(() => 0),
    v: xs[0].general.map(() => 0),
    bias: V3_CLASSES.map(() => 0),
    W: new Float64Array(tokens * C),
  };
  const flat = (): Float64Array[] => [Float64Array.from(p.w), Float64Array.from(p.v), Float64Array.from(p.bias), p.W];
  const sizes = flat().map((a) => a.length);
  const m = sizes.map((n) => new Float64Array(n));
  const s = sizes.map((n) => new Float64Array(n));
  for (let step = 1; step <= steps; step++) {
    const g = sizes.map((n) => new Float64Array(n));
    for (let j = 0; j < p.w.length; j++) g[0][j] = l2Dense * p.w[j];
    for (let j = 1; j < p.v.length; j++) g[1][j] = l2Dense * p.v[j];
    for (let j = 0; j < p.W.length; j++) g[3][j] = l2 * p.W[j];
    for (const [xi, x] of xs.entries()) {
      const toks = keep < 1 ? x.tokens.filter((t) => keepDraw(step, xi, t) < keep) : x.tokens;
      const scale = 1 / keep;
      const pr = softmax(logits(x, p, 0, toks, keep < 1 ? scale : 1));
      const textGrad = new Float64Array(C);
      const g0 = g[0];
      for (let i = 0; i < x.cands.length; i++) {
        const c = x.cands[i];
        const d = (pr[i] - (x.target === i ? 1 : 0)) / xs.length;
        for (let j = 0; j < c.f.length; j++) g0[j] += d * c.f[j];
        if (c.cls >= 0) textGrad[c.cls] += d;
      }
      const dg = (pr[x.cands.length] - (x.target === x.cands.length ? 1 : 0)) / xs.length;
      for (let j = 0; j < x.general.length; j++) g[1][j] += dg * x.general[j];
      textGrad[G] += dg;
      for (let c = 0; c < C; c++) g[2][c] += textGrad[c];
      const sc = keep < 1 ? scale : 1;
      for (const t of toks) for (let c = 0; c < C; c++) g[3][t * C + c] += sc * textGrad[c];
    }
    const arrays: (number[] | Float64Array)[] = [p.w, p.v, p.bias, p.W];
    // The bias corrections, once per step (the same values as computed per weight).
    const c1 = 1 - 0.9 ** step;
    const c2 = 1 - 0.999 ** step;
    arrays.forEach((a, k) => {
      const mk = m[k];
      const sk = s[k];
      const gk = g[k];
      for (let j = 0; j < a.length; j++) {
        mk[j] = 0.9 * mk[j] + 0.1 * gk[j];
        sk[j] = 0.999 * sk[j] + 0.001 * gk[j] ** 2;
        a[j] -= (RATE * (mk[j] / c1)) / (sqrt(sk[j] / c2) + 1e-8);
      }
    });
  }
  return p;
}

/** The temperature (0.30..3.00, steps of 0.05) and general's offset (-3.0..3.0, steps of 0.1) with the least NLL. */
function chooseCalibration(xs: Example[], p: Params): { temperature: number; offset: number; loss: number } {
  let best = { temperature: 1, offset: 0, loss: Infinity };
  for (let i = 30; i <= 300; i += 5)
    for (let o = -30; o <= 30; o++) {
      const loss = nll(xs, p, i / 100, o / 10);
      if (loss < best.loss - 1e-12) best = { temperature: i / 100, offset: o / 10, loss };
    }
  return best;
}

const r4 = (x: number): number => Math.round(x * 10000) / 10000 || 0;

/** What a later model (v4) adds to the v3 fit: extra features, their names, and the record of what was fitted. */
export interface FitOptions {
  extra?: ExtraOf;
  domainFeatures?: readonly string[];
  generalFeatures?: readonly string[];
  /** L2 strengths of the token weights to choose from (v3: L2_GRID). */
  l2Grid?: readonly number[];
  /** L2 strength of the keyword and lexicon feature weights (v3: the same as the tokens'). */
  l2Dense?: number;
  /** Token dropout's keep rate (v3: 1, none). */
  keep?: number;
  /** Adam steps (v3 to v8: STEPS). */
  steps?: number;
  /** A token joins the vocabulary when it occurs at least this often in the training texts (v3 to v8: 1). */
  minDf?: number;
  trainSplits?: string[];
  calibrationSplits?: string[];
  fitted?: Record<string, unknown>;
  /** The model whose keyword index (vocabulary and reading of the text) gives the features (v3 to v8: calibrated-v3). */
  indexModel?: ConfidenceModel;
}

/** Fits the v3 weights on `train`, calibrated on `cal`: the object model-v3-weights.ts holds. */
export function fitV3(
  train: Labelled['tasks'],
  cal: Labelled['tasks'],
  profiles: readonly ProfileKeywords[],
  opts: FitOptions = {},
) {
  const index = buildRoutingIndex(profiles, opts.indexModel ?? 'calibrated-v3');
  const vocabList = tokenVocabulary(
    train.map((t) => t.text),
    opts.minDf,
  );
  const vocab = new Map(vocabList.map((k, i) => [k, i]));
  const tx = train.map((t) => example(t.text, t.label, index, vocab, opts.extra));
  const cx = cal.map((t) => example(t.text, t.label, index, vocab, opts.extra));
  let chosen: { l2: number; p: Params; cal: ReturnType<typeof chooseCalibration> } | undefined;
  const grid: Record<string, number> = {};
  for (const l2 of opts.l2Grid ?? L2_GRID) {
    const p = fit(tx, vocabList.length, l2, opts.l2Dense ?? l2, opts.keep ?? 1, opts.steps);
    const c = chooseCalibration(cx, p);
    grid[String(l2)] = r4(c.loss);
    if (!chosen || c.loss < chosen.cal.loss - 1e-12) chosen = { l2, p, cal: c };
  }
  const { l2, p, cal: c } = chosen!;
  const C = V3_CLASSES.length;
  const tokens: Record<string, number[]> = {};
  vocabList.forEach((k, i) => {
    const row = V3_CLASSES.map((_, cl) => Math.round(p.W[i * C + cl] * 1000) / 1000 || 0);
    if (row.some((x) => Math.abs(x) >= PRUNE)) tokens[k] = row;
  });
  return {
    classes: [...V3_CLASSES],
    bias: p.bias.map(r4),
    tokens,
    domainFeatures: [...DOMAIN_FEATURES, ...(opts.domainFeatures ?? [])],
    domain: p.w.map(r4),
    generalFeatures: [...GENERAL_FEATURES, ...(opts.generalFeatures ?? [])],
    general: p.v.map(r4),
    temperature: c.temperature,
    generalOffset: c.offset,
    fitted: {
      by: 'bench/fit-routing-v3.ts (npm run fit:routing-v3)',
      train: {
        splits: opts.trainSplits ?? [
          'test/fixtures/routing/labelled.json',
          'test/fixtures/routing/labelled-extra.json',
        ],
        tasks: tx.length,
        nll: r4(nll(tx, p)),
      },
      calibration: {
        ...(opts.calibrationSplits
          ? { splits: opts.calibrationSplits }
          : { split: 'test/fixtures/routing/calibration.json' }),
        tasks: cx.length,
        nll: r4(c.loss),
      },
      l2,
      l2Grid: grid,
      steps: opts.steps ?? STEPS,
      vocabulary: vocabList.length,
      kept: Object.keys(tokens).length,
      profiles: 'test/fixtures/routing/agents',
      ...opts.fitted,
    },
  };
}

/** Reads the training and calibration splits and the fixture profiles. */
export async function v3Inputs(): Promise<{
  train: Labelled['tasks'];
  cal: Labelled['tasks'];
  profiles: ProfileKeywords[];
}> {
  const dir = path.join(root(), 'test', 'fixtures', 'routing');
  const read = (f: string): Labelled => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Labelled;
  const train = [...read('labelled.json').tasks, ...read('labelled-extra.json').tasks];
  const { profiles } = await loadAgentProfiles({ workspace: dir, dir: path.join(dir, 'agents') });
  return { train, cal: read('calibration.json').tasks, profiles };
}

/** The text of model-v3-weights.ts for fitted weights `w` (before prettier). */
export function v3WeightsSource(w: ReturnType<typeof fitV3>): string {
  return (
    "/**\n * The routing v3 model's fitted weights: written by bench/fit-routing-v3.ts (`npm run fit:routing-v3`), not by\n" +
    ' * hand. Fitted on the training split, L2 strength, temperature and general offset chosen on the calibration split\n' +
    ' * (see ./model-v3.ts).\n */\n' +
    `export const ROUTING_MODEL_V3_WEIGHTS = ${JSON.stringify(w)};\n`
  );
}

/** Writes fitted weights `w` as `source` to src/core/routing/`file` (prettier-formatted) and prints their record. */
export function writeWeights(file: string, source: string, w: ReturnType<typeof fitV3>): void {
  const out = path.join(root(), 'src', 'core', 'routing', file);
  fs.writeFileSync(out, source);
  try {
    execFileSync(path.join(root(), 'node_modules', '.bin', 'prettier'), ['--write', out], { stdio: 'ignore' });
  } catch {
    // Formatting is cosmetic: the file is valid TypeScript either way.
  }
  console.log(JSON.stringify({ ...w, tokens: undefined, kept: Object.keys(w.tokens).length }, null, 2));
  console.log(`→ ${out} (rebuild before using it: npm run build)`);
}

async function main(): Promise<void> {
  const { train, cal, profiles } = await v3Inputs();
  const w = fitV3(train, cal, profiles);
  writeWeights('model-v3-weights.ts', v3WeightsSource(w), w);
}

if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
