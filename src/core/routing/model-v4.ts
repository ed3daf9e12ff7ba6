/**
 * The routing v4 model: the v3 model (./model-v3.ts: keyword features plus the text's own words) plus features from
 * the routing lexicon, so jargon none of the labelled texts contain still points to its domain.
 *
 * The lexicon (./lexicon-weights.ts, written by bench/build-routing-lexicon.ts) holds, per token, its log-lift in each
 * domain in about 130,000 commit subjects of about 100 public repositories labelled by what each project is: "bulkhead"
 * is 8x likelier in a resilience project's commits than in all of them. A candidate domain's lexicon features are the
 * sum of its tokens' lifts (log), their share of all domains' sums, the largest single lift, and whether it leads;
 * `general` gets how much lexicon evidence the text has at all. The model's weights (how far to trust the lexicon)
 * are fitted on the training split like v3's (bench/fit-routing-v4.ts), so the lexicon's noise is weighed by how
 * well it predicted labelled tasks. Pure and deterministic.
 */
import { routingLogitsV3, type RoutingModelV3Weights, type V3Input } from './model-v3';
import { softmax } from './model';

/** Names of a candidate domain's lexicon features (after the keyword features). */
export const LEXICON_DOMAIN_FEATURES = ['lex_log_sum', 'lex_share', 'lex_max', 'lex_top', 'lex_margin'] as const;
/** Names of `general`'s lexicon features (after its keyword features). */
export const LEXICON_GENERAL_FEATURES = ['lex_log_total', 'lex_best'] as const;

/** The lexicon: domain names and, per token, pairs of (domain index, log-lift). */
export interface RoutingLexicon {
  domains: readonly string[];
  tokens: Readonly<Record<string, readonly number[]>>;
  built: Record<string, unknown>;
}

/*
 * The lexicon and the v4 weights are loaded on first use, not when this module is: the workflow bundle evaluates the
 * routing core for every loop it runs, and the lexicon alone costs about 4 MB per loop in memory (bench:fleet measured
 * a worker's peak RSS at 100 loops go from 446 to 848 MB with it loaded eagerly); only a loop that routes needs it.
 */
let lexicon: RoutingLexicon | undefined;
let v4Weights: RoutingModelV3Weights | undefined;

/** The routing lexicon (./lexicon-weights.ts), loaded on first use. */
export function routingLexicon(): RoutingLexicon {
  lexicon ??= JSON.parse(
    (require('./lexicon-weights') as typeof import('./lexicon-weights')).ROUTING_LEXICON_JSON,
  ) as RoutingLexicon;
  return lexicon;
}

/** The lexicon evidence of a text's tokens: per domain, the sum and the largest of its tokens' lifts. */
export interface LexiconEvidence {
  sum: Map<string, number>;
  max: Map<string, number>;
  /** Tokens with a lift of at least {@link LEXICON_JARGON_LIFT} in the domain (jargon of that domain). */
  jargon: Map<string, number>;
}

/** A token this much likelier in a domain (e^1.5, 4.5x) is that domain's jargon. */
export const LEXICON_JARGON_LIFT = 1.5;

/** Looks the tokens up in the lexicon. */
export function lexiconEvidence(tokens: readonly string[], lex: RoutingLexicon = routingLexicon()): LexiconEvidence {
  const out: LexiconEvidence = { sum: new Map(), max: new Map(), jargon: new Map() };
  for (const t of tokens) {
    const row = lex.tokens[t];
    if (!row) continue;
    for (let i = 0; i + 1 < row.length; i += 2) {
      const d = lex.domains[row[i]];
      const lift = row[i + 1];
      out.sum.set(d, (out.sum.get(d) ?? 0) + lift);
      out.max.set(d, Math.max(out.max.get(d) ?? 0, lift));
      if (lift >= LEXICON_JARGON_LIFT && !t.includes('_')) out.jargon.set(d, (out.jargon.get(d) ?? 0) + 1);
    }
  }
  return out;
}

/** The lexicon features of every candidate domain and of `general`. */
export function lexiconFeatures(lx: LexiconEvidence): { domain: (d: string) => number[]; general: number[] } {
  let total = 0;
  let best = 0;
  for (const v of lx.sum.values()) {
    total += v;
    best = Math.max(best, v);
  }
  return {
    domain: (d) => {
      const s = lx.sum.get(d) ?? 0;
      let rival = 0;
      for (const [o, v] of lx.sum) if (o !== d && v > rival) rival = v;
      return [
        Math.log1p(s),
        total > 0 ? s / total : 0,
        lx.max.get(d) ?? 0,
        s > 0 && s >= best ? 1 : 0,
        Math.tanh((s - rival) / 3),
      ];
    },
    general: [Math.log1p(total), Math.log1p(best)],
  };
}

/** The committed v4 weights (./model-v4-weights.ts, written by bench/fit-routing-v4.ts), loaded on first use. */
export function routingModelV4Weights(): RoutingModelV3Weights {
  v4Weights ??= JSON.parse(
    (require('./model-v4-weights') as typeof import('./model-v4-weights')).ROUTING_MODEL_V4_WEIGHTS_JSON,
  ) as RoutingModelV3Weights;
  return v4Weights;
}

type V4Params = Pick<
  RoutingModelV3Weights,
  'classes' | 'bias' | 'tokens' | 'domain' | 'general' | 'temperature' | 'generalOffset'
>;

/** Calibrated probability of every candidate domain and of `general` (they sum to 1). */
export function routingProbabilitiesV4(
  x: V3Input,
  w: V4Params = routingModelV4Weights(),
  lex: RoutingLexicon = routingLexicon(),
): { domains: Map<string, number>; general: number; lexicon: LexiconEvidence } {
  const lx = lexiconEvidence(x.tokens, lex);
  const l = routingLogitsV3(x, w, lexiconFeatures(lx));
  const names = [...l.domains.keys()];
  const p = softmax([...l.domains.values(), l.general], w.temperature);
  return { domains: new Map(names.map((d, i) => [d, p[i]])), general: p[p.length - 1], lexicon: lx };
}
