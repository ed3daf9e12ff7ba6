/**
 * Routing v10 (src/core/routing/sense.ts, `EVERYDAY_WORDS_V10`; src/core/routing/vocabulary.ts, `VOCABULARY_V10`):
 * v8's weights with v9's sense rule and more of it. SRE's "monitor", docs' "page" and "link", backend's "get" and
 * data's calendar words beside goods count as everyday words outside their technical world; security gains words for
 * weakness classes, advisories and unsafe comparison or loading. Its held-out splits are never read by a rule.
 */
import path from 'node:path';
import {
  buildRoutingIndex,
  classify,
  everydayOnly,
  normalizeText,
  ROUTING_MODEL_VERSIONS,
} from '../../../src/core/routing';
import { V10_HELD_OUT, V10_READ } from '../../../bench/routing-v10';
import { V11_HELD_OUT } from '../../../bench/routing-v11';
import { V12_HELD_OUT } from '../../../bench/routing-v12';
import { V13_HELD_OUT } from '../../../bench/routing-v13';
import { V8_CALIBRATION, V8_TRAIN } from '../../../bench/fit-routing-v8';
import { evaluateSplit, type Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const PROFILES = ['security', 'sre', 'frontend', 'backend', 'data', 'devops', 'docs', 'testing', 'finops'].map(
  (domain) => ({ name: `${domain}_agent`, domain, keywords: [] as string[] }),
);
const v9 = buildRoutingIndex(PROFILES, 'calibrated-v9');
const v10 = buildRoutingIndex(PROFILES, 'calibrated-v10');

describe('routing v10', () => {
  it("is on v8's weights: a text no v10 rule reads gets v9's classification", () => {
    expect(ROUTING_MODEL_VERSIONS.v10).toBe('calibrated-v10');
    const text = 'Operator ClusterRole grants far too much; scope it down to the namespaces it manages';
    const { model: m9, ...c9 } = classify(text, v9);
    const { model: m10, ...c10 } = classify(text, v10);
    expect([m9, m10]).toEqual(['calibrated-v9', 'calibrated-v10']);
    expect(c10).toEqual(c9);
  });

  it("reads a product's monitor as general, and keeps a system's", () => {
    const bees = 'Wine club: add a cellar monitor page where members see which bottles they stored with us.';
    expect(classify(bees, v9)).toMatchObject({ domain: 'sre', route: true });
    const r = classify(bees, v10);
    expect(r.route).toBe(false);
    expect(r.why.join('\n')).toMatch(/sre matched only everyday words \(monitor\).*counts as general/);
    for (const t of [
      'Add an uptime monitor for the checkout API that pages on-call after three failed probes.',
      'Set up a monitor on the queue depth of the billing workers and alert when it keeps growing.',
    ])
      expect(classify(t, v10)).toMatchObject({ domain: 'sre', route: true });
  });

  it("reads a product's page and link as general, and keeps documentation's", () => {
    const choir = 'Choir site: a concert countdown page with a link to buy tickets for each performance.';
    expect(everydayOnly('docs', ['page', 'link'], normalizeText(choir), 10)).toBe(true);
    expect(classify(choir, v10).route).toBe(false);
    // Documentation's own pages and links keep docs.
    expect(everydayOnly('docs', ['page'], normalizeText('Add a page describing every configuration option'), 10)).toBe(
      false,
    );
    expect(everydayOnly('docs', ['link'], normalizeText('Fix the broken links in the README'), 10)).toBe(false);
    // v9 reads none of this: the rule is v10's.
    expect(everydayOnly('docs', ['page', 'link'], normalizeText(choir), 9)).toBe(false);
  });

  it("reads the verb get as general, and keeps a server's GET", () => {
    const zoo = 'Zoo app: members get a stamp for every enclosure they visit, and ten stamps earn a free coffee.';
    expect(everydayOnly('backend', ['get'], normalizeText(zoo), 10)).toBe(true);
    expect(classify(zoo, v10).route).toBe(false);
    expect(
      everydayOnly('backend', ['get'], normalizeText('GET /invoices/:id returns a 500 for archived ones'), 10),
    ).toBe(false);
    // Two bookings at the same moment is the server's concurrency: backend keeps it.
    expect(
      everydayOnly('backend', ['get'], normalizeText('Two guests who book at the same moment both get the room'), 10),
    ).toBe(false);
  });

  it("reads data's calendar words beside goods as general, and keeps a batch's", () => {
    const shop = 'Garden centre stock screen: show weeks of cover per SKU from on hand and average weekly sales.';
    expect(everydayOnly('data', ['weekly'], normalizeText(shop), 10)).toBe(true);
    expect(everydayOnly('data', ['weekly'], normalizeText(shop), 9)).toBe(false);
    // Without goods, or as a batch, the calendar words stay data's.
    expect(
      everydayOnly('data', ['weekly', 'table'], normalizeText('A weekly table of the best sellers as CSV'), 10),
    ).toBe(false);
    expect(
      everydayOnly('data', ['daily'], normalizeText('The daily load of stock levels into the warehouse'), 10),
    ).toBe(false);
  });

  it('routes weakness classes, advisories and unsafe compare or load to security', () => {
    for (const t of [
      'Fix CWE-22 in the archive extractor: refuse entries whose names climb out of the target folder.',
      'Bump the libraries flagged by GHSA-4x7q-2mvp-9jq3 and GHSA-8hrf-2r5m-c7ww in the lockfile.',
      'Compare webhook signatures in constant time instead of with ==.',
      'The importer calls yaml.load on uploaded manifests; switch to safe_load so they cannot construct objects.',
    ]) {
      expect({ t, r: classify(t, v10) }).toMatchObject({ t, r: { domain: 'security', route: true } });
      expect({ t, r: classify(t, v9).route && classify(t, v9).domain === 'security' }).toEqual({ t, r: false });
    }
  });

  it('loses no right route and routes no more general tasks than v9 on any split its rules were written on', () => {
    // The splits v8 was fitted and calibrated on, and the blind ones v10's rules were written on: not its held-out
    // splits, nor the blind splits written after it was judged.
    const files = [...V8_TRAIN, ...V8_CALIBRATION, ...V10_READ.map((n) => `heldout-${n}.json`)];
    expect(files.length).toBeGreaterThanOrEqual(38);
    for (const h of [V10_HELD_OUT, V11_HELD_OUT, V12_HELD_OUT, V13_HELD_OUT])
      expect(files).not.toEqual(expect.arrayContaining([`heldout-${h.judged}.json`]));
    let fixed = 0;
    let gained = 0;
    for (const f of files) {
      const a = evaluateSplit(split(f), v9);
      const b = evaluateSplit(split(f), v10);
      expect(b.routedRight).toBeGreaterThanOrEqual(a.routedRight);
      expect(b.routedGeneral).toBeLessThanOrEqual(a.routedGeneral);
      fixed += a.routedGeneral - b.routedGeneral;
      gained += b.routedRight - a.routedRight;
    }
    expect(fixed).toBeGreaterThanOrEqual(4);
    expect(gained).toBeGreaterThanOrEqual(4);
  });

  it('was written on splits apart from its two held-out ones', () => {
    const held = [V10_HELD_OUT.judged, V10_HELD_OUT.second];
    expect(held.filter((n) => (V10_READ as readonly string[]).includes(n))).toEqual([]);
    for (const n of held) {
      const tasks = split(`heldout-${n}.json`).tasks as { source?: string; label: string }[];
      expect(tasks.length).toBeGreaterThanOrEqual(150);
      expect(tasks.filter((t) => t.label === 'general').length).toBeGreaterThanOrEqual(40);
      if (n === V10_HELD_OUT.second)
        expect(tasks.filter((t) => t.source !== 'written').length).toBeGreaterThanOrEqual(50);
    }
  });
});
