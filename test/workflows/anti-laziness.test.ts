import fs from 'node:fs';
import path from 'node:path';
import execa from 'execa';
import { Harness, scriptedLoop, tempWorkspace } from '../helpers/env';
import { recordHistory } from '../helpers/histories';
import type { InterventionEvent } from '../../src/core/anti-laziness-types';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const loopFile = (ws: string, id: string, ...rest: string[]): string => path.join(ws, '.ralph/loops', id, ...rest);
const promptOf = (ws: string, id: string, n: number): string =>
  fs.readFileSync(loopFile(ws, id, 'iterations', String(n).padStart(3, '0'), 'prompt.md'), 'utf8');
const eventsOf = (ws: string, id: string): InterventionEvent[] =>
  JSON.parse(fs.readFileSync(loopFile(ws, id, 'interventions', 'events.json'), 'utf8')) as InterventionEvent[];

async function gitInit(ws: string): Promise<void> {
  const env = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
  await execa('git', ['init', '-q', '-b', 'main'], { cwd: ws });
  fs.writeFileSync(path.join(ws, '.gitignore'), '.ralph/\n');
  await execa('git', ['add', '-A'], { cwd: ws });
  await execa('git', ['commit', '-q', '-m', 'init'], { cwd: ws, env });
}

/** A tiny test runner (jest-style `test(name, fn)`), so the check is a real run of the workspace's tests. */
const RUNNER = `const tests = [];
global.test = (n, f) => tests.push([n, f]);
global.expect = (a) => ({ toBe: (b) => { if (a !== b) throw new Error('expected ' + b + ', got ' + a); } });
require('./math.test.js');
let failed = 0;
for (const [n, f] of tests) { try { f(); } catch (e) { failed++; console.log('FAIL ' + n + ': ' + e.message); } }
if (!tests.length) { console.log('no tests'); process.exit(1); }
process.exit(failed ? 1 : 0);
`;
const MATH_BUGGY = 'exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a + b;\n';
const MATH_FIXED = 'exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b;\n';
const MATH_TESTS = `const m = require('./math');
test('adds', () => { expect(m.add(2, 3)).toBe(5); });
test('adds zero', () => { expect(m.add(2, 0)).toBe(2); });
test('multiplies', () => { expect(m.mul(2, 3)).toBe(6); });
test('multiplies by zero', () => { expect(m.mul(4, 0)).toBe(0); });
`;
const ADD_TESTS_ONLY = `const m = require('./math');
test('adds', () => { expect(m.add(2, 3)).toBe(5); });
test('adds zero', () => { expect(m.add(2, 0)).toBe(2); });
`;

describe('ralphLoop anti-laziness', () => {
  it('catches an agent deleting two failing tests, names both at the human gate, and reject rolls back with AGGRESSIVE reinforcement', async () => {
    const ws = tempWorkspace(
      { 'run-tests.js': RUNNER, 'math.js': MATH_BUGGY, 'math.test.js': MATH_TESTS },
      {
        iterations: [
          [
            { hook: 'pre-tool-use', tool: 'Write', input: { file_path: 'math.test.js' } },
            { write: 'math.test.js', content: ADD_TESTS_ONLY },
            { evidence: ['math.test.js'] },
            { promise: 'DONE' },
          ],
          [{ write: 'math.js', content: MATH_FIXED }, { evidence: ['math.js'] }, { promise: 'DONE' }],
        ],
      },
    );
    await gitInit(ws);
    const id = await h.startLoop(
      scriptedLoop(ws, {
        completion: { command: 'node run-tests.js', promise: 'DONE' },
        maxIterations: 4,
        // This is PDARE's regression gate on its own; with verification on, the same cheat is refused first by the
        // original checks (test/workflows/verification.test.ts, "a deleted test file").
        verification: { enabled: false },
      }),
    );
    const s = await h.waitFor(id, (x) => x.pendingGate !== undefined);
    expect(s.pendingGate).toMatchObject({ reason: 'regression', iteration: 1 });
    expect(s.pendingGate!.title).toContain('test_deletion');
    expect(s.pendingGate!.details).toContain('math.test.js: multiplies');
    expect(s.pendingGate!.details).toContain('math.test.js: multiplies by zero');
    expect(s.records[0]).toMatchObject({ outcome: 'completed', verdict: 'BLOCK' });
    expect(s.records[0].detections).toContain('test_deletion');
    expect(s.persistence!.regressions[0]).toMatchObject({
      id: 'reg-001',
      types: ['test_deletion'],
      severity: 'critical',
      recovery: 'escalated',
      deletedTests: ['math.test.js: multiplies', 'math.test.js: multiplies by zero'],
    });
    // The risky write to the test file went through the hook and its audit log.
    expect(eventsOf(ws, id).map((e) => e.type)).toEqual(expect.arrayContaining(['test_deletion', 'risky_action']));

    await h.signal(id, 'reject', { by: 'reviewer', reason: 'never delete failing tests' });
    const r = await h.result(id);
    expect(r).toMatchObject({ status: 'accepted', acceptedBy: 'check', iterations: 2 });
    // Rolled back: iteration 2 started from the four tests, and only fixed the code.
    expect(fs.readFileSync(path.join(ws, 'math.test.js'), 'utf8')).toBe(MATH_TESTS);
    expect(fs.readFileSync(path.join(ws, 'math.js'), 'utf8')).toBe(MATH_FIXED);
    const p2 = promptOf(ws, id, 2);
    expect(p2).toContain('AGGRESSIVE');
    expect(p2).toContain('rolled back');
    const end = await h.status(id);
    expect(end.records[1]).toMatchObject({ level: 'AGGRESSIVE', outcome: 'completed' });
    expect(end.persistence!.regressions[0].recovery).toBe('rolled_back');
    // The user's branch is untouched: checkpoints live under refs/ralph.
    const refs = (await execa('git', ['for-each-ref', '--format=%(refname)', `refs/ralph/${id}/`], { cwd: ws })).stdout;
    expect(refs).toContain(`refs/ralph/${id}/iter-001-pre`);
    expect((await execa('git', ['log', '--oneline'], { cwd: ws })).stdout.split('\n')).toHaveLength(1);
    expect(fs.existsSync(loopFile(ws, id, 'report.md'))).toBe(true);
    await recordHistory(h, id, 'regression-reject-rollback');
  });

  it('overrides a done claim that wrote no file, says why in the next prompt, and accepts real work', async () => {
    const ws = tempWorkspace(
      {},
      {
        iterations: [
          [{ print: 'I implemented greet.js as requested.' }, { evidence: ['greet.js'] }, { promise: 'DONE' }],
          [
            { write: 'greet.js', content: 'module.exports = (n) => `hi ${n}`;\n' },
            { evidence: ['greet.js'] },
            { promise: 'DONE' },
          ],
        ],
      },
    );
    const id = await h.startLoop(scriptedLoop(ws, { completion: { promise: 'DONE' }, maxIterations: 4 }));
    const r = await h.result(id);
    expect(r).toMatchObject({ status: 'accepted', acceptedBy: 'promise', iterations: 2 });
    const s = await h.status(id);
    expect(s.records[0]).toMatchObject({ outcome: 'claim_rejected', claimOverridden: true, verdict: 'WARN' });
    expect(s.records[0].detections).toEqual(
      expect.arrayContaining(['no_files_written', 'hallucinated_files', 'false_completion']),
    );
    expect(s.records[1].claimOverridden).toBeUndefined();
    expect(promptOf(ws, id, 2)).toMatch(/NO FILES/);
    expect(s.persistence!.profile).toMatchObject({ iterations: 2, noFilesCount: 1, falseCompletions: 1 });
    const ev = eventsOf(ws, id);
    expect(ev.filter((e) => e.type === 'false_completion')).toHaveLength(1);
    expect(ev[0]).toMatchObject({ loopId: id, iteration: 1, agent: 'scripted' });
  });

  it('opens the stuck-loop gate within 4 iterations for an agent oscillating between two states on the same error', async () => {
    const ws = tempWorkspace(
      { 'check.js': "console.error('Error: parse failed at config.json'); process.exit(1);\n" },
      {
        iterations: [
          [{ write: 'fix.js', content: 'A\n' }],
          [{ write: 'fix.js', content: 'B\n' }],
          [{ write: 'fix.js', content: 'A\n' }],
          [{ write: 'fix.js', content: 'B\n' }],
          [{ write: 'fix.js', content: 'A\n' }],
        ],
      },
    );
    const id = await h.startLoop(scriptedLoop(ws, { maxIterations: 8 }));
    const s = await h.waitFor(id, (x) => x.pendingGate !== undefined);
    expect(s.pendingGate!.reason).toBe('stuck_loop');
    expect(s.pendingGate!.iteration).toBeLessThanOrEqual(4);
    expect(s.pendingGate!.details).toContain('stuck_loop');
    await h.signal(id, 'abort', { by: 'reviewer' });
    expect(await h.result(id)).toMatchObject({ status: 'aborted' });
  });

  it('restores the best iteration at loop end for a quality trajectory 60, 85, 83, 80', async () => {
    // A test runner printing jest's JSON: `passed` of 100 tests pass, as progress.json says.
    const fakeJest = `const fs = require('fs');
const passed = JSON.parse(fs.readFileSync('progress.json', 'utf8')).passed;
const a = Array.from({ length: 100 }, (_, i) => ({ title: 't' + i, fullName: 't' + i, ancestorTitles: [], status: i < passed ? 'passed' : 'failed', failureMessages: i < passed ? [] : ['Error: nope'] }));
console.log(JSON.stringify({ success: passed === 100, numPassedTests: passed, numFailedTests: 100 - passed, numTotalTests: 100, testResults: [{ name: process.cwd() + '/q.test.js', status: passed === 100 ? 'passed' : 'failed', assertionResults: a }] }));
process.exit(passed === 100 ? 0 : 1);
`;
    const step = (passed: number) => [{ write: 'progress.json', content: JSON.stringify({ passed }) }];
    const ws = tempWorkspace(
      { 'fake-jest.js': fakeJest, 'progress.json': JSON.stringify({ passed: 10 }) },
      { iterations: [step(60), step(85), step(83), step(80)] },
    );
    const id = await h.startLoop(
      scriptedLoop(ws, {
        completion: { promise: 'DONE' },
        gates: { runOn: 'every-iteration', gates: [{ name: 'unit', kind: 'test', command: 'node fake-jest.js' }] },
        maxIterations: 4,
      }),
    );
    const s = await h.waitFor(id, (x) => x.pendingGate?.reason === 'max_iterations');
    expect(s.records.map((r) => r.quality)).toEqual([60, 85, 83, 80]);
    await h.signal(id, 'approve', { by: 'reviewer' });
    expect(await h.result(id)).toMatchObject({ status: 'accepted', acceptedBy: 'human' });
    const end = await h.status(id);
    expect(end.persistence!.best).toMatchObject({ iteration: 2, quality: 85, restoredTo: 'worktree' });
    expect(end.persistence!.best!.reason).toContain('iteration 2');
    expect(JSON.parse(fs.readFileSync(path.join(ws, 'progress.json'), 'utf8'))).toEqual({ passed: 85 });
    const report = fs.readFileSync(loopFile(ws, id, 'report.md'), 'utf8');
    expect(report).toContain('BEST');
    const analytics = JSON.parse(fs.readFileSync(loopFile(ws, id, 'analytics.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(analytics).toMatchObject({ loopId: id });
    await recordHistory(h, id, 'best-output-restore');
  });
});
