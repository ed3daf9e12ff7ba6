/**
 * The routing v29 model: v8's features and optimizer (keyword evidence by domain, the routing lexicon, the text's own
 * words) with weights refitted on far more text, read the way v28 reads it (its vocabulary, its reading of identifiers
 * and counts): bench/fit-routing-v29.ts fits them on every split read until v28 was judged, and chooses the L2
 * strength, the temperature and the general offset on the two most recent of them, which no rule or vocabulary was
 * written on. v28's rules (./classifier.ts, ./sense.ts) apply on top, as v9 to v28 apply theirs on v8's weights. Pure
 * and deterministic.
 */
import type { RoutingModelV3Weights } from './model-v3';

let v29Weights: RoutingModelV3Weights | undefined;

/** The committed v29 weights (./model-v29-weights.ts, written by bench/fit-routing-v29.ts), loaded on first use. */
export function routingModelV29Weights(): RoutingModelV3Weights {
  v29Weights ??= JSON.parse(
    (require('./model-v29-weights') as typeof import('./model-v29-weights')).ROUTING_MODEL_V29_WEIGHTS_JSON,
  ) as RoutingModelV3Weights;
  return v29Weights;
}
