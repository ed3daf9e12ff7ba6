/**
 * Routing v22 and v23 (src/core/routing/), two rounds after v21 that were not made the default: on the four blind
 * splits written after v21's held-out ones they route as many tasks right as v21 (v22 one more on heldout-fiftythird,
 * one fewer on heldout-fiftyfifth) and as few general ones. v22: a domain whose every keyword is inside a product
 * element's quoted name counts as general; FinOps's logs are a system's, not a verb; `VOCABULARY_V22`. v23: data's
 * migrations and Hive are data's, a trade's records are everyday beside its lineage; `VOCABULARY_V23`. The texts below
 * were written for this test, not taken from a split.
 */
import path from 'node:path';
import { buildRoutingIndex, classify, ROUTING_MODEL_VERSIONS } from '../../../src/core/routing';
import { V21_HELD_OUT, V21_READ } from '../../../bench/routing-v21';
import { V22_HELD_OUT, V22_READ } from '../../../bench/routing-v22';
import { V23_HELD_OUT, V23_READ } from '../../../bench/routing-v23';
import { evaluateSplit, type Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const PROFILES = ['security', 'sre', 'frontend', 'backend', 'data', 'devops', 'docs', 'testing', 'finops'].map(
  (domain) => ({ name: `${domain}_agent`, domain, keywords: [] as string[] }),
);
const v21 = buildRoutingIndex(PROFILES, 'calibrated-v21');
const v22 = buildRoutingIndex(PROFILES, 'calibrated-v22');
const v23 = buildRoutingIndex(PROFILES, 'calibrated-v23');
const routesTo = (text: string, index: typeof v21): string | undefined => {
  const c = classify(text, index);
  return c.route ? c.domain : undefined;
};

describe('routing v22', () => {
  it('is a model the CLI names, newest first; v24, not v22 or v23, followed v21 as the default, then v25, v26 and v29', () => {
    expect(Object.keys(ROUTING_MODEL_VERSIONS).slice(0, 9)).toEqual([
      'v29',
      'v28',
      'v27',
      'v26',
      'v25',
      'v24',
      'v23',
      'v22',
      'v21',
    ]);
    expect(buildRoutingIndex(PROFILES).model).toBe('calibrated-v29');
  });

  it("reads a domain named only inside a product element's quoted name as general", () => {
    const card = "Party game: add the 'Password Leak' card, which reveals one player's secret word to the table.";
    expect(routesTo(card, v21)).toBe('security');
    expect(routesTo(card, v22)).toBeUndefined();
    expect(classify(card, v22).why.join(' ')).toContain(
      "security matched only words of a product element's quoted name",
    );
    // A name whose domain is named outside it too stays the domain's.
    const column =
      "Add the 'Deploy Status' column to the release dashboard showing each service's last deploy to production.";
    expect(routesTo(column, v22)).toBe('devops');
  });

  it('costs a blind task: a slash command named after the work it does is that work', () => {
    // heldout-fiftyfifth.json (v23's judged split) holds such a task, labelled sre; v21 routes it, v22 and v23 do not.
    const slash = '/incident slash command: create channel, assign commander, start timeline';
    expect(routesTo(slash, v21)).toBe('sre');
    expect(routesTo(slash, v22)).toBeUndefined();
    expect(split(`heldout-${V23_HELD_OUT.judged}.json`).tasks).toEqual(
      expect.arrayContaining([expect.objectContaining({ text: slash, label: 'sre' })]),
    );
  });

  it("reads logging a cost as a verb, and logs' ingestion as FinOps's", () => {
    const flatmates = 'Add a budget command so flatmates can log grocery costs and see who owes whom.';
    expect(routesTo(flatmates, v21)).toBe('finops');
    expect(routesTo(flatmates, v22)).toBeUndefined();
    expect(routesTo('CloudWatch log ingestion is our biggest line item this month; cut it by a third.', v22)).toBe(
      'finops',
    );
  });
});

describe('routing v23', () => {
  it("reads a trade's migration and lineage as its records, and a schema's or Hive's as data's", () => {
    const vineyard = 'Vineyard: a barrel migration screen that records which lot moved where and keeps its lineage.';
    expect(routesTo(vineyard, v22)).toBe('data');
    expect(routesTo(vineyard, v23)).toBeUndefined();
    for (const t of [
      'Write an Alembic migration that moves addresses into their own table.',
      'Move the Hive tables for clickstream into Iceberg and rewrite the nightly queries.',
    ])
      expect({ t, d: routesTo(t, v23) }).toEqual({ t, d: 'data' });
  });

  it('routes at least as many read tasks right as v21, and no more general ones', () => {
    const files = V23_READ.map((n) => `heldout-${n}.json`);
    let right21 = 0;
    let right23 = 0;
    let general21 = 0;
    let general23 = 0;
    for (const f of files) {
      const a = evaluateSplit(split(f), v21);
      const b = evaluateSplit(split(f), v23);
      right21 += a.routedRight;
      right23 += b.routedRight;
      general21 += a.routedGeneral;
      general23 += b.routedGeneral;
    }
    expect(right23 - right21).toBeGreaterThanOrEqual(50);
    expect(general23).toBeLessThan(general21);
  });

  it('was judged, like v22, on splits apart from the ones its rules were written on', () => {
    const rounds = [
      [V22_HELD_OUT, V22_READ, V21_HELD_OUT],
      [V23_HELD_OUT, V23_READ, V22_HELD_OUT],
    ] as const;
    for (const [held, read, before] of rounds) {
      const names = [held.judged, held.second];
      expect(names.filter((n) => (read as readonly string[]).includes(n))).toEqual([]);
      for (const n of names) {
        const tasks = split(`heldout-${n}.json`).tasks as { label: string }[];
        expect(tasks.length).toBeGreaterThanOrEqual(150);
        expect(tasks.filter((t) => t.label === 'general').length).toBeGreaterThanOrEqual(35);
      }
      expect(read).toEqual(expect.arrayContaining([before.judged, before.second]));
    }
    expect(V21_READ).not.toEqual(expect.arrayContaining([V22_HELD_OUT.judged]));
  });
});
