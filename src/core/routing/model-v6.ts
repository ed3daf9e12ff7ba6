/**
 * The routing v6 model: v5's features and rules (./model-v5.ts, ./classifier.ts) with weights fitted on one blind split
 * more (bench/fit-routing-v6.ts: v5's training plus `heldout-seventh.json`, spent by v5's measurement), and two rules
 * more in the classifier: small work that names a command-line flag, an off-by-one or unchanged behaviour stays with
 * the base agent ({@link smallWork} in ./classifier.ts), and "compute" as a verb ("compute the invoice totals") is no
 * cloud word for FinOps. Pure and deterministic.
 */
import type { RoutingModelV3Weights } from './model-v3';

let v6Weights: RoutingModelV3Weights | undefined;

/** The committed v6 weights (./model-v6-weights.ts, written by bench/fit-routing-v6.ts), loaded on first use. */
export function routingModelV6Weights(): RoutingModelV3Weights {
  v6Weights ??= JSON.parse(
    (require('./model-v6-weights') as typeof import('./model-v6-weights')).ROUTING_MODEL_V6_WEIGHTS_JSON,
  ) as RoutingModelV3Weights;
  return v6Weights;
}
