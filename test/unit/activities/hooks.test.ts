/**
 * Ralph's tool-call hooks end to end: the built CLI (`node dist/src/cli/index.js hook ...`, built by `npm run build`)
 * as a real subprocess on temp git repos, the audit log, the adapters that install the hook, and the built scripted
 * agent running it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import execa from 'execa';
import { claudeCodeAdapter } from '../../../src/activities/agents/claude-code';
import { scriptedAdapter } from '../../../src/activities/agents/scripted';
import type { AgentHooks } from '../../../src/activities/agents/types';
import { appendAudit, auditFile, readAudit, reserveRiskCheckpoint, type AuditEntry } from '../../../src/state/audit';
import { HOOK_TOOL_MATCHER, hookEntryPath, hookShellCommand, shellQuote } from '../../../src/activities/hooks/install';
import { rollbackToCheckpoint } from '../../../src/activities/workspace/checkpoint';
import { agentInvocation, runCommand, useTmpDirs } from '../../helpers/fake-agents';

const CLI = path.resolve(__dirname, '../../../dist/src/cli/index.js');
const LOOP = 'loop-hooks';
const TEST_FILE = "it('adds', () => {\n  expect(1 + 2).toBe(3);\n});\n";

const tmpDir = useTmpDirs();

beforeAll(() => {
  for (const f of [CLI, hookEntryPath()])
    if (!fs.existsSync(f)) throw new Error(`${f} is missing: run \`npm run build\` first`);
});

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });

/** A git repo with one committed test file and one source file. */
function repo(): string {
  const dir = tmpDir('ralph-hook-ws-');
  git(dir, 'init', '-q', '-b', 'main');
  fs.mkdirSync(path.join(dir, 'test'));
  fs.writeFileSync(path.join(dir, 'test/calc.test.ts'), TEST_FILE);
  fs.writeFileSync(path.join(dir, 'calc.ts'), 'export const add = (a: number, b: number) => a + b;\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

/** Claude Code's hook input for one tool call. */
const hookInput = (tool: string, input: Record<string, unknown>, cwd: string, event = 'PreToolUse'): string =>
  JSON.stringify({
    session_id: 'sess-1',
    transcript_path: '/tmp/transcript.jsonl',
    cwd,
    permission_mode: 'acceptEdits',
    hook_event_name: event,
    tool_name: tool,
    tool_input: input,
    tool_use_id: 'toolu_01',
  });

interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
  json: Record<string, unknown>;
}

/** Runs `ralph hook <event>` (the built CLI) with `stdin` and the RALPH_* env of a loop in `ws`. */
async function ralphHook(event: string, stdin: string, env: Record<string, string>): Promise<Run> {
  const r = await execa(process.execPath, [CLI, 'hook', event], {
    input: stdin,
    reject: false,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, json: JSON.parse(r.stdout) };
}

const loopEnv = (ws: string, state: string, over: Record<string, string> = {}): Record<string, string> => ({
  RALPH_LOOP_ID: LOOP,
  RALPH_STATE_DIR: state,
  RALPH_ITERATION: '1',
  RALPH_WORKSPACE: ws,
  ...over,
});

const auditLines = (state: string): AuditEntry[] =>
  fs.existsSync(auditFile(state, LOOP))
    ? fs
        .readFileSync(auditFile(state, LOOP), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as AuditEntry)
    : [];

const refs = (ws: string): string[] =>
  git(ws, 'for-each-ref', '--format=%(refname)', 'refs/ralph/').trim().split('\n').filter(Boolean);

describe('ralph hook pre-tool-use', () => {
  it('warns before a test edit, logs it and takes checkpoint iter-001-risk-1 holding the file as it was', async () => {
    const ws = repo();
    const state = tmpDir('ralph-hook-state-');
    const file = path.join(ws, 'test/calc.test.ts');
    const r = await ralphHook(
      'pre-tool-use',
      hookInput('Edit', { file_path: file, old_string: 'toBe(3)', new_string: 'toBeDefined()' }, ws),
      loopEnv(ws, state),
    );

    const msg =
      '⚠️ You are about to modify test file test/calc.test.ts. Verify this is a fix, not a deletion or weakening.';
    expect(r.exitCode).toBe(0);
    expect(r.json).toEqual({
      systemMessage: msg,
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: msg },
    });
    const [entry, ...more] = auditLines(state);
    expect(more).toEqual([]);
    expect(entry).toEqual({
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      loopId: LOOP,
      iteration: 1,
      event: 'pre-tool-use',
      tool: 'Edit',
      target: 'test/calc.test.ts',
      risk: 'high',
      category: 'test_edit',
      reasons: ['test/calc.test.ts is a test file'],
      decision: 'warn',
      checkpoint: 'iter-001-risk-1',
      toolUseId: 'toolu_01',
      sessionId: 'sess-1',
    });
    expect(refs(ws)).toEqual([`refs/ralph/${LOOP}/iter-001-risk-1`]);
    expect(git(ws, 'show', `refs/ralph/${LOOP}/iter-001-risk-1:test/calc.test.ts`)).toBe(TEST_FILE);
  });

  it('numbers the checkpoints of an iteration and restarts the count in the next one', async () => {
    const ws = repo();
    const state = tmpDir('ralph-hook-state-');
    const rm = hookInput('Bash', { command: 'rm -rf test' }, ws);
    await ralphHook('pre-tool-use', rm, loopEnv(ws, state));
    fs.rmSync(path.join(ws, 'test'), { recursive: true });
    await ralphHook('pre-tool-use', hookInput('Bash', { command: 'git reset --hard' }, ws), loopEnv(ws, state));
    await ralphHook('pre-tool-use', rm, loopEnv(ws, state, { RALPH_ITERATION: '2' }));

    expect(auditLines(state).map((e) => [e.iteration, e.checkpoint])).toEqual([
      [1, 'iter-001-risk-1'],
      [1, 'iter-001-risk-2'],
      [2, 'iter-002-risk-1'],
    ]);
    expect(refs(ws).sort()).toEqual(
      ['iter-001-risk-1', 'iter-001-risk-2', 'iter-002-risk-1'].map((l) => `refs/ralph/${LOOP}/${l}`),
    );
    // The first checkpoint is a real way back: rolling back to it brings the deleted tests back.
    await rollbackToCheckpoint({ workspace: ws, stateDir: state, loopId: LOOP, label: 'iter-001-risk-1' });
    expect(fs.readFileSync(path.join(ws, 'test/calc.test.ts'), 'utf8')).toBe(TEST_FILE);
  });

  it('denies a critical call under the deny policy, logs the denial and takes no checkpoint', async () => {
    const ws = repo();
    const state = tmpDir('ralph-hook-state-');
    const r = await ralphHook(
      'pre-tool-use',
      hookInput('Bash', { command: 'cd test && git rm calc.test.ts; git push --force' }, ws),
      loopEnv(ws, state, { RALPH_HOOK_POLICY: 'deny' }),
    );

    expect(r.exitCode).toBe(0);
    const out = r.json.hookSpecificOutput as Record<string, string>;
    expect(out).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining('⛔ Blocked by ralph'),
    });
    expect(out.permissionDecisionReason).toContain('a force push rewrites the remote history');
    const [entry, ...more] = auditLines(state);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      risk: 'critical',
      decision: 'deny',
      target: 'git rm calc.test.ts',
      reasons: ['git rm removes tests (calc.test.ts)', 'a force push rewrites the remote history'],
    });
    expect(entry).not.toHaveProperty('checkpoint');
    expect(refs(ws)).toEqual([]);
  });

  it('answers {} to a harmless call and logs nothing', async () => {
    const ws = repo();
    const state = tmpDir('ralph-hook-state-');
    const r = await ralphHook(
      'pre-tool-use',
      hookInput('Write', { file_path: path.join(ws, 'calc.ts'), content: 'x' }, ws),
      loopEnv(ws, state),
    );
    expect([r.exitCode, r.json, r.stderr]).toEqual([0, {}, '']);
    expect(fs.existsSync(auditFile(state, LOOP))).toBe(false);
    expect(refs(ws)).toEqual([]);
  });

  it('logs a medium-risk call without warning or checkpoint', async () => {
    const ws = repo();
    const state = tmpDir('ralph-hook-state-');
    const r = await ralphHook(
      'pre-tool-use',
      hookInput('Bash', { command: 'rm -rf node_modules' }, ws),
      loopEnv(ws, state),
    );
    expect(r.json).toEqual({});
    const [entry, ...more] = auditLines(state);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ risk: 'medium', category: 'file_deletion', decision: 'allow' });
    expect(entry).not.toHaveProperty('checkpoint');
    expect(refs(ws)).toEqual([]);
  });

  it('still answers when the checkpoint fails, and records why in the entry', async () => {
    const state = tmpDir('ralph-hook-state-');
    const gone = path.join(state, 'no-such-workspace');
    const r = await ralphHook(
      'pre-tool-use',
      hookInput('Bash', { command: 'rm -rf spec' }, gone),
      loopEnv(gone, state),
    );
    expect(r.exitCode).toBe(0);
    expect(r.json.systemMessage).toContain('You are about to run a destructive command: `rm -rf spec`');
    expect(r.stderr).toContain('ralph hook: rollback checkpoint failed:');
    const [entry] = auditLines(state);
    expect(entry.checkpoint).toBe('iter-001-risk-1');
    expect(entry.checkpointError).toEqual(expect.any(String));
  });

  it('answers {} with exit code 0 to input that is not JSON', async () => {
    const state = tmpDir('ralph-hook-state-');
    const r = await ralphHook('pre-tool-use', 'not json {', loopEnv(state, state));
    expect([r.exitCode, r.json]).toEqual([0, {}]);
    expect(r.stderr).toMatch(/^ralph hook: could not read the hook input on stdin \(.+\): allowing the call$/);
  });

  it('judges and answers without RALPH_LOOP_ID, but writes nothing', async () => {
    const ws = repo();
    const r = await ralphHook('pre-tool-use', hookInput('Bash', { command: 'rm test/calc.test.ts' }, ws), {
      RALPH_HOOK_POLICY: 'deny',
    });
    expect((r.json.hookSpecificOutput as Record<string, string>).permissionDecision).toBe('deny');
    expect(r.stderr).toContain('RALPH_LOOP_ID is not set');
    expect(fs.existsSync(path.join(ws, '.ralph'))).toBe(false);
    expect(refs(ws)).toEqual([]);
  });
});

describe('ralph hook post-tool-use', () => {
  it('reminds the agent after a risky call and logs it without a checkpoint', async () => {
    const ws = repo();
    const state = tmpDir('ralph-hook-state-');
    const r = await ralphHook(
      'post-tool-use',
      hookInput('Write', { file_path: path.join(ws, 'jest.config.js'), content: '{}' }, ws, 'PostToolUse'),
      loopEnv(ws, state, { RALPH_HOOK_POLICY: 'deny' }),
    );
    expect(r.json).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        additionalContext: expect.stringContaining('You modified test configuration jest.config.js'),
      },
    });
    expect(auditLines(state)).toEqual([
      expect.objectContaining({ event: 'post-tool-use', category: 'test_config_edit', decision: 'warn' }),
    ]);
    expect(refs(ws)).toEqual([]);
  });
});

describe('audit log', () => {
  const entry = (iteration: number, tool = 'Bash'): AuditEntry => ({
    at: new Date().toISOString(),
    loopId: LOOP,
    iteration,
    event: 'pre-tool-use',
    tool,
    risk: 'high',
    category: 'destructive_command',
    reasons: ['x'],
    decision: 'warn',
  });

  it('keeps every line of concurrent appends whole', async () => {
    const state = tmpDir('ralph-audit-');
    await Promise.all(Array.from({ length: 40 }, (_, i) => appendAudit(state, LOOP, entry(1, `T${i}`))));
    const lines = fs.readFileSync(auditFile(state, LOOP), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(40);
    expect(new Set(lines.map((l) => (JSON.parse(l) as AuditEntry).tool)).size).toBe(40);
  });

  it('reads one iteration, skipping malformed lines', async () => {
    const state = tmpDir('ralph-audit-');
    await appendAudit(state, LOOP, entry(1));
    fs.appendFileSync(auditFile(state, LOOP), '{"at": "truncat\nnot json\n{"iteration": 2}\n');
    await appendAudit(state, LOOP, entry(2));
    await appendAudit(state, LOOP, entry(2, 'Edit'));
    expect((await readAudit(state, LOOP)).map((e) => e.iteration)).toEqual([1, 2, 2]);
    expect((await readAudit(state, LOOP, 2)).map((e) => e.tool)).toEqual(['Bash', 'Edit']);
    expect(await readAudit(state, 'other-loop')).toEqual([]);
  });

  it('hands out distinct risk-checkpoint labels to concurrent hooks', async () => {
    const state = tmpDir('ralph-audit-');
    const labels = await Promise.all(Array.from({ length: 8 }, () => reserveRiskCheckpoint(state, LOOP, 7)));
    expect(labels.sort()).toEqual(Array.from({ length: 8 }, (_, i) => `iter-007-risk-${i + 1}`).sort());
  });
});

describe('claude-code adapter with hooks', () => {
  const hooks: AgentHooks = { enabled: true, policy: 'deny' };

  it('writes claude-settings.json registering both hooks, passes --settings and the RALPH_* env', async () => {
    const ws = repo();
    const inv = {
      ...agentInvocation('claude-code', ws, { args: ['--max-turns', '5'] }),
      hooks,
      stateDir: '/srv/state',
    };
    const cmd = claudeCodeAdapter.build(inv);

    const settingsFile = path.join(inv.artifactDir, 'claude-settings.json');
    expect(cmd.args.slice(-4)).toEqual(['--settings', settingsFile, '--max-turns', '5']);
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
    const command = hookShellCommand();
    expect(command).toContain(hookEntryPath());
    expect(settings).toEqual({
      hooks: {
        PreToolUse: [{ matcher: HOOK_TOOL_MATCHER, hooks: [{ type: 'command', command: `${command} pre-tool-use` }] }],
        PostToolUse: [
          { matcher: HOOK_TOOL_MATCHER, hooks: [{ type: 'command', command: `${command} post-tool-use` }] },
        ],
      },
    });
    expect(cmd.env).toEqual({
      RALPH_HOOK_COMMAND: command,
      RALPH_HOOK_POLICY: 'deny',
      RALPH_LOOP_ID: 'loop-1',
      RALPH_ITERATION: '1',
      RALPH_WORKSPACE: ws,
      RALPH_STATE_DIR: '/srv/state',
    });

    // The registered command is what Claude Code runs through its shell: it must answer like `ralph hook`.
    const r = await execa('/bin/sh', ['-c', settings.hooks.PreToolUse[0].hooks[0].command], {
      input: hookInput('Bash', { command: 'rm -rf test' }, ws),
      env: { RALPH_HOOK_POLICY: 'deny' },
    });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('quotes the hook command for the shell, whatever the paths hold', async () => {
    for (const word of ["/opt/it's here/node", '/a b/$HOME/`x`', '/usr/bin/node'])
      expect((await execa('/bin/sh', ['-c', `printf %s ${shellQuote(word)}`])).stdout).toBe(word);
  });

  it('adds no settings and no env when hooks are off', () => {
    const ws = tmpDir('ralph-hook-ws-');
    const inv = { ...agentInvocation('claude-code', ws), hooks: { enabled: false, policy: 'warn' as const } };
    const cmd = claudeCodeAdapter.build(inv);
    expect(cmd.args).not.toContain('--settings');
    expect(cmd.env).toBeUndefined();
    expect(fs.existsSync(path.join(inv.artifactDir, 'claude-settings.json'))).toBe(false);
  });
});

describe('scripted agent hook steps', () => {
  /** Runs the built scripted agent on `steps` (iteration 1) in `ws` with hooks as given. */
  async function runScripted(ws: string, steps: unknown[], hooks?: AgentHooks, stateDir?: string) {
    fs.writeFileSync(path.join(ws, 'script.json'), JSON.stringify({ iterations: [steps] }));
    // Keep the script out of the checkpoints' way: commit it like the rest of the repo.
    git(ws, 'add', 'script.json');
    git(ws, 'commit', '-qm', 'script');
    const inv = { ...agentInvocation('scripted', ws, { script: 'script.json' }), loopId: LOOP, hooks, stateDir };
    return runCommand(scriptedAdapter.build(inv), ws);
  }
  const steps = [
    { hook: 'pre-tool-use', tool: 'Bash', input: { command: 'rm -rf test' } },
    { delete: 'test' },
    { write: 'after.txt', content: 'still running' },
  ];

  it('skips the step a deny-policy hook blocked and carries on with the next', async () => {
    const ws = repo();
    const state = tmpDir('ralph-hook-state-');
    const run = await runScripted(ws, steps, { enabled: true, policy: 'deny' }, state);

    expect(run.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(ws, 'test/calc.test.ts'), 'utf8')).toBe(TEST_FILE);
    expect(fs.readFileSync(path.join(ws, 'after.txt'), 'utf8')).toBe('still running');
    const lines = run.out.stdout.split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^\[hook\] deny: ⛔ Blocked by ralph: `rm -rf test`/));
    expect(lines).toContain('[hook] skipped denied step {"delete":"test"}');
    expect(lines).not.toContain('deleted test');
    expect(auditLines(state)).toEqual([expect.objectContaining({ tool: 'Bash', decision: 'deny', iteration: 1 })]);
  });

  it('runs the step after a warning, with a checkpoint to roll it back', async () => {
    const ws = repo();
    const state = tmpDir('ralph-hook-state-');
    const run = await runScripted(ws, steps, { enabled: true, policy: 'warn' }, state);

    expect(run.out.stdout).toContain('[hook] warn: ⚠️ You are about to run a destructive command: `rm -rf test`');
    expect(run.out.stdout).toContain('deleted test');
    expect(fs.existsSync(path.join(ws, 'test'))).toBe(false);
    await rollbackToCheckpoint({ workspace: ws, stateDir: state, loopId: LOOP, label: 'iter-001-risk-1' });
    expect(fs.readFileSync(path.join(ws, 'test/calc.test.ts'), 'utf8')).toBe(TEST_FILE);
  });

  it('says no hook is installed when hooks are off, and runs every step', async () => {
    const ws = repo();
    const run = await runScripted(ws, steps);
    expect(run.out.stdout).toContain('[hook] no hook installed');
    expect(run.out.stdout).toContain('deleted test');
    expect(fs.existsSync(path.join(ws, 'test'))).toBe(false);
  });
});
