import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { codexAdapter, codexHookArgs, codexSandboxEnv } from '../../../../src/activities/agents/codex';
import type { ParsedAgentOutput, RawAgentOutput } from '../../../../src/activities/agents/types';
import type { AgentSpec } from '../../../../src/config/loop-input';
import {
  FAKE_AGENTS,
  NOW,
  agentInvocation,
  agentOutput,
  rawOutput,
  runFakeAgent,
  useTmpDirs,
} from '../../../helpers/fake-agents';

const WS = '/home/dev/ws';
const THREAD = '0199a213-81c0-7800-8aa1-bbab2a035a53';
const LIMIT =
  "You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/codex/settings/usage to purchase more credits or try again in 2 hours 5 minutes.";

const jsonl = (...events: unknown[]): string => events.map((e) => JSON.stringify(e) + '\n').join('');

const tmpDir = useTmpDirs();

const invocation = (workspace: string, spec: Partial<AgentSpec> = {}) => agentInvocation('codex', workspace, spec);

describe('codexAdapter.build', () => {
  it('runs exec with JSON events, a workspace-write sandbox, no git check, the model, agent.args, then `-` (the prompt on stdin)', () => {
    const cmd = codexAdapter.build(
      invocation('/ws', { model: 'gpt-5-codex', args: ['-c', 'model_reasoning_effort=high'] }),
    );
    expect(cmd).toEqual({
      file: 'codex',
      args: [
        'exec',
        '--json',
        '--sandbox',
        'workspace-write',
        '--skip-git-repo-check',
        '--model',
        'gpt-5-codex',
        '-c',
        'model_reasoning_effort=high',
        '-',
      ],
      input: '# Task\n\nCreate hello.txt.\n',
    });
  });

  it("registers ralph's hooks with -c overrides, trusted for the run, and passes the loop's RALPH_* variables", () => {
    const cmd = codexAdapter.build({ ...invocation('/ws'), hooks: { enabled: true, policy: 'deny' } });
    const i = cmd.args.indexOf('--dangerously-bypass-hook-trust');
    expect(i).toBeGreaterThan(0);
    expect(cmd.args.slice(i + 1, i + 5)).toEqual([
      '-c',
      expect.stringMatching(
        /^hooks\.PreToolUse=\[\{matcher="Bash\|apply_patch",hooks=\[\{type="command",command=".* pre-tool-use",timeout=60\}\]\}\]$/,
      ),
      '-c',
      expect.stringMatching(/^hooks\.PostToolUse=\[.*command=".* post-tool-use".*\]$/),
    ]);
    expect(cmd.args[cmd.args.length - 1]).toBe('-');
    expect(cmd.env).toMatchObject({ RALPH_LOOP_ID: 'loop-1', RALPH_HOOK_POLICY: 'deny', RALPH_WORKSPACE: '/ws' });
    expect(codexAdapter.build(invocation('/ws')).args).not.toContain('--dangerously-bypass-hook-trust');
  });

  it('writes the hook command as a TOML string: quotes and backslashes escaped', () => {
    expect(codexHookArgs(`'/opt/my "node"' C:\\hook.js`)[2]).toContain(
      `command="'/opt/my \\"node\\"' C:\\\\hook.js pre-tool-use"`,
    );
  });

  it('omits --model when the spec names none and runs agent.binary when set', () => {
    const cmd = codexAdapter.build(invocation('/ws', { binary: '/usr/local/bin/codex' }));
    expect(cmd.file).toBe('/usr/local/bin/codex');
    expect(cmd.args).not.toContain('--model');
  });
});

describe('codexAdapter.parse', () => {
  const transcript = agentOutput('codex-exec.jsonl');
  const answer =
    'Fixed the off-by-one in `src/range.ts` and added a regression test.\n\n## Evidence\n- src/range.ts\n- src/range.test.ts';
  const cases: { name: string; out: RawAgentOutput; expected: ParsedAgentOutput }[] = [
    {
      name: 'reads the last agent message, the usage and the applied file changes from a JSONL transcript',
      out: rawOutput(transcript),
      expected: {
        finalText: answer,
        usage: { inputTokens: 315, outputTokens: 1122, cacheReadTokens: 24448 },
        filesTouched: [`${WS}/src/range.ts`, `${WS}/src/range.test.ts`],
        sessionId: THREAD,
        isError: false,
      },
    },
    {
      name: 'reads a usage limit and its reset time from a failed turn',
      out: rawOutput(agentOutput('codex-usage-limit.jsonl'), { exitCode: 1 }),
      expected: {
        finalText: LIMIT,
        usageLimit: { message: LIMIT, resetAt: NOW + 2 * 3_600_000 },
        sessionId: THREAD,
        isError: true,
      },
    },
    {
      name: 'ignores a rate-limit error Codex recovered from when the run was cut before the turn completed',
      out: rawOutput(transcript.slice(0, transcript.lastIndexOf('{"type":"turn.completed"') + 30), { exitCode: null }),
      expected: {
        finalText: answer,
        filesTouched: [`${WS}/src/range.ts`, `${WS}/src/range.test.ts`],
        sessionId: THREAD,
      },
    },
    {
      name: 'reads a usage limit from stderr when Codex failed before printing events',
      out: rawOutput('', {
        stderr: "ERROR: You've hit your usage limit. To get more access now, send a request to your admin.\n",
        exitCode: 1,
      }),
      expected: {
        finalText: '',
        usageLimit: {
          message: "ERROR: You've hit your usage limit. To get more access now, send a request to your admin.",
        },
      },
    },
    {
      name: 'reports a failed turn that is not a usage limit as an error with its message as the answer',
      out: rawOutput(
        jsonl(
          { type: 'thread.started', thread_id: 't-1' },
          { type: 'turn.started' },
          { type: 'turn.failed', error: { message: 'stream disconnected before completion: unexpected EOF' } },
        ),
        { exitCode: 1 },
      ),
      expected: {
        finalText: 'stream disconnected before completion: unexpected EOF',
        sessionId: 't-1',
        isError: true,
      },
    },
    {
      name: 'returns plain output as the answer when Codex ran without --json',
      out: rawOutput('Created hello.txt.\n'),
      expected: { finalText: 'Created hello.txt.' },
    },
  ];

  it.each(cases)('$name', ({ out, expected }) => {
    expect(codexAdapter.parse(out)).toEqual(expected);
  });

  const garbage = [
    '',
    'not json',
    '{"type":"item.completed"',
    '{"type":"item.completed","item":null}',
    '{"type":"item.completed","item":{"type":"agent_message","text":7}}',
    '{"type":"item.completed","item":{"type":"file_change","changes":[null,{"path":3},"x"]}}',
    '{"type":"item.completed","item":{"type":"file_change","changes":"all"}}',
    '{"type":"turn.completed","usage":{"input_tokens":"many","cached_input_tokens":null}}',
    '{"type":"turn.failed","error":"boom"}\n{"type":"error","message":{"nested":1}}',
    '{"type":"thread.started","thread_id":42}',
    '[{"type":"turn.completed"}]\n"str"\nnull',
    '\u0000\uFFFD{{}}',
  ];
  it.each(garbage)('never throws on malformed input %j', (stdout) => {
    const parsed = codexAdapter.parse(rawOutput(stdout, { stderr: stdout, exitCode: 1 }));
    expect(typeof parsed.finalText).toBe('string');
  });

  it('never throws on any prefix of a transcript (a run killed mid-write)', () => {
    for (let cut = 0; cut <= transcript.length; cut += 7) {
      expect(typeof codexAdapter.parse(rawOutput(transcript.slice(0, cut), { exitCode: null })).finalText).toBe(
        'string',
      );
    }
  });
});

describe('codexAdapter with the fake codex CLI', () => {
  it('runs exactly the argv build() makes and parses the events the CLI printed', async () => {
    const ws = tmpDir('ralph-ws-');
    const cmd = codexAdapter.build(invocation(ws, { model: 'gpt-5-codex', args: ['--ephemeral'] }));
    const run = await runFakeAgent(cmd, ws);
    expect(run.file).toBe(path.join(FAKE_AGENTS, 'codex'));
    expect(run.argv).toEqual([cmd.args]);
    expect(run.exitCode).toBe(0);
    expect(codexAdapter.parse(run.out)).toEqual({
      finalText: 'Created `hello.txt` with a greeting.\n\n## Evidence\n- hello.txt\n\n<promise>DONE</promise>',
      usage: { inputTokens: 315, outputTokens: 122, cacheReadTokens: 24448 },
      filesTouched: [path.join(ws, 'hello.txt')],
      sessionId: THREAD,
      isError: false,
    });
    expect(fs.readFileSync(path.join(ws, 'hello.txt'), 'utf8')).toBe('hello from fake codex\n');
  });

  it('reports the usage limit and its reset time when the CLI refuses to work', async () => {
    const ws = tmpDir('ralph-ws-');
    const cmd = codexAdapter.build(invocation(ws));
    const run = await runFakeAgent(cmd, ws, { FAKE_AGENT_MODE: 'usage-limit' });
    expect(run.argv).toEqual([cmd.args]);
    expect(run.exitCode).toBe(1);
    const parsed = codexAdapter.parse(run.out);
    expect(parsed).toMatchObject({ finalText: LIMIT, isError: true, usageLimit: { message: LIMIT } });
    expect(parsed.usageLimit?.resetAt).toBe(run.out.now + 2 * 3_600_000);
    expect(fs.existsSync(path.join(ws, 'hello.txt'))).toBe(false);
  });
});

describe("codex's own sandbox uses the bubblewrap it ships with", () => {
  it('puts a folder holding a copy of the bundled bwrap first on the agent PATH, outside the workspace', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-codex-pkg-'));
    const bin = path.join(root, 'vendor', 'x86_64-unknown-linux-musl', 'bin');
    const res = path.join(root, 'vendor', 'x86_64-unknown-linux-musl', 'codex-resources');
    fs.mkdirSync(bin, { recursive: true });
    fs.mkdirSync(res, { recursive: true });
    fs.writeFileSync(path.join(bin, 'codex'), '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(res, 'bwrap'), '#!/bin/sh\n', { mode: 0o755 });
    const { env } = codexSandboxEnv(path.join(bin, 'codex'), root, '/usr/bin:/bin');
    const [first, ...rest] = env!.PATH.split(path.delimiter);
    expect(rest).toEqual(['/usr/bin', '/bin']);
    expect(first.startsWith(path.join(os.homedir(), '.cache', 'ralph', 'codex-bwrap'))).toBe(true);
    expect(fs.readFileSync(path.join(first, 'bwrap'), 'utf8')).toBe(fs.readFileSync(path.join(res, 'bwrap'), 'utf8'));
    expect(fs.statSync(path.join(first, 'bwrap')).mode & 0o111).toBeTruthy();
  });

  it('changes nothing when the installation ships no bwrap or codex is not found', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-codex-pkg-'));
    fs.writeFileSync(path.join(root, 'codex'), '#!/bin/sh\n', { mode: 0o755 });
    expect(codexSandboxEnv(path.join(root, 'codex'), root, '/usr/bin')).toEqual({});
    expect(codexSandboxEnv('no-such-codex-binary', root, '/nonexistent')).toEqual({});
  });
});
