/**
 * Routing v17 (src/core/routing/, the default before v18): v16 where small work that is only a constraint of docs or testing work,
 * or "without breaking" a thing, no longer makes a task small; an arrow between versions reads "to"; a security
 * deposit or guard is the business's own; and developers' jargon (`VOCABULARY_V17`). Its rules were written on every
 * split up to heldout-fortysecond.json; its two held-out splits are never read by a rule.
 */
import path from 'node:path';
import {
  buildRoutingIndex,
  choreLead,
  classify,
  ROUTING_MODEL_VERSIONS,
  smallWorkV17,
  withoutEverydaySecurity,
} from '../../../src/core/routing';
import { V16_HELD_OUT } from '../../../bench/routing-v16';
import { V17_HELD_OUT, V17_READ } from '../../../bench/routing-v17';
import { V8_CALIBRATION, V8_TRAIN } from '../../../bench/fit-routing-v8';
import { evaluateSplit, type Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const PROFILES = ['security', 'sre', 'frontend', 'backend', 'data', 'devops', 'docs', 'testing', 'finops'].map(
  (domain) => ({ name: `${domain}_agent`, domain, keywords: [] as string[] }),
);
const v16 = buildRoutingIndex(PROFILES, 'calibrated-v16');
const v17 = buildRoutingIndex(PROFILES, 'calibrated-v17');
const routesTo = (text: string, index: typeof v17): string | undefined => {
  const c = classify(text, index);
  return c.route ? c.domain : undefined;
};

describe('routing v17', () => {
  it('is a model the CLI names, after v23 to v18', () => {
    expect(Object.keys(ROUTING_MODEL_VERSIONS).slice(0, 14)).toEqual([
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
    ]);
  });

  it('reads a flag, an off-by-one or unchanged behaviour in docs or testing work as what that work is about', () => {
    for (const [t, d] of [
      [
        'Document the new --since option of the export command in the CLI reference and the README, with two worked examples.',
        'docs',
      ],
      [
        "Write Vitest cases for the date-range parser's off-by-one at month ends, covering leap years and time zones.",
        'testing',
      ],
      [
        'The dropdown menu renders behind the modal overlay in Firefox; fix the z-index stacking without breaking the mobile nav.',
        'frontend',
      ],
    ] as const) {
      expect({ t, d: routesTo(t, v17) }).toEqual({ t, d });
      // v16 kept each small (complexity at most 3).
      expect({ t, v16: routesTo(t, v16) }).toEqual({ t, v16: undefined });
    }
    expect(smallWorkV17('Document the --dry-run flag in the README', 'docs')).toBeUndefined();
    // Small work elsewhere stays small: a flag on a script, a refactor that keeps every route.
    expect(smallWorkV17('Add a --verbose flag to the cleanup script.', 'devops')).toBe('cli flag');
    const split = 'Split the OrderController into three controllers without changing any routes.';
    expect(smallWorkV17(split, 'backend')).toBe('unchanged behaviour');
    expect(classify(split, v17)).toMatchObject({ route: false, chore: 'unchanged behaviour' });
  });

  it('reads an arrow between versions as "to": the upgrade chore', () => {
    expect(choreLead('Upgrade Laravel 10 → 11 and clear the deprecation warnings.', true, true, true)).toBe('upgrade');
    expect(choreLead('Upgrade Laravel 10 → 11 and clear the deprecation warnings.', true, true)).toBeUndefined();
    // Infrastructure's upgrade is no chore, arrow or not.
    expect(choreLead('Upgrade EKS 1.28 -> 1.29 and check the removed APIs.', true, true, true)).toBeUndefined();
    expect(classify('Upgrade Laravel 10 → 11 and clear the deprecation warnings.', v17)).toMatchObject({
      route: false,
      chore: 'upgrade',
    });
  });

  it("reads a security deposit or guard as the business's own", () => {
    expect(withoutEverydaySecurity('Take a security deposit; the Security-Guards rota')).toBe(
      'Take a deposit; the Guards rota',
    );
    expect(
      routesTo('Bike rental: take a security deposit at pickup and refund it when the bike is returned.', v17),
    ).toBe(undefined);
    // Security work with the same word stays security work.
    expect(routesTo('Run cargo audit in CI and fix the RUSTSEC advisories it reports.', v17)).toBe('security');
  });

  it('routes more tasks right than v16 on the splits it was written on, loses none, and routes no more general ones', () => {
    const files = [...V8_TRAIN, ...V8_CALIBRATION, ...V17_READ.map((n) => `heldout-${n}.json`)];
    expect(files).not.toEqual(expect.arrayContaining([`heldout-${V17_HELD_OUT.judged}.json`]));
    let right16 = 0;
    let right17 = 0;
    let general16 = 0;
    let general17 = 0;
    for (const f of files) {
      const a = evaluateSplit(split(f), v16);
      const b = evaluateSplit(split(f), v17);
      right16 += a.routedRight;
      right17 += b.routedRight;
      general16 += a.routedGeneral;
      general17 += b.routedGeneral;
      expect({ f, lost: Math.max(0, a.routedRight - b.routedRight) }).toEqual({ f, lost: 0 });
    }
    expect(right17 - right16).toBeGreaterThanOrEqual(30);
    expect(general17).toBeLessThan(general16);
  });

  it('was judged on splits apart from the ones it was written on, read after v16 was judged', () => {
    const names = [V17_HELD_OUT.judged, V17_HELD_OUT.second];
    expect(names.filter((n) => (V17_READ as readonly string[]).includes(n))).toEqual([]);
    for (const n of names) {
      const tasks = split(`heldout-${n}.json`).tasks as { label: string }[];
      expect(tasks.length).toBeGreaterThanOrEqual(150);
      expect(tasks.filter((t) => t.label === 'general').length).toBeGreaterThanOrEqual(35);
    }
    expect(V17_READ).toEqual(expect.arrayContaining([V16_HELD_OUT.judged, V16_HELD_OUT.second]));
  });
});
