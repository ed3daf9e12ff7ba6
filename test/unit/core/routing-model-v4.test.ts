/**
 * The routing v4 model (src/core/routing/model-v4.ts): the v3 model plus the routing lexicon, built from commit
 * subjects of public repositories labelled by domain (bench/build-routing-lexicon.ts). Jargon no labelled text holds
 * still points to its domain; the lexicon's jargon counts toward the complexity; the committed weights are what
 * bench/fit-routing-v4.ts fits; no text of the real held-out split is in the training or calibration splits.
 */
import path from 'node:path';
import {
  routingLexicon,
  routingModelV4Weights,
  buildRoutingIndex,
  classify,
  keywordPass,
  lexiconEvidence,
  normalizeText,
  routingProbabilitiesV4,
  textTokens,
} from '../../../src/core/routing';
import { labelSubject } from '../../../bench/build-routing-lexicon';
import { V4_CALIBRATION, V4_TRAIN, fitV4, v4Inputs } from '../../../bench/fit-routing-v4';
import type { Labelled } from '../../../bench/routing-eval';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;
const tokens = (t: string): string[] => textTokens(normalizeText(t));

describe('the routing lexicon', () => {
  it('points jargon to its domain: words no keyword of the vocabulary holds', () => {
    const top = (word: string): string | undefined => {
      const lx = lexiconEvidence([word]);
      return [...lx.sum.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    };
    expect(top('bulkhead')).toBe('sre');
    expect(top('hydration')).toBe('frontend');
    expect(top('snowflake')).toBe('data');
    expect(top('fixture')).toBe('testing');
    expect(top('jwt')).toBe('security');
    expect(top('billing')).toBe('finops');
    // A word of every domain's commits ("fix", "add") is not in the lexicon.
    expect(routingLexicon().tokens.fix).toBeUndefined();
    expect(routingLexicon().tokens.add).toBeUndefined();
  });

  it('labels commit subjects by their repository, or by a conventional-commit type that names a domain', () => {
    expect(labelSubject('fix(alerting): dedupe notifications for silenced routes (#123)', 'sre')).toEqual({
      label: 'sre',
      text: 'dedupe notifications for silenced routes',
    });
    expect(labelSubject('docs: explain the retry policy options', 'sre')?.label).toBe('docs');
    expect(labelSubject('test: cover the empty receiver list', 'sre')?.label).toBe('testing');
    expect(labelSubject('ci: cache the go modules between jobs', 'security')?.label).toBe('devops');
    for (const noise of [
      'Merge pull request #12 from x/y',
      'chore(deps): bump lodash from 4.17.20 to 4.17.21',
      'Bump github.com/foo/bar from 1.2.0 to 1.3.0',
      'v1.2.3',
      'refactor: split the parser',
      'fix typo',
    ])
      expect(labelSubject(noise, 'sre')).toBeUndefined();
  });
});

describe('the v4 model', () => {
  it('gives every built-in domain and general a probability; they sum to 1; deterministic', () => {
    const text = 'Add a bulkhead per downstream dependency so one slow service cannot exhaust the pool';
    const x = { evidence: keywordPass(text, buildRoutingIndex()), tokens: tokens(text) };
    const p = routingProbabilitiesV4(x);
    for (const d of routingModelV4Weights().classes.filter((c) => c !== 'general')) expect(p.domains.has(d)).toBe(true);
    expect([...p.domains.values()].reduce((a, b) => a + b, p.general)).toBeCloseTo(1, 9);
    expect(routingProbabilitiesV4(x)).toEqual(p);
    expect(p.lexicon.jargon.get('sre')).toBeGreaterThan(0);
  });

  it('routes with the lexicon where v3 had no word for it; keeps plain chores general', () => {
    const text = 'Showback report per product team from the AWS CUR in Athena';
    expect(classify(text, buildRoutingIndex([], 'calibrated-v4')).domain).toBe('finops');
    for (const t of ['Say hello', 'Rename the variable foo to bar', "What's the weather?"])
      expect(classify(t, buildRoutingIndex([], 'calibrated-v4'))).toMatchObject({
        model: 'calibrated-v4',
        domain: 'general',
        route: false,
      });
  });

  it("counts the lexicon's jargon of the primary domain toward the complexity (v3 does not)", () => {
    const text = 'Return RFC 7807 problem+json errors from all FastAPI routes';
    const v4 = classify(text, buildRoutingIndex([], 'calibrated-v4'));
    const v3 = classify(text, buildRoutingIndex([], 'calibrated-v3'));
    expect(v4.domain).toBe('backend');
    expect(v4.complexity).toBeGreaterThan(v3.complexity);
  });

  it('scores a domain a profile defines from its keywords', () => {
    const index = buildRoutingIndex(
      [{ name: 'dns_specialist', domain: 'dns', keywords: ['dns', 'mx record', 'spf', 'dkim'], weights: { dns: 4 } }],
      'calibrated-v4',
    );
    const c = classify('Configure the DNS zone with MX records, SPF and DKIM for the new mail domain', index);
    expect(c).toMatchObject({ model: 'calibrated-v4', domain: 'dns', route: true, profile: 'dns_specialist' });
  });
});

describe('the v4 fit (bench/fit-routing-v4.ts)', () => {
  it('reproduces the committed weights from the training and calibration splits', async () => {
    const { train, cal, profiles } = await v4Inputs();
    // Refitted at the committed L2 strength only (the grid's other fits cost minutes; their losses are on record).
    const { l2, l2Grid } = routingModelV4Weights().fitted as { l2: number; l2Grid: Record<string, number> };
    expect(fitV4(train, cal, profiles, [l2])).toEqual({
      ...routingModelV4Weights(),
      fitted: { ...routingModelV4Weights().fitted, l2Grid: { [String(l2)]: l2Grid[String(l2)] } },
    });
  }, 600_000);

  it('reads no text of the fresh held-out split, which holds at least 200 texts and real issue titles', async () => {
    const norm = (f: string) => new Set(split(f).tasks.map((t) => normalizeText(t.text)));
    const seen = new Set([...V4_TRAIN, ...V4_CALIBRATION].flatMap((f) => [...norm(f)]));
    expect([...norm('heldout-fresh.json')].filter((t) => seen.has(t))).toEqual([]);
    const real = split('heldout-fresh.json').tasks as { source?: string }[];
    expect(real.length).toBeGreaterThanOrEqual(200);
    expect(real.filter((t) => /^https:\/\/github\.com\//.test(t.source ?? '')).length).toBeGreaterThanOrEqual(100);
    const { train, cal } = await v4Inputs();
    expect(train.length + cal.length).toBe(
      V4_TRAIN.concat(V4_CALIBRATION).reduce((n, f) => n + split(f).tasks.length, 0),
    );
  });
});
