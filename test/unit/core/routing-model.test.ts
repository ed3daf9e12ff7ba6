/**
 * The calibrated routing model (src/core/routing/model.ts): probabilities, the seed's thresholds on top of them, the
 * v1 keyword confidence kept for replay, profile budgets in the tracker, and the honesty of the fit (the committed
 * weights are what bench/fit-routing.ts fits on the training and calibration splits; no vocabulary word comes only
 * from the calibration or held-out splits).
 */
import path from 'node:path';
import { loadAgentProfiles } from '../../../src/activities/routing';
import {
  COMPLEXITY_TERMS_V2,
  ROUTING_DEFAULTS,
  ROUTING_MODEL_WEIGHTS,
  RoutingTracker,
  VOCABULARY_V2,
  budgetReached,
  buildRoutingIndex,
  classify,
  normalizeText,
  overrideReliability,
  reliabilityTable,
  routingProbabilities,
  routingStats,
  softmax,
  type RoutingEvidence,
  type RoutingLogEntry,
} from '../../../src/core/routing';
import { chooseCalibration, example, fit, learnKeywords, type Labelled } from '../../../bench/fit-routing';

const FIXTURES = path.join(__dirname, '../../fixtures/routing');
const split = (f: string): Labelled => require(path.join(FIXTURES, f)) as Labelled;

const evidence = (scores: Record<string, number>, over: Partial<RoutingEvidence> = {}): RoutingEvidence => ({
  scores: new Map(Object.entries(scores)),
  strong: new Map(Object.entries(scores).map(([d, s]) => [d, Math.floor(s / 3)])),
  profileScores: new Map(),
  lead: new Map(),
  words: 12,
  terms: Object.values(scores).reduce((a, s) => a + Math.ceil(s / 3), 0),
  ...over,
});

describe('the routing model', () => {
  it('softmax sums to 1, and a higher temperature flattens it', () => {
    const p = softmax([2, 1, 0]);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    const hot = softmax([2, 1, 0], 3);
    expect(hot[0]).toBeLessThan(p[0]);
    expect(hot[2]).toBeGreaterThan(p[2]);
    expect(softmax([])).toEqual([]);
  });

  it('gives every matched domain and general a probability summing to 1; more evidence, more probability', () => {
    const weak = routingProbabilities(evidence({ security: 2 }));
    const strong = routingProbabilities(evidence({ security: 9 }));
    const split2 = routingProbabilities(evidence({ security: 6, backend: 6 }));
    for (const p of [weak, strong, split2])
      expect([...p.domains.values()].reduce((a, b) => a + b, p.general)).toBeCloseTo(1, 10);
    expect(strong.domains.get('security')!).toBeGreaterThan(weak.domains.get('security')!);
    expect(weak.general).toBeGreaterThan(strong.general);
    // Evidence split between two domains: neither is sure.
    expect(split2.domains.get('security')!).toBeLessThan(0.7);
    // The first words of a title count more ("Write tests for the React hooks" is testing).
    const lead = routingProbabilities(evidence({ testing: 6, frontend: 6 }, { lead: new Map([['testing', 6]]) }));
    expect(lead.domains.get('testing')!).toBeGreaterThan(lead.domains.get('frontend')!);
  });

  it('tabulates reliability: the share right per confidence bin and the expected calibration error', () => {
    const r = reliabilityTable([
      { confidence: 0.75, right: true },
      { confidence: 0.72, right: false },
      { confidence: 0.95, right: true },
      { confidence: 0.3, right: false },
    ]);
    expect(r.rows.find((x) => x.from === 0.7)).toMatchObject({ n: 2, right: 1, accuracy: 0.5, meanConfidence: 0.735 });
    expect(r.rows.find((x) => x.from === 0.9)).toMatchObject({ n: 1, right: 1, accuracy: 1, to: 1 });
    expect(r.rows.reduce((a, x) => a + x.n, 0)).toBe(4);
    expect(r.ece).toBeGreaterThan(0);
  });

  it.each([
    'calibrated',
    'calibrated-v3',
    'calibrated-v4',
    'calibrated-v5',
    'calibrated-v6',
    'calibrated-v7',
    'calibrated-v8',
    'calibrated-v9',
    'calibrated-v10',
    'calibrated-v11',
    'calibrated-v12',
    'calibrated-v13',
    'calibrated-v14',
    'calibrated-v15',
    'calibrated-v16',
    'calibrated-v17',
    'calibrated-v18',
    'calibrated-v19',
    'calibrated-v20',
    'calibrated-v21',
    'calibrated-v22',
    'calibrated-v23',
    'calibrated-v24',
    'calibrated-v25',
    'calibrated-v26',
    'calibrated-v27',
    'calibrated-v28',
    'calibrated-v29',
  ] as const)(
    'routes only above 0.70 probability and complexity above 3, on every labelled text of every split (%s)',
    async (model) => {
      const { profiles } = await loadAgentProfiles({ workspace: FIXTURES, dir: path.join(FIXTURES, 'agents') });
      const index = buildRoutingIndex(profiles, model);
      let routed = 0;
      for (const f of ['labelled.json', 'calibration.json', 'heldout.json'])
        for (const t of split(f).tasks) {
          const c = classify(t.text, index);
          expect(c.model).toBe(model);
          expect(c.route).toBe(c.confidence > 0.7 && c.complexity > 3 && c.profile !== undefined);
          expect(c.decidedBy === 'routed').toBe(c.route);
          if (c.route) routed++;
          if (c.domain !== 'general') {
            // v2 shows every candidate (they sum to 1); v3 and v4 leave out the unmatched domains under 0.05.
            const sum = Object.values(c.confidences).reduce((a, b) => a + b, c.general ?? 0);
            if (model === 'calibrated') expect(Math.abs(sum - 1)).toBeLessThan(0.02);
            else expect(sum).toBeLessThan(1.02);
          }
        }
      expect(routed).toBeGreaterThan(300);
    },
  );

  it('keeps the v1 keyword confidence and vocabulary for loops recorded before the calibrated model', () => {
    const v1 = buildRoutingIndex([{ name: 'sec', domain: 'security', keywords: [] }], 'keywords');
    const c = classify('Fix the stored XSS in the comment renderer and add a content security policy', v1);
    expect(c.model).toBe('keywords');
    expect(c.general).toBeUndefined();
    // v1: strength(score) = 1 - e^(-score / 2.4) times dominance; xss 3 + content security policy 3 + ... = score.
    const score = 3 + 3;
    expect(c.confidences.security).toBeCloseTo(1 - Math.exp(-score / 2.4), 3);
    // A v2 word is unknown to v1.
    expect(classify('IDOR on the invoices endpoint lets users read other tenants invoices', v1).matched.security).toBe(
      undefined,
    );
  });
});

describe('the fit (bench/fit-routing.ts)', () => {
  it('reproduces the committed weights from the training and calibration splits', async () => {
    const { profiles } = await loadAgentProfiles({ workspace: FIXTURES, dir: path.join(FIXTURES, 'agents') });
    const train = split('labelled.json');
    expect(learnKeywords(train.tasks)).toEqual(ROUTING_MODEL_WEIGHTS.learned);
    const folds = new Map<number, ReturnType<typeof buildRoutingIndex>>();
    const xs = train.tasks.map((t, i) => {
      if (!folds.has(i % 5))
        folds.set(
          i % 5,
          buildRoutingIndex(profiles, 'calibrated', learnKeywords(train.tasks.filter((_, j) => j % 5 !== i % 5))),
        );
      return example(t.text, t.label, folds.get(i % 5)!);
    });
    const { w, v } = fit(xs);
    const r4 = (x: number) => Math.round(x * 10000) / 10000;
    expect(w.map(r4)).toEqual(ROUTING_MODEL_WEIGHTS.domain);
    expect(v.map(r4)).toEqual(ROUTING_MODEL_WEIGHTS.general);
    const index = buildRoutingIndex(profiles, 'calibrated');
    const cal = split('calibration.json').tasks.map((t) => example(t.text, t.label, index));
    expect(chooseCalibration(cal, w, v)).toEqual({
      temperature: ROUTING_MODEL_WEIGHTS.temperature,
      offset: ROUTING_MODEL_WEIGHTS.generalOffset,
    });
  }, 60_000);

  it('grows the vocabulary from the training split only: no v2 word appears only in calibration or held-out texts', () => {
    const texts = (f: string) => split(f).tasks.map((t) => ` ${normalizeText(t.text)} `);
    const train = texts('labelled.json');
    const unseen = [...texts('calibration.json'), ...texts('heldout.json')];
    const has = (xs: string[], t: string) =>
      xs.some(
        (x) => x.includes(` ${t} `) || x.includes(` ${t}s `) || (t.endsWith('s') && x.includes(` ${t.slice(0, -1)} `)),
      );
    const terms = [
      ...Object.values(VOCABULARY_V2).flatMap((kws) => kws.map((k) => k.term)),
      ...COMPLEXITY_TERMS_V2,
      ...Object.values(ROUTING_MODEL_WEIGHTS.learned).flat(),
    ].map(normalizeText);
    const leaked = terms.filter((t) => !has(train, t) && has(unseen, t));
    expect(leaked).toEqual([]);
  });
});

describe('profile budgets', () => {
  const profiles = [
    { name: 'security_specialist', domain: 'security', keywords: [] },
    { name: 'sre_principal', domain: 'sre', keywords: [] },
  ];
  const SEC = 'Review this Python code for security issues and fix any injection vulnerabilities';
  const ok = (budget?: object) => ({ ok: true, loadMs: 1, profile: { budget } });

  it('says which limit a spend reached', () => {
    expect(budgetReached(undefined, { iterations: 9, tokens: 9, costUsd: 9 })).toBeUndefined();
    expect(budgetReached({ tokens: 100 }, { iterations: 1, tokens: 99, costUsd: 0 })).toBeUndefined();
    expect(budgetReached({ tokens: 100, costUsd: 0.5 }, { iterations: 1, tokens: 100, costUsd: 0.6 })).toBe(
      'tokens 100 of 100, cost $0.6 of $0.5',
    );
    expect(budgetReached({ iterations: 2 }, { iterations: 2, tokens: 0, costUsd: 0 })).toBe('iterations 2 of 2');
  });

  it('hands back to the base agent at the budget, logs why, and routes there no more', () => {
    const t = new RoutingTracker({ ...ROUTING_DEFAULTS }, 'l1', profiles);
    expect(t.decide(1, SEC, 0)).toMatchObject({ agent: 'security_specialist', reason: 'routed' });
    t.loaded(1, 'security_specialist', ok({ iterations: 5, costUsd: 0.05 }), 0);
    expect(t.spent(1, 'security_specialist', { inputTokens: 10, outputTokens: 5, costUsd: 0.03 }, 0)).toEqual({
      exhausted: false,
    });
    expect(t.decide(2, SEC, 1)).toMatchObject({ agent: 'security_specialist', reason: 'kept' });
    const r = t.spent(2, 'security_specialist', { costUsd: 0.03 }, 1);
    expect(r).toMatchObject({ exhausted: true, note: expect.stringContaining('cost $0.06 of $0.05') });
    expect(t.state.agent).toBeUndefined();
    expect(t.state.spend!.security_specialist).toEqual({ iterations: 2, tokens: 15, costUsd: 0.06 });
    expect(t.decide(3, SEC, 2)).toMatchObject({ agent: undefined, reason: 'budget_exhausted' });
    // A handoff to it is refused too.
    const h = { ok: true as const, handoff: { target: 'security_specialist', reason: 'r', context: 'c' }, redacted: 0 };
    expect(t.handoff(3, h, 2)).toMatchObject({ accepted: false, note: expect.stringMatching(/budget ran out/) });
    const log = t.takeLog();
    expect(log.find((e) => e.event === 'budget_exhausted')).toMatchObject({
      iteration: 2,
      from: 'security_specialist',
      reason: expect.stringMatching(/back to the base agent/),
    });
    expect(log.filter((e) => e.event === 'decision').map((e) => e.reason)).toEqual([
      'routed',
      'kept',
      'budget_exhausted',
    ]);
    // An operator's override gives it a fresh budget.
    t.requestOverride({ agent: 'security_specialist' }, 'now');
    expect(t.decide(4, SEC, 3)).toMatchObject({ agent: 'security_specialist', reason: 'override' });
    expect(t.state.exhausted).toEqual([]);
    expect(t.state.spend!.security_specialist).toBeUndefined();
  });

  it('lets a handoff declared in the budget-ending iteration go ahead', () => {
    const t = new RoutingTracker({ ...ROUTING_DEFAULTS }, 'l1', profiles);
    t.decide(1, SEC, 0);
    t.loaded(1, 'security_specialist', ok({ iterations: 1 }), 0);
    const h = { ok: true as const, handoff: { target: 'sre_principal', reason: 'r', context: 'c' }, redacted: 0 };
    expect(t.handoff(1, h, 0).accepted).toBe(true);
    expect(t.spent(1, 'security_specialist', undefined, 0).exhausted).toBe(true);
    expect(t.decide(2, SEC, 1)).toMatchObject({ agent: 'sre_principal', reason: 'handoff' });
  });

  it('is not enforced by a v1 tracker (loops recorded before budgets replay alike)', () => {
    const t = new RoutingTracker({ ...ROUTING_DEFAULTS }, 'l1', profiles, undefined, undefined, { model: 'keywords' });
    t.decide(1, SEC, 0);
    t.loaded(1, 'security_specialist', ok({ iterations: 1 }), 0);
    expect(t.spent(1, 'security_specialist', { inputTokens: 1e6 }, 0)).toEqual({ exhausted: false });
    expect(t.decide(2, SEC, 1)).toMatchObject({ agent: 'security_specialist', reason: 'kept' });
  });
});

describe('reliability against human overrides (routing stats)', () => {
  it('counts a routed decision wrong when an override at its iteration replaced it', () => {
    const at = 'x';
    const d = (loopId: string, iteration: number, confidence: number): RoutingLogEntry => ({
      at,
      event: 'decision',
      loopId,
      iteration,
      confidence,
      domain: 'security',
      suggested: 'sec',
      chosen: 'sec',
    });
    const o = (loopId: string, iteration: number, chosen: string): RoutingLogEntry => ({
      at,
      event: 'override',
      loopId,
      iteration,
      suggested: 'sec',
      chosen,
    });
    const entries = [d('a', 1, 0.75), o('a', 2, 'sre'), d('a', 2, 0.78), o('b', 1, 'sec'), d('b', 1, 0.92)];
    const r = overrideReliability(
      entries.filter((e) => e.event === 'decision'),
      entries.filter((e) => e.event === 'override'),
    );
    // b's override chose what routing suggested: not a correction.
    expect(r).toMatchObject({ decisions: 3, overridden: 1 });
    expect(r.rows.find((x) => x.from === 0.7)).toMatchObject({ n: 2, right: 1 });
    expect(routingStats(entries).reliability.overridden).toBe(1);
  });
});
