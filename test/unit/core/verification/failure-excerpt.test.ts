/**
 * The failure excerpt on real runner output, captured once from jest, vitest, pytest, node (assert and node:test),
 * go test and tsc (test/fixtures/failure-output/README.md says how): the excerpt starts at the first failure, keeps
 * the assertion's message, and leaves out the tail that says nothing (node's property dump and `Node.js v20` footer).
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  detectRunner,
  excerptFailure,
  FailureRunners,
  plainOutput,
  type FailureRunner,
} from '../../../../src/core/verification/failure-excerpt';
import { garbage } from '../../../helpers/parser-fixtures';

const DIR = path.resolve(__dirname, '../../../fixtures/failure-output');
const read = (name: string): string => fs.readFileSync(path.join(DIR, name), 'utf8');

interface Case {
  fixture: string;
  runner: FailureRunner;
  /** The headline contains each of these. */
  headline: string[];
  /** The excerpt contains each of these lines (or fragments). */
  has: string[];
  /** ...and none of these. */
  hasNot: string[];
}

const CASES: Case[] = [
  {
    fixture: 'node-assert-message.txt',
    runner: 'node-assert',
    headline: ['AssertionError [ERR_ASSERTION]: sum(1,5) should be 6', '5 !== 6'],
    has: ['sum(1,5) should be 6', '5 !== 6', 'at Object.<anonymous> (/tmp/fx/test/sum.test.js:3:8)'],
    hasNot: ['Node.js v20', 'node:internal', "operator: 'strictEqual'", 'throw new AssertionError(obj);'],
  },
  {
    fixture: 'npm-test-node-assert.txt',
    runner: 'node-assert',
    headline: ['sum(1,5) should be 6', '5 !== 6'],
    has: ['AssertionError [ERR_ASSERTION]: sum(1,5) should be 6', 'sum.test.js:3:8'],
    hasNot: ['Node.js v20', '> sum@1.0.0 test', 'generatedMessage'],
  },
  {
    fixture: 'node-assert-default.txt',
    runner: 'node-assert',
    headline: ['Expected values to be strictly equal:', '5 !== 6'],
    has: ['5 !== 6', 'sum-default.test.js:4:8'],
    hasNot: ['Node.js v20', 'checking sum'],
  },
  {
    fixture: 'node-test-runner.txt',
    runner: 'node-test',
    headline: ['not ok 1 - sum adds', 'sum(1,5) should be 6'],
    has: ['not ok 2 - mul multiplies', '5 !== 6', "location: '/tmp/fx/test/sum-nodetest.test.js:4:1'", '# fail 2'],
    hasNot: ['Test.runInAsyncScope', 'ok 3 - sum of zero', '# duration_ms'],
  },
  {
    fixture: 'jest-two-failures.txt',
    runner: 'jest',
    headline: ['● sum › adds small numbers', 'Expected: 6', 'Received: 5'],
    has: ['> 4 |     expect(sum(1, 5)).toBe(6);', '● mul multiplies', 'Tests:       2 failed, 1 passed, 3 total'],
    hasNot: ['✓ adds zero', 'Snapshots:', 'Ran all test suites'],
  },
  {
    fixture: 'jest-many-suites.txt',
    runner: 'jest',
    headline: ['● sum › adds small numbers', 'Expected: 6'],
    has: ['> 4 |     expect(sum(1, 5)).toBe(6);', 'Tests:       2 failed, 7 passed, 9 total'],
    hasNot: ['PASS test/ok1.jest.test.js', 'Time:'],
  },
  {
    fixture: 'vitest-two-failures.txt',
    runner: 'vitest',
    headline: ['FAIL  sum.test.ts > sum > adds small numbers', 'AssertionError: expected 5 to be 6'],
    has: ['5|     expect(sum(1, 5)).toBe(6);', 'FAIL  sum.test.ts > mul multiplies', 'Tests  2 failed | 1 passed (3)'],
    hasNot: ['\u001b[', 'RUN  v3', 'Duration', 'Start at'],
  },
  {
    fixture: 'pytest-two-failures.txt',
    runner: 'pytest',
    headline: ['E       AssertionError: add(1,5) should be 6', 'assert 5 == 6'],
    has: [
      '>       assert add(1, 5) == 6',
      'test_calc.py:5: AssertionError',
      'FAILED test_calc.py::test_mul',
      '2 failed, 1 passed in',
    ],
    hasNot: ['test session starts', 'platform linux'],
  },
  {
    fixture: 'pytest-collection-error.txt',
    runner: 'pytest',
    headline: ["E   ImportError: cannot import name 'subtract' from 'calc'"],
    has: ['ERROR collecting test_broken.py', 'ERROR test_broken.py'],
    hasNot: ['test session starts', 'Interrupted: 1 error'],
  },
  {
    fixture: 'go-test-two-failures.txt',
    runner: 'go-test',
    headline: ['sum_test.go:7: Sum(1, 5) = 5, want 6'],
    has: ['--- FAIL: TestSum', '--- FAIL: TestMul', 'sum_test.go:19: Mul(2, 3) = 5, want 6', 'FAIL\texample.com/gosum'],
    hasNot: [],
  },
  {
    fixture: 'go-test-verbose.txt',
    runner: 'go-test',
    headline: ['sum_test.go:7: Sum(1, 5) = 5, want 6'],
    has: ['--- FAIL: TestSum', 'sum_test.go:19: Mul(2, 3) = 5, want 6'],
    hasNot: ['--- PASS: TestSumZero'],
  },
  {
    fixture: 'go-test-build-failed.txt',
    runner: 'go-test',
    headline: ['./sum.go:3:37: undefined: undefinedThing'],
    has: ['# example.com/gosum'],
    hasNot: [],
  },
  {
    fixture: 'tsc-two-errors.txt',
    runner: 'tsc',
    headline: ["sum.ts(2,3): error TS2322: Type 'string' is not assignable to type 'number'."],
    has: ['sum.ts(5,14): error TS2322'],
    hasNot: [],
  },
  {
    fixture: 'tsc-pretty.txt',
    runner: 'tsc',
    headline: ["sum.ts:2:3 - error TS2322: Type 'string' is not assignable to type 'number'."],
    has: ['2   return `${a}${b}`;', 'sum.ts:5:14 - error TS2322', 'Found 2 errors'],
    hasNot: ['\u001b['],
  },
];

describe('excerptFailure on real runner output', () => {
  it.each(CASES)('$fixture: $runner, from the first failure', (c) => {
    const e = excerptFailure(read(c.fixture));
    expect(e.runner).toBe(c.runner);
    for (const h of c.headline) expect(e.headline).toContain(h);
    for (const s of c.has) expect(e.excerpt).toContain(s);
    for (const s of c.hasNot) expect(e.excerpt).not.toContain(s);
    expect(e.excerpt.split('\n').length).toBeLessThanOrEqual(40);
    expect(e.excerpt.length).toBeLessThanOrEqual(3000);
  });

  it('covers every runner it names (a fixture per runner)', () => {
    const seen = new Set(CASES.map((c) => c.runner));
    expect([...seen].sort()).toEqual(['go-test', 'jest', 'node-assert', 'node-test', 'pytest', 'tsc', 'vitest']);
  });

  it('recognises each runner from its own markers only', () => {
    for (const c of CASES) expect(detectRunner(plainOutput(read(c.fixture)))).toBe(c.runner);
    expect(detectRunner('FAIL: hello.txt must exist and say hello\n')).toBe('unknown');
  });

  it('keeps the summary line when the blocks are cut to the limits', () => {
    const e = excerptFailure(read('jest-many-suites.txt'), { maxLines: 12, maxLineChars: 240, maxChars: 3000 });
    expect(e.truncated).toBe(true);
    expect(e.excerpt.split('\n').length).toBeLessThanOrEqual(12);
    expect(e.excerpt.split('\n').pop()).toBe('Tests:       2 failed, 7 passed, 9 total');
    expect(e.excerpt).toContain('● sum › adds small numbers');
  });
});

/** Reports quality gates write (captured for the gate parsers, test/fixtures/gates/): their failures, not the JSON. */
const REPORTS: [string, FailureRunner, string[], string[]][] = [
  [
    'jest/fail.json',
    'jest',
    ['● math multiplies two numbers', 'Expected: 7', 'Received: 6'],
    ['Tests:       3 failed'],
  ],
  ['jest/fail-npm-run.txt', 'jest', ['● math multiplies two numbers', 'Expected: 7'], ['math.test.js:8:23']],
  ['vitest/fail.json', 'vitest', ['broken.test.js failed to run'], ['AssertionError: expected 6 to be 7']],
  ['go-test/fail.json', 'go-test', ['broken_test.go:6:17: cannot use Double(2)'], ['# example.com/gates/broken']],
  [
    'go-test/fail-buildtext.json',
    'go-test',
    ['strs_test.go:20: Reverse("héllo")'],
    ['--- FAIL: TestReverse', 'panic: assignment to entry in nil map'],
  ],
  [
    'junit/pytest-fail.xml',
    'pytest',
    ['● tests.test_calc › test_div_wrong', 'assert 3.5 == 3'],
    ['E       assert 3.5 == 3'],
  ],
  [
    'junit/jest-junit-fail.xml',
    'jest',
    ['adds & compares <wrong>', 'Expected: 5', 'Received: 4'],
    ['expect(received).toBe(expected)'],
  ],
  [
    'junit/pytest-collection-error.xml',
    'pytest',
    ['● tests.test_broken_import'],
    ["E   ModuleNotFoundError: No module named 'does_not_exist_module'"],
  ],
];

describe('excerptFailure on the reports quality gates write', () => {
  const gates = path.resolve(__dirname, '../../../fixtures/gates');
  it.each(REPORTS)('%s: %s', (file, runner, headline, has) => {
    const e = excerptFailure(fs.readFileSync(path.join(gates, file), 'utf8'));
    expect(e.runner).toBe(runner);
    for (const h of headline) expect(e.headline).toContain(h);
    for (const x of has) expect(e.excerpt).toContain(x);
    expect(e.excerpt).not.toMatch(/^\{"/m);
    expect(e.excerpt).not.toContain('jestAdapterInit.js');
  });

  it('reads a passing report (a threshold failed the gate) as the gate says, with the counts', () => {
    const pass = fs.readFileSync(path.join(gates, 'jest/pass.json'), 'utf8');
    const e = excerptFailure(`coverage: lines 61% < 80%\n${pass}`);
    expect(e.headline).toBe('coverage: lines 61% < 80%');
    expect(e.excerpt).toContain('Tests:       0 failed, 3 passed, 3 total');
    expect(e.excerpt).not.toContain('numFailedTestSuites');
  });
});

describe('excerptFailure on output of no known runner', () => {
  it('starts at the first error-like line, not at the tail', () => {
    const out = [
      'building...',
      'step 1 ok',
      'FAIL: hello.txt must exist and say hello',
      ...Array.from({ length: 40 }, (_, i) => `cleanup ${i}`),
    ].join('\n');
    const e = excerptFailure(out);
    expect(e).toMatchObject({ runner: 'unknown', headline: 'FAIL: hello.txt must exist and say hello' });
    expect(e.excerpt.split('\n')[0]).toBe('building...');
    expect(e.excerpt).not.toContain('cleanup 39');
  });

  it('prefers an error message to a count that mentions failures (a runner of its own: stdout, then stderr)', () => {
    const e = excerptFailure(
      "2 tests, 1 failed\nFAIL greets Bob: Expected values to be strictly equal:\n\n'Hello Bob' !== 'Hello, Bob!'\n",
    );
    expect(e.headline).toBe('FAIL greets Bob: Expected values to be strictly equal:');
    expect(e.excerpt).toContain("'Hello Bob' !== 'Hello, Bob!'");
    expect(excerptFailure('build ok\n2 tests, 1 failed\n').headline).toBe('2 tests, 1 failed');
  });

  it('skips npm error lines and "0 failed" counts; gives the last lines when nothing reads as an error', () => {
    const npm = excerptFailure('npm error code 1\n3 passed, 0 failed\nexpected 4 got 5\n');
    expect(npm.headline).toBe('expected 4 got 5');
    const quiet = excerptFailure(Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n') + '\n\n');
    expect(quiet.headline).toBe('line 29');
    expect(quiet.excerpt.split('\n').slice(-1)[0]).toBe('line 29');
    expect(quiet.excerpt).not.toContain('line 9\n');
  });

  it('returns an empty excerpt for empty output, and clips long lines', () => {
    expect(excerptFailure('')).toMatchObject({ runner: 'unknown', headline: '', excerpt: '' });
    const long = excerptFailure(`Error: ${'x'.repeat(1000)}`);
    expect(long.headline.length).toBeLessThanOrEqual(240);
    expect(long.excerpt.length).toBeLessThanOrEqual(240);
  });

  it('reads progress lines by their last state and drops colours', () => {
    expect(plainOutput('\u001b[31mred\u001b[39m\n10%\r50%\r100%\r\n')).toBe('red\n100%\n');
  });
});

describe('excerptFailure on anything', () => {
  it('never throws and keeps its limits on garbage, cut-off output and broken reports', () => {
    const inputs: string[] = [];
    for (let seed = 1; seed <= 150; seed++)
      inputs.push(garbage(seed, seed * 7, '{}[]<>"=:,\n ●⎯_E>-+ aFAILok#\t\\/0123'));
    for (const name of ['jest-two-failures.txt', 'vitest-two-failures.txt', 'pytest-two-failures.txt']) {
      const text = read(name);
      for (let cut = 0; cut < text.length; cut += 97) inputs.push(text.slice(0, cut));
    }
    const gates = path.resolve(__dirname, '../../../fixtures/gates');
    for (const name of ['jest/fail.json', 'go-test/fail-buildtext.json', 'junit/pytest-fail.xml']) {
      const text = fs.readFileSync(path.join(gates, name), 'utf8');
      for (let cut = 0; cut < text.length; cut += 1013) inputs.push(text.slice(0, cut));
    }
    inputs.push('{"testResults": 3}', '{"testResults": [{"assertionResults": [{"status": "failed"}]}]}', '<testsuite>');
    for (const input of inputs) {
      const e = excerptFailure(input);
      expect(FailureRunners).toContain(e.runner);
      expect(e.excerpt.split('\n').length).toBeLessThanOrEqual(41);
      expect(e.excerpt.length).toBeLessThanOrEqual(3000);
      expect(e.headline.length).toBeLessThanOrEqual(240);
    }
  });
});
