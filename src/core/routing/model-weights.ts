/**
 * The routing model's fitted weights: written by bench/fit-routing.ts (`npm run fit:routing`), not by hand.
 * Weights fitted on the training split, temperature chosen on the calibration split (see ./model.ts).
 */
export const ROUTING_MODEL_WEIGHTS = {
  domainFeatures: ['log_score', 'share', 'margin', 'strong', 'profile', 'top', 'lead'],
  domain: [0.8869, 0.0908, 0.607, 1.3052, 0.0693, 0.3313, 0.9097],
  generalFeatures: ['bias', 'log_best', 'log_total', 'domains', 'log_words', 'terms'],
  general: [6.8757, -0.695, -0.7539, -0.2245, -0.3962, -0.8652],
  temperature: 1.25,
  fitted: {
    by: 'bench/fit-routing.ts (npm run fit:routing)',
    train: {
      split: 'test/fixtures/routing/labelled.json',
      tasks: 552,
      nll: 0.1306,
    },
    calibration: {
      split: 'test/fixtures/routing/calibration.json',
      tasks: 82,
      nllAtT1: 0.397,
      nll: 0.387,
    },
    l2: 0.01,
    steps: 4000,
    profiles: 'test/fixtures/routing/agents',
  },
};
