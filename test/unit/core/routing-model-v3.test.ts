/**
 * The routing v3 model (src/core/routing/model-v3.ts): probabilities over every built-in domain and `general`, the
 * text's words deciding a domain no keyword names, `general` kept for plain chores, and the honesty of the fit (the
 * committed weights are what bench/fit-routing-v3.ts fits on the training and calibration splits, and no text of a
 * held-out split is in them).
 */
import path from 'node:path';
import { loadAgentProfiles } from '../../../src/activities/routing';
import {
  ROUTING_MODEL_V3_WEIGHTS,
  buildRoutingIndex,
  classify,
  keywordPass,
  normalizeText,
  routingProbabilitiesV3,
  textTokens,
} from '../../../src/core/routing';
import { fitV3, v3Inputs, type Labelled } from '../../../bench/fit-routing-v3';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;

describe('the v3 model', () => {
  it('tokenizes into distinct stemmed unigrams and adjacent bigrams, stopwords and numbers out', () => {
    expect(textTokens(normalizeText('Add the ETags to 2 GET /products endpoints'))).toEqual([
      'add',
      'etag',
      'get',
      'product',
      'endpoint',
      'add_etag',
      'etag_get',
      'get_product',
      'product_endpoint',
    ]);
  });

  it('gives every built-in domain and general a probability; they sum to 1; deterministic', () => {
    const text = 'Implement the transactional outbox so order events reach Kafka exactly once';
    const x = {
      evidence: keywordPass(text, buildRoutingIndex([], 'calibrated-v3')),
      tokens: textTokens(normalizeText(text)),
    };
    const p = routingProbabilitiesV3(x);
    const builtins = ROUTING_MODEL_V3_WEIGHTS.classes.filter((c) => c !== 'general');
    for (const d of builtins) expect(p.domains.has(d)).toBe(true);
    const sum = [...p.domains.values()].reduce((a, b) => a + b, p.general);
    expect(sum).toBeCloseTo(1, 9);
    expect(routingProbabilitiesV3(x)).toEqual(p);
  });

  it('scores a domain a profile defines from its keywords (no text weights for it)', () => {
    const index = buildRoutingIndex(
      [{ name: 'dns_specialist', domain: 'dns', keywords: ['dns', 'mx record', 'spf', 'dkim'], weights: { dns: 4 } }],
      'calibrated-v3',
    );
    const c = classify('Configure the DNS zone with MX records, SPF and DKIM for the new mail domain', index);
    expect(c).toMatchObject({ model: 'calibrated-v3', domain: 'dns', route: true, profile: 'dns_specialist' });
  });

  it('keeps plain chores with no keyword as general (no_match), as v2 did', () => {
    for (const t of ['Say hello', 'Rename the variable foo to bar', "What's the weather?"])
      expect(classify(t, buildRoutingIndex([], 'calibrated-v3'))).toMatchObject({
        domain: 'general',
        route: false,
        decidedBy: 'no_match',
        confidence: 0,
      });
  });

  it('lets the words of the text decide a domain when no keyword matched (training texts)', async () => {
    const { profiles } = await loadAgentProfiles({ workspace: FIXTURES, dir: path.join(FIXTURES, 'agents') });
    const index = buildRoutingIndex(profiles, 'calibrated-v3');
    const noKeyword = [...split('labelled.json').tasks, ...split('labelled-extra.json').tasks].filter(
      (t) => t.label !== 'general' && keywordPass(t.text, index).scores.size === 0,
    );
    expect(noKeyword.length).toBeGreaterThan(0);
    const right = noKeyword.filter((t) => classify(t.text, index).domain === t.label);
    expect(right.length).toBeGreaterThan(noKeyword.length / 2);
    for (const t of right) expect(classify(t.text, index).why[0]).toMatch(/from the text's words|scored/);
  });
});

describe('the v3 fit (bench/fit-routing-v3.ts)', () => {
  it('reproduces the committed weights from the training and calibration splits', async () => {
    const { train, cal, profiles } = await v3Inputs();
    // Refitted at the committed L2 strength only, as v4's and v5's tests do (the grid's other fits' losses are on
    // record in `fitted.l2Grid`).
    const { l2, l2Grid } = ROUTING_MODEL_V3_WEIGHTS.fitted as { l2: number; l2Grid: Record<string, number> };
    expect(fitV3(train, cal, profiles, { l2Grid: [l2] })).toEqual({
      ...ROUTING_MODEL_V3_WEIGHTS,
      fitted: { ...ROUTING_MODEL_V3_WEIGHTS.fitted, l2Grid: { [String(l2)]: l2Grid[String(l2)] } },
    });
  }, 300_000);

  it('trains on no text of the calibration or held-out splits (blind included)', () => {
    const norm = (f: string) => new Set(split(f).tasks.map((t) => normalizeText(t.text)));
    const train = new Set([...norm('labelled.json'), ...norm('labelled-extra.json')]);
    for (const f of ['calibration.json', 'heldout.json', 'heldout-blind.json'])
      expect([...norm(f)].filter((t) => train.has(t))).toEqual([]);
    expect(split('heldout-blind.json').tasks.length).toBeGreaterThanOrEqual(150);
  });
});
