/**
 * Routing v9 (src/core/routing/sense.ts, `EVERYDAY_WORDS_V9`): v8's weights with more of the sense rule. Testing's
 * "mock" and "coverage", data's words for a product's own exports and a warehouse of goods, and security's "audit
 * trail" and "audit log" count as everyday words: when they are all a domain matched and the text names nothing of the
 * domain's technical world, the domain's probability counts as general. Its held-out splits are never read by a rule.
 */
import path from 'node:path';
import {
  buildRoutingIndex,
  classify,
  everydayOnly,
  keywordPass,
  normalizeText,
  routingModelV8Weights,
  routingProbabilitiesV4,
  textTokens,
} from '../../../src/core/routing';
import { V9_HELD_OUT, V9_READ } from '../../../bench/routing-v9';
import { evaluateSplit, type Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const PROFILES = ['security', 'sre', 'frontend', 'backend', 'data', 'devops', 'docs', 'testing', 'finops'].map(
  (domain) => ({ name: `${domain}_agent`, domain, keywords: [] as string[] }),
);
const v8 = buildRoutingIndex(PROFILES, 'calibrated-v8');
const v9 = buildRoutingIndex(PROFILES, 'calibrated-v9');

describe('routing v9', () => {
  it("is on v8's weights: a text no v9 rule reads gets v8's classification", () => {
    const text = 'Operator ClusterRole grants far too much; scope it down to the namespaces it manages';
    const { model: m8, ...c8 } = classify(text, v8);
    const { model: m9, ...c9 } = classify(text, v9);
    expect([m8, m9]).toEqual(['calibrated-v8', 'calibrated-v9']);
    expect(c9).toEqual(c8);
    const x = { evidence: keywordPass(text, v9), tokens: textTokens(normalizeText(text)) };
    expect(routingProbabilitiesV4(x, routingModelV8Weights()).domains.get('security')).toBeCloseTo(
      classify(text, v9).confidences.security,
      3,
    );
  });

  it("reads testing's mock and coverage in a product's sense as general, and keeps tests' own", () => {
    const exam = 'Pet grooming app: add a mock exam mode so trainee groomers can practise the certification test.';
    expect(classify(exam, v8)).toMatchObject({ domain: 'testing', route: true });
    const r = classify(exam, v9);
    expect(r.route).toBe(false);
    expect(r.why.join('\n')).toMatch(/testing matched only everyday words \(.*mock.*\).*counts as general/);
    const premium =
      'Insurance quoting: the coverage level dropdown should recalculate the premium from the rate table.';
    expect(classify(premium, v8)).toMatchObject({ domain: 'testing', route: true });
    expect(classify(premium, v9).route).toBe(false);
    for (const t of [
      'Raise test coverage of the billing module above 80% with unit tests for the proration paths.',
      'Mock the payment gateway client in the checkout tests so they stop calling the sandbox.',
      'Coverage on the scheduler package is 31%; get it above 80% on the retry paths.',
    ])
      expect(classify(t, v9)).toMatchObject({ domain: 'testing', route: true });
  });

  it("reads data's exports and a warehouse of goods as general, and keeps data engineering's", () => {
    const exportCsv = 'Let librarians export the overdue loans query results as CSV.';
    expect(classify(exportCsv, v8).confidences.data).toBeGreaterThan(0.5);
    expect(classify(exportCsv, v9).why.join('\n')).toMatch(/data matched only everyday words/);
    expect(classify(exportCsv, v9).route).toBe(false);
    expect(
      everydayOnly('data', ['warehouse'], normalizeText('Warehouse app: suggest the nearest bin for putaway'), true),
    ).toBe(true);
    // Data's words without an export or goods, or with its own world (a pipeline, a warehouse's tooling, cleaning
    // duplicates), keep data.
    expect(everydayOnly('data', ['warehouse'], normalizeText('Freshness checks on the warehouse sources'), true)).toBe(
      false,
    );
    expect(
      everydayOnly(
        'data',
        ['export'],
        normalizeText('Our mailing list export has duplicates with different capitalisation'),
        true,
      ),
    ).toBe(false);
    for (const t of [
      'Export the orders table to CSV nightly and load it into BigQuery for the finance dashboards.',
      'Move the warehouse tables from full reloads to incremental dbt models in Snowflake.',
    ])
      expect(classify(t, v9)).toMatchObject({ domain: 'data', route: true });
    // v8 reads none of this: the rule is v9's.
    expect(everydayOnly('data', ['export', 'csv'], normalizeText(exportCsv), false)).toBe(false);
  });

  it("reads a product's audit trail as general, and keeps a security audit", () => {
    const expenses = 'Expense approvals need an audit trail showing who approved each claim and when.';
    expect(classify(expenses, v8)).toMatchObject({ domain: 'security', route: true });
    expect(classify(expenses, v9).route).toBe(false);
    expect(classify('Add a tamper-proof audit log of admin actions for our SOC 2 review.', v9)).toMatchObject({
      domain: 'security',
      route: true,
    });
  });

  it('loses no right route and routes no more general tasks than v8 on any split its rules were written on', () => {
    const files = ['labelled.json', 'calibration.json', 'heldout.json', ...V9_READ.map((n) => `heldout-${n}.json`)];
    let fixed = 0;
    for (const f of files) {
      const a = evaluateSplit(split(f), v8);
      const b = evaluateSplit(split(f), v9);
      expect({ f, right: b.routedRight }).toEqual({ f, right: a.routedRight });
      expect(b.routedGeneral).toBeLessThanOrEqual(a.routedGeneral);
      fixed += a.routedGeneral - b.routedGeneral;
    }
    expect(fixed).toBeGreaterThanOrEqual(5);
  });

  it('was written on splits apart from its two held-out ones', () => {
    const held = [V9_HELD_OUT.judged, V9_HELD_OUT.second];
    expect(held.filter((n) => (V9_READ as readonly string[]).includes(n))).toEqual([]);
    for (const n of held) {
      const tasks = split(`heldout-${n}.json`).tasks as { source?: string }[];
      expect(tasks.length).toBeGreaterThanOrEqual(150);
      if (n === V9_HELD_OUT.judged)
        expect(tasks.filter((t) => t.source !== 'written').length).toBeGreaterThanOrEqual(50);
    }
  });
});
