import fs from 'node:fs';
import path from 'node:path';
import { Harness, scriptedLoop, tempWorkspace } from '../helpers/env';
import type { GatesConfigRaw } from '../../src/config/gates-config';

const BIN = path.resolve(__dirname, '../../node_modules/.bin');

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const promptOf = (ws: string, loopId: string, n: number): string =>
  fs.readFileSync(path.join(ws, '.ralph/loops', loopId, 'iterations', String(n).padStart(3, '0'), 'prompt.md'), 'utf8');

const JEST = `${BIN}/jest --ci --json --watchman=false`;
const PKG = JSON.stringify({ name: 'fixture', private: true });
const buggySum = 'module.exports = (a, b) => a - b;\n';
const goodSum = 'module.exports = (a, b) => a + b;\n';
const sumTests =
  "const sum = require('./sum');\n" +
  "test('adds two numbers', () => expect(sum(1, 2)).toBe(3));\n" +
  "test('adds negatives', () => expect(sum(-1, -2)).toBe(-3));\n" +
  "test('zero is neutral', () => expect(sum(5, 0)).toBe(5));\n";

/** Lets an agent idle (no file changes) without the stuck-loop and no-files detectors stopping it. */
const IDLE_OK = { persistence: { detectors: { stuck: false, noFiles: false } } };

/** A loop whose only completion criterion is the gates, claimed with a promise. */
const gatedLoop = (ws: string, gates: GatesConfigRaw, over = {}) =>
  scriptedLoop(ws, { completion: { promise: 'DONE' }, gates, maxIterations: 6, ...over });

describe('ralphLoop quality gates', () => {
  it('rejects a done claim with failing jest tests, lists them in the next prompt, and accepts once fixed', async () => {
    const ws = tempWorkspace(
      { 'package.json': PKG, 'sum.js': buggySum, 'sum.test.js': sumTests },
      {
        iterations: [
          [{ promise: 'DONE' }],
          [{ write: 'sum.js', content: goodSum }, { evidence: ['sum.js'] }, { promise: 'DONE' }],
        ],
      },
    );
    const id = await h.startLoop(gatedLoop(ws, { gates: [{ name: 'unit', kind: 'test', command: JEST }] }));
    const r = await h.result(id);
    expect(r).toMatchObject({ status: 'accepted', acceptedBy: 'check', iterations: 2 });
    const s = await h.status(id);
    expect(s.records[0]).toMatchObject({
      outcome: 'claim_rejected',
      rejected: true,
      gates: [{ name: 'unit', passed: false }],
    });
    expect(s.records[0].gates![0]).toMatchObject({
      expected: '>= 95% pass rate',
      actual: '2 of 3 failing (33.3% pass)',
    });
    expect(s.records[0].rejection).toBe(1);
    expect(s.records[1]).toMatchObject({ outcome: 'completed', quality: 100, gates: [{ name: 'unit', passed: true }] });
    expect(s.totals).toMatchObject({ rejections: 1, gateRuns: 2 });
    const p2 = promptOf(ws, id, 2);
    expect(p2).toContain('TASK COMPLETION REJECTED');
    expect(p2).toContain('2 of 3 tests failing');
    expect(p2).toContain('adds two numbers');
    expect(p2).toContain('adds negatives');
    expect(p2).not.toContain('zero is neutral');
  });

  it('rejects a type error found by tsc with file and line, then accepts the fix', async () => {
    const ws = tempWorkspace(
      {
        'tsconfig.json': JSON.stringify({
          compilerOptions: { strict: true, noEmit: true, types: [] },
          include: ['src'],
        }),
        'src/index.ts': "export const port: number = 'eighty';\n",
      },
      {
        iterations: [
          [{ promise: 'DONE' }],
          [{ write: 'src/index.ts', content: 'export const port: number = 80;\n' }, { promise: 'DONE' }],
        ],
      },
    );
    const id = await h.startLoop(
      gatedLoop(ws, { gates: [{ name: 'types', kind: 'typecheck', command: `${BIN}/tsc -p . --pretty false` }] }),
    );
    expect(await h.result(id)).toMatchObject({ status: 'accepted', iterations: 2 });
    const p2 = promptOf(ws, id, 2);
    expect(p2).toContain('Type check failed with 1 error');
    expect(p2).toMatch(/src\/index\.ts:1:\d+ TS2322/);
  });

  it('rejects lint warnings over the strict profile threshold, grouped by rule', async () => {
    const eslintConfig = `module.exports = [{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs', globals: { console: 'readonly', module: 'writable' } }, rules: { 'no-console': 'warn', 'no-unused-vars': 'error' } }];\n`;
    const ws = tempWorkspace(
      { 'eslint.config.js': eslintConfig, 'app.js': "console.log('a');\nconsole.log('b');\nmodule.exports = 1;\n" },
      {
        iterations: [
          [{ promise: 'DONE' }],
          [{ write: 'app.js', content: 'module.exports = 1;\n' }, { promise: 'DONE' }],
        ],
      },
    );
    const id = await h.startLoop(
      gatedLoop(ws, { profile: 'strict', gates: [{ name: 'lint', kind: 'lint', command: `${BIN}/eslint . -f json` }] }),
    );
    expect(await h.result(id)).toMatchObject({ status: 'accepted', iterations: 2 });
    const s = await h.status(id);
    expect(s.records[0].gates![0]).toMatchObject({ passed: false, actual: '0 errors, 2 warnings' });
    const p2 = promptOf(ws, id, 2);
    expect(p2).toContain('Project requires: max 0 errors, max 0 warnings');
    expect(p2).toMatch(/no-console \(2\): app\.js:1, app\.js:2/);
  });

  it('rejects coverage below the threshold with the gap, from the coverage summary counts', async () => {
    const ws = tempWorkspace(
      {
        'package.json': PKG,
        'math.js':
          'exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b;\nexports.div = (a, b) => {\n  if (b === 0) throw new Error("div by 0");\n  return a / b;\n};\n',
        'math.test.js': "const m = require('./math');\ntest('add', () => expect(m.add(1, 2)).toBe(3));\n",
      },
      {
        iterations: [
          [{ promise: 'DONE' }],
          [
            {
              write: 'math.test.js',
              content:
                "const m = require('./math');\ntest('add', () => expect(m.add(1, 2)).toBe(3));\ntest('mul', () => expect(m.mul(2, 3)).toBe(6));\ntest('div', () => { expect(m.div(6, 3)).toBe(2); expect(() => m.div(1, 0)).toThrow(); });\n",
            },
            { promise: 'DONE' },
          ],
        ],
      },
    );
    const id = await h.startLoop(
      gatedLoop(
        ws,
        {
          gates: [
            {
              name: 'coverage',
              kind: 'coverage',
              command: `${JEST} --coverage --coverageReporters=json-summary`,
              report: 'coverage/coverage-summary.json',
            },
          ],
        },
        // Adding tests to an existing test file changes a protected file: this task allows it (verification).
        { verification: { allow: ['math.test.js'] } },
      ),
    );
    expect(await h.result(id)).toMatchObject({ status: 'accepted', iterations: 2 });
    const p2 = promptOf(ws, id, 2);
    expect(p2).toContain('Code coverage below threshold');
    expect(p2).toMatch(/functions 33\.3% < 85% \(gap 51\.7%, 1\/3\)/);
  });

  it('escalates to a human gate after 3 rejections; reject continues with guidance, approve accepts', async () => {
    const ws = tempWorkspace(
      { 'package.json': PKG, 'sum.js': buggySum, 'sum.test.js': sumTests },
      { default: [{ promise: 'DONE' }] },
    );
    const id = await h.startLoop(
      // The agent claims without editing on purpose; this test isolates the rejection policy from the stuck-loop and
      // no-files detectors (which would rightly stop it first).
      gatedLoop(ws, { gates: [{ name: 'unit', kind: 'test', command: JEST }] }, { maxIterations: 20, ...IDLE_OK }),
    );
    const s = await h.waitFor(id, (st) => st.pendingGate !== undefined, 90_000);
    expect(s.iteration).toBe(3);
    expect(s.pendingGate).toMatchObject({
      reason: 'rejections',
      title: 'Completion claim rejected 3 times by the quality gates',
    });
    expect(s.pendingGate!.details).toContain('2 of 3 tests failing');
    await h.signal(id, 'reject', { guidance: 'Look at the operator in sum.js.', extraIterations: 1 });
    const again = await h.waitFor(id, (st) => st.pendingGate !== undefined && st.iteration === 6, 90_000);
    expect(promptOf(ws, id, 4)).toContain('Look at the operator in sum.js.');
    expect(again.totals.rejections).toBe(6);
    await h.signal(id, 'approve', { by: 'lead', reason: 'known bug, tracked' });
    expect(await h.result(id)).toMatchObject({ status: 'accepted', acceptedBy: 'human', by: 'lead' });
  });

  it('aborts at the rejections gate on abort', async () => {
    const ws = tempWorkspace(
      { 'package.json': PKG, 'sum.js': buggySum, 'sum.test.js': sumTests },
      { default: [{ promise: 'DONE' }] },
    );
    const id = await h.startLoop(
      gatedLoop(ws, { gates: [{ name: 'unit', kind: 'test', command: JEST }], rejection: { maxRetries: 1 } }),
    );
    await h.waitFor(id, (st) => st.pendingGate?.reason === 'rejections', 60_000);
    await h.signal(id, 'abort', { reason: 'wrong approach' });
    expect(await h.result(id)).toMatchObject({ status: 'aborted', reason: 'wrong approach', iterations: 1 });
  });

  it('runs the gates after every iteration when configured, and accepts without a claim once they pass', async () => {
    const ws = tempWorkspace(
      { 'package.json': PKG, 'sum.js': buggySum, 'sum.test.js': sumTests },
      { iterations: [[{ print: 'looking' }], [{ write: 'sum.js', content: goodSum }]] },
    );
    const id = await h.startLoop(
      scriptedLoop(ws, {
        completion: {},
        gates: { runOn: 'every-iteration', gates: [{ name: 'unit', kind: 'test', command: JEST }] },
      }),
    );
    expect(await h.result(id)).toMatchObject({ status: 'accepted', acceptedBy: 'check', iterations: 2 });
    const s = await h.status(id);
    expect(s.records.map((r) => [r.outcome, r.rejected ?? false, r.quality])).toEqual([
      ['continue', false, 33],
      ['completed', false, 100],
    ]);
    expect(promptOf(ws, id, 2)).toContain('Quality gates still failing');
  });

  it('flags a done claim made with far fewer tokens than usual and no files', async () => {
    const work = (n: number) => [
      { write: `f${n}.txt`, content: 'x' },
      { usage: { inputTokens: 1000, outputTokens: 200 } },
    ];
    const ws = tempWorkspace(
      { 'package.json': PKG, 'sum.js': buggySum, 'sum.test.js': sumTests },
      {
        iterations: [work(1), work(2), [{ usage: { inputTokens: 20, outputTokens: 5 } }, { promise: 'DONE' }]],
        default: [{ print: 'idle' }],
      },
    );
    const id = await h.startLoop(
      gatedLoop(ws, { gates: [{ name: 'unit', kind: 'test', command: JEST }] }, { maxIterations: 3 }),
    );
    const s = await h.waitFor(id, (st) => st.pendingGate !== undefined, 60_000);
    expect(s.records.map((r) => r.flags ?? [])).toEqual([[], [], ['suspicious_claim']]);
    expect(s.records[2].rejected).toBe(true);
    expect(s.pendingFeedback.join('\n')).toContain('far less work than earlier iterations and no changed files');
    await h.signal(id, 'abort');
    await h.result(id);
  });

  it('warns when the token budget runs low and opens a human gate when it is used up', async () => {
    const ws = tempWorkspace(
      { 'package.json': PKG },
      { default: [{ usage: { inputTokens: 300, outputTokens: 100 } }] },
    );
    const id = await h.startLoop(
      gatedLoop(
        ws,
        {
          gates: [{ name: 'unit', kind: 'test', command: JEST }],
          tokenBudget: { maxTokens: 1000, warnThreshold: 0.5 },
        },
        { maxIterations: 20, ...IDLE_OK },
      ),
    );
    const s = await h.waitFor(id, (st) => st.pendingGate !== undefined, 60_000);
    expect(s.iteration).toBe(3);
    expect(s.pendingGate).toMatchObject({
      reason: 'budget',
      title: 'Token budget used up before the gates passed (1200 of 1000 tokens)',
    });
    expect(promptOf(ws, id, 3)).toContain('Token budget: 20% left (800 of 1000 tokens)');
    // reject = go on with 50% more budget.
    await h.signal(id, 'reject', { guidance: 'wrap up' });
    const again = await h.waitFor(id, (st) => st.pendingGate !== undefined && st.iteration === 4, 60_000);
    expect(again.pendingGate!.title).toBe('Token budget used up before the gates passed (1600 of 1500 tokens)');
    await h.signal(id, 'abort', { reason: 'over budget' });
    expect(await h.result(id)).toMatchObject({ status: 'aborted', reason: 'over budget', iterations: 4 });
  });
});
