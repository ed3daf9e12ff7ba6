/**
 * The routing v5 model: v4's features (./model-v4.ts: keyword features, the text's own words, the routing lexicon)
 * with weights fitted on more real text (bench/fit-routing-v5.ts: v4's training split plus the two blind splits v4
 * was measured on, `heldout-real.json` and `heldout-fresh.json`, both spent), and one complexity rule more in the
 * classifier: a task whose domain the model is sure of (probability >= {@link V5_CERTAIN}, at least 3 words) is
 * specialist work, +1 complexity. Short real issue titles ("Controller RBAC is too permissive", 5 words, security at
 * 0.94) otherwise stop at complexity 3 under the seed's "complexity > 3" bar; "Fix XSS" (2 words) still does.
 * Pure and deterministic.
 */
import type { RoutingModelV3Weights } from './model-v3';

/** A primary domain this probable counts +1 toward the complexity (v5). */
export const V5_CERTAIN = 0.9;

let v5Weights: RoutingModelV3Weights | undefined;

/** The committed v5 weights (./model-v5-weights.ts, written by bench/fit-routing-v5.ts), loaded on first use. */
export function routingModelV5Weights(): RoutingModelV3Weights {
  v5Weights ??= JSON.parse(
    (require('./model-v5-weights') as typeof import('./model-v5-weights')).ROUTING_MODEL_V5_WEIGHTS_JSON,
  ) as RoutingModelV3Weights;
  return v5Weights;
}
