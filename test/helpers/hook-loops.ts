/**
 * A real agent CLI in a sandboxed loop on a tiny repository whose check fails until `sum` handles negatives: what the
 * hook tests of every CLI share (test/workflows/in-iteration-correction.test.ts, agent-hooks.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import execa from 'execa';
import type { InterventionEvent } from '../../src/core/anti-laziness-types';
import type { AuditEntry } from '../../src/state/audit';
import { type Harness, tempWorkspace } from './env';
import type { ModelServer } from './model-servers/server';
import { type RealAgent, tempHome } from './real-agents';

/** A tiny jest-like runner: `describe`, `it`, `it.skip` and `expect().toBe()`, exit 1 on a failure or no test. */
const RUNNER = `let ran = 0, failed = 0;
global.describe = (n, f) => f();
global.it = (n, f) => { ran++; try { f(); } catch (e) { failed++; console.log('FAIL ' + n + ': ' + e.message); } };
global.it.skip = () => {};
global.expect = (a) => ({ toBe: (b) => { if (a !== b) throw new Error('expected ' + b + ', got ' + a); } });
require('./sum.test.js');
console.log(ran + ' tests, ' + failed + ' failed');
process.exit(failed || !ran ? 1 : 0);
`;
export const NEGATIVES = `  it('adds negatives', () => {\n    expect(sum(-1, -2)).toBe(-3);\n  });\n`;
export const TESTS = `const sum = require('../src/sum');\n\ndescribe('sum', () => {\n  it('adds', () => {\n    expect(sum(1, 2)).toBe(3);\n  });\n${NEGATIVES}});\n`;
export const ZERO = `  it('adds zero', () => {\n    expect(sum(0, 0)).toBe(0);\n  });\n`;
/** src/sum.js's one line, wrong for two negatives, and fixed. */
export const BUGGY = 'module.exports = (a, b) => (a < 0 && b < 0 ? a - b : a + b);';
export const FIXED = 'module.exports = (a, b) => a + b;';

/** A git workspace whose check (`node test/run.js`) fails on the negatives test until src/sum.js is fixed. */
export async function sumWorkspace(): Promise<string> {
  const ws = tempWorkspace({
    'src/sum.js': `${BUGGY}\n`,
    'test/sum.test.js': TESTS,
    'test/run.js': RUNNER,
    '.gitignore': '.ralph/\n',
  });
  const env = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
  await execa('git', ['init', '-q', '-b', 'main'], { cwd: ws });
  await execa('git', ['add', '-A'], { cwd: ws });
  await execa('git', ['commit', '-q', '-m', 'init'], { cwd: ws, env });
  return ws;
}

/** The model's turns a stub plays. */
export type StubTurns = Parameters<RealAgent['startStub']>[0]['conversations'][number]['turns'];

/**
 * The model deletes the failing negatives test of `ws`, then (told off by the hook) puts it back, fixes src/sum.js and
 * claims done: the script of every in-iteration correction test.
 */
export function deleteThenRestore(ws: string): StubTurns {
  const file = path.join(ws, 'test/sum.test.js');
  const adds = '    expect(sum(1, 2)).toBe(3);\n  });\n';
  return [
    { text: 'That test is wrong; removing it.', tools: [{ kind: 'edit', path: file, old: NEGATIVES, new: '' }] },
    {
      text: 'Understood, putting the test back.',
      tools: [{ kind: 'edit', path: file, old: adds, new: `${adds}${NEGATIVES}` }],
    },
    { tools: [{ kind: 'edit', path: path.join(ws, 'src/sum.js'), old: BUGGY, new: FIXED }] },
    { text: 'Fixed sum for negative numbers; all tests pass.\n\n<promise>DONE</promise>' },
  ];
}

/**
 * Runs a sandboxed loop of `agent` (its stub's model, or `model`) against a stub (keyed `apiKey`, closed by the caller
 * through `stubs`) playing `turns` on `ws`, checked by `node test/run.js`. Returns the result, the intervention events, the audit log and what
 * the model was sent before each turn.
 */
export async function runHookLoop(
  h: Harness,
  agent: RealAgent,
  o: { ws: string; apiKey: string; turns: StubTurns; prompt: string; stubs: ModelServer[]; model?: string },
) {
  const stub = await agent.startStub({ apiKey: o.apiKey, conversations: [{ turns: o.turns }] });
  o.stubs.push(stub);
  const id = await h.startLoop({
    prompt: o.prompt,
    workspace: o.ws,
    agent: { ...agent.spec(stub, tempHome()), ...(o.model ? { model: o.model } : {}) },
    completion: { command: 'node test/run.js', promise: 'DONE' },
    maxIterations: 2,
    iterationTimeoutSeconds: 180,
    heartbeatTimeoutSeconds: 30,
    sandbox: { mode: 'enforce' },
  });
  const result = await h.result(id);
  const loop = path.join(o.ws, '.ralph/loops', id);
  const events = JSON.parse(
    fs.readFileSync(path.join(loop, 'interventions/events.json'), 'utf8'),
  ) as InterventionEvent[];
  const auditFile = path.join(loop, 'audit.jsonl');
  const audit = fs.existsSync(auditFile)
    ? fs
        .readFileSync(auditFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as AuditEntry)
    : [];
  /** Everything the model was sent before its n-th turn (0-based). */
  const sentBefore = (turn: number): string =>
    JSON.stringify(stub.requests.filter((q) => q.turn === turn).map((q) => q.body));
  return { result, events, audit, sentBefore };
}
