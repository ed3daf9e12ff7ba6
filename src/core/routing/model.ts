/**
 * The routing model: turns the keyword evidence of a text into a calibrated probability per domain, so the seed's
 * "route above 0.70" means "right at least 70 % of the time".
 *
 * A conditional multinomial logit (softmax). The candidates are the domains with at least one keyword hit, plus
 * `general` (no specialist). A domain's logit is one shared weight vector times its features (keyword score, share of
 * all evidence, margin over the best rival, strong hits, the profile's own keywords, whether it is on top, keywords
 * among the first words), so a
 * domain a profile defines (`dns`) is scored like a built-in one; `general`'s logit is its own weights times features
 * of the whole text (how much evidence there is at all, length). The logits are divided by a temperature and
 * softmaxed. The weights are fitted by bench/fit-routing.ts on the training split; the temperature and an offset of
 * `general`'s logit are chosen on the calibration split; all are committed in ./model-weights.ts. Pure and deterministic.
 */
import { ROUTING_MODEL_WEIGHTS as FITTED } from './model-weights';

/** What the keyword pass found in a text: the model's only input. */
export interface RoutingEvidence {
  /** Keyword score of each domain that matched (sum of the matched keywords' weights). */
  scores: ReadonlyMap<string, number>;
  /** Distinct matched keywords of weight 3 or more (each names its domain on its own), per domain. */
  strong: ReadonlyMap<string, number>;
  /** Score from the profiles' own keywords, per domain. */
  profileScores: ReadonlyMap<string, number>;
  /** Score from keywords among the text's first words (titles lead with what the task is), per domain. */
  lead: ReadonlyMap<string, number>;
  /** Words in the text. */
  words: number;
  /** Distinct keywords matched (any domain). */
  terms: number;
}

/** Fitted parameters of the routing model. */
export interface RoutingModelWeights {
  /** Names of the domain features, in the order of `domain`. */
  domainFeatures: readonly string[];
  domain: readonly number[];
  /** Names of the `general` features, in the order of `general`. */
  generalFeatures: readonly string[];
  general: readonly number[];
  /** Softmax temperature chosen on the calibration split (logits are divided by it). */
  temperature: number;
  /**
   * Added to `general`'s logit, chosen on the calibration split with the temperature: the prior of "no specialist"
   * on text the vocabulary was not grown on (training text matches more keywords than new text does).
   */
  generalOffset: number;
  /**
   * Learned keywords per domain: words that marked that domain in the training split (see bench/fit-routing.ts),
   * added to the vocabulary with weight 1 where it does not score them already.
   */
  learned: Readonly<Record<string, readonly string[]>>;
  /** How and on what the weights were fitted (for the record; not used to classify). */
  fitted: Record<string, unknown>;
}

/** The committed weights (./model-weights.ts, written by bench/fit-routing.ts), checked against the type. */
export const ROUTING_MODEL_WEIGHTS: RoutingModelWeights = FITTED;

/** Names of a candidate domain's features. */
export const DOMAIN_FEATURES = ['log_score', 'share', 'margin', 'strong', 'profile', 'top', 'lead'] as const;
/** Names of the `general` candidate's features. */
export const GENERAL_FEATURES = ['bias', 'log_best', 'log_total', 'domains', 'log_words', 'terms'] as const;

/** The features of candidate domain `d` (its score `s`), given the evidence and the best rival's score. */
export function domainFeatures(e: RoutingEvidence, d: string, total: number, best: number): number[] {
  const s = e.scores.get(d) ?? 0;
  let rival = 0;
  for (const [o, v] of e.scores) if (o !== d && v > rival) rival = v;
  return [
    Math.log1p(s),
    total > 0 ? s / total : 0,
    Math.tanh((s - rival) / 3),
    Math.min(3, e.strong.get(d) ?? 0),
    Math.log1p(e.profileScores.get(d) ?? 0),
    s >= best && s > 0 ? 1 : 0,
    Math.log1p(e.lead.get(d) ?? 0),
  ];
}

/** The features of the `general` candidate. */
export function generalFeatures(e: RoutingEvidence, total: number, best: number): number[] {
  return [
    1,
    Math.log1p(best),
    Math.log1p(total),
    Math.min(4, e.scores.size),
    Math.log1p(e.words),
    Math.min(4, e.terms),
  ];
}

const dot = (w: readonly number[], f: readonly number[]): number => {
  let s = 0;
  for (let i = 0; i < f.length; i++) s += (w[i] ?? 0) * f[i];
  return s;
};

/** Logits before the temperature: each candidate domain's, and `general`'s. */
export function routingLogits(
  e: RoutingEvidence,
  w: Pick<RoutingModelWeights, 'domain' | 'general'> & { generalOffset?: number } = ROUTING_MODEL_WEIGHTS,
): { domains: Map<string, number>; general: number } {
  let total = 0;
  let best = 0;
  for (const v of e.scores.values()) {
    total += v;
    if (v > best) best = v;
  }
  const domains = new Map<string, number>();
  for (const d of [...e.scores.keys()].sort()) domains.set(d, dot(w.domain, domainFeatures(e, d, total, best)));
  return { domains, general: dot(w.general, generalFeatures(e, total, best)) + (w.generalOffset ?? 0) };
}

/** Held in module constants: a global read in a hot loop is slow where the module runs in a vm context (jest). */
const { exp, max } = Math;

/** Softmax of logits divided by `temperature` (max-shifted for stability). */
export function softmax(logits: readonly number[], temperature = 1): number[] {
  if (!logits.length) return [];
  const t = temperature > 0 ? temperature : 1;
  const m = max(...logits);
  const ex = logits.map((z) => exp((z - m) / t));
  const sum = ex.reduce((a, b) => a + b, 0);
  return ex.map((x) => x / sum);
}

/** Calibrated probability of every candidate domain and of `general` (they sum to 1). */
export function routingProbabilities(
  e: RoutingEvidence,
  w: Pick<RoutingModelWeights, 'domain' | 'general' | 'temperature' | 'generalOffset'> = ROUTING_MODEL_WEIGHTS,
): { domains: Map<string, number>; general: number } {
  const l = routingLogits(e, w);
  const names = [...l.domains.keys()];
  const p = softmax([...l.domains.values(), l.general], w.temperature);
  return { domains: new Map(names.map((d, i) => [d, p[i]])), general: p[p.length - 1] };
}

/** One row of a reliability table: of the predictions with confidence in [from, to), how many were right. */
export interface ReliabilityRow {
  from: number;
  to: number;
  n: number;
  right: number;
  /** right / n (0 when empty). */
  accuracy: number;
  /** Mean confidence of the bin's predictions. */
  meanConfidence: number;
}

/** Bins of a reliability table: 0-0.5, then tenths up to 1. */
export const RELIABILITY_BINS: readonly [number, number][] = [
  [0, 0.5],
  [0.5, 0.6],
  [0.6, 0.7],
  [0.7, 0.8],
  [0.8, 0.9],
  [0.9, 1.0001],
];

/** The reliability table of `(confidence, right)` pairs, and the expected calibration error (weighted |acc - conf|). */
export function reliabilityTable(points: readonly { confidence: number; right: boolean }[]): {
  rows: ReliabilityRow[];
  ece: number;
} {
  const rows = RELIABILITY_BINS.map(([from, to]) => {
    const inBin = points.filter((p) => p.confidence >= from && p.confidence < to);
    const right = inBin.filter((p) => p.right).length;
    const mean = inBin.length ? inBin.reduce((a, p) => a + p.confidence, 0) / inBin.length : 0;
    return {
      from,
      to: Math.min(1, to),
      n: inBin.length,
      right,
      accuracy: inBin.length ? Math.round((right / inBin.length) * 1000) / 1000 : 0,
      meanConfidence: Math.round(mean * 1000) / 1000,
    };
  });
  const n = points.length;
  const ece = n ? rows.reduce((a, r) => a + (r.n / n) * Math.abs(r.accuracy - r.meanConfidence), 0) : 0;
  return { rows, ece: Math.round(ece * 1000) / 1000 };
}
