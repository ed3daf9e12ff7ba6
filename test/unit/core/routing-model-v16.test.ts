/**
 * Routing v16 (src/core/routing/, the default before v17): v15 with more of testers', users' and staff's words for a trade's work
 * (`VOCABULARY_V16`). Its keywords were written on every split up to heldout-fortieth.json; its two held-out splits
 * are never read by a rule.
 */
import path from 'node:path';
import { buildRoutingIndex, classify, ROUTING_MODEL_VERSIONS } from '../../../src/core/routing';
import { V15_HELD_OUT } from '../../../bench/routing-v15';
import { V16_HELD_OUT, V16_READ } from '../../../bench/routing-v16';
import { V8_CALIBRATION, V8_TRAIN } from '../../../bench/fit-routing-v8';
import { evaluateSplit, type Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const PROFILES = ['security', 'sre', 'frontend', 'backend', 'data', 'devops', 'docs', 'testing', 'finops'].map(
  (domain) => ({ name: `${domain}_agent`, domain, keywords: [] as string[] }),
);
const v15 = buildRoutingIndex(PROFILES, 'calibrated-v15');
const v16 = buildRoutingIndex(PROFILES, 'calibrated-v16');
const routesTo = (text: string, index: typeof v16): string | undefined => {
  const c = classify(text, index);
  return c.route ? c.domain : undefined;
};

describe('routing v16', () => {
  it('is a model the CLI names, after v23 to v17', () => {
    expect(Object.keys(ROUTING_MODEL_VERSIONS).slice(0, 15)).toEqual([
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
    ]);
  });

  it("knows more of testers', users' and staff's words for a trade's work, which v15 left with the base agent", () => {
    for (const [t, d] of [
      [
        'The loyalty app keeps member passwords as MD5. Move them to something modern and upgrade them at next login.',
        'security',
      ],
      [
        'Ex employees can still sign in to the intranet weeks after they leave; offboarding should cut their access.',
        'security',
      ],
      [
        "The nightly stock export sometimes stops without telling anyone. Make it alert us if it hasn't finished by 7am.",
        'sre',
      ],
      [
        "Every update breaks something that used to work. We need automatic checks so old features don't quietly break.",
        'testing',
      ],
      ['Ship prebuilt binaries for Linux and macOS on the releases page whenever we tag a version.', 'devops'],
    ] as const) {
      expect({ t, d: routesTo(t, v16) }).toEqual({ t, d });
      expect({ t, v15: routesTo(t, v15) }).toEqual({ t, v15: undefined });
    }
    // A product's own "page" on a dashboard stays with the base agent.
    expect(
      routesTo("Our bakery's ovens get a page on the dashboard when the temperature log is missing a day.", v16),
    ).toBeUndefined();
  });

  it('routes more tasks right than v15 on the splits it was written on, loses none, and routes no more general ones', () => {
    const files = [...V8_TRAIN, ...V8_CALIBRATION, ...V16_READ.map((n) => `heldout-${n}.json`)];
    expect(files).not.toEqual(expect.arrayContaining([`heldout-${V16_HELD_OUT.judged}.json`]));
    let right15 = 0;
    let right16 = 0;
    let general15 = 0;
    let general16 = 0;
    for (const f of files) {
      const a = evaluateSplit(split(f), v15);
      const b = evaluateSplit(split(f), v16);
      right15 += a.routedRight;
      right16 += b.routedRight;
      general15 += a.routedGeneral;
      general16 += b.routedGeneral;
      expect({ f, lost: Math.max(0, a.routedRight - b.routedRight) }).toEqual({ f, lost: 0 });
    }
    expect(right16 - right15).toBeGreaterThanOrEqual(50);
    expect(general16).toBeLessThanOrEqual(general15);
  });

  it('was judged on splits apart from the ones it was written on, read after v15 was judged', () => {
    const names = [V16_HELD_OUT.judged, V16_HELD_OUT.second];
    expect(names.filter((n) => (V16_READ as readonly string[]).includes(n))).toEqual([]);
    for (const n of names) {
      const tasks = split(`heldout-${n}.json`).tasks as { label: string }[];
      expect(tasks.length).toBeGreaterThanOrEqual(150);
      expect(tasks.filter((t) => t.label === 'general').length).toBeGreaterThanOrEqual(35);
    }
    expect(V16_READ).toEqual(expect.arrayContaining([V15_HELD_OUT.judged, V15_HELD_OUT.second]));
  });
});
