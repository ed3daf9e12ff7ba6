/**
 * Routing v11, v12 and v13 (src/core/routing/): v8's weights with more rules, each judged on two blind splits written
 * after the one before was judged. v11: data's "report" beside a product's own export, a credential's expiry, a scan
 * for weaknesses, FinOps's "project" no cloud word, more trade names. v12: a ticket's "Support escalation:" lead set
 * aside, SRE's "capacity" and security's "session" and "signature" as everyday words. v13 (the default before v14): attack
 * payloads a task quotes as evidence of their weakness, and the plain words testers and colleagues use for a trade's
 * work. Their held-out splits are never read by a rule.
 */
import path from 'node:path';
import {
  buildRoutingIndex,
  classify,
  everydayOnly,
  normalizeText,
  payloadWeaknesses,
  ROUTING_MODEL_VERSIONS,
  withoutEscalationLead,
} from '../../../src/core/routing';
import { V11_HELD_OUT, V11_READ } from '../../../bench/routing-v11';
import { V12_HELD_OUT, V12_READ } from '../../../bench/routing-v12';
import { V13_HELD_OUT, V13_READ } from '../../../bench/routing-v13';
import { V8_CALIBRATION, V8_TRAIN } from '../../../bench/fit-routing-v8';
import { evaluateSplit, type Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const PROFILES = ['security', 'sre', 'frontend', 'backend', 'data', 'devops', 'docs', 'testing', 'finops'].map(
  (domain) => ({ name: `${domain}_agent`, domain, keywords: [] as string[] }),
);
const v10 = buildRoutingIndex(PROFILES, 'calibrated-v10');
const v11 = buildRoutingIndex(PROFILES, 'calibrated-v11');
const v12 = buildRoutingIndex(PROFILES, 'calibrated-v12');
const v13 = buildRoutingIndex(PROFILES, 'calibrated-v13');
const routesTo = (text: string, index: typeof v13): string | undefined => {
  const c = classify(text, index);
  return c.route ? c.domain : undefined;
};

describe('routing v11', () => {
  it("reads a product's report export, a voucher's expiry and a scanned document as general", () => {
    const reports = 'Export reports to CSV: a button on each report page downloads what it shows.';
    expect(everydayOnly('data', ['export', 'report', 'csv'], normalizeText(reports), 11)).toBe(true);
    expect(everydayOnly('data', ['export', 'report', 'csv'], normalizeText(reports), 10)).toBe(false);
    const kennel = 'Groomers: attach the scanned rabies certificate to each pet and block booking once it has expired.';
    expect(everydayOnly('security', ['certificate'], normalizeText(kennel), 11)).toBe(true);
    expect(everydayOnly('security', ['certificate'], normalizeText(kennel), 10)).toBe(false);
    // A credential's expiry and a scan for weaknesses stay security's.
    for (const t of ['The TLS certificate on the API expired last night', 'Session tokens never expire after logout'])
      expect(everydayOnly('security', ['certificate', 'token'], normalizeText(t), 11)).toBe(false);
    expect(everydayOnly('security', ['password'], normalizeText('Run a secrets scan over every repo'), 11)).toBe(false);
  });

  it("reads a project's budget as the product's own money, and keeps a cloud project's", () => {
    const club =
      'As treasurer of a rowing club I want a yearly budget per boat project and what is left after each invoice.';
    expect(routesTo(club, v10)).toBe('finops');
    expect(routesTo(club, v11)).toBeUndefined();
    expect(routesTo('Set a budget alert per GCP project so no team overspends its cloud bill this quarter.', v11)).toBe(
      'finops',
    );
  });

  it('knows the trade names v10 missed', () => {
    expect(
      routesTo('Please replace the copy-pasted Jenkins stages with one shared library step.', v10),
    ).toBeUndefined();
    expect(routesTo('Please replace the copy-pasted Jenkins stages with one shared library step.', v11)).toBe('devops');
    expect(routesTo('The settings importer calls yaml.load without SafeLoader on uploaded files.', v11)).toBe(
      'security',
    );
  });
});

describe('routing v12', () => {
  it("sets a ticket's escalation lead aside, and keeps SRE's escalation", () => {
    expect(
      withoutEscalationLead('Support escalation: a customer wants the weekly digest to skip empty sections.'),
    ).toBe('a customer wants the weekly digest to skip empty sections.');
    expect(withoutEscalationLead('[ESC-12] Customer escalation - add attachments to the log')).toBe(
      'add attachments to the log',
    );
    expect(withoutEscalationLead('Escalation policy for the payments pager pages nobody')).toBe(
      'Escalation policy for the payments pager pages nobody',
    );
    const digest = 'Support escalation: a florist wants the weekly digest email to skip empty sections.';
    expect(routesTo(digest, v11)).toBe('sre');
    expect(routesTo(digest, v12)).toBeUndefined();
    expect(classify(digest, v12).why.join('\n')).toMatch(/escalation lead .* not counted/);
    expect(routesTo('Escalation policy: page the secondary on-call after 10 minutes without an ack.', v12)).toBe('sre');
  });

  it("reads a museum's capacity and a tattoo session's signature as general, and keeps a system's and a login's", () => {
    const museum = 'Tower tours: stop selling tickets once capacity for the half hour is reached.';
    expect(everydayOnly('sre', ['capacity'], normalizeText(museum), 12)).toBe(true);
    expect(everydayOnly('sre', ['capacity'], normalizeText('The LMS falls over when 30,000 students log in'), 12)).toBe(
      false,
    );
    const tattoo = 'Tattoo booking: a session is confirmed only once the consent form has a signature.';
    expect(everydayOnly('security', ['session', 'signature'], normalizeText(tattoo), 12)).toBe(true);
    expect(everydayOnly('security', ['session', 'signature'], normalizeText(tattoo), 11)).toBe(false);
    for (const t of [
      'Session cookies survive logout; invalidate them server side',
      'The webhook receiver never checks the signature header',
    ])
      expect(everydayOnly('security', ['session', 'signature'], normalizeText(t), 12)).toBe(false);
  });
});

describe('routing v13', () => {
  it('is a model the CLI names, after v23 to v14', () => {
    expect(Object.keys(ROUTING_MODEL_VERSIONS).slice(0, 20)).toEqual([
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
      'v13',
      'v12',
      'v11',
      'v10',
    ]);
  });

  it('reads the attack payload a bug report quotes as its weakness, and not a path or a tag', () => {
    expect(payloadWeaknesses("Typing ' OR 1=1 -- in the staff search lists every staff member")).toEqual([
      'sql injection',
    ]);
    expect(payloadWeaknesses('A review with <svg onload=alert(1)> pops up for every visitor')).toEqual(['xss']);
    expect(payloadWeaknesses('An upload named ../../etc/cron.d/x lands outside the folder')).toEqual([
      'path traversal',
    ]);
    expect(payloadWeaknesses('The avatar URL field fetches http://169.254.169.254/latest/meta-data/')).toEqual([
      'ssrf',
    ]);
    expect(payloadWeaknesses('A username of {{7*7}} shows as 49 on the profile page')).toEqual(['template injection']);
    for (const t of [
      'Update the links to ../docs/setup.md in the README',
      'Replace <img src="logo.png"> with the picture component',
      'Move the inline <script> tag into a module',
      "It's the customers' -- well, the staff's -- favourite screen",
    ])
      expect({ t, p: payloadWeaknesses(t) }).toEqual({ t, p: [] });
    const sqli = "Typing ' OR 1=1 -- into the admin user search returns every account in the system.";
    expect(routesTo(sqli, v12)).toBeUndefined();
    expect(routesTo(sqli, v13)).toBe('security');
    expect(classify(sqli, v13).why).toContain('quotes an attack payload: counted as "sql injection"');
    const xss = 'Entered <img src=x onerror=alert(1)> as a product review; every visitor gets the popup.';
    expect(routesTo(xss, v12)).toBeUndefined();
    expect(routesTo(xss, v13)).toBe('security');
  });

  it("knows testers' and colleagues' plain words for a trade's work", () => {
    for (const [t, d] of [
      ['Could we throw lots of generated inputs at the date-range merge function?', 'testing'],
      ['A robot should place a fake order on the live site every few minutes and wake someone up if it fails.', 'sre'],
      ['Publishing the package is manual; a version tag should push it to PyPI.', 'devops'],
    ] as const)
      expect({ t, d: routesTo(t, v13) }).toEqual({ t, d });
  });

  it('routes more tasks right than v10 on the splits v11 to v13 were written on, and no more general ones', () => {
    // The splits v8 was fitted and calibrated on, and the blind ones v13's rules were written on.
    const files = [...V8_TRAIN, ...V8_CALIBRATION, ...V13_READ.map((n) => `heldout-${n}.json`)];
    expect(files).not.toEqual(expect.arrayContaining([`heldout-${V13_HELD_OUT.judged}.json`]));
    let right10 = 0;
    let right13 = 0;
    let general10 = 0;
    let general13 = 0;
    for (const f of files) {
      const a = evaluateSplit(split(f), v10);
      const b = evaluateSplit(split(f), v13);
      right10 += a.routedRight;
      right13 += b.routedRight;
      general10 += a.routedGeneral;
      general13 += b.routedGeneral;
      // No split loses more than one right route (a read split's one: a webhook's timeouts and circuit breaker went
      // from SRE to backend once its "Support escalation:" lead stopped counting as SRE's).
      expect({ f, atMostOneLost: a.routedRight - b.routedRight <= 1 }).toEqual({ f, atMostOneLost: true });
    }
    expect(right13 - right10).toBeGreaterThanOrEqual(60);
    expect(general13).toBeLessThan(general10);
  });

  it('was judged on splits apart from the ones each version was written on', () => {
    for (const [held, readSplits] of [
      [V11_HELD_OUT, V11_READ],
      [V12_HELD_OUT, V12_READ],
      [V13_HELD_OUT, V13_READ],
    ] as const) {
      const names = [held.judged, held.second];
      expect(names.filter((n) => (readSplits as readonly string[]).includes(n))).toEqual([]);
      for (const n of names) {
        const tasks = split(`heldout-${n}.json`).tasks as { label: string }[];
        expect(tasks.length).toBeGreaterThanOrEqual(150);
        expect(tasks.filter((t) => t.label === 'general').length).toBeGreaterThanOrEqual(40);
      }
    }
    // Each version's held-out splits are read by the next one only.
    expect(V12_READ).toEqual(expect.arrayContaining([V11_HELD_OUT.judged, V11_HELD_OUT.second]));
    expect(V13_READ).toEqual(expect.arrayContaining([V12_HELD_OUT.judged, V12_HELD_OUT.second]));
  });
});
