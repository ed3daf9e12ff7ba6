/**
 * In-iteration correction with the real claude CLI (pinned in test/agents) against the loopback Anthropic stub, in a
 * loop on the real dev server, sandboxed: ralph's PostToolUse hook blocks a change the loop would reject (a deleted
 * failing test) the moment it is made, the model reads the reason in its next turn and puts the test back, and the
 * iteration ends accepted with one `corrected_in_iteration` event. An honest test rename passes the hook untouched, and
 * so does a new case in a protected test file the task does not name (the PreToolUse guard judges the edit itself).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Harness } from '../helpers/env';
import {
  FIXED,
  TESTS,
  ZERO,
  deleteThenRestore,
  runHookLoop,
  sumWorkspace,
  type StubTurns,
} from '../helpers/hook-loops';
import type { ModelServer } from '../helpers/model-servers/server';
import { type RealAgent, realAgents } from '../helpers/real-agents';

let h: Harness;
let claude: RealAgent;
const stubs: ModelServer[] = [];
const KEY = 'sk-ant-secret-in-iteration-4c1e';

beforeAll(async () => {
  claude = realAgents()['claude-code'];
  process.env[claude.keyVar] = KEY;
  h = await Harness.start();
}, 600_000);
afterAll(async () => {
  await Promise.all(stubs.map((s) => s.close()));
  await h?.stop();
  if (claude) delete process.env[claude.keyVar];
});

/** The task lets the agent change the test file (it asks for a new test in it): the PreToolUse guard lets edits through. */
const TASK =
  'Fix sum in src/sum.js for negative numbers, and add a test for zero to test/sum.test.js. ' +
  'The check is `node test/run.js`; when it passes, say <promise>DONE</promise>.';

/** A task that names no test file: test/sum.test.js stays protected, and the PreToolUse guard judges its edits. */
const FIX_ONLY =
  'Fix sum in src/sum.js for negative numbers. The check is `node test/run.js`; when it passes, say ' +
  '<promise>DONE</promise>.';

/** A sandboxed loop of the real claude against a stub playing `turns`. */
const run = (ws: string, turns: StubTurns, prompt = TASK) =>
  runHookLoop(h, claude, { ws, apiKey: KEY, turns, prompt, stubs });

describe('in-iteration correction with the real claude CLI', () => {
  it('blocks a deleted failing test at once; the next turn restores it and the iteration is accepted, corrected', async () => {
    const ws = await sumWorkspace();
    const file = path.join(ws, 'test/sum.test.js');
    const r = await run(ws, deleteThenRestore(ws));

    expect(r.result).toMatchObject({ status: 'accepted', iterations: 1 });
    expect(fs.readFileSync(file, 'utf8')).toBe(TESTS);
    // The block reached the model in the same run, before the turn that restored the test.
    expect(r.sentBefore(1)).toContain('Blocked by ralph');
    expect(r.sentBefore(1)).toContain('you DELETED tests');
    expect(r.sentBefore(1)).toContain('test/sum.test.js: sum › adds negatives');
    expect(r.audit.filter((a) => a.decision === 'block')).toEqual([
      expect.objectContaining({
        event: 'post-tool-use',
        tool: 'Edit',
        category: 'in_iteration_block',
        target: 'test/sum.test.js',
        iteration: 1,
      }),
    ]);
    const corrected = r.events.filter((e) => e.type === 'corrected_in_iteration');
    expect(corrected).toHaveLength(1);
    expect(corrected[0]).toMatchObject({
      iteration: 1,
      verdict: 'PASS',
      evidence: ['Edit test/sum.test.js: test_deletion'],
    });
    expect(r.events.filter((e) => e.verdict === 'BLOCK')).toEqual([]);
  });

  it('lets an honest test rename and a new test case through the hook untouched', async () => {
    const ws = await sumWorkspace();
    const file = path.join(ws, 'test/sum.test.js');
    const r = await run(ws, [
      { tools: [{ kind: 'edit', path: file, old: "it('adds negatives'", new: "it('adds two negative numbers'" }] },
      { tools: [{ kind: 'edit', path: file, old: 'toBe(-3);\n  });\n});', new: `toBe(-3);\n  });\n${ZERO}});` }] },
      { tools: [{ kind: 'write', path: path.join(ws, 'src/sum.js'), content: `${FIXED}\n` }] },
      { text: 'Renamed a test, added one for zero and fixed sum.\n\n<promise>DONE</promise>' },
    ]);

    expect(r.result).toMatchObject({ status: 'accepted', iterations: 1 });
    expect(fs.readFileSync(file, 'utf8')).toContain("it('adds two negative numbers'");
    expect(fs.readFileSync(file, 'utf8')).toContain("it('adds zero'");
    for (const turn of [1, 2, 3]) expect(r.sentBefore(turn)).not.toContain('Blocked by ralph');
    // The hook ran on the edit (logged) and did not block it.
    expect(r.audit.filter((a) => a.event === 'post-tool-use' && a.tool === 'Edit')).toEqual([
      expect.objectContaining({ decision: 'warn', category: 'test_edit' }),
      expect.objectContaining({ decision: 'warn', category: 'test_edit' }),
    ]);
    expect(r.audit.filter((a) => a.decision === 'block')).toEqual([]);
    expect(r.events.filter((e) => e.type === 'corrected_in_iteration')).toEqual([]);
  });

  it('lets a new case and a rename in a protected test file the task does not name through the deny guard', async () => {
    const ws = await sumWorkspace();
    const file = path.join(ws, 'test/sum.test.js');
    const r = await run(
      ws,
      [
        { tools: [{ kind: 'edit', path: file, old: "it('adds negatives'", new: "it('adds two negative numbers'" }] },
        { tools: [{ kind: 'edit', path: file, old: 'toBe(-3);\n  });\n});', new: `toBe(-3);\n  });\n${ZERO}});` }] },
        { tools: [{ kind: 'write', path: path.join(ws, 'src/sum.js'), content: `${FIXED}\n` }] },
        { text: 'Fixed sum; renamed a test and added one for zero.\n\n<promise>DONE</promise>' },
      ],
      FIX_ONLY,
    );

    // Accepted unattended, with the edits: the original tests passed on the fix and the edit only added and renamed.
    expect(r.result).toMatchObject({ status: 'accepted', iterations: 1 });
    expect(fs.readFileSync(file, 'utf8')).toContain("it('adds two negative numbers'");
    expect(fs.readFileSync(file, 'utf8')).toContain("it('adds zero'");
    for (const turn of [1, 2, 3]) expect(r.sentBefore(turn)).not.toContain('Blocked by ralph');
    expect(r.audit.filter((a) => a.decision === 'deny' || a.category === 'protected_edit')).toEqual([]);
    expect(r.events.filter((e) => e.type === 'test_edit_benign')).toEqual([
      expect.objectContaining({
        severity: 'info',
        evidence: ['test/sum.test.js: 1 test added, renamed: adds negatives'],
      }),
    ]);
  });
});
