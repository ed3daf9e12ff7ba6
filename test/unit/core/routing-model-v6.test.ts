/**
 * The routing v6 model (src/core/routing/model-v6.ts): v5 fitted on the seventh to fourteenth blind splits too,
 * plus the small-work rule (a command-line flag, an off-by-one, unchanged behaviour, a rename clause keep the
 * complexity at 3 or less), upgrades of the application's own framework and bumps that say they have no advisory are
 * chores, and "compute" as a verb is no cloud word. The committed weights are what bench/fit-routing-v6.ts fits; no
 * text of its two held-out blind splits is in its training or calibration.
 */
import path from 'node:path';
import {
  buildRoutingIndex,
  choreLead,
  classify,
  hasCloudContext,
  keywordPass,
  normalizeText,
  ROUTING_DEFAULTS,
  routingModelV5Weights,
  routingModelV6Weights,
  routingProbabilitiesV4,
  smallWork,
  textTokens,
} from '../../../src/core/routing';
import { V6_CALIBRATION, V6_HELD_OUT, V6_LATER, V6_TRAIN, fitV6, v6Inputs } from '../../../bench/fit-routing-v6';
import { evaluateSplit, type Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const PROFILES = ['security', 'sre', 'frontend', 'backend', 'data', 'devops', 'docs', 'testing', 'finops'].map(
  (domain) => ({ name: `${domain}_agent`, domain, keywords: [] }),
);

describe('the v6 model', () => {
  it('keeps its model for loops recorded with it; its probabilities sum to 1 and differ from v5 (its own weights)', () => {
    const text = 'Operator ClusterRole grants far too much';
    expect(classify(text, buildRoutingIndex([], 'calibrated-v6')).model).toBe('calibrated-v6');
    const x = {
      evidence: keywordPass(text, buildRoutingIndex([], 'calibrated-v6')),
      tokens: textTokens(normalizeText(text)),
    };
    const p6 = routingProbabilitiesV4(x, routingModelV6Weights());
    const p5 = routingProbabilitiesV4(x, routingModelV5Weights());
    expect([...p6.domains.values()].reduce((a, b) => a + b, p6.general)).toBeCloseTo(1, 9);
    expect(p6.domains.get('security')).not.toBeCloseTo(p5.domains.get('security')!, 4);
    expect(routingModelV6Weights().fitted).toMatchObject({ by: expect.stringContaining('fit-routing-v6') });
  });

  it.each([
    ['Add a --dry-run flag to cleanup_docker_images.sh that prints which images would be removed', 'cli flag'],
    ['Add a --verbose option to our terraform wrapper script that echoes each command', 'cli flag'],
    ['The audit log export counts 101 of 100 rows; fix the off-by-one in the progress counter', 'off-by-one'],
    [
      'Pull the retry-with-backoff helper copied into five HTTP clients into one utility, without changing any of the current timeouts',
      'unchanged behaviour',
    ],
    [
      'Split the BookingController into three controllers, keeping every route and response exactly the same',
      'unchanged behaviour',
    ],
    ['The Monitoring model stores gym check-ins; rename it to CheckIn, with a migration for the table', 'rename'],
  ])('keeps small work with the base agent, whatever domain its words name: %s', (text, kind) => {
    const index = buildRoutingIndex(PROFILES, 'calibrated-v6');
    expect(smallWork(text)).toBe(kind);
    const c = classify(text, index);
    expect(c).toMatchObject({
      chore: kind,
      route: false,
      decidedBy: expect.stringMatching(/minComplexity|minConfidence/),
    });
    expect(c.complexity).toBeLessThanOrEqual(3);
    expect(c.why.join('\n')).toContain(`small work (${kind}): complexity at most 3`);
    // v5 has no such rule: the text's complexity is its own there.
    expect(classify(text, buildRoutingIndex(PROFILES, 'calibrated-v5')).chore).toBeUndefined();
  });

  it('routes specialist work that names a flag, a test or a change in passing', () => {
    const index = buildRoutingIndex(PROFILES, 'calibrated-v6');
    for (const text of [
      'Add golden-file tests for the CLI output in both --format json and --format table modes.',
      'Our JWT verification accepts tokens signed with alg none; fix the verifier, rotate the keys and add a regression test.',
    ]) {
      expect(smallWork(text)).toBeUndefined();
      expect(classify(text, index).chore).toBeUndefined();
    }
    expect(smallWork('running terraform apply a second time without changing anything still updates the storage')).toBe(
      undefined,
    );
  });

  it('keeps a bump that says it has no advisory a chore; one that names an advisory is security work', () => {
    const index = buildRoutingIndex(PROFILES, 'calibrated-v6');
    const plain =
      'Bump Spring Boot from 3.2 to 3.3 across the services. There is no CVE behind this, we want to stay current.';
    expect(classify(plain, index)).toMatchObject({ chore: 'bump', route: false });
    expect(classify(plain, buildRoutingIndex(PROFILES, 'calibrated-v5')).chore).toBeUndefined();
    const cve = 'Bump openssl in the base image to 3.0.13 to fix CVE-2024-0727 in the TLS termination';
    expect(classify(cve, index).chore).toBeUndefined();
    expect(classify(cve, index)).toMatchObject({ domain: 'security', route: true });
  });

  it("keeps an upgrade of the application's own framework a chore; one of infrastructure or with an advisory is not", () => {
    const index = buildRoutingIndex(PROFILES, 'calibrated-v6');
    for (const text of [
      'Upgrade the Rails app from 7.1 to 7.2 and clear the deprecation warnings.',
      'Update clap from v3 to v4 and migrate the derive attributes in the CLI.',
      'Upgrade Guava from 31 to 33 in every module; no vulnerability involved, we want the new collection APIs.',
    ]) {
      expect(choreLead(text, true)).toBe('upgrade');
      expect(classify(text, index)).toMatchObject({ chore: 'upgrade', route: false });
    }
    expect(choreLead('Upgrade the Rails app from 7.1 to 7.2 and clear the deprecation warnings.')).toBeUndefined();
    for (const text of [
      'Upgrade the EKS cluster from 1.29 to 1.31 and fix the manifests that use removed API versions.',
      'Upgrade lodash to 4.17.21 to fix the prototype pollution advisory.',
      'Upgrade guide from v3 to v4: the renamed config keys and what to do about the removed flags',
    ])
      expect(choreLead(text, true)).toBeUndefined();
  });

  it('reads "compute" as a verb on the product\'s own figures as no cloud word (v6 only)', () => {
    const recipe =
      'Add a cost field to recipe ingredients and compute the estimated cost per serving when scaling recipes.';
    expect(hasCloudContext(recipe)).toBe(true);
    expect(hasCloudContext(recipe, true)).toBe(false);
    const c = classify(recipe, buildRoutingIndex(PROFILES, 'calibrated-v6'));
    expect(c.route).toBe(false);
    expect(hasCloudContext('Our compute bill doubled: find the idle instances', true)).toBe(true);
    expect(hasCloudContext('Move the batch jobs to spot compute to halve the bill', true)).toBe(true);
  });

  it("prices 0 general routed on the judged held-out split: the bar above every general task's confidence", () => {
    const index = buildRoutingIndex(PROFILES, 'calibrated-v6');
    const judged = split(`heldout-${V6_HELD_OUT.judged}.json`);
    const f = evaluateSplit(judged, index);
    expect(f.zeroGeneral.minConfidence).toBeGreaterThanOrEqual(ROUTING_DEFAULTS.minConfidence);
    // At the bar no general task routes, and what still routes right is what the figure says.
    const at = evaluateSplit(judged, index, { ...ROUTING_DEFAULTS, minConfidence: f.zeroGeneral.minConfidence });
    expect(at.routedGeneral).toBe(0);
    expect(at.routedRight).toBe(f.zeroGeneral.routedRight);
    expect(f.zeroGeneral.accuracy).toBeLessThanOrEqual(f.accuracy);
    if (f.routedGeneral > 0) expect(f.zeroGeneral.minConfidence).toBeGreaterThan(ROUTING_DEFAULTS.minConfidence);
  });
});

describe('the v6 fit (bench/fit-routing-v6.ts)', () => {
  it('reproduces the committed weights from the training and calibration splits', async () => {
    const { train, cal, profiles } = await v6Inputs();
    const { l2, l2Grid } = routingModelV6Weights().fitted as { l2: number; l2Grid: Record<string, number> };
    expect(fitV6(train, cal, profiles, [l2])).toEqual({
      ...routingModelV6Weights(),
      fitted: { ...routingModelV6Weights().fitted, l2Grid: { [String(l2)]: l2Grid[String(l2)] } },
    });
  }, 600_000);

  it('reads no text or thread of its held-out splits or of the splits written after it, and trains on the blind splits before them', async () => {
    const tasks = (f: string) => split(f).tasks as { text: string; source?: string }[];
    const seen = [...V6_TRAIN, ...V6_CALIBRATION].flatMap(tasks);
    const texts = new Set(seen.map((t) => normalizeText(t.text)));
    const urls = new Set(seen.map((t) => t.source).filter((s) => s?.startsWith('https://')));
    for (const name of [V6_HELD_OUT.judged, V6_HELD_OUT.second, ...V6_LATER]) {
      const f = `heldout-${name}.json`;
      const heldOut = tasks(f);
      expect(heldOut.filter((t) => texts.has(normalizeText(t.text)) || urls.has(t.source))).toEqual([]);
      expect(heldOut.length).toBeGreaterThanOrEqual(150);
      expect(V6_TRAIN).not.toContain(f);
    }
    expect(V6_TRAIN).toEqual(
      expect.arrayContaining([
        'heldout-seventh.json',
        'heldout-eighth.json',
        'heldout-ninth.json',
        'heldout-tenth.json',
        'heldout-eleventh.json',
        'heldout-twelfth.json',
        'heldout-thirteenth.json',
        'heldout-fourteenth.json',
        'labelled-business.json',
        'labelled-plain.json',
        'labelled-general2.json',
        'labelled-business2.json',
      ]),
    );
    const { train, cal } = await v6Inputs();
    expect(train.length + cal.length).toBe(V6_TRAIN.concat(V6_CALIBRATION).reduce((n, f) => n + tasks(f).length, 0));
  });
});
