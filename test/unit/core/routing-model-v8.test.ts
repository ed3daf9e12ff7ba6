/**
 * Routing v8 (src/core/routing/model-v8.ts): v6's features fitted on the eight blind splits spent since v6 too, v7's
 * sense rules, and a hosted tool's vendor (Heroku, Vercel, Firebase...) as a cloud word for FinOps. The committed
 * weights are what bench/fit-routing-v8.ts fits; no text or thread of its two held-out blind splits is in its training
 * or calibration.
 */
import path from 'node:path';
import {
  buildRoutingIndex,
  classify,
  finopsEverydayOnly,
  hasCloudContext,
  keywordPass,
  normalizeText,
  ROUTING_DEFAULTS,
  routingModelV6Weights,
  routingModelV8Weights,
  routingProbabilitiesV4,
  textTokens,
} from '../../../src/core/routing';
import { V6_HELD_OUT, V6_LATER, V6_TRAIN } from '../../../bench/fit-routing-v6';
import { V8_CALIBRATION, V8_HELD_OUT, V8_TRAIN, fitV8, v8Inputs } from '../../../bench/fit-routing-v8';
import { evaluateSplit, type Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const PROFILES = ['security', 'sre', 'frontend', 'backend', 'data', 'devops', 'docs', 'testing', 'finops'].map(
  (domain) => ({ name: `${domain}_agent`, domain, keywords: [] as string[] }),
);
const v7 = buildRoutingIndex(PROFILES, 'calibrated-v7');
const v8 = buildRoutingIndex(PROFILES, 'calibrated-v8');

describe('routing v8', () => {
  it('has its own weights (v9 classifies with them too): probabilities that sum to 1 and differ from v6 and v7', () => {
    expect(classify('Rotate the leaked JWT signing keys', v8).model).toBe('calibrated-v8');
    const text = 'Operator ClusterRole grants far too much';
    const x = { evidence: keywordPass(text, v8), tokens: textTokens(normalizeText(text)) };
    const p8 = routingProbabilitiesV4(x, routingModelV8Weights());
    const p6 = routingProbabilitiesV4(x, routingModelV6Weights());
    expect([...p8.domains.values()].reduce((a, b) => a + b, p8.general)).toBeCloseTo(1, 9);
    expect(p8.domains.get('security')).not.toBeCloseTo(p6.domains.get('security')!, 4);
    expect(routingModelV8Weights().fitted).toMatchObject({ by: expect.stringContaining('fit-routing-v8') });
  });

  it("reads a hosted tool's vendor as a cloud word for FinOps: its bill routes, the product's own money does not", () => {
    const heroku = 'The volunteer rota app costs us $300 a month on Heroku for 40 users; find a cheaper plan.';
    expect(hasCloudContext(heroku, true)).toBe(false);
    expect(hasCloudContext(heroku, true, true)).toBe(true);
    expect(classify(heroku, v7).route).toBe(false);
    expect(classify(heroku, v8)).toMatchObject({ domain: 'finops', route: true });
    for (const vendor of ['Vercel', 'Netlify', 'Firebase', 'Fly.io', 'GitHub Actions', 'JetBrains', 'DigitalOcean'])
      expect(hasCloudContext(`Our ${vendor} bill doubled this month`, true, true)).toBe(true);
    expect(finopsEverydayOnly(['bill'], 'Our Supabase bill doubled', true)).toBe(false);
    expect(finopsEverydayOnly(['bill'], 'Our Supabase bill doubled', false)).toBe(true);
    // No vendor, no cloud word: the product's money stays with the base agent, as in v7.
    const product = "Add monthly budget limits per spending category so members see this month's spend.";
    expect(classify(product, v8)).toMatchObject({ route: false });
    expect(classify(product, v8).why.join('\n')).toMatch(/finops names no cloud/);
  });

  it("keeps v7's sense rules: a specialist's everyday word outside its world counts as general", () => {
    const text =
      'Theatre ushers need to swap shifts on the front-of-house on-call rota; add swap requests that the duty manager approves.';
    const r = classify(text, v8);
    expect(r.route).toBe(false);
    expect(r.why.join('\n')).toMatch(/sre matched only everyday words \(on call\).*counts as general/);
    expect(classify('The on-call engineer gets paged for every flapping disk alert; add a runbook', v8)).toMatchObject({
      domain: 'sre',
      route: true,
    });
  });

  it("prices 0 general routed on the judged held-out split: the bar above every general task's confidence", () => {
    const judged = split(`heldout-${V8_HELD_OUT.judged}.json`);
    const f = evaluateSplit(judged, v8);
    expect(f.zeroGeneral.minConfidence).toBeGreaterThanOrEqual(ROUTING_DEFAULTS.minConfidence);
    const at = evaluateSplit(judged, v8, { ...ROUTING_DEFAULTS, minConfidence: f.zeroGeneral.minConfidence });
    expect(at.routedGeneral).toBe(0);
    expect(at.routedRight).toBe(f.zeroGeneral.routedRight);
    expect(f.zeroGeneral.accuracy).toBeLessThanOrEqual(f.accuracy);
  });
});

describe('the v8 fit (bench/fit-routing-v8.ts)', () => {
  it('reproduces the committed weights from the training and calibration splits', async () => {
    const { train, cal, profiles } = await v8Inputs();
    const { l2, l2Grid } = routingModelV8Weights().fitted as { l2: number; l2Grid: Record<string, number> };
    expect(fitV8(train, cal, profiles, [l2])).toEqual({
      ...routingModelV8Weights(),
      fitted: { ...routingModelV8Weights().fitted, l2Grid: { [String(l2)]: l2Grid[String(l2)] } },
    });
  }, 600_000);

  it("trains on v6's splits and every blind split spent since; reads no text or thread of its two held-out splits", () => {
    const tasks = (f: string) => split(f).tasks as { text: string; source?: string }[];
    expect(V8_TRAIN).toEqual([
      ...V6_TRAIN,
      ...[V6_HELD_OUT.judged, V6_HELD_OUT.second, ...V6_LATER].map((n) => `heldout-${n}.json`),
    ]);
    expect(V8_TRAIN).toContain('heldout-twentysecond.json');
    const seen = [...V8_TRAIN, ...V8_CALIBRATION].flatMap(tasks);
    const texts = new Set(seen.map((t) => normalizeText(t.text)));
    const urls = new Set(seen.map((t) => t.source).filter((s) => s?.startsWith('https://')));
    for (const name of [V8_HELD_OUT.judged, V8_HELD_OUT.second]) {
      const f = `heldout-${name}.json`;
      const heldOut = tasks(f);
      expect(V8_TRAIN).not.toContain(f);
      expect(heldOut.length).toBeGreaterThanOrEqual(150);
      if (name === V8_HELD_OUT.judged)
        expect(heldOut.filter((t) => t.source !== 'written').length).toBeGreaterThanOrEqual(50);
      expect(heldOut.filter((t) => texts.has(normalizeText(t.text)) || urls.has(t.source))).toEqual([]);
    }
  });
});
