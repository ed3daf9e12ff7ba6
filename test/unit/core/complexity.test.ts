import { issuePath } from '../../../src/config/load-config';
import { TimeoutsConfig, defaultTimeoutsConfig, type TimeoutsConfigRaw } from '../../../src/config/timeouts-config';
import {
  adaptiveTimeout,
  classifyComplexity,
  raiseComplexity,
  suggestStrategy,
  type BlockReason,
  type Complexity,
  type SuggestContext,
  type TaskText,
  type UnblockStrategy,
} from '../../../src/core/complexity';

const cfg = defaultTimeoutsConfig();
const criteria = (n: number): string[] => Array.from({ length: n }, (_, i) => `criterion ${i + 1}`);

describe('classifyComplexity', () => {
  // [what, task, expected class]
  const cases: [string, TaskText, Complexity][] = [
    ['a SwiftUI view', { title: 'Build the SwiftUI settings view' }, 'ui_heavy'],
    ['plural keywords ("Charts", "views")', { title: 'Analytics charts and views' }, 'ui_heavy'],
    ['a keyword in PascalCase humps', { title: 'Implement AnalyticsDashboardView' }, 'ui_heavy'],
    ['an acronym hump', { title: 'Write the JSONParser' }, 'complex'],
    ['a CLI command', { title: 'Add a CLI command for export' }, 'complex'],
    ['"es" plurals', { title: 'Add parsers', description: 'Fixes the flags' }, 'complex'],
    ['tests and mocks', { title: 'Write tests with mocks' }, 'medium'],
    ['a keyword in the acceptance criteria', { title: 'Export', acceptanceCriteria: ['a fixture exists'] }, 'medium'],
    ['a simple fix', { title: 'Fix typo in README' }, 'simple'],
    ['a refactor with an update', { title: 'Refactor config loader', description: 'update the docs' }, 'simple'],
    ['"review" is not "view"', { title: 'Fix review comments' }, 'simple'],
    ['"preview" and "address" are not keywords', { title: 'Handle preview address' }, 'medium'],
    ['snake_case words are words', { title: 'Fix dashboard_view.swift' }, 'ui_heavy'],
    ['the highest class wins', { title: 'Fix the chart tests', description: 'and the parser' }, 'ui_heavy'],
    ['no keyword: medium', { title: 'Improve performance of the cache' }, 'medium'],
    ['case-insensitive', { title: 'REFACTOR THE ui' }, 'ui_heavy'],
    ['4 criteria raise simple to medium', { title: 'Fix login', acceptanceCriteria: criteria(4) }, 'medium'],
    ['4 criteria raise the default to complex', { title: 'Caching', acceptanceCriteria: criteria(4) }, 'complex'],
    ['3 criteria raise nothing', { title: 'Fix login', acceptanceCriteria: criteria(3) }, 'simple'],
    ['blank criteria do not count', { title: 'Fix login', acceptanceCriteria: [...criteria(3), ' ', ''] }, 'simple'],
    ['ui_heavy stays ui_heavy', { title: 'Dashboard', acceptanceCriteria: criteria(6) }, 'ui_heavy'],
  ];

  it.each(cases)('classifies %s', (_what, task, expected) => {
    expect(classifyComplexity(task, cfg).complexity).toBe(expected);
  });

  it('explains the keywords per class, highest first, and the criteria raise', () => {
    const r = classifyComplexity(
      {
        title: 'Fix the Charts',
        description: 'update the CLI',
        acceptanceCriteria: ['chart shows data', 'CLI prints it', 'works', 'tested'],
      },
      cfg,
    );
    expect(r).toEqual({
      complexity: 'ui_heavy',
      reasons: [
        'ui_heavy keywords: "Charts"',
        'complex keywords: "CLI"',
        'simple keywords: "Fix", "update"',
        '4 acceptance criteria (> 3): already ui_heavy, the highest',
      ],
    });
    expect(classifyComplexity({ title: 'Caching', acceptanceCriteria: criteria(5) }, cfg).reasons).toEqual([
      'no keyword matched: default medium',
      '5 acceptance criteria (> 3): raised medium to complex',
    ]);
  });

  it('uses custom keywords, threshold and default class', () => {
    const custom = TimeoutsConfig.parse({
      keywords: { ui_heavy: ['storyboard'], complex: ['migration', 'state machine'] },
      criteriaRaiseThreshold: 1,
      defaultComplexity: 'simple',
    });
    const at = (task: TaskText) => classifyComplexity(task, custom).complexity;
    expect(at({ title: 'Edit the Storyboards' })).toBe('ui_heavy');
    expect(at({ title: 'Fix the dashboard view' })).toBe('simple');
    expect(at({ title: 'Model the order State\n Machine' })).toBe('complex');
    expect(at({ title: 'Caching' })).toBe('simple');
    expect(at({ title: 'Caching', acceptanceCriteria: criteria(2) })).toBe('medium');
    expect(at({ title: 'Use C++ here' })).toBe('simple');
    const cpp = TimeoutsConfig.parse({ keywords: { complex: ['C++'] } });
    expect(classifyComplexity({ title: 'Port it to C++.' }, cpp).complexity).toBe('complex');
  });

  it('raises one level at a time and stops at ui_heavy', () => {
    expect(['simple', 'medium', 'complex', 'ui_heavy'].map((c) => raiseComplexity(c as Complexity))).toEqual([
      'medium',
      'complex',
      'ui_heavy',
      'ui_heavy',
    ]);
  });
});

describe('adaptiveTimeout', () => {
  // [what, complexity, previous timeout failures, extra input, seconds, why]
  const cases: [string, Complexity, number, { overrideSeconds?: number; extraMultiplier?: number }, number, string][] =
    [
      ['simple, first attempt', 'simple', 0, {}, 60, 'simple base 60 s x1.0 x1.5^0 = 60 s'],
      ['medium, first attempt', 'medium', 0, {}, 270, 'medium base 180 s x1.5 x1.5^0 = 270 s'],
      ['medium after 1 timeout', 'medium', 1, {}, 405, 'medium base 180 s x1.5 x1.5^1 = 405 s'],
      ['medium after 3 timeouts', 'medium', 3, {}, 911, 'medium base 180 s x1.5 x1.5^3 = 911 s'],
      ['complex, first attempt', 'complex', 0, {}, 600, 'complex base 300 s x2.0 x1.5^0 = 600 s'],
      ['complex after 2 timeouts', 'complex', 2, {}, 1350, 'complex base 300 s x2.0 x1.5^2 = 1350 s'],
      ['ui_heavy, first attempt', 'ui_heavy', 0, {}, 1800, 'ui_heavy base 600 s x3.0 x1.5^0 = 1800 s'],
      ['ui_heavy after 1 timeout', 'ui_heavy', 1, {}, 2700, 'ui_heavy base 600 s x3.0 x1.5^1 = 2700 s'],
      [
        'ui_heavy after 2 timeouts, clamped at the max',
        'ui_heavy',
        2,
        {},
        3600,
        'ui_heavy base 600 s x3.0 x1.5^2 = 4050 s, clamped to max 3600 s',
      ],
      [
        "an operator's timeout, exactly as typed (the class multiplier does not apply)",
        'complex',
        0,
        { overrideSeconds: 900 },
        900,
        'complex operator timeout 900 s x1.5^0 = 900 s',
      ],
      [
        "a short operator timeout, kept below the adaptive floor (it's what they typed)",
        'simple',
        0,
        { overrideSeconds: 30 },
        30,
        'simple operator timeout 30 s x1.5^0 = 30 s',
      ],
      [
        "an operator's extra multiplier",
        'medium',
        1,
        { extraMultiplier: 3 },
        1215,
        'medium base 180 s x1.5 x1.5^1 x3.0 (operator) = 1215 s',
      ],
      [
        'override and extra multiplier together',
        'simple',
        1,
        { overrideSeconds: 100, extraMultiplier: 2.5 },
        375,
        'simple operator timeout 100 s x1.5^1 x2.5 (operator) = 375 s',
      ],
      [
        'a negative failure count as 0, invalid override and multiplier ignored',
        'medium',
        -2,
        { overrideSeconds: -5, extraMultiplier: Number.NaN },
        270,
        'medium base 180 s x1.5 x1.5^0 = 270 s',
      ],
    ];

  it.each(cases)('computes %s', (_what, complexity, previousTimeoutFailures, extra, seconds, why) => {
    expect(adaptiveTimeout({ complexity, previousTimeoutFailures, cfg, ...extra })).toEqual({ seconds, why });
  });

  it('follows a custom table, backoff and clamp', () => {
    const custom = TimeoutsConfig.parse({
      table: { simple: { baseSeconds: 10 }, ui_heavy: { multiplier: 2 } },
      backoff: 2,
      minSeconds: 30,
      maxSeconds: 500,
    });
    expect(custom.table.simple).toEqual({ baseSeconds: 10, multiplier: 1 });
    expect(adaptiveTimeout({ complexity: 'simple', previousTimeoutFailures: 0, cfg: custom })).toEqual({
      seconds: 30,
      why: 'simple base 10 s x1.0 x2.0^0 = 10 s, raised to min 30 s',
    });
    expect(adaptiveTimeout({ complexity: 'simple', previousTimeoutFailures: 3, cfg: custom }).seconds).toBe(80);
    expect(adaptiveTimeout({ complexity: 'ui_heavy', previousTimeoutFailures: 0, cfg: custom }).seconds).toBe(500);
  });
});

describe('suggestStrategy', () => {
  const ctx = (c: Partial<SuggestContext> = {}): SuggestContext => ({
    complexity: 'medium',
    attempts: 3,
    timeoutsTried: [],
    ...c,
  });
  // [what, reason, context, strategy, part of why]
  const cases: [string, BlockReason, SuggestContext, UnblockStrategy, string][] = [
    [
      'a timeout below the max',
      'timeout',
      ctx({ complexity: 'ui_heavy', timeoutsTried: [1800, 2700] }),
      'increase_timeout',
      'ui_heavy task timed out at 1800, 2700 s, below the 3600 s maximum',
    ],
    ['a timeout with no timeouts recorded', 'timeout', ctx(), 'increase_timeout', 'medium task timed out, below'],
    [
      'a timeout at the max',
      'timeout',
      ctx({ complexity: 'ui_heavy', timeoutsTried: [2700, 3600] }),
      'split_task',
      'already at the 3600 s maximum',
    ],
    [
      'a timeout at a custom max',
      'timeout',
      ctx({ timeoutsTried: [900], maxSeconds: 900 }),
      'split_task',
      'already at the 900 s maximum',
    ],
    ['no files', 'no_files', ctx({ attempts: 1 }), 'clarify_task', 'changed no files in 1 attempt:'],
    [
      'gate failures on a complex task',
      'gate_failure',
      ctx({ complexity: 'complex' }),
      'split_task',
      'gates kept failing after 3 attempts on a complex task',
    ],
    ['gate failures on a simple task', 'gate_failure', ctx({ complexity: 'simple' }), 'manual_review', 'a human'],
    ['the attempt limit on a ui_heavy task', 'attempt_limit', ctx({ complexity: 'ui_heavy' }), 'split_task', 'split'],
    ['the attempt limit on a medium task', 'attempt_limit', ctx(), 'manual_review', 'attempts ran out after 3'],
    ['a dependency', 'dependency', ctx(), 'fix_dependency', 'waits on something else'],
    ['a manual block', 'manual', ctx(), 'manual_review', 'an operator blocked it'],
  ];

  it.each(cases)('suggests for %s', (_what, reason, c, strategy, why) => {
    const s = suggestStrategy(reason, c);
    expect(s.strategy).toBe(strategy);
    expect(s.why).toContain(why);
  });
});

describe('TimeoutsConfig', () => {
  it('has the defaults of the design', () => {
    expect(defaultTimeoutsConfig()).toEqual({
      table: {
        simple: { baseSeconds: 60, multiplier: 1 },
        medium: { baseSeconds: 180, multiplier: 1.5 },
        complex: { baseSeconds: 300, multiplier: 2 },
        ui_heavy: { baseSeconds: 600, multiplier: 3 },
      },
      backoff: 1.5,
      minSeconds: 60,
      maxSeconds: 3600,
      keywords: {
        simple: ['fix', 'update', 'refactor', 'add'],
        medium: ['test', 'mock', 'fixture'],
        complex: ['CLI', 'command', 'parser'],
        ui_heavy: ['UI', 'View', 'Chart', 'Dashboard', 'SwiftUI', 'component', 'page', 'screen'],
      },
      criteriaRaiseThreshold: 3,
      defaultComplexity: 'medium',
      maxAttemptsPerTask: 3,
      maxAutoUnblockAttempts: 1,
    });
  });

  it('gives a fresh value each time', () => {
    const a = defaultTimeoutsConfig();
    a.keywords.ui_heavy.push('canvas');
    a.table.simple.baseSeconds = 1;
    expect(defaultTimeoutsConfig().keywords.ui_heavy).not.toContain('canvas');
    expect(defaultTimeoutsConfig().table.simple.baseSeconds).toBe(60);
  });

  it('accepts 0 auto-unblocks and replaces a class keyword list', () => {
    const c = TimeoutsConfig.parse({ maxAutoUnblockAttempts: 0, keywords: { medium: [] } });
    expect(c.maxAutoUnblockAttempts).toBe(0);
    expect(c.keywords.medium).toEqual([]);
    expect(c.keywords.simple).toEqual(['fix', 'update', 'refactor', 'add']);
  });

  const problems = (raw: TimeoutsConfigRaw | Record<string, unknown>): string[] => {
    const r = TimeoutsConfig.safeParse(raw);
    return r.success ? [] : r.error.issues.map((i) => `${issuePath(i.path)}: ${i.message}`);
  };

  it.each([
    [{ table: { ui_heavy: { baseSeconds: 0 } } }, /^table\.ui_heavy\.baseSeconds: /],
    [{ table: { complex: { multiplier: -1 } } }, /^table\.complex\.multiplier: /],
    [{ table: { huge: { baseSeconds: 1 } } }, /^table: .*"huge"/],
    [{ keywords: { ui_heavy: ['View', ' '] } }, 'keywords.ui_heavy[1]: a keyword must not be empty'],
    [{ keywords: { backend: ['api'] } }, /^keywords: .*"backend"/],
    [{ backoff: 0.5 }, /^backoff: /],
    [{ minSeconds: 0 }, /^minSeconds: /],
    [{ minSeconds: 120, maxSeconds: 60 }, 'maxSeconds: must be at least minSeconds (120)'],
    [{ criteriaRaiseThreshold: -1 }, /^criteriaRaiseThreshold: /],
    [{ defaultComplexity: 'hard' }, 'defaultComplexity: must be one of simple, medium, complex, ui_heavy'],
    [{ maxAttemptsPerTask: 0 }, /^maxAttemptsPerTask: /],
    [{ maxAutoUnblockAttempts: -1 }, /^maxAutoUnblockAttempts: /],
    [{ timeout: 5 }, /^\(root\): .*"timeout"/],
  ])('names the path of the mistake in %j', (raw, message) => {
    const found = problems(raw);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });
});
