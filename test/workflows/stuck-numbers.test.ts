/**
 * The stuck rule on failing iterations with different errors and no quality progress, and the before/after numbers a
 * regression or stuck-loop gate carries into `ralph status` (issue 24), on the real dev server.
 */
import path from 'node:path';
import execa from 'execa';
import { Harness, scriptedLoop, tempWorkspace } from '../helpers/env';
import { recordHistory } from '../helpers/histories';
import { statusLines } from '../../src/cli/views/loop';
import { loopPage } from '../../src/console/pages';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

/** A test runner printing jest's JSON: the first `passed` of 100 tests pass, as progress.json says. */
const FAKE_JEST = `const fs = require('fs');
const passed = JSON.parse(fs.readFileSync('progress.json', 'utf8')).passed;
const a = Array.from({ length: 100 }, (_, i) => ({ title: 't' + i, fullName: 't' + i, ancestorTitles: [], status: i < passed ? 'passed' : 'failed', failureMessages: i < passed ? [] : ['Error: nope ' + i] }));
console.log(JSON.stringify({ success: passed === 100, numPassedTests: passed, numFailedTests: 100 - passed, numTotalTests: 100, testResults: [{ name: process.cwd() + '/q.test.js', status: passed === 100 ? 'passed' : 'failed', assertionResults: a }] }));
process.exit(passed === 100 ? 0 : 1);
`;
/** One iteration: progress.json says `passed`; the agent claims done only when every test passes. */
const step = (passed: number) => [
  { write: 'progress.json', content: JSON.stringify({ passed }) },
  ...(passed === 100 ? [{ promise: 'DONE' }] : []),
];
/**
 * The loop of these tests: the gate runs every iteration. Verification is off: the gate reads progress.json, which the
 * scripted agent writes, so the original checks would rightly refuse the final claim (test/workflows/verification).
 */
const loopOver = (ws: string) =>
  scriptedLoop(ws, {
    completion: { promise: 'DONE' },
    gates: { runOn: 'every-iteration', gates: [{ name: 'unit', kind: 'test', command: 'node fake-jest.js' }] },
    maxIterations: 6,
    verification: { enabled: false },
  });

describe('stuck loop on different errors with no quality progress', () => {
  it('opens the stuck-loop gate at the third failing iteration whose quality never rose, with the numbers in status', async () => {
    const ws = tempWorkspace(
      { 'fake-jest.js': FAKE_JEST, 'progress.json': JSON.stringify({ passed: 0 }) },
      { iterations: [step(60), step(55), step(50), step(100)] },
    );
    const id = await h.startLoop(loopOver(ws));
    const s = await h.waitFor(id, (x) => x.pendingGate !== undefined, 60_000);
    expect(s.records.map((r) => [r.n, r.quality])).toEqual([
      [1, 60],
      [2, 55],
      [3, 50],
    ]);
    expect(s.pendingGate).toMatchObject({ reason: 'stuck_loop', iteration: 3 });
    expect(s.pendingGate!.details).toContain(
      '3 failing iterations in a row with different errors and no quality progress (quality 60 → 55 → 50, iterations 1-3)',
    );
    expect(s.pendingGate!.numbers).toEqual({
      before: { iteration: 2, tests: 100, failing: 45 },
      after: { iteration: 3, tests: 100, failing: 50 },
    });
    expect(s.records[2].numbers).toEqual({ iteration: 3, tests: 100, failing: 50 });
    const lines = statusLines(s);
    const at = lines.findIndex((l) => /^ {2}\s+iteration 2 {2}iteration 3 {2}change$/.test(l));
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 3)).toEqual([
      expect.stringMatching(/^ {2}tests\s+100\s+100\s+0$/),
      expect.stringMatching(/^ {2}failing tests\s+45\s+50\s+\+5$/),
    ]);
    // Reject: the agent tries a different approach and the loop finishes on its own.
    await h.signal(id, 'reject', { by: 'reviewer', guidance: 'try another way' });
    expect(await h.result(id)).toMatchObject({ status: 'accepted', acceptedBy: 'check' });
    await recordHistory(h, id, 'stuck-different-errors');
  });

  it('lets an agent whose quality rises through different errors carry on without a gate', async () => {
    const ws = tempWorkspace(
      { 'fake-jest.js': FAKE_JEST, 'progress.json': JSON.stringify({ passed: 0 }) },
      { iterations: [step(40), step(55), step(70), step(85), step(100)] },
    );
    const id = await h.startLoop(loopOver(ws));
    expect(await h.result(id)).toMatchObject({ status: 'accepted', acceptedBy: 'check', iterations: 5 });
    const s = await h.status(id);
    expect(s.totals.humanGates).toBe(0);
    expect(s.persistence!.counts.stuck_loop).toBeUndefined();
  });
});

describe('regression gate numbers', () => {
  it('shows tests and failing tests before and after an agent deletes the failing tests', async () => {
    const jest = `${path.resolve(__dirname, '../../node_modules/.bin')}/jest --ci --json --watchman=false`;
    const tests =
      "const sum = require('./sum');\n" +
      "test('adds two numbers', () => expect(sum(1, 2)).toBe(3));\n" +
      "test('adds negatives', () => expect(sum(-1, -2)).toBe(-3));\n" +
      "test('zero is neutral', () => expect(sum(5, 0)).toBe(5));\n";
    const onlyPassing = "const sum = require('./sum');\ntest('zero is neutral', () => expect(sum(5, 0)).toBe(5));\n";
    const ws = tempWorkspace(
      {
        'package.json': JSON.stringify({ name: 'fixture', private: true }),
        'sum.js': 'module.exports = (a, b) => a - b;\n',
        'sum.test.js': tests,
        '.gitignore': '.ralph/\n',
      },
      {
        iterations: [
          [{ write: 'notes.md', content: 'looking\n' }, { promise: 'DONE' }],
          [{ write: 'sum.test.js', content: onlyPassing }, { evidence: ['sum.test.js'] }, { promise: 'DONE' }],
        ],
      },
    );
    const env = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    await execa('git', ['init', '-q', '-b', 'main'], { cwd: ws });
    await execa('git', ['add', '-A'], { cwd: ws });
    await execa('git', ['commit', '-q', '-m', 'init'], { cwd: ws, env });
    const id = await h.startLoop(
      scriptedLoop(ws, {
        completion: { promise: 'DONE' },
        gates: { gates: [{ name: 'unit', kind: 'test', command: jest }] },
        maxIterations: 4,
        // PDARE's regression gate on its own (with verification on, the original checks refuse the change first).
        verification: { enabled: false },
      }),
    );
    const s = await h.waitFor(id, (x) => x.pendingGate !== undefined, 60_000);
    expect(s.pendingGate).toMatchObject({ reason: 'regression', iteration: 2 });
    expect(s.pendingGate!.numbers).toEqual({
      before: { iteration: 1, tests: 3, failing: 2 },
      after: { iteration: 2, tests: 1, failing: 0 },
    });
    const text = statusLines(s).join('\n');
    expect(text).toMatch(/^ {2}tests\s+3\s+1\s+-2$/m);
    expect(text).toMatch(/^ {2}failing tests\s+2\s+0\s+-2$/m);
    // The console's gate panel has the same numbers.
    const page = loopPage(s, 'RUNNING', { csrf: 'x' });
    const table = /<table id="gate-numbers">([\s\S]*?)<\/table>/.exec(page)![1].replace(/\s+/g, '');
    expect(table).toContain('<th>iteration1</th><th>iteration2</th><th>change</th>');
    expect(table).toContain('<tr><td>tests</td><td>3</td><td>1</td><td>-2</td></tr>');
    expect(table).toContain('<tr><td>failingtests</td><td>2</td><td>0</td><td>-2</td></tr>');
    await h.signal(id, 'abort', { by: 'reviewer' });
    expect(await h.result(id)).toMatchObject({ status: 'aborted' });
  });
});
