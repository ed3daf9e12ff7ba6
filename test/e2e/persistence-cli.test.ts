/**
 * The anti-laziness views of the built CLI (`ralph status --persistence|--regressions|--quality`, `ralph
 * interventions`, `ralph profile`, `ralph report`) on a loop run by the real dev server and worker.
 */
import fs from 'node:fs';
import path from 'node:path';
import execa from 'execa';
import type { AgentProfile, InterventionEvent } from '../../src/core/anti-laziness-types';
import { Harness, scriptedLoop, tempWorkspace } from '../helpers/env';

const CLI = path.resolve(__dirname, '../../dist/src/cli/index.js');

let h: Harness;
let ws: string;
let id: string;
beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  h = await Harness.start();
  // A jest-shaped runner: `passed` of 10 tests pass, as src/progress.json says (product data: below the root, where a
  // JSON file is not taken for tool configuration by the verification tree).
  const fakeJest = `const fs = require('fs');
const passed = JSON.parse(fs.readFileSync('src/progress.json', 'utf8')).passed;
const a = Array.from({ length: 10 }, (_, i) => ({ title: 't' + i, fullName: 't' + i, ancestorTitles: [], status: i < passed ? 'passed' : 'failed', failureMessages: i < passed ? [] : ['Error: nope'] }));
console.log(JSON.stringify({ success: passed === 10, numPassedTests: passed, numFailedTests: 10 - passed, numTotalTests: 10, testResults: [{ name: process.cwd() + '/q.test.js', status: passed === 10 ? 'passed' : 'failed', assertionResults: a }] }));
process.exit(passed === 10 ? 0 : 1);
`;
  ws = tempWorkspace(
    { 'fake-jest.js': fakeJest, 'src/progress.json': JSON.stringify({ passed: 5 }) },
    {
      iterations: [
        [{ print: 'Everything is implemented.' }, { promise: 'DONE' }],
        [{ write: 'src/progress.json', content: JSON.stringify({ passed: 10 }) }, { promise: 'DONE' }],
      ],
    },
  );
  id = await h.startLoop(
    scriptedLoop(ws, {
      completion: { promise: 'DONE' },
      gates: { runOn: 'every-iteration', gates: [{ name: 'unit', kind: 'test', command: 'node fake-jest.js' }] },
    }),
  );
  await h.result(id);
});
afterAll(async () => {
  await h?.stop();
});

async function ralph(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await execa(process.execPath, [CLI, ...args], {
    reject: false,
    timeout: 60_000,
    env: { TEMPORAL_ADDRESS: '', TEMPORAL_NAMESPACE: '', RALPH_TASK_QUEUE: '' },
  });
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}
const conn = (): string[] => ['--address', h.env.address];

describe('ralph anti-laziness views', () => {
  it('shows the quality trajectory as bars marking the best iteration', async () => {
    const r = await ralph('status', id, '--quality', ...conn());
    expect(r).toMatchObject({ code: 0 });
    const lines = r.stdout.split('\n');
    expect(lines.find((l) => /iter\s+1\b/.test(l))).toContain('50%');
    expect(lines.find((l) => /iter\s+2\b/.test(l))).toMatch(/100%.*BEST/);
  });

  it('shows persistence metrics and the (empty) regression list', async () => {
    const p = await ralph('status', id, '--persistence', ...conn());
    expect(p.code).toBe(0);
    expect(p.stdout).toMatch(/Reinforcement Level/i);
    expect(p.stdout).toMatch(/Best Iteration:\s+2 \(quality: 100%, verified\)/);
    const g = await ralph('status', id, '--regressions', '--json', ...conn());
    expect(g.code).toBe(0);
    expect(JSON.parse(g.stdout)).toEqual([]);
  });

  it('lists the interventions of the loop, newest last', async () => {
    const r = await ralph('interventions', id, '--json', ...conn());
    expect(r.code).toBe(0);
    const events = JSON.parse(r.stdout) as InterventionEvent[];
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['no_files_written', 'false_completion']));
    const text = await ralph('interventions', id, '--last', '1', ...conn());
    expect(text.stdout).toContain('false_completion');
  });

  it('sums the agent profile over the loops of a state folder', async () => {
    const r = await ralph('profile', '--agent', 'scripted', '--state-dir', path.join(ws, '.ralph'), '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout) as AgentProfile).toMatchObject({
      agent: 'scripted',
      iterations: 2,
      noFilesCount: 1,
      falseCompletions: 1,
    });
  });

  it('prints the loop report and its analytics', async () => {
    const md = await ralph('report', id, ...conn());
    expect(md.code).toBe(0);
    expect(md.stdout).toContain(id);
    expect(md.stdout).toContain('false_completion');
    const json = await ralph('report', id, '--json', ...conn());
    expect(JSON.parse(json.stdout)).toMatchObject({ loopId: id, status: 'accepted' });
  });

  it('says clearly when a loop has no interventions file', async () => {
    const r = await ralph('interventions', 'no-such-loop', '--state-dir', path.join(ws, '.ralph'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('no interventions recorded for loop no-such-loop');
  });
});
