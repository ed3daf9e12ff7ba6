import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runHook } from '../../../src/cli/commands/hook';

const TESTS = [
  "describe('sum', () => {",
  "  it('adds', () => {",
  '    expect(sum(1, 2)).toBe(3);',
  '  });',
  "  it('adds negatives', () => {",
  '    expect(sum(-1, -2)).toBe(-3);',
  '  });',
  '});',
  '',
].join('\n');

/** A workspace with one test file, and a hook run as Claude Code runs it inside the sandbox (entries spooled). */
function setup() {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-hook-correction-'));
  fs.mkdirSync(path.join(ws, 'test'));
  const file = path.join(ws, 'test/sum.test.js');
  fs.writeFileSync(file, TESTS);
  const spool = path.join(ws, 'tmp', 'hook-spool.jsonl');
  fs.mkdirSync(path.dirname(spool));
  const env = { RALPH_LOOP_ID: 'L', RALPH_WORKSPACE: ws, RALPH_ITERATION: '2', RALPH_HOOK_SPOOL: spool };
  let n = 0;
  /** Runs the call as Claude Code does: PreToolUse, the call itself, PostToolUse (with `response`). */
  const call = async (
    tool: string,
    input: Record<string, unknown>,
    run: () => void,
    response: (before: string) => Record<string, unknown> = () => ({}),
  ) => {
    const id = `toolu_${++n}`;
    const payload = { tool_name: tool, tool_input: input, cwd: ws, tool_use_id: id, session_id: 's' };
    await runHook('pre-tool-use', JSON.stringify(payload), env);
    const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    run();
    return runHook('post-tool-use', JSON.stringify({ ...payload, tool_response: response(before) }), env);
  };
  const spooled = () =>
    fs.existsSync(spool)
      ? fs
          .readFileSync(spool, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { kind: string; entry: Record<string, unknown> })
          .filter((l) => l.kind === 'audit')
          .map((l) => l.entry)
      : [];
  const edit = (from: string, to: string) =>
    call(
      'Edit',
      { file_path: file, old_string: from, new_string: to },
      () => fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(from, to)),
      (before) => ({ filePath: file, originalFile: before, oldString: from, newString: to }),
    );
  const bash = (command: string) =>
    call('Bash', { command }, () => execFileSync('/bin/sh', ['-c', command], { cwd: ws }));
  return { ws, file, edit, bash, spooled, env };
}

describe('ralph hook post-tool-use: in-iteration correction', () => {
  it('blocks an added it.skip with the next prompt feedback, and spools an in_iteration_block entry', async () => {
    const { edit, spooled } = setup();
    const r = await edit("it('adds negatives'", "it.skip('adds negatives'");
    expect(r.output).toEqual({ decision: 'block', reason: expect.stringContaining('Blocked by ralph') });
    expect(r.output.reason).toContain('**CRITICAL**: In iteration 2, you bypassed validation (skip_added)');
    expect(r.output.reason).toContain('put test/sum.test.js back exactly as it was');
    expect(spooled()).toContainEqual(
      expect.objectContaining({
        event: 'post-tool-use',
        tool: 'Edit',
        decision: 'block',
        category: 'in_iteration_block',
        target: 'test/sum.test.js',
        risk: 'critical',
      }),
    );
  });

  it('lets an honest rename and an added test case through without a block', async () => {
    const { edit, spooled } = setup();
    const renamed = await edit("'adds negatives'", "'adds two negative numbers'");
    expect(renamed.output.decision).toBeUndefined();
    const added = await edit('});\n', "});\n  it('adds zero', () => {\n    expect(sum(0, 0)).toBe(0);\n  });\n");
    expect(added.output.decision).toBeUndefined();
    expect(spooled().filter((e) => e.decision === 'block')).toEqual([]);
  });

  it('blocks a shell deletion of the test file, of its folder, and a sed that skips a test', async () => {
    const one = setup();
    const rm = await one.bash('rm -f test/sum.test.js');
    expect(rm.output.decision).toBe('block');
    expect(rm.output.reason).toContain('you DELETED tests');
    expect(rm.output.reason).toContain('test/sum.test.js: sum › adds negatives');

    const two = setup();
    expect((await two.bash('rm -rf test')).output.decision).toBe('block');

    const three = setup();
    const sed = await three.bash("sed -i \"s/it('adds negatives'/it.skip('adds negatives'/\" test/sum.test.js");
    expect(sed.output.decision).toBe('block');
    expect(sed.output.reason).toContain('skip_added');
  });

  it('lets a shell rename of the test file through (a move, not a deletion)', async () => {
    const { bash } = setup();
    expect((await bash('mv test/sum.test.js test/add.test.js')).output.decision).toBeUndefined();
  });

  it('blocks a deletion whose text was never stashed (no PreToolUse) unless the command moves files', async () => {
    const { ws, env } = setup();
    fs.rmSync(path.join(ws, 'test/sum.test.js'));
    const post = (command: string) =>
      runHook('post-tool-use', JSON.stringify({ tool_name: 'Bash', tool_input: { command }, cwd: ws }), env);
    expect((await post('rm test/sum.test.js')).output.decision).toBe('block');
    expect((await post('git mv test/sum.test.js test/add.test.js')).output.decision).toBeUndefined();
  });

  it('judges a test file the iteration created from nothing: deleting it is no deletion, a skip in it is', async () => {
    const { ws, bash, spooled } = setup();
    const fresh = path.join(ws, 'test/zero.test.js');
    const write = (content: string, original: string | null = null) =>
      runHook(
        'post-tool-use',
        JSON.stringify({
          tool_name: 'Write',
          tool_input: { file_path: fresh, content },
          cwd: ws,
          tool_response: { type: original === null ? 'create' : 'update', originalFile: original },
        }),
        {
          RALPH_LOOP_ID: 'L',
          RALPH_WORKSPACE: ws,
          RALPH_ITERATION: '2',
          RALPH_HOOK_SPOOL: path.join(ws, 'tmp', 'hook-spool.jsonl'),
        },
      );
    const zero = "it('adds zero', () => {\n  expect(sum(0, 0)).toBe(0);\n});\n";
    fs.writeFileSync(fresh, zero);
    expect((await write(zero)).output.decision).toBeUndefined();
    const skipped = zero.replace("it('adds zero'", "it.skip('adds zero'");
    fs.writeFileSync(fresh, skipped);
    expect((await write(skipped, zero)).output.decision).toBe('block');
    fs.writeFileSync(fresh, zero);
    expect((await write(zero, skipped)).output.decision).toBeUndefined();
    expect((await bash('rm -f test/zero.test.js')).output.decision).toBeUndefined();
    expect(spooled().filter((e) => e.decision === 'block')).toHaveLength(1);
  });

  it('answers the block outside a loop too, logging nothing', async () => {
    const { edit, env, spooled } = setup();
    delete (env as Record<string, string>).RALPH_LOOP_ID;
    const r = await edit('toBe(-3)', 'toBeDefined()');
    expect(r.output.decision).toBe('block');
    expect(r.output.reason).toContain('assertion_weakened');
    expect(spooled()).toEqual([]);
  });
});
