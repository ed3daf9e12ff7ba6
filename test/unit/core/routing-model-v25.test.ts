/**
 * Routing v25 (src/core/routing/), the default in session 40 before v26: v24 where a product element's quoted name is no
 * evidence of a domain's world and more elements are named so (`ELEMENT_NAME_V25` in classifier.ts), a UI's toasts, a
 * trade's paperwork and more of a trade's tests (`TECHNICAL_WORLD_V25`, `EVERYDAY_WORDS_V25` in sense.ts), with
 * `VOCABULARY_V25`. Its rules were written on every split up to v24's held-out ones; it was judged on two splits
 * written blind and committed before it was frozen. The texts below were written for this test, not taken from a split.
 */
import path from 'node:path';
import { buildRoutingIndex, classify, ROUTING_MODEL_VERSIONS } from '../../../src/core/routing';
import { V8_CALIBRATION, V8_TRAIN } from '../../../bench/fit-routing-v8';
import { V24_HELD_OUT } from '../../../bench/routing-v24';
import { V25_HELD_OUT, V25_READ } from '../../../bench/routing-v25';
import { evaluateSplit, type Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const PROFILES = ['security', 'sre', 'frontend', 'backend', 'data', 'devops', 'docs', 'testing', 'finops'].map(
  (domain) => ({ name: `${domain}_agent`, domain, keywords: [] as string[] }),
);
const v24 = buildRoutingIndex(PROFILES, 'calibrated-v24');
const v25 = buildRoutingIndex(PROFILES, 'calibrated-v25');
const routesTo = (text: string, index: typeof v24): string | undefined => {
  const c = classify(text, index);
  return c.route ? c.domain : undefined;
};

describe('routing v25', () => {
  it('was the default before v26; the CLI names it after v26', () => {
    expect(buildRoutingIndex(PROFILES, 'calibrated-v25').model).toBe('calibrated-v25');
    expect(Object.keys(ROUTING_MODEL_VERSIONS).slice(0, 5)).toEqual(['v29', 'v28', 'v27', 'v26', 'v25']);
  });

  it("reads a product element's quoted name as no evidence of a domain's world", () => {
    const bindery =
      "feat(bindery): restoration job tickets get a 'release' step, only after the owner approves the rebinding and " +
      'pays the deposit.';
    expect(routesTo(bindery, v24)).toBe('devops');
    expect(routesTo(bindery, v25)).toBeUndefined();
    // A name in backticks is code's: a `fail-fast` option is CI's.
    expect(routesTo('turn off the `fail-fast` option on the macOS matrix jobs in CI', v25)).toBe('devops');
    // Release work named outside any quotes stays DevOps's.
    expect(
      routesTo('Release the CLI as a Homebrew formula and attach the binaries as release assets on every tag.', v25),
    ).toBe('devops');
  });

  it("reads a toast level and a trade's paperwork as the trade's, and a UI's toasts and API docs as the domain's", () => {
    const bakery = "Bakery: print a tag per loaf with the flour origin, toast level and baker's initials.";
    expect(classify(bakery, v24).confidences.frontend).toBeGreaterThan(0.6);
    expect(classify(bakery, v25).confidences.frontend).toBeLessThan(0.05);
    expect(classify(bakery, v25).why.join(' ')).toContain('frontend matched only everyday words');
    const kennel = "Kennel booking: dogs can't check in until the vaccination docs are uploaded to their profile.";
    expect(classify(kennel, v25).confidences.docs).toBeLessThan(0.05);
    expect(routesTo("Show an error toast when the upload fails, and stack toasts so two don't overlap.", v25)).toBe(
      'frontend',
    );
    expect(routesTo('Update the API docs for the new pagination parameters.', v25)).toBe('docs');
  });

  it("reads more of a trade's tests as the trade's, and a service's tests as testing's", () => {
    const seeds = "Seed library: record germination tests per packet and mark packets under 70% as 'retest'.";
    expect(routesTo(seeds, v24)).toBe('testing');
    expect(routesTo(seeds, v25)).toBeUndefined();
    expect(routesTo("Make the billing service's integration tests stop hitting the real Stripe API.", v25)).toBe(
      'testing',
    );
  });

  it('routes more tasks right than v24 on the splits its rules were written on, loses none, and routes fewer general ones', () => {
    const files = [...V8_TRAIN, ...V8_CALIBRATION, ...V25_READ.map((n) => `heldout-${n}.json`)];
    let right24 = 0;
    let right25 = 0;
    let general24 = 0;
    let general25 = 0;
    const lost: string[] = [];
    for (const f of files) {
      const a = evaluateSplit(split(f), v24);
      const b = evaluateSplit(split(f), v25);
      right24 += a.routedRight;
      right25 += b.routedRight;
      general24 += a.routedGeneral;
      general25 += b.routedGeneral;
      const wrong = (e: typeof a): Set<string> => new Set(e.wrong.map((w) => w.slice(w.indexOf('): ') + 3)));
      const [wrong24, wrong25] = [wrong(a), wrong(b)];
      for (const t of split(f).tasks)
        if (t.label !== 'general' && wrong25.has(t.text) && !wrong24.has(t.text)) lost.push(t.text);
    }
    expect(lost).toEqual([]);
    expect(right25 - right24).toBeGreaterThanOrEqual(25);
    expect(general24 - general25).toBeGreaterThanOrEqual(4);
  });

  it('was judged on two blind splits apart from the ones its rules were written on', () => {
    const names = [V25_HELD_OUT.judged, V25_HELD_OUT.second];
    expect(names.filter((n) => (V25_READ as readonly string[]).includes(n))).toEqual([]);
    for (const n of names) {
      const tasks = split(`heldout-${n}.json`).tasks as { label: string }[];
      expect(tasks.length).toBeGreaterThanOrEqual(150);
      expect(tasks.filter((t) => t.label === 'general').length).toBeGreaterThanOrEqual(35);
    }
    // v25 read the splits v24 was judged on, after v24 was judged.
    expect(V25_READ).toEqual(expect.arrayContaining([V24_HELD_OUT.judged, V24_HELD_OUT.second]));
  });
});
