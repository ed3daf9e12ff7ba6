/**
 * Ralph's hooks with the real codex and Gemini CLIs (pinned in test/agents) against their loopback model stubs, in
 * sandboxed loops on the real dev server (Claude Code's: in-iteration-correction.test.ts).
 *
 * - codex 0.169 runs them through `-c hooks.*` (trusted for the run). The stub's default model (one codex does not know)
 *   edits files with `apply_patch <<'PATCH'` through the shell tool, which reaches the PreToolUse hook as a `Bash`
 *   call; a model codex knows (gpt-5.5) gets its `apply_patch` tool, which both hooks see.
 * - Gemini 0.61 reads them from a system settings file of ralph's own (root-owned: our machines run as root); its
 *   `replace` reaches the hook as Claude Code's Edit, and the model gets a hook's reason as the tool's error.
 *
 * The protected-path guard denies removing a protected test before it happens (the model reads why) and lets an edit
 * that only adds a case through; the PostToolUse correction blocks a deleted test right after the edit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Harness } from '../helpers/env';
import {
  BUGGY,
  FIXED,
  NEGATIVES,
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
let cli: Record<'codex' | 'gemini', RealAgent>;
const stubs: ModelServer[] = [];
const KEYS = { codex: 'sk-openai-secret-agent-hooks-91d2', gemini: 'gm-secret-agent-hooks-5e7a' };

beforeAll(async () => {
  const all = realAgents();
  cli = { codex: all.codex, gemini: all.gemini };
  for (const a of ['codex', 'gemini'] as const) process.env[cli[a].keyVar] = KEYS[a];
  h = await Harness.start();
}, 600_000);

afterAll(async () => {
  await Promise.all(stubs.map((s) => s.close()));
  await h?.stop();
  for (const a of Object.values(cli ?? {})) delete process.env[a.keyVar];
});

/** The task names no test file: test/sum.test.js is protected. */
const FIX_ONLY =
  'Fix sum in src/sum.js for negative numbers. The check is `node test/run.js`; when it passes, say ' +
  '<promise>DONE</promise>.';

/** The hook's view of each CLI's edit call: its tool name in the audit log. */
const EDIT_TOOL = { codex: 'Bash', gemini: 'replace' } as const;

const run = (adapter: 'codex' | 'gemini', ws: string, turns: StubTurns, prompt = FIX_ONLY) =>
  runHookLoop(h, cli[adapter], { ws, apiKey: KEYS[adapter], turns, prompt, stubs });

describe.each(['codex', 'gemini'] as const)('ralph hooks with the real %s CLI', (adapter) => {
  it('denies an edit that deletes a protected test before it runs; the model reads why, fixes the code, accepted', async () => {
    const ws = await sumWorkspace();
    const file = path.join(ws, 'test/sum.test.js');
    const r = await run(adapter, ws, [
      { text: 'That test is wrong; removing it.', tools: [{ kind: 'edit', path: file, old: NEGATIVES, new: '' }] },
      { tools: [{ kind: 'edit', path: path.join(ws, 'src/sum.js'), old: BUGGY, new: FIXED }] },
      { text: 'Fixed sum for negative numbers.\n\n<promise>DONE</promise>' },
    ]);

    expect(r.result).toMatchObject({ status: 'accepted', iterations: 1 });
    expect(fs.readFileSync(file, 'utf8')).toBe(TESTS);
    expect(fs.readFileSync(path.join(ws, 'src/sum.js'), 'utf8')).toBe(`${FIXED}\n`);
    // The CLI gave the model the hook's reason in place of the tool's result, before its next turn.
    expect(r.sentBefore(1)).toContain('Blocked by ralph');
    expect(r.sentBefore(1)).toContain('test/sum.test.js (test) is protected');
    expect(r.audit.filter((a) => a.decision === 'deny')).toEqual([
      expect.objectContaining({
        event: 'pre-tool-use',
        tool: EDIT_TOOL[adapter],
        category: 'protected_edit',
        target: 'test/sum.test.js',
        iteration: 1,
      }),
    ]);
  });

  it('lets an edit that adds a case to a protected test through, and the loop keeps it unattended', async () => {
    const ws = await sumWorkspace();
    const file = path.join(ws, 'test/sum.test.js');
    const r = await run(adapter, ws, [
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
        tool: EDIT_TOOL[adapter],
        category: 'test_edit',
        target: 'test/sum.test.js',
      }),
    );
    expect(r.events.filter((e) => e.type === 'test_edit_benign')).toEqual([
      expect.objectContaining({ severity: 'info', evidence: ['test/sum.test.js: 1 test added'] }),
    ]);
  });
});

/** The model each CLI runs in the tests after the call: codex's needs its apply_patch tool (a model it knows). */
const AFTER = {
  codex: { model: 'gpt-5.5', tool: 'apply_patch' },
  gemini: { model: undefined, tool: 'replace' },
} as const;

describe.each(['codex', 'gemini'] as const)('ralph hooks with the real %s CLI, after the call', (adapter) => {
  // Codex calls no PostToolUse hook for a patch applied from a shell heredoc: here the model uses its apply_patch tool.
  it('blocks a deleted test right after the edit where the task lets it change the file; the model puts it back', async () => {
    const ws = await sumWorkspace();
    const file = path.join(ws, 'test/sum.test.js');
    const r = await runHookLoop(h, cli[adapter], {
      ws,
      apiKey: KEYS[adapter],
      turns: deleteThenRestore(ws),
      prompt:
        'Fix sum in src/sum.js for negative numbers; you may edit test/sum.test.js. The check is `node test/run.js`; ' +
        'when it passes, say <promise>DONE</promise>.',
      stubs,
      model: AFTER[adapter].model,
    });

    expect(r.result).toMatchObject({ status: 'accepted', iterations: 1 });
    expect(fs.readFileSync(file, 'utf8')).toBe(TESTS);
    expect(r.sentBefore(1)).toContain('you DELETED tests');
    expect(r.audit.filter((a) => a.decision === 'block')).toEqual([
      expect.objectContaining({ event: 'post-tool-use', tool: AFTER[adapter].tool, category: 'in_iteration_block' }),
    ]);
    expect(r.events.filter((e) => e.type === 'corrected_in_iteration')).toHaveLength(1);
  });
});
