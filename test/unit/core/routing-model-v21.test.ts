/**
 * Routing v19, v20 and v21 (src/core/routing/), three rounds on v8's weights. v19: narrower technical worlds and more
 * everyday words (SRE's severity, dashboards, logs, services and freezes; DevOps's jobs and deploys; docs' guides and
 * how-tos; frontend's pickers, feed and safari; security's key) and `VOCABULARY_V19`. v20: `VOCABULARY_V20`. v21 (the
 * default from session 39 until v24): a command quoted alone is its name, not a payload; a threshold alone is not SRE's; a trade's retention,
 * migration, lineage, backfill or dedupe is its own record; and `VOCABULARY_V21`. Each round's rules were written on
 * the splits before it; its two held-out splits are never read by a rule. The texts below were written for this test,
 * not taken from a split.
 */
import path from 'node:path';
import { buildRoutingIndex, classify, ROUTING_MODEL_VERSIONS } from '../../../src/core/routing';
import { V18_HELD_OUT } from '../../../bench/routing-v18';
import { V19_HELD_OUT, V19_READ } from '../../../bench/routing-v19';
import { V20_HELD_OUT, V20_READ } from '../../../bench/routing-v20';
import { V21_HELD_OUT, V21_READ } from '../../../bench/routing-v21';
import { V8_CALIBRATION, V8_TRAIN } from '../../../bench/fit-routing-v8';
import { evaluateSplit, type Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const PROFILES = ['security', 'sre', 'frontend', 'backend', 'data', 'devops', 'docs', 'testing', 'finops'].map(
  (domain) => ({ name: `${domain}_agent`, domain, keywords: [] as string[] }),
);
const v18 = buildRoutingIndex(PROFILES, 'calibrated-v18');
const v19 = buildRoutingIndex(PROFILES, 'calibrated-v19');
const v20 = buildRoutingIndex(PROFILES, 'calibrated-v20');
const v21 = buildRoutingIndex(PROFILES, 'calibrated-v21');
const routesTo = (text: string, index: typeof v21): string | undefined => {
  const c = classify(text, index);
  return c.route ? c.domain : undefined;
};

describe('routing v19', () => {
  it("reads a trade's deploys, jobs, logs, guides and freezes as its own, and software's as the specialist's", () => {
    for (const [t, d] of [
      ['Marquee hire: deploy the crews to each wedding venue by van and track the teardown jobs per site.', 'devops'],
      ['Allotment society: when a plot holder logs a pest sighting, raise an alert for the neighbouring plots.', 'sre'],
      [
        'Mountain rescue team: record which guides completed the avalanche course before they lead a winter route.',
        'docs',
      ],
      ['Yoga studio: a membership freeze should extend the renewal date by the frozen weeks.', 'sre'],
    ] as const) {
      // v18 gave the specialist most of the probability; v19 reads the words in the trade's own sense.
      expect({ t, v18: classify(t, v18).confidences[d] }).toEqual({ t, v18: expect.any(Number) });
      expect(classify(t, v18).confidences[d]).toBeGreaterThan(0.6);
      expect({ t, v19: routesTo(t, v19) }).toEqual({ t, v19: undefined });
      expect(classify(t, v19).why.join(' ')).toContain(`${d} matched only everyday words`);
    }
    for (const [t, d] of [
      ['Deploy the API to staging automatically on merge to main.', 'devops'],
      ['Ship the nginx access logs to Loki and alert when the 5xx rate goes above 2% for ten minutes.', 'sre'],
      ['Write a getting-started guide for the Python SDK with an install section.', 'docs'],
      ['Rotate the leaked Stripe keys and move them into the secrets manager.', 'security'],
    ] as const)
      expect({ t, d: routesTo(t, v19) }).toEqual({ t, d });
  });
});

describe('routing v21', () => {
  it('was the default before v24; the CLI names it after v24, v23 and v22, then v20 and v19', () => {
    expect(buildRoutingIndex(PROFILES, 'calibrated-v21').model).toBe('calibrated-v21');
    expect(Object.keys(ROUTING_MODEL_VERSIONS).slice(0, 12)).toEqual([
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
    ]);
  });

  it('reads a command quoted alone as its name, and a chained one still as a payload', () => {
    const command = 'Add a `whoami` command that prints the signed-in user and their org.';
    expect(routesTo(command, v20)).toBe('security');
    expect(routesTo(command, v21)).toBeUndefined();
    const injected =
      'The support form passes the hostname to ping; entering `127.0.0.1; whoami` prints the server user.';
    expect(routesTo(injected, v21)).toBe('security');
    expect(classify(injected, v21).why.join(' ')).toContain('remote code execution');
  });

  it("reads a threshold setting and a trade's retention report as the product's own", () => {
    const setting =
      "The garden weather app's `FrostAlertThreshold` setting only accepts whole degrees; allow one decimal.";
    expect(classify(setting, v20).confidences.sre).toBeGreaterThan(0.1);
    expect(classify(setting, v21).confidences.sre ?? 0).toBeLessThan(0.01);
    expect(routesTo('Lower the alert threshold on the checkout p99 latency to 800 ms and page on-call.', v21)).toBe(
      'sre',
    );
    const vet = 'Vet clinic: a client retention report of pets with no visit in two years, grouped by vet.';
    expect(routesTo(vet, v20)).toBe('data');
    expect(routesTo(vet, v21)).toBeUndefined();
  });

  it('routes more tasks right than v18 on the splits each round was written on, loses one, and routes fewer general ones', () => {
    const files = [...V8_TRAIN, ...V8_CALIBRATION, ...V21_READ.map((n) => `heldout-${n}.json`)];
    expect(files).not.toEqual(expect.arrayContaining([`heldout-${V21_HELD_OUT.judged}.json`]));
    let right18 = 0;
    let right21 = 0;
    let general18 = 0;
    let general21 = 0;
    const lost: string[] = [];
    for (const f of files) {
      const a = evaluateSplit(split(f), v18);
      const b = evaluateSplit(split(f), v21);
      right18 += a.routedRight;
      right21 += b.routedRight;
      general18 += a.routedGeneral;
      general21 += b.routedGeneral;
      const wrong = (e: typeof a): Set<string> => new Set(e.wrong.map((w) => w.slice(w.indexOf('): ') + 3)));
      const [wrong18, wrong21] = [wrong(a), wrong(b)];
      for (const t of split(f).tasks)
        if (t.label !== 'general' && wrong21.has(t.text) && !wrong18.has(t.text)) lost.push(t.text);
    }
    // The one task v18 routed right and v21 does not: a three-word GitHub title, now too thin for docs' v19 world.
    expect(lost).toEqual(['Guide for deadlines']);
    expect(right21 - right18).toBeGreaterThanOrEqual(90);
    expect(general18 - general21).toBeGreaterThanOrEqual(15);
  });

  it('was judged, like v19 and v20, on splits apart from the ones its rules were written on', () => {
    const rounds = [
      [V19_HELD_OUT, V19_READ, V18_HELD_OUT],
      [V20_HELD_OUT, V20_READ, V19_HELD_OUT],
      [V21_HELD_OUT, V21_READ, V20_HELD_OUT],
    ] as const;
    for (const [held, read, before] of rounds) {
      const names = [held.judged, held.second];
      expect(names.filter((n) => (read as readonly string[]).includes(n))).toEqual([]);
      for (const n of names) {
        const tasks = split(`heldout-${n}.json`).tasks as { label: string }[];
        expect(tasks.length).toBeGreaterThanOrEqual(150);
        expect(tasks.filter((t) => t.label === 'general').length).toBeGreaterThanOrEqual(35);
      }
      // Each round read the splits the round before it was judged on, and nothing after them.
      expect(read).toEqual(expect.arrayContaining([before.judged, before.second]));
    }
  });
});
