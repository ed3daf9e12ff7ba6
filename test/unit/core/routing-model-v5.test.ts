/**
 * The routing v5 model (src/core/routing/model-v5.ts): v4's features with weights fitted on more real text, and the
 * certainty rule of complexity (a domain the model is sure of, from 3 words, is specialist work). The committed
 * weights are what bench/fit-routing-v5.ts fits; no text of the seventh blind split is in its training or calibration.
 */
import path from 'node:path';
import {
  V5_CERTAIN,
  buildRoutingIndex,
  hasCloudContext,
  classify,
  keywordPass,
  normalizeText,
  routingModelV4Weights,
  routingModelV5Weights,
  routingProbabilitiesV4,
  textTokens,
} from '../../../src/core/routing';
import { V5_CALIBRATION, V5_TRAIN, fitV5, v5Inputs } from '../../../bench/fit-routing-v5';
import type { Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const DEVOPS = [{ name: 'ci_engineer', domain: 'devops', keywords: [], weights: {} }];

describe('the v5 model', () => {
  const V5 = (profiles: Parameters<typeof buildRoutingIndex>[0] = []) => buildRoutingIndex(profiles, 'calibrated-v5');

  it('is the model of loops recorded with routing-v5-model; its probabilities sum to 1 and differ from v4', () => {
    const text = 'Operator ClusterRole grants far too much';
    expect(classify(text, V5()).model).toBe('calibrated-v5');
    const x = { evidence: keywordPass(text, buildRoutingIndex()), tokens: textTokens(normalizeText(text)) };
    const p5 = routingProbabilitiesV4(x, routingModelV5Weights());
    const p4 = routingProbabilitiesV4(x, routingModelV4Weights());
    expect([...p5.domains.values()].reduce((a, b) => a + b, p5.general)).toBeCloseTo(1, 9);
    expect(p5.domains.get('security')).not.toBeCloseTo(p4.domains.get('security')!, 3);
    expect(routingModelV5Weights().fitted).toMatchObject({ by: expect.stringContaining('fit-routing-v5') });
  });

  it('counts a sure domain toward the complexity: a short specialist title routes, a 2-word one still does not', () => {
    const title = 'Cache go modules in CI';
    const v5 = classify(title, buildRoutingIndex(DEVOPS, 'calibrated-v5'));
    const v4 = classify(title, buildRoutingIndex(DEVOPS, 'calibrated-v4'));
    expect(v5.confidence).toBeGreaterThanOrEqual(V5_CERTAIN);
    expect(v5).toMatchObject({ domain: 'devops', route: true, decidedBy: 'routed', profile: 'ci_engineer' });
    expect(v5.complexity).toBe(v4.complexity + 1);
    expect(v4).toMatchObject({ domain: 'devops', route: false, decidedBy: 'minComplexity' });
    // The seed's rule still holds: complexity 3 or less never routes, however sure the domain.
    const xss = classify('Fix XSS', V5([{ name: 'sec', domain: 'security', keywords: [] }]));
    expect(xss).toMatchObject({ domain: 'security', route: false, decidedBy: 'minComplexity' });
    expect(xss.complexity).toBeLessThanOrEqual(3);
  });

  it('keeps a task that leads with a mechanical chore at complexity 3 or less, whatever jargon it names', () => {
    const index = V5([...DEVOPS, { name: 'sec', domain: 'security', keywords: [] }]);
    const rename = 'Rename deploy/k8s_manifests.py to deploy/manifests.py and update the imports in the Helm scripts';
    const c = classify(rename, index);
    expect(c).toMatchObject({ chore: 'rename', route: false });
    expect(c.complexity).toBeLessThanOrEqual(3);
    expect(c.why.join('\n')).toContain('a mechanical chore (leads with "rename")');
    // v4 has no such rule: the same text routes to the devops profile there.
    const v4 = classify(rename, buildRoutingIndex(DEVOPS, 'calibrated-v4'));
    expect(v4).toMatchObject({ domain: 'devops', route: true });
    expect(v4.chore).toBeUndefined();
    expect(classify('chore(deps): bump axios from 1.6.0 to 1.7.4 in the frontend build', index)).toMatchObject({
      chore: 'bump',
      route: false,
    });
    // A bump that names an advisory is security work.
    const cve = classify('Bump openssl in the base image to 3.0.13 to fix CVE-2024-0727 in the TLS termination', index);
    expect(cve.chore).toBeUndefined();
    expect(cve).toMatchObject({ domain: 'security', route: true });
  });

  it("gives finops's probability to general when the task names no cloud or infrastructure (the product's money)", () => {
    const index = V5([{ name: 'fin', domain: 'finops', keywords: [] }]);
    const money =
      'Invoice totals are off by a cent when a discount and a sales tax both apply; round once, at the end, in the checkout service.';
    expect(hasCloudContext(money)).toBe(false);
    const c = classify(money, index);
    expect(c.route).toBe(false);
    expect(c.confidences.finops).toBeLessThan(0.01);
    expect(c.why.join('\n')).toContain('finops names no cloud or infrastructure');
    // v4 has no such rule.
    expect(classify(money, buildRoutingIndex([], 'calibrated-v4')).confidences.finops).toBeGreaterThan(0.5);
    const cloud = 'Rightsize the EC2 instances that idle below 5% CPU and buy a savings plan for the steady baseline.';
    expect(classify(cloud, index)).toMatchObject({ domain: 'finops', route: true, profile: 'fin' });
    // Matched on the normalized text: "BigQuery" is "big query", "FinOps" is "fin ops".
    expect(hasCloudContext('Find the most expensive queries in our BigQuery bill by user')).toBe(true);
    expect(hasCloudContext('FinOps monthly review: top 10 cost drivers with owners and actions')).toBe(true);
  });

  it('keeps plain chores and small talk general', () => {
    for (const t of ['Say hello', 'Rename the helper to currentUser', "What's the weather?"])
      expect(classify(t, V5())).toMatchObject({ model: 'calibrated-v5', domain: 'general', route: false });
  });
});

describe('the v5 fit (bench/fit-routing-v5.ts)', () => {
  it('reproduces the committed weights from the training and calibration splits', async () => {
    const { train, cal, profiles } = await v5Inputs();
    const { l2, l2Grid } = routingModelV5Weights().fitted as { l2: number; l2Grid: Record<string, number> };
    expect(fitV5(train, cal, profiles, [l2])).toEqual({
      ...routingModelV5Weights(),
      fitted: { ...routingModelV5Weights().fitted, l2Grid: { [String(l2)]: l2Grid[String(l2)] } },
    });
  }, 600_000);

  it('reads no text or thread of the seventh held-out split, which holds at least 200 task descriptions', async () => {
    const tasks = (f: string) => split(f).tasks as { text: string; source?: string }[];
    const seventh = tasks('heldout-seventh.json');
    const seen = [...V5_TRAIN, ...V5_CALIBRATION].flatMap(tasks);
    const texts = new Set(seen.map((t) => normalizeText(t.text)));
    const urls = new Set(seen.map((t) => t.source).filter((s) => s?.startsWith('https://')));
    expect(seventh.filter((t) => texts.has(normalizeText(t.text)) || urls.has(t.source))).toEqual([]);
    expect(seventh.length).toBeGreaterThanOrEqual(200);
    expect(seventh.filter((t) => /^https:\/\/github\.com\//.test(t.source ?? '')).length).toBeGreaterThanOrEqual(70);
    expect(V5_TRAIN).toEqual(
      expect.arrayContaining([
        'heldout-fresh.json',
        'heldout-third.json',
        'heldout-fourth.json',
        'heldout-fifth.json',
        'heldout-sixth.json',
        'labelled-hardneg.json',
      ]),
    );
    const { train, cal } = await v5Inputs();
    expect(train.length + cal.length).toBe(V5_TRAIN.concat(V5_CALIBRATION).reduce((n, f) => n + tasks(f).length, 0));
  });
});
