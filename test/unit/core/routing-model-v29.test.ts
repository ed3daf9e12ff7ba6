/**
 * Routing v29 (src/core/routing/model-v29.ts): v28's rules and vocabulary with weights of its own, refitted by
 * bench/fit-routing-v29.ts on every split read until v28 was judged (15,000 texts) and calibrated on v28's two held-out
 * splits, on which no rule or keyword was ever written. The texts below were written for this test, not taken from a
 * split.
 */
import path from 'node:path';
import {
  buildRoutingIndex,
  classify,
  keywordPass,
  normalizeText,
  ROUTING_MODEL_VERSIONS,
  routingModelV29Weights,
  routingModelV8Weights,
  routingProbabilitiesV4,
  textTokens,
} from '../../../src/core/routing';
import { V8_CALIBRATION, V8_TRAIN } from '../../../bench/fit-routing-v8';
import { V28_HELD_OUT, V28_READ } from '../../../bench/routing-v28';
import { V29_CALIBRATION, V29_HELD_OUT, V29_TRAIN, fitV29, v29Inputs } from '../../../bench/fit-routing-v29';
import { evaluateSplit, type Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const PROFILES = ['security', 'sre', 'frontend', 'backend', 'data', 'devops', 'docs', 'testing', 'finops'].map(
  (domain) => ({ name: `${domain}_agent`, domain, keywords: [] as string[] }),
);
const v28 = buildRoutingIndex(PROFILES, 'calibrated-v28');
const v29 = buildRoutingIndex(PROFILES, 'calibrated-v29');

describe('routing v29', () => {
  it('is the default model, with weights of its own: probabilities that sum to 1 and differ from v8 (the weights of v9 to v28)', () => {
    expect(classify('Rotate the leaked JWT signing keys').model).toBe('calibrated-v29');
    expect(buildRoutingIndex(PROFILES).model).toBe('calibrated-v29');
    expect(Object.keys(ROUTING_MODEL_VERSIONS)[0]).toBe('v29');
    const text = 'Operator ClusterRole grants far too much';
    const x = { evidence: keywordPass(text, v29), tokens: textTokens(normalizeText(text)) };
    const p29 = routingProbabilitiesV4(x, routingModelV29Weights());
    const p8 = routingProbabilitiesV4(x, routingModelV8Weights());
    expect([...p29.domains.values()].reduce((a, b) => a + b, p29.general)).toBeCloseTo(1, 9);
    expect(p29.domains.get('security')).not.toBeCloseTo(p8.domains.get('security')!, 4);
    expect(routingModelV29Weights().fitted).toMatchObject({
      by: expect.stringContaining('fit-routing-v29'),
      index: 'calibrated-v28',
    });
  });

  it("keeps v28's rules: a specialist's everyday word outside its world is general, a system's work routes", () => {
    expect(classify('Pottery kiln log: record the load weight and peak temperature for each firing.', v29).route).toBe(
      false,
    );
    const token =
      'I pushed my Slack bot token to a public repo by accident; what do I need to do besides deleting the file?';
    expect(classify(token, v29)).toMatchObject({ route: true, domain: 'security' });
    expect(classify('The Docker build fails on the arm64 runners since the base image bump.', v29)).toMatchObject({
      route: true,
      domain: 'devops',
    });
  });

  it('routes no general task of its calibration splits, and more of their tasks right than v28', () => {
    let right28 = 0;
    let right29 = 0;
    for (const f of V29_CALIBRATION) {
      const a = evaluateSplit(split(f), v28);
      const b = evaluateSplit(split(f), v29);
      right28 += a.routedRight;
      right29 += b.routedRight;
      expect({ f, general: b.routedGeneral }).toEqual({ f, general: 0 });
    }
    expect(right29).toBeGreaterThanOrEqual(right28);
  });
});

describe('the v29 fit (bench/fit-routing-v29.ts)', () => {
  it('reproduces the committed weights from the training and calibration splits', async () => {
    const { train, cal, profiles } = await v29Inputs();
    const { l2, l2Grid } = routingModelV29Weights().fitted as { l2: number; l2Grid: Record<string, number> };
    expect(fitV29(train, cal, profiles, [l2])).toEqual({
      ...routingModelV29Weights(),
      fitted: { ...routingModelV29Weights().fitted, l2Grid: { [String(l2)]: l2Grid[String(l2)] } },
    });
  }, 900_000);

  it("trains on every split read until v28 was judged, calibrates on v28's held-out splits, reads nothing of its own", () => {
    const tasks = (f: string) => split(f).tasks as { text: string; label: string; source?: string }[];
    expect(V29_TRAIN).toEqual(
      expect.arrayContaining([...V8_TRAIN, ...V8_CALIBRATION, ...V28_READ.map((n) => `heldout-${n}.json`)]),
    );
    expect(V29_CALIBRATION).toEqual([`heldout-${V28_HELD_OUT.judged}.json`, `heldout-${V28_HELD_OUT.second}.json`]);
    expect(V29_TRAIN.filter((f) => (V29_CALIBRATION as readonly string[]).includes(f))).toEqual([]);
    const seen = [...V29_TRAIN, ...V29_CALIBRATION].flatMap(tasks);
    const texts = new Set(seen.map((t) => normalizeText(t.text)));
    const urls = new Set(seen.map((t) => t.source).filter((s) => s?.startsWith('https://')));
    for (const name of [V29_HELD_OUT.judged, V29_HELD_OUT.second]) {
      const f = `heldout-${name}.json`;
      const heldOut = tasks(f);
      expect(V29_TRAIN).not.toContain(f);
      expect(heldOut.length).toBeGreaterThanOrEqual(150);
      expect(heldOut.filter((t) => t.label === 'general').length).toBeGreaterThanOrEqual(35);
      expect(heldOut.filter((t) => texts.has(normalizeText(t.text)) || urls.has(t.source))).toEqual([]);
    }
  });
});
