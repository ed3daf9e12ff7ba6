/**
 * npm run fit:routing — fits the routing model (src/core/routing/model.ts) and writes its weights to
 * src/core/routing/model-weights.ts:
 * - the weights by gradient descent on the cross-entropy of the TRAINING split (test/fixtures/routing/labelled.json),
 *   with a small L2 penalty, from zero, deterministic;
 * - the softmax temperature and an offset of `general`'s logit by a grid search on the negative log-likelihood of
 *   the CALIBRATION split (calibration.json), the weights fixed: how sure to be, and how often "no specialist", on
 *   text the vocabulary was not grown on.
 * The held-out split (heldout.json) is never read here. Every text is classified against the fixture profiles
 * (test/fixtures/routing/agents), as bench:routing does. A task labelled with a domain that no keyword matched
 * cannot be routed right: its target is `general` (not routing beats routing to a wrong specialist).
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
  type RoutingIndex,
} from '../src/core/routing';

import type { Labelled } from './routing-eval';

export type { Labelled } from './routing-eval';

/** One training example: each candidate domain's features, general's features, and the target's position. */
interface Example {
  domains: number[][];
  general: number[];
  /** Index of the right candidate; `domains.length` is general. */
  target: number;
}

const L2 = 0.01;
/** Folds of the cross-fitting: each fold's features come from keywords learned on the other folds. */
const FOLDS = 5;
/** A learned keyword: in at least this many training tasks of one domain, and at least this share of them. */
const LEARN_MIN_TASKS = 3;
const LEARN_MIN_SHARE = 0.8;
const STOPWORDS = new Set(
  (
    'the a an and or of to in on for with from by is are be at as it its this that when after before into our we ' +
    'you your not no so all every each than then only over under can should do does has have was were will out ' +
    'one two new old per via off up use using make add fix set get more less them their they what which who how'
  ).split(' '),
);
const STEPS = 4000;
const RATE = 0.05;

const root = (): string => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
};

/** The model's view of a labelled task. */
export function example(text: string, label: string, index: RoutingIndex): Example {
  const e = keywordPass(text, index);
  let total = 0;
  let best = 0;
  for (const v of e.scores.values()) {
    total += v;
    best = Math.max(best, v);
  }
  const names = [...e.scores.keys()].sort();
  const at = names.indexOf(label);
  return {
    domains: names.map((d) => domainFeatures(e, d, total, best)),
    general: generalFeatures(e, total, best),
    target: at >= 0 ? at : names.length,
  };
}

const dot = (w: number[], f: number[]): number => f.reduce((a, x, i) => a + w[i] * x, 0);

function probs(x: Example, w: number[], v: number[], t = 1, offset = 0): number[] {
  return softmax([...x.domains.map((f) => dot(w, f)), dot(v, x.general) + offset], t);
}

/** A word's base form: lower-case, a plural `s` dropped (as the classifier matches plurals). */
const base = (w: string): string => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

/**
 * Learned keywords: words (not stopwords, not numbers, 3+ letters) that appear in at least LEARN_MIN_TASKS training
 * tasks of one domain and in that domain for at least LEARN_MIN_SHARE of the tasks that have them (general included).
 */
export function learnKeywords(tasks: Labelled['tasks']): Record<string, string[]> {
  const counts = new Map<string, Map<string, number>>();
  for (const t of tasks) {
    const seen = new Set(
      normalizeText(t.text)
        .split(' ')
        .filter((w) => w.length >= 3 && !/^\d+$/.test(w) && !STOPWORDS.has(w))
        .map(base),
    );
    for (const w of seen) {
      const c = counts.get(w) ?? new Map<string, number>();
      c.set(t.label, (c.get(t.label) ?? 0) + 1);
      counts.set(w, c);
    }
  }
  const out: Record<string, string[]> = {};
  for (const [w, c] of [...counts.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const total = [...c.values()].reduce((a, b) => a + b, 0);
    for (const [label, n] of c)
      if (label !== 'general' && n >= LEARN_MIN_TASKS && n / total >= LEARN_MIN_SHARE) (out[label] ??= []).push(w);
  }
  return out;
}

/** Mean negative log-likelihood of `xs`. */
export function nll(xs: Example[], w: number[], v: number[], t = 1, offset = 0): number {
  return xs.reduce((a, x) => a - Math.log(Math.max(1e-12, probs(x, w, v, t, offset)[x.target])), 0) / xs.length;
}

/** Full-batch gradient descent (Adam steps) on the mean cross-entropy plus L2 on every weight but general's bias. */
export function fit(xs: Example[]): { w: number[]; v: number[] } {
  const w = DOMAIN_FEATURES.map(() => 0);
  const v = GENERAL_FEATURES.map(() => 0);
  const params = [w, v];
  const m = params.map((p) => p.map(() => 0));
  const s = params.map((p) => p.map(() => 0));
  for (let step = 1; step <= STEPS; step++) {
    const g = [w.map((x) => L2 * x), v.map((x, i) => (i === 0 ? 0 : L2 * x))];
    for (const x of xs) {
      const p = probs(x, w, v);
      x.domains.forEach((f, i) => {
        const d = (p[i] - (x.target === i ? 1 : 0)) / xs.length;
        f.forEach((fx, j) => (g[0][j] += d * fx));
      });
      const dg = (p[x.domains.length] - (x.target === x.domains.length ? 1 : 0)) / xs.length;
      x.general.forEach((fx, j) => (g[1][j] += dg * fx));
    }
    params.forEach((p, k) =>
      p.forEach((_, j) => {
        m[k][j] = 0.9 * m[k][j] + 0.1 * g[k][j];
        s[k][j] = 0.999 * s[k][j] + 0.001 * g[k][j] ** 2;
        const mh = m[k][j] / (1 - 0.9 ** step);
        const sh = s[k][j] / (1 - 0.999 ** step);
        p[j] -= (RATE * mh) / (Math.sqrt(sh) + 1e-8);
      }),
    );
  }
  return { w, v };
}

/**
 * The temperature (0.30..4.00, steps of 0.05) and the offset of general's logit (-4.0..2.0, steps of 0.1) with the
 * least NLL on `xs`.
 */
export function chooseCalibration(xs: Example[], w: number[], v: number[]): { temperature: number; offset: number } {
  let best = { temperature: 1, offset: 0, loss: Infinity };
  for (let i = 30; i <= 400; i += 5)
    for (let o = -40; o <= 20; o++) {
      const loss = nll(xs, w, v, i / 100, o / 10);
      if (loss < best.loss - 1e-12) best = { temperature: i / 100, offset: o / 10, loss };
    }
  return { temperature: best.temperature, offset: best.offset };
}

const r4 = (x: number): number => Math.round(x * 10000) / 10000;

async function main(): Promise<void> {
  const dir = path.join(root(), 'test', 'fixtures', 'routing');
  const read = (f: string): Labelled => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Labelled;
  const train = read('labelled.json');
  const cal = read('calibration.json');
  const { profiles } = await loadAgentProfiles({ workspace: dir, dir: path.join(dir, 'agents') });
  // Cross-fitting: a training task's features use keywords learned without it, so the weights see learned keywords
  // as they behave on new text; the committed keywords are learned on the whole training split.
  const tx = train.tasks.map((t, i) => {
    const learned = learnKeywords(train.tasks.filter((_, j) => j % FOLDS !== i % FOLDS));
    return { t, learned, fold: i % FOLDS };
  });
  const foldIndex = new Map<number, RoutingIndex>();
  for (const { learned, fold } of tx)
    if (!foldIndex.has(fold)) foldIndex.set(fold, buildRoutingIndex(profiles, 'calibrated', learned));
  const trainX = tx.map(({ t, fold }) => example(t.text, t.label, foldIndex.get(fold)!));
  const learned = learnKeywords(train.tasks);
  const index = buildRoutingIndex(profiles, 'calibrated', learned);
  const cx = cal.tasks.map((t) => example(t.text, t.label, index));
  const { w, v } = fit(trainX);
  const { temperature, offset } = chooseCalibration(cx, w, v);
  const fitted = {
    by: 'bench/fit-routing.ts (npm run fit:routing)',
    train: { split: 'test/fixtures/routing/labelled.json', tasks: trainX.length, nll: r4(nll(trainX, w, v)) },
    calibration: {
      split: 'test/fixtures/routing/calibration.json',
      tasks: cx.length,
      nllAtT1: r4(nll(cx, w, v)),
      nll: r4(nll(cx, w, v, temperature, offset)),
    },
    l2: L2,
    steps: STEPS,
    profiles: 'test/fixtures/routing/agents',
  };
  const out = path.join(root(), 'src', 'core', 'routing', 'model-weights.ts');
  const body =
    "/**\n * The routing model's fitted weights: written by bench/fit-routing.ts (`npm run fit:routing`), not by hand.\n" +
    ' * Weights fitted on the training split, temperature chosen on the calibration split (see ./model.ts).\n */\n' +
    `export const ROUTING_MODEL_WEIGHTS = ${JSON.stringify(
      {
        domainFeatures: DOMAIN_FEATURES,
        domain: w.map(r4),
        generalFeatures: GENERAL_FEATURES,
        general: v.map(r4),
        temperature,
        generalOffset: offset,
        learned,
        fitted,
      },
      null,
      2,
    )};\n`;
  fs.writeFileSync(out, body);
  try {
    execFileSync(path.join(root(), 'node_modules', '.bin', 'prettier'), ['--write', out], { stdio: 'ignore' });
  } catch {
    // Formatting is cosmetic: the file is valid TypeScript either way.
  }
  console.log(
    [
      `domain weights  ${DOMAIN_FEATURES.map((f, i) => `${f} ${r4(w[i])}`).join(', ')}`,
      `general weights ${GENERAL_FEATURES.map((f, i) => `${f} ${r4(v[i])}`).join(', ')}`,
      `${Object.values(learned).flat().length} learned keywords; train NLL ${fitted.train.nll} (${trainX.length} tasks); calibration NLL ${fitted.calibration.nllAtT1} at T=1, ` +
        `${fitted.calibration.nll} at T=${temperature}, general offset ${offset} (${cx.length} tasks)`,
      `→ ${out} (rebuild before using it: npm run build)`,
    ].join('\n'),
  );
}

if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
