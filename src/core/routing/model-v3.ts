/**
 * The routing v3 model: the v2 keyword features (./model.ts) plus a bag of the text's own words.
 *
 * A multinomial logistic regression. The candidates are every built-in domain, every domain the profiles define that
 * matched a keyword, and `general` (no specialist). A candidate's logit is the sum of
 * - the v2 keyword part: one shared weight vector times the domain's keyword features (score, share, margin, strong
 *   hits, the profile's own keywords, on top, lead words), so a domain a profile defines (`dns`) is still scored, and
 *   `general`'s own weights times features of the whole text (how much keyword evidence, length);
 * - the text part (built-in domains and `general` only): a bias per class plus, for every known token of the text
 *   (lower-cased words, a plural `s` dropped, stopwords out; unigrams and adjacent bigrams), its weight for that class.
 * The logits are divided by a temperature and softmaxed. Weights: L2-regularised maximum likelihood on the training
 * split; the L2 strength, the temperature and an offset of `general`'s logit chosen on the calibration split (see
 * bench/fit-routing-v3.ts). Committed in ./model-v3-weights.ts. Pure and deterministic.
 */
import { ROUTING_MODEL_V3_WEIGHTS as FITTED } from './model-v3-weights';
import { domainFeatures, generalFeatures, softmax, type RoutingEvidence } from './model';

/** Fitted parameters of the v3 model. */
export interface RoutingModelV3Weights {
  /** The classes of the text part: the built-in domains, then `general` last. */
  classes: readonly string[];
  /** Per class bias (order of `classes`). */
  bias: readonly number[];
  /** Token (`word` or `word_word`) → its weight per class (order of `classes`). */
  tokens: Readonly<Record<string, readonly number[]>>;
  domainFeatures: readonly string[];
  domain: readonly number[];
  generalFeatures: readonly string[];
  general: readonly number[];
  temperature: number;
  generalOffset: number;
  /** How and on what the weights were fitted (for the record; not used to classify). */
  fitted: Record<string, unknown>;
}

/** The committed weights, checked against the type. */
export const ROUTING_MODEL_V3_WEIGHTS: RoutingModelV3Weights = FITTED;

/** Words that say nothing about a domain (dropped before unigrams and bigrams are made). */
export const V3_STOPWORDS: ReadonlySet<string> = new Set(
  (
    'the a an and or of to in on for with from by is are be at as it its this that when after before into our we ' +
    'you your not no so all every each than then only over under can should do does has have was were will out ' +
    'one two per via off up them their they what which who how i me my us any there these those if but also just ' +
    'it s t'
  ).split(' '),
);

/** A word's base form: a plural `s` dropped (not `ss`, not short words). */
const base = (w: string): string => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

/** The tokens of a normalized text (see normalizeText): distinct unigrams and adjacent bigrams, stopwords out. */
export function textTokens(norm: string): string[] {
  const words = norm
    .split(' ')
    .filter((w) => w && !V3_STOPWORDS.has(w) && !/^\d+$/.test(w))
    .map(base);
  const out = new Set<string>(words);
  for (let i = 1; i < words.length; i++) out.add(`${words[i - 1]}_${words[i]}`);
  return [...out];
}

/** The v3 model's view of a text: its keyword evidence and its tokens. */
export interface V3Input {
  evidence: RoutingEvidence;
  tokens: readonly string[];
}

type V3Params = Pick<
  RoutingModelV3Weights,
  'classes' | 'bias' | 'tokens' | 'domain' | 'general' | 'temperature' | 'generalOffset'
>;

/** The candidates of a text: every class of the text part, plus the profile-defined domains that matched. */
export function v3Candidates(e: RoutingEvidence, classes: readonly string[]): string[] {
  const domains = classes.filter((c) => c !== 'general');
  const extra = [...e.scores.keys()].filter((d) => !domains.includes(d)).sort();
  return [...domains, ...extra];
}

/** Features added to the keyword features by a later model (v4's lexicon): per candidate domain, and `general`'s. */
export interface ExtraFeatures {
  domain: (d: string) => number[];
  general: number[];
}

/** Logits (before the temperature) of every candidate domain and of `general`. */
export function routingLogitsV3(
  x: V3Input,
  w: V3Params = ROUTING_MODEL_V3_WEIGHTS,
  extra?: ExtraFeatures,
): { domains: Map<string, number>; general: number } {
  const e = x.evidence;
  let total = 0;
  let best = 0;
  for (const v of e.scores.values()) {
    total += v;
    if (v > best) best = v;
  }
  const text = w.classes.map((_, i) => w.bias[i] ?? 0);
  for (const t of x.tokens) {
    const row = w.tokens[t];
    if (row) for (let i = 0; i < text.length; i++) text[i] += row[i] ?? 0;
  }
  const dot = (a: readonly number[], f: readonly number[]): number => f.reduce((s, v, i) => s + (a[i] ?? 0) * v, 0);
  const domains = new Map<string, number>();
  for (const d of v3Candidates(e, w.classes)) {
    const at = w.classes.indexOf(d);
    const f = domainFeatures(e, d, total, best);
    domains.set(d, dot(w.domain, extra ? [...f, ...extra.domain(d)] : f) + (at >= 0 ? text[at] : 0));
  }
  const g = w.classes.indexOf('general');
  const gf = generalFeatures(e, total, best);
  const general = dot(w.general, extra ? [...gf, ...extra.general] : gf) + (g >= 0 ? text[g] : 0) + w.generalOffset;
  return { domains, general };
}

/** Calibrated probability of every candidate domain and of `general` (they sum to 1). */
export function routingProbabilitiesV3(
  x: V3Input,
  w: V3Params = ROUTING_MODEL_V3_WEIGHTS,
): { domains: Map<string, number>; general: number } {
  const l = routingLogitsV3(x, w);
  const names = [...l.domains.keys()];
  const p = softmax([...l.domains.values(), l.general], w.temperature);
  return { domains: new Map(names.map((d, i) => [d, p[i]])), general: p[p.length - 1] };
}
