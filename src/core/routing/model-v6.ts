/**
 * The routing v6 model: v5's features and rules (./model-v5.ts, ./classifier.ts) with weights fitted on more text
 * (bench/fit-routing-v6.ts: v5's training plus eight blind splits spent by their measurements, and four sets written
 * for training: business words, plain-language specialist tasks, hard general tasks), and rules more in the
 * classifier: small work (a command-line flag, an off-by-one, unchanged behaviour, a rename clause) and an upgrade of
 * the application's own framework stay with the base agent ({@link smallWork}, {@link choreLead} in ./classifier.ts),
 * a bump that says it has no advisory stays a chore, and "compute" as a verb ("compute the invoice totals") is no cloud
 * word for FinOps. Pure and deterministic.
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
