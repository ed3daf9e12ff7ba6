/**
 * The routing v8 model: v6's features and fit with weights fitted on more text (bench/fit-routing-v8.ts: v6's training
 * plus the eight blind splits spent since, heldout-fifteenth.json to heldout-twentysecond.json), v7's sense rules
 * (./sense.ts), and one rule more in the classifier: a hosted tool's vendor ("Heroku", "Vercel seats", "Firebase") is
 * a cloud word for FinOps ({@link hasCloudContext} in ./classifier.ts). Pure and deterministic.
 */
import type { RoutingModelV3Weights } from './model-v3';

let v8Weights: RoutingModelV3Weights | undefined;

/** The committed v8 weights (./model-v8-weights.ts, written by bench/fit-routing-v8.ts), loaded on first use. */
export function routingModelV8Weights(): RoutingModelV3Weights {
  v8Weights ??= JSON.parse(
    (require('./model-v8-weights') as typeof import('./model-v8-weights')).ROUTING_MODEL_V8_WEIGHTS_JSON,
  ) as RoutingModelV3Weights;
  return v8Weights;
}
