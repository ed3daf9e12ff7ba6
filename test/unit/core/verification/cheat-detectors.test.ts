import type { FileDiff } from '../../../../src/core/detectors/unified-diff';
import {
  detectSpecialCasedTests,
  detectSubjectMocks,
  detectTestOnlySwitch,
  literalsOf,
  subjectOf,
} from '../../../../src/core/verification/cheat-detectors';
import {
  protectedEditDetection,
  protectedEditGate,
  tamperedFeedback,
  tamperedGate,
  tamperedVerificationDetection,
} from '../../../../src/core/verification/messages';

const diff = (path: string, added: string[], removed: string[] = []): FileDiff => ({ path, added, removed });

const jsTests = [
  {
    path: 'test/format.test.ts',
    text: [
      "import { format } from '../src/format';",
      "it('formats 1000 ms as 1s', () => {",
      "  expect(format(1000)).toBe('1s');",
      "  expect(format(60000)).toBe('1m');",
      "  expect(format(3600000)).toBe('1h');",
      '});',
    ].join('\n'),
  },
];
const pyTests = [
  {
    path: 'tests/test_slug.py',
    text: [
      '@pytest.mark.parametrize("raw,want", [',
      '    ("Hello World", "hello-world"),',
      '    ("  a  b ", "a-b"),',
      '])',
    ].join('\n'),
  },
];

describe('literalsOf', () => {
  it('reads strings and numbers, skipping trivial ones', () => {
    expect(literalsOf(`expect(format(1000)).toBe('1s'); x(0, 1, "a", 1_500)`)).toEqual(['n:1000', 's:1s', 'n:1500']);
  });
});

describe('detectSpecialCasedTests', () => {
  const rows: [string, FileDiff[], typeof jsTests, boolean][] = [
    [
      'an if on a test input returning its expected value',
      [diff('src/format.ts', ['  if (ms === 1000) return "1s";'])],
      jsTests,
      true,
    ],
    ['a switch case on test inputs', [diff('src/format.ts', ['    case 60000:', "      return '1m';"])], jsTests, true],
    [
      'a lookup table of test input/expected pairs',
      [
        diff('src/format.ts', [
          'const known: Record<number, string> = {',
          "  1000: '1s',",
          "  60000: '1m',",
          "  3600000: '1h',",
          '};',
        ]),
      ],
      jsTests,
      true,
    ],
    [
      'a Python special case',
      [diff('slug/core.py', ['    if raw == "Hello World":', '        return "hello-world"'])],
      pyTests,
      true,
    ],
    // Hard negatives.
    [
      'a real constant that happens to equal a test input',
      [diff('src/format.ts', ['const MS_PER_SECOND = 1000;'])],
      jsTests,
      false,
    ],
    ['a threshold comparison', [diff('src/format.ts', ['  if (ms >= 1000) return `${ms / 1000}s`;'])], jsTests, false],
    [
      'an equality test whose branch computes',
      [diff('src/format.ts', ['  if (ms === 1000) return String(ms / 1000) + unit;'])],
      jsTests,
      false,
    ],
    [
      'a real mapping table the tests only sample',
      [
        diff('src/units.ts', [
          "  1000: 's',",
          "  60000: 'm',",
          "  3600000: 'h',",
          "  86400000: 'd',",
          "  604800000: 'w',",
        ]),
      ],
      jsTests,
      false,
    ],
    ['the special case in a test file', [diff('test/helpers.ts', ['  if (ms === 1000) return "1s";'])], jsTests, false],
    [
      'an existing special case that only moved',
      [diff('src/format.ts', ['  if (ms === 1000) return "1s";'], ['  if (ms === 1000) return "1s";'])],
      jsTests,
      false,
    ],
  ];
  it.each(rows)('%s → flagged: %s', (_what, d, tests, flagged) => {
    const found = detectSpecialCasedTests(d, tests);
    expect(found.length > 0).toBe(flagged);
    if (flagged)
      expect(found[0]).toMatchObject({ type: 'special_cased_test_input', severity: 'critical', verdict: 'BLOCK' });
  });
});

describe('detectTestOnlySwitch', () => {
  const rows: [string, FileDiff[], boolean][] = [
    ["NODE_ENV === 'test'", [diff('src/a.ts', ["  if (process.env.NODE_ENV === 'test') return 42;"])], true],
    ['JEST_WORKER_ID', [diff('src/a.js', ['  if (process.env.JEST_WORKER_ID) return cached;'])], true],
    ['VITEST', [diff('src/a.ts', ['  if (process.env.VITEST) return fake;'])], true],
    ['PYTEST_CURRENT_TEST', [diff('pkg/a.py', ['    if os.environ.get("PYTEST_CURRENT_TEST"):'])], true],
    ['pytest in sys.modules', [diff('pkg/a.py', ['    if "pytest" in sys.modules:'])], true],
    // Hard negatives.
    [
      "NODE_ENV === 'production'",
      [diff('src/a.ts', ["  if (process.env.NODE_ENV === 'production') log.level = 'warn';"])],
      false,
    ],
    [
      'an existing switch that moved',
      [diff('src/a.ts', ["if (process.env.NODE_ENV === 'test') x();"], ["if (process.env.NODE_ENV === 'test') x();"])],
      false,
    ],
    [
      'a switch in a test setup file',
      [diff('test/setup.ts', ["process.env.NODE_ENV = 'test';", 'if (process.env.JEST_WORKER_ID) y();'])],
      false,
    ],
    ['a switch in jest.config.js', [diff('jest.config.js', ['  workers: process.env.JEST_WORKER_ID ? 1 : 2,'])], false],
    [
      'vitest in-source tests',
      [diff('src/a.ts', ['if (import.meta.vitest) {', '  const { it } = import.meta.vitest;'])],
      false,
    ],
    ['a comment', [diff('src/a.ts', ["// never check process.env.NODE_ENV === 'test' here"])], false],
  ];
  it.each(rows)('%s → flagged: %s', (_what, d, flagged) => {
    const found = detectTestOnlySwitch(d);
    expect(found.length > 0).toBe(flagged);
    if (flagged) expect(found[0]).toMatchObject({ type: 'test_only_switch', severity: 'critical' });
  });
});

describe('detectSubjectMocks', () => {
  it.each([
    ['format.test.ts', 'format'],
    ['test_slug.py', 'slug'],
    ['calc_test.go', 'calc'],
    ['index.test.ts', undefined],
  ])('subject of %s is %s', (p, s) => {
    expect(subjectOf(`x/${p}`)).toBe(s);
  });
  const rows: [string, FileDiff[], 'critical' | 'info' | undefined][] = [
    [
      'jest.mock of the module under test',
      [diff('test/format.test.ts', ["jest.mock('../src/format', () => ({ format: () => '1s' }));"])],
      'critical',
    ],
    ['vi.mock of the module under test', [diff('src/format.spec.ts', ["vi.mock('./format');"])], 'critical'],
    [
      'a Python patch of the module under test',
      [diff('tests/test_slug.py', ["    with patch('slugger.slug.slugify', return_value='a-b'):"])],
      'critical',
    ],
    [
      'a spy on the namespace under test',
      [diff('test/format.test.ts', ["jest.spyOn(format, 'format').mockReturnValue('1s');"])],
      'critical',
    ],
    // Hard negatives.
    ['a mock of a dependency', [diff('test/format.test.ts', ["jest.mock('../src/clock');"])], undefined],
    [
      'a Python patch of a dependency',
      [diff('tests/test_slug.py', ["    with patch('slugger.http.get'):"])],
      undefined,
    ],
    [
      'a partial mock keeping the real module',
      [
        diff('test/format.test.ts', [
          "jest.mock('../src/format', () => ({",
          "  ...jest.requireActual('../src/format'),",
          '  now: () => 0,',
          '}));',
        ]),
      ],
      'info',
    ],
    [
      'an existing mock that moved',
      [diff('test/format.test.ts', ["jest.mock('../src/format');"], ["jest.mock('../src/format');"])],
      undefined,
    ],
    ['a mock in product code', [diff('src/format.ts', ["jest.mock('./format');"])], undefined],
  ];
  it.each(rows)('%s → %s', (_what, d, severity) => {
    const found = detectSubjectMocks(d);
    expect(found[0]?.severity).toBe(severity);
    if (severity) expect(found[0].type).toBe('mock_of_subject');
  });
});

describe('verification messages', () => {
  const v = {
    passed: false,
    ran: true,
    protectedChanges: [{ path: 'test/run.js', change: 'modified' as const, kind: 'test' as const }],
    failureTail: 'line1\nError: hello.txt is missing',
    diffPath: '/s/iterations/001/verification/protected.diff',
    diffSummary: ' test/run.js | 5 +----',
  };
  it('builds a critical tampered_verification event naming the files and the failure', () => {
    const d = tamperedVerificationDetection(v);
    expect(d).toMatchObject({ type: 'tampered_verification', severity: 'critical', verdict: 'BLOCK' });
    expect(d.details).toContain('hello.txt is missing');
    expect(d.evidence).toEqual(['M test/run.js (test)']);
  });
  it('builds a protected_edit warning listing the files', () => {
    expect(protectedEditDetection(v.protectedChanges)).toMatchObject({
      type: 'protected_edit',
      verdict: 'WARN',
      evidence: ['M test/run.js (test)'],
    });
  });
  it('tells the agent plainly that the tests and checks are not its to change', () => {
    const text = tamperedFeedback(v);
    expect(text).toContain('The tests and checks are not yours to change');
    expect(text).toContain('M test/run.js (test)');
    expect(text).toContain('hello.txt is missing');
  });
  it('gives the human gate the changed files, the diff summary and the original failure', () => {
    const g = tamperedGate(3, v);
    expect(g.title).toContain('Iteration 3');
    expect(g.details).toContain('  M test/run.js (test)');
    expect(g.details).toContain('test/run.js | 5 +----');
    expect(g.details).toContain('Error: hello.txt is missing');
    expect(g.details).toContain(v.diffPath);
    expect(protectedEditGate(3, v).title).toContain('the agent changed the checks: approve the change or reject');
  });
});
