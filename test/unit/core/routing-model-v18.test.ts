/**
 * Routing v18 (src/core/routing/, the default before v21): v17 where SRE's zones are a cloud's (an availability zone, not a
 * fireworks site's safety zone), a lockout is one of security's everyday words, and more of developers', testers' and
 * staff's words (`VOCABULARY_V18`). Its rules were written on every split up to heldout-fortyfourth.json; its two
 * held-out splits are never read by a rule.
 */
import path from 'node:path';
import { buildRoutingIndex, classify, ROUTING_MODEL_VERSIONS } from '../../../src/core/routing';
import { V17_HELD_OUT } from '../../../bench/routing-v17';
import { V18_HELD_OUT, V18_READ } from '../../../bench/routing-v18';
import { V8_CALIBRATION, V8_TRAIN } from '../../../bench/fit-routing-v8';
import { evaluateSplit, type Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const PROFILES = ['security', 'sre', 'frontend', 'backend', 'data', 'devops', 'docs', 'testing', 'finops'].map(
  (domain) => ({ name: `${domain}_agent`, domain, keywords: [] as string[] }),
);
const v17 = buildRoutingIndex(PROFILES, 'calibrated-v17');
const v18 = buildRoutingIndex(PROFILES, 'calibrated-v18');
const routesTo = (text: string, index: typeof v18): string | undefined => {
  const c = classify(text, index);
  return c.route ? c.domain : undefined;
};

describe('routing v18', () => {
  it('is a model the CLI names, after v23 to v19', () => {
    expect(Object.keys(ROUTING_MODEL_VERSIONS).slice(0, 13)).toEqual([
      'v29',
      'v28',
      'v27',
      'v26',
      'v25',
      'v24',
      'v23',
      'v22',
      'v21',
      'v20',
      'v19',
      'v18',
      'v17',
    ]);
  });

  it("reads a zone as SRE's world only when it is a cloud's", () => {
    const fireworks =
      'Fireworks display planner: each launch site needs a safety zone radius and the alert time for the crowd marshals.';
    expect(routesTo(fireworks, v17)).toBe('sre');
    expect(routesTo(fireworks, v18)).toBeUndefined();
    expect(
      routesTo(
        "Spread the checkout service across three availability zones and alert when one zone's error rate climbs.",
        v18,
      ),
    ).toBe('sre');
  });

  it("reads a locksmith's lockouts as the business's own, and knows more of the trades' words", () => {
    const locksmith = 'Locksmith app: emergency lockouts should be priced by time of day, with a night surcharge.';
    // v17 gave security some probability for the lockouts; v18 reads them as the business's own.
    expect(classify(locksmith, v17).confidences.security).toBeGreaterThan(0.1);
    expect(classify(locksmith, v18).confidences.security).toBeLessThan(0.01);
    expect(classify(locksmith, v18).why.join(' ')).toContain('security matched only everyday words');
    for (const [t, d] of [
      ['Lock accounts after five failed logins and add two-factor for admins.', 'security'],
      ["Propagate the W3C traceparent through the Kafka headers so consumer spans join the producer's trace.", 'sre'],
    ] as const) {
      expect({ t, d: routesTo(t, v18) }).toEqual({ t, d });
      expect({ t, v17: routesTo(t, v17) }).not.toEqual({ t, v17: d });
    }
  });

  it('routes more tasks right than v17 on the splits it was written on, loses none, and routes fewer general ones', () => {
    const files = [...V8_TRAIN, ...V8_CALIBRATION, ...V18_READ.map((n) => `heldout-${n}.json`)];
    expect(files).not.toEqual(expect.arrayContaining([`heldout-${V18_HELD_OUT.judged}.json`]));
    let right17 = 0;
    let right18 = 0;
    let general17 = 0;
    let general18 = 0;
    for (const f of files) {
      const a = evaluateSplit(split(f), v17);
      const b = evaluateSplit(split(f), v18);
      right17 += a.routedRight;
      right18 += b.routedRight;
      general17 += a.routedGeneral;
      general18 += b.routedGeneral;
      expect({ f, lost: Math.max(0, a.routedRight - b.routedRight) }).toEqual({ f, lost: 0 });
    }
    expect(right18 - right17).toBeGreaterThanOrEqual(40);
    expect(general18).toBeLessThan(general17);
  });

  it('was judged on splits apart from the ones it was written on, read after v17 was judged', () => {
    const names = [V18_HELD_OUT.judged, V18_HELD_OUT.second];
    expect(names.filter((n) => (V18_READ as readonly string[]).includes(n))).toEqual([]);
    for (const n of names) {
      const tasks = split(`heldout-${n}.json`).tasks as { label: string }[];
      expect(tasks.length).toBeGreaterThanOrEqual(150);
      expect(tasks.filter((t) => t.label === 'general').length).toBeGreaterThanOrEqual(35);
    }
    expect(V18_READ).toEqual(expect.arrayContaining([V17_HELD_OUT.judged, V17_HELD_OUT.second]));
  });
});
