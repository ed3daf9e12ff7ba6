/**
 * Ralph's hooks with the real Gemini CLI (pinned in test/agents) against the loopback Gemini API stub, in loops on the
 * real dev server, sandboxed. Gemini 0.61 reads them from a system settings file of ralph's own
 * (GEMINI_CLI_SYSTEM_SETTINGS_PATH, root-owned: the test machines run as root); its `replace` and `write_file` calls
 * reach the hook as Claude Code's Edit and Write: the protected-path guard denies removing a protected test (the model
 * gets the reason as the tool's error), lets an edit that only adds a case through, and the PostToolUse correction
 * blocks a weakened assertion right after it is made (hookPolicy warn).
 */
import fs from 'node:fs';
import path from 'node:path';
import execa from 'execa';
import type { InterventionEvent } from '../../src/core/anti-laziness-types';
import type { AuditEntry } from '../../src/state/audit';
import { Harness, tempWorkspace } from '../helpers/env';
import type { ModelServer } from '../helpers/model-servers/server';
import { type RealAgent, realAgents, tempHome } from '../helpers/real-agents';

let h: Harness;
let gemini: RealAgent;
const stubs: ModelServer[] = [];
const KEY = 'sk-openai-secret-gemini-hooks-5e7a';

beforeAll(async () => {
  gemini = realAgents().gemini;
  process.env[gemini.keyVar] = KEY;
  h = await Harness.start();
}, 600_000);

afterAll(async () => {
  await Promise.all(stubs.map((s) => s.close()));
  await h?.stop();
  if (gemini) delete process.env[gemini.keyVar];
});

const RUNNER = `let ran = 0, failed = 0;
global.describe = (n, f) => f();
global.it = (n, f) => { ran++; try { f(); } catch (e) { failed++; console.log('FAIL ' + n + ': ' + e.message); } };
global.expect = (a) => ({ toBe: (b) => { if (a !== b) throw new Error('expected ' + b + ', got ' + a); } });
require('./sum.test.js');
console.log(ran + ' tests, ' + failed + ' failed');
process.exit(failed || !ran ? 1 : 0);
`;
const NEGATIVES = `  it('adds negatives', () => {\n    expect(sum(-1, -2)).toBe(-3);\n  });\n`;
const TESTS = `const sum = require('../src/sum');\n\ndescribe('sum', () => {\n  it('adds', () => {\n    expect(sum(1, 2)).toBe(3);\n  });\n${NEGATIVES}});\n`;
const BUGGY = 'module.exports = (a, b) => (a < 0 && b < 0 ? a - b : a + b);';
const FIXED = 'module.exports = (a, b) => a + b;';
const ZERO = `  it('adds zero', () => {\n    expect(sum(0, 0)).toBe(0);\n  });\n`;
/** The task names no test file: test/sum.test.js is protected. */
const TASK =
  'Fix sum in src/sum.js for negative numbers. The check is `node test/run.js`; when it passes, say ' +
  '<promise>DONE</promise>.';

async function workspace(): Promise<string> {
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

/** A sandboxed loop of the real codex against a stub playing `turns`. */
async function run(
  ws: string,
  turns: Parameters<RealAgent['startStub']>[0]['conversations'][number]['turns'],
  prompt = TASK,
) {
  const stub = await gemini.startStub({ apiKey: KEY, conversations: [{ turns }] });
  stubs.push(stub);
  const id = await h.startLoop({
    prompt,
    workspace: ws,
    agent: gemini.spec(stub, tempHome()),
    completion: { command: 'node test/run.js', promise: 'DONE' },
    maxIterations: 2,
    iterationTimeoutSeconds: 180,
    heartbeatTimeoutSeconds: 30,
    sandbox: { mode: 'enforce' },
  });
  const result = await h.result(id);
  const loop = path.join(ws, '.ralph/loops', id);
  const events = JSON.parse(
    fs.readFileSync(path.join(loop, 'interventions/events.json'), 'utf8'),
  ) as InterventionEvent[];
  const auditFile = path.join(loop, 'audit.jsonl');
  const audit = fs.existsSync(auditFile)
    ? fs
        .readFileSync(auditFile, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as AuditEntry)
    : [];
  const sentBefore = (turn: number): string =>
    JSON.stringify(stub.requests.filter((q) => q.turn === turn).map((q) => q.body));
  return { result, events, audit, sentBefore };
}

describe('ralph hooks with the real Gemini CLI', () => {
  it('denies an edit that deletes a protected test before it runs; the model reads why, fixes the code, accepted', async () => {
    const ws = await workspace();
    const file = path.join(ws, 'test/sum.test.js');
    const r = await run(ws, [
      { text: 'That test is wrong; removing it.', tools: [{ kind: 'edit', path: file, old: NEGATIVES, new: '' }] },
      { tools: [{ kind: 'edit', path: path.join(ws, 'src/sum.js'), old: BUGGY, new: FIXED }] },
      { text: 'Fixed sum for negative numbers.\n\n<promise>DONE</promise>' },
    ]);

    expect(r.result).toMatchObject({ status: 'accepted', iterations: 1 });
    expect(fs.readFileSync(file, 'utf8')).toBe(TESTS);
    expect(fs.readFileSync(path.join(ws, 'src/sum.js'), 'utf8')).toBe(`${FIXED}\n`);
    // Gemini gave the model the hook's reason as the tool's error, before its next turn.
    expect(r.sentBefore(1)).toContain('Blocked by ralph');
    expect(r.sentBefore(1)).toContain('test/sum.test.js (test) is protected');
    expect(r.audit.filter((a) => a.decision === 'deny')).toEqual([
      expect.objectContaining({
        event: 'pre-tool-use',
        tool: 'replace',
        category: 'protected_edit',
        target: 'test/sum.test.js',
        iteration: 1,
      }),
    ]);
  });

  it('lets an edit that adds a case to a protected test through, and the loop keeps it unattended', async () => {
    const ws = await workspace();
    const file = path.join(ws, 'test/sum.test.js');
    const r = await run(ws, [
      { tools: [{ kind: 'edit', path: file, old: NEGATIVES, new: `${NEGATIVES}${ZERO}` }] },
      { tools: [{ kind: 'edit', path: path.join(ws, 'src/sum.js'), old: BUGGY, new: FIXED }] },
      { text: 'Fixed sum; added a test for zero.\n\n<promise>DONE</promise>' },
    ]);

    expect(r.result).toMatchObject({ status: 'accepted', iterations: 1 });
    expect(fs.readFileSync(file, 'utf8')).toBe(TESTS.replace(NEGATIVES, `${NEGATIVES}${ZERO}`));
    expect(r.sentBefore(1)).not.toContain('Blocked by ralph');
    expect(r.audit.filter((a) => a.decision === 'deny' || a.category === 'protected_edit')).toEqual([]);
    // The hook saw the edit (a test edit, logged) and let it run.
    expect(r.audit).toContainEqual(
      expect.objectContaining({
        event: 'pre-tool-use',
        tool: 'replace',
        category: 'test_edit',
        target: 'test/sum.test.js',
      }),
    );
    expect(r.events.filter((e) => e.type === 'test_edit_benign')).toEqual([
      expect.objectContaining({ severity: 'info', evidence: ['test/sum.test.js: 1 test added'] }),
    ]);
  });

  it('blocks a deleted test right after the edit where the task lets it change the file; the model puts it back', async () => {
    const ws = await workspace();
    const file = path.join(ws, 'test/sum.test.js');
    const r = await run(
      ws,
      [
        { text: 'That test is wrong; removing it.', tools: [{ kind: 'edit', path: file, old: NEGATIVES, new: '' }] },
        {
          text: 'Understood, putting the test back.',
          tools: [
            {
              kind: 'edit',
              path: file,
              old: '    expect(sum(1, 2)).toBe(3);\n  });\n',
              new: `    expect(sum(1, 2)).toBe(3);\n  });\n${NEGATIVES}`,
            },
          ],
        },
        { tools: [{ kind: 'edit', path: path.join(ws, 'src/sum.js'), old: BUGGY, new: FIXED }] },
        { text: 'Fixed sum for negative numbers.\n\n<promise>DONE</promise>' },
      ],
      'Fix sum in src/sum.js for negative numbers; you may edit test/sum.test.js. The check is `node test/run.js`; ' +
        'when it passes, say <promise>DONE</promise>.',
    );

    expect(r.result).toMatchObject({ status: 'accepted', iterations: 1 });
    expect(fs.readFileSync(file, 'utf8')).toBe(TESTS);
    expect(r.sentBefore(1)).toContain('you DELETED tests');
    expect(r.audit.filter((a) => a.decision === 'block')).toEqual([
      expect.objectContaining({ event: 'post-tool-use', tool: 'replace', category: 'in_iteration_block' }),
    ]);
    expect(r.events.filter((e) => e.type === 'corrected_in_iteration')).toHaveLength(1);
  });
});
