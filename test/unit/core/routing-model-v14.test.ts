/**
 * Routing v14 (src/core/routing/, the default before v15): v13 with a logged incident of the trade read as a record, the tools
 * that price a cluster's workloads as FinOps's cloud words, more of security's, SRE's, docs' and testing's worlds in
 * the sense rule, and more plain words of the trades. Its rules were written on every split up to
 * heldout-thirtysixth.json; its two held-out splits are never read by a rule.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  buildRoutingIndex,
  classify,
  everydayOnly,
  hasCloudContext,
  normalizeText,
  withoutLoggedIncident,
} from '../../../src/core/routing';
import { V13_HELD_OUT, V13_READ } from '../../../bench/routing-v13';
import { V14_HELD_OUT, V14_READ } from '../../../bench/routing-v14';
import { V8_CALIBRATION, V8_TRAIN } from '../../../bench/fit-routing-v8';
import { evaluateSplit, type Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const PROFILES = ['security', 'sre', 'frontend', 'backend', 'data', 'devops', 'docs', 'testing', 'finops'].map(
  (domain) => ({ name: `${domain}_agent`, domain, keywords: [] as string[] }),
);
const v13 = buildRoutingIndex(PROFILES, 'calibrated-v13');
const v14 = buildRoutingIndex(PROFILES, 'calibrated-v14');
const routesTo = (text: string, index: typeof v14): string | undefined => {
  const c = classify(text, index);
  return c.route ? c.domain : undefined;
};

describe('routing v14', () => {
  it("reads a person logging an incident of the trade as a record, and keeps a program's logs", () => {
    const canal =
      'Canal trust: when a lock keeper logs an incident like a stuck gate, message every boater booked through it.';
    expect(withoutLoggedIncident(canal)).toContain('lock keeper records an incident');
    expect(routesTo(canal, v13)).toBe('sre');
    expect(routesTo(canal, v14)).toBeUndefined();
    expect(classify(canal, v14).why).toContain(
      'a logged incident of the trade is a record ("logs an incident"): read as "records"',
    );
    // A program's logs, and an incident opened on a system, stay SRE's evidence.
    for (const t of [
      'The checkout service logs a stack trace on every retry; cut the noise and page on the error rate instead.',
      'Open an incident in PagerDuty automatically when the API error budget burns faster than 10x.',
    ]) {
      expect(withoutLoggedIncident(t)).toBe(t);
      expect({ t, d: routesTo(t, v14) }).toEqual({ t, d: 'sre' });
    }
  });

  it("reads the tools that price a cluster's workloads as cloud words for FinOps", () => {
    const kube =
      'Kubecost shows the batch namespace requesting three times what it uses; set requests from VPA and report the saving.';
    expect(hasCloudContext(kube, true, true, false)).toBe(false);
    expect(hasCloudContext(kube, true, true, true)).toBe(true);
    expect(classify(kube, v13).why.join(' ')).toContain('finops names no cloud or infrastructure');
    expect(classify(kube, v14).why.join(' ')).not.toContain('finops names no cloud or infrastructure');
    // A product's own money still names no cloud.
    expect(hasCloudContext('Show each member what they spent on lessons this month', true, true, true)).toBe(false);
  });

  it("keeps a plain-language report of a weakness, of on-call tooling and of a docs page in its trade's world", () => {
    const ssrf = 'A researcher wrote to us: the thumbnail resizer fetches any address you give it, even localhost.';
    expect(everydayOnly('security', ['security'], normalizeText(ssrf), 13)).toBe(true);
    expect(everydayOnly('security', ['security'], normalizeText(ssrf), 14)).toBe(false);
    const rota =
      'A rota tool that shows the engineers who is on call this week and forwards the emergency line to them.';
    expect(everydayOnly('sre', ['on call'], normalizeText(rota), 13)).toBe(true);
    expect(everydayOnly('sre', ['on call'], normalizeText(rota), 14)).toBe(false);
    // A trade's own on-call and security words stay everyday.
    const vet = 'Let the clinic choose which vet is on call each weekend and show it on the booking page.';
    expect(everydayOnly('sre', ['on call'], normalizeText(vet), 14)).toBe(true);
    const gate = 'The marina wants a security code for the pontoon gate printed on each berth invoice.';
    expect(everydayOnly('security', ['security'], normalizeText(gate), 14)).toBe(true);
  });

  it('knows more plain words of the trades', () => {
    for (const [t, d] of [
      ['Do not ship every moment.js locale in the JS bundle; that is 150KB nobody uses.', 'frontend'],
      ['fct_orders misses late-arriving rows; add a three-day lookback to the incremental filter.', 'data'],
      ['After I logged out and pressed Back, I was still logged in and could see my orders.', 'security'],
    ] as const)
      expect({ t, d: routesTo(t, v14) }).toEqual({ t, d });
  });

  it('routes more tasks right than v13 on the splits it was written on, loses none, and routes fewer general ones', () => {
    // The splits v8 was fitted and calibrated on, and the blind ones v14's rules were written on: every split but its
    // held-out ones and the blind splits written after them.
    const files = [...V8_TRAIN, ...V8_CALIBRATION, ...V14_READ.map((n) => `heldout-${n}.json`)];
    expect(files).not.toEqual(expect.arrayContaining([`heldout-${V14_HELD_OUT.judged}.json`]));
    // Every split but its own two held-out ones and the blind splits written after them.
    const unread = fs
      .readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.json') && !files.includes(f))
      .sort();
    expect(unread).toEqual(expect.arrayContaining([`heldout-${V14_HELD_OUT.judged}.json`]));
    for (const f of unread)
      expect(f).toMatch(
        /^heldout-(thirtyseventh|thirtyeighth|thirtyninth|fortieth|forty[a-z]+|fiftieth|fifty[a-z]+|sixt[a-z]+|sevent[a-z]+)\.json$/,
      );
    let right13 = 0;
    let right14 = 0;
    let general13 = 0;
    let general14 = 0;
    for (const f of files) {
      const a = evaluateSplit(split(f), v13);
      const b = evaluateSplit(split(f), v14);
      right13 += a.routedRight;
      right14 += b.routedRight;
      general13 += a.routedGeneral;
      general14 += b.routedGeneral;
      expect({ f, lost: Math.max(0, a.routedRight - b.routedRight) }).toEqual({ f, lost: 0 });
    }
    expect(right14 - right13).toBeGreaterThanOrEqual(20);
    expect(general14).toBeLessThan(general13);
  });

  it('was judged on splits apart from the ones it was written on, read after v13 was judged', () => {
    const names = [V14_HELD_OUT.judged, V14_HELD_OUT.second];
    expect(names.filter((n) => (V14_READ as readonly string[]).includes(n))).toEqual([]);
    expect(names.filter((n) => (V13_READ as readonly string[]).includes(n))).toEqual([]);
    for (const n of names) {
      const tasks = split(`heldout-${n}.json`).tasks as { label: string }[];
      expect(tasks.length).toBeGreaterThanOrEqual(150);
      expect(tasks.filter((t) => t.label === 'general').length).toBeGreaterThanOrEqual(35);
    }
    expect(V14_READ).toEqual(expect.arrayContaining([V13_HELD_OUT.judged, V13_HELD_OUT.second]));
  });
});
