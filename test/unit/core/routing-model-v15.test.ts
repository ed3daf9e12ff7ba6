/**
 * Routing v15 (src/core/routing/, the default before v16): v14 with users' and staff's words for a trade's work
 * (`VOCABULARY_V15`). Its keywords were written on every split up to heldout-thirtyeighth.json; its two held-out
 * splits are never read by a rule.
 */
import path from 'node:path';
import { buildRoutingIndex, classify, ROUTING_MODEL_VERSIONS } from '../../../src/core/routing';
import { V14_HELD_OUT } from '../../../bench/routing-v14';
import { V15_HELD_OUT, V15_READ } from '../../../bench/routing-v15';
import { V8_CALIBRATION, V8_TRAIN } from '../../../bench/fit-routing-v8';
import { evaluateSplit, type Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const PROFILES = ['security', 'sre', 'frontend', 'backend', 'data', 'devops', 'docs', 'testing', 'finops'].map(
  (domain) => ({ name: `${domain}_agent`, domain, keywords: [] as string[] }),
);
const v14 = buildRoutingIndex(PROFILES, 'calibrated-v14');
const v15 = buildRoutingIndex(PROFILES, 'calibrated-v15');
const routesTo = (text: string, index: typeof v15): string | undefined => {
  const c = classify(text, index);
  return c.route ? c.domain : undefined;
};

describe('routing v15', () => {
  it('is a model the CLI names, after v23 to v16', () => {
    expect(Object.keys(ROUTING_MODEL_VERSIONS).slice(0, 16)).toEqual([
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
      'v16',
      'v15',
      'v14',
    ]);
  });

  it("knows users' and staff's words for a trade's work", () => {
    for (const [t, d] of [
      [
        'The staff directory page hits the database once per person and takes ages to open. Make it one query.',
        'backend',
      ],
      [
        'Our tests only run on my machine. Make them run on every pull request and block the merge when one fails.',
        'devops',
      ],
      ['We pay for 60 monitoring hosts but only run 25 servers now. Can the plan be cut to what we use?', 'finops'],
    ] as const)
      expect({ t, d: routesTo(t, v15) }).toEqual({ t, d });
    // The same words in a product's own sense stay with the base agent.
    const members = 'Club members pay for their locker yearly; show each member when their locker renewal is due.';
    expect(routesTo(members, v15)).toBeUndefined();
  });

  it('routes more tasks right than v14 on the splits it was written on, loses none, and routes no more general ones', () => {
    const files = [...V8_TRAIN, ...V8_CALIBRATION, ...V15_READ.map((n) => `heldout-${n}.json`)];
    expect(files).not.toEqual(expect.arrayContaining([`heldout-${V15_HELD_OUT.judged}.json`]));
    let right14 = 0;
    let right15 = 0;
    let general14 = 0;
    let general15 = 0;
    for (const f of files) {
      const a = evaluateSplit(split(f), v14);
      const b = evaluateSplit(split(f), v15);
      right14 += a.routedRight;
      right15 += b.routedRight;
      general14 += a.routedGeneral;
      general15 += b.routedGeneral;
      expect({ f, lost: Math.max(0, a.routedRight - b.routedRight) }).toEqual({ f, lost: 0 });
    }
    expect(right15 - right14).toBeGreaterThanOrEqual(25);
    expect(general15).toBeLessThanOrEqual(general14);
  });

  it('was judged on splits apart from the ones it was written on, read after v14 was judged', () => {
    const names = [V15_HELD_OUT.judged, V15_HELD_OUT.second];
    expect(names.filter((n) => (V15_READ as readonly string[]).includes(n))).toEqual([]);
    for (const n of names) {
      const tasks = split(`heldout-${n}.json`).tasks as { label: string }[];
      expect(tasks.length).toBeGreaterThanOrEqual(150);
      expect(tasks.filter((t) => t.label === 'general').length).toBeGreaterThanOrEqual(35);
    }
    expect(V15_READ).toEqual(expect.arrayContaining([V14_HELD_OUT.judged, V14_HELD_OUT.second]));
  });
});
