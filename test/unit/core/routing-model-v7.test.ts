/**
 * Routing v7 (src/core/routing/sense.ts and the upgrade chore in ./classifier.ts): v6's weights; a domain matched only
 * by its everyday words ("alert", "on-call", "SLA", "password", "test"...) in a text that names nothing of its
 * technical world counts as general, and a move from a version to a version is the upgrade chore.
 */
import path from 'node:path';
import {
  buildRoutingIndex,
  choreLead,
  classify,
  EVERYDAY_WORDS,
  everydayOnly,
  finopsEverydayOnly,
  normalizeText,
} from '../../../src/core/routing';
import { V6_CALIBRATION, V6_TRAIN } from '../../../bench/fit-routing-v6';
import type { Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const PROFILES = ['security', 'sre', 'frontend', 'backend', 'data', 'devops', 'docs', 'testing', 'finops'].map(
  (domain) => ({ name: `${domain}_agent`, domain, keywords: [] as string[] }),
);
const v6 = buildRoutingIndex(PROFILES, 'calibrated-v6');
const v7 = buildRoutingIndex(PROFILES, 'calibrated-v7');

describe('routing v7: a specialist word in the product’s own sense', () => {
  it('is the model of loops recorded with routing-v7-model (v8 is the default since)', () => {
    expect(classify('Rotate the leaked JWT signing keys', v7).model).toBe('calibrated-v7');
    expect(v7.model).toBe('calibrated-v7');
  });

  it.each([
    ['sre', ['on call'], 'In the clinic scheduling app, add an on-call roster view so nurses can swap nights'],
    ['sre', ['alert'], "Add an 'alert me when it's back' button to the tea pages that emails the customer"],
    ['testing', ['test'], 'Test score is not adding up for the quiz: one right answer counted as nineteen wrong'],
    ['security', ['security'], "A 'security question' step in front of the parental settings screen of the quiz"],
    ['devops', ['pipeline'], "Add a 'query with GP' stage to the repeat-prescription pipeline"],
  ])('%s: only everyday words (%j), nothing of its world → general (%s)', (domain, matched, text) => {
    expect(everydayOnly(domain, matched, normalizeText(text))).toBe(true);
  });

  it.each([
    ['sre', ['on call', 'alert'], 'Reduce alert noise so on-call only gets paged for real incidents'],
    ['sre', ['outage'], 'Write up the timeline and contributing factors for yesterday’s DNS outage'],
    ['testing', ['test'], 'Add a test for the bug where discount codes could be used twice'],
    ['security', ['password'], 'Passwords are stored in plain text in the users table; hash them with bcrypt'],
    ['devops', ['pipeline'], 'Our CI pipeline takes 40 minutes; cache the dependencies between jobs'],
  ])('%s with its technical world (%j) keeps the domain (%s)', (domain, matched, text) => {
    expect(everydayOnly(domain, matched, normalizeText(text))).toBe(false);
  });

  it('a keyword that names the domain on its own, or a domain the rule does not cover, keeps it', () => {
    expect(everydayOnly('sre', ['pagerduty', 'alert'], normalizeText('Route the alert to PagerDuty'))).toBe(false);
    expect(everydayOnly('sre', [], normalizeText('An alert'))).toBe(false);
    expect(everydayOnly('frontend', ['button'], normalizeText('Add a button'))).toBe(false);
    expect(Object.keys(EVERYDAY_WORDS).sort()).toEqual(['devops', 'security', 'sre', 'testing']);
  });

  it('routes the product sense to the base agent and says why; v6 gave it to the specialist', () => {
    const text =
      'Theatre ushers need to swap shifts on the front-of-house on-call rota; add swap requests that the duty manager approves.';
    const before = classify(text, v6);
    expect(before).toMatchObject({ domain: 'sre', route: true });
    const now = classify(text, v7);
    expect(now.route).toBe(false);
    expect(now.confidences.sre ?? 0).toBeLessThan(0.7);
    expect(now.why.join('\n')).toMatch(/sre matched only everyday words \(on call\).*counts as general/);
    // The same words with their technical world still route.
    const sre = classify(
      'The on-call engineer gets paged for every flapping disk alert; add a threshold and a runbook',
      v7,
    );
    expect(sre).toMatchObject({ domain: 'sre', route: true });
  });

  it('FinOps matched only by its everyday words needs a cloud word other than "budget" or "account"', () => {
    const product =
      "Add monthly budget limits per spending category with an overspend warning: show this month's spend against the budget.";
    expect(finopsEverydayOnly(['budget', 'spending', 'month', 'spend'], product)).toBe(true);
    expect(classify(product, v6)).toMatchObject({ domain: 'finops', route: true });
    expect(classify(product, v7).route).toBe(false);
    expect(classify(product, v7).why.join('\n')).toMatch(/finops names no cloud/);
    // FinOps's own budget alerts, and any cloud word, keep it.
    expect(
      finopsEverydayOnly(
        ['budget', 'spend'],
        'Set up budget alerts so each team is warned when its spend exceeds the forecast',
      ),
    ).toBe(false);
    expect(finopsEverydayOnly(['budget'], 'Put a monthly budget on the AWS account')).toBe(false);
    expect(finopsEverydayOnly(['budget', 'kubecost'], 'A monthly budget in Kubecost')).toBe(false);
  });

  it('a move of the runtime or framework from a version to a version is the upgrade chore; infrastructure is not', () => {
    const move = 'Move the esports league API from Node 18 to Node 22 and Express 4 to 5. Nothing is broken.';
    expect(choreLead(move, true, true)).toBe('upgrade');
    expect(choreLead(move, true, false)).toBeUndefined();
    expect(classify(move, v7)).toMatchObject({ route: false, chore: 'upgrade' });
    expect(choreLead('Port the rowing club tracker from Scala 2.13 to Scala 3', true, true)).toBe('upgrade');
    expect(choreLead('Migrate the reporting schema from MySQL 5.7 to Postgres 15', true, true)).toBeUndefined();
    expect(choreLead('Move the CI runners from Ubuntu 20.04 to 22.04', true, true)).toBeUndefined();
    expect(choreLead('Move the node pool from 1.28 to 1.29', true, true)).toBeUndefined();
  });

  it('takes no right route off v6 on any split the v6 weights were fitted or calibrated on, and some general ones', () => {
    let lost = 0;
    let generalOff = 0;
    let generalOn = 0;
    for (const f of [...V6_TRAIN, ...V6_CALIBRATION])
      for (const t of split(f).tasks) {
        const a = classify(t.text, v6);
        const b = classify(t.text, v7);
        if (t.label === 'general') {
          if (a.route && !b.route) generalOff++;
          if (!a.route && b.route) generalOn++;
        } else if (a.route && a.domain === t.label && !(b.route && b.domain === t.label)) lost++;
      }
    expect(lost).toBe(0);
    expect(generalOn).toBe(0);
    expect(generalOff).toBeGreaterThanOrEqual(1);
  });
});
