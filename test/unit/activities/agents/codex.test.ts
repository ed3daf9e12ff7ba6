import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import execa from 'execa';
import { codexAdapter } from '../../../../src/activities/agents/codex';
import type {
  AgentCommand,
  AgentInvocation,
  ParsedAgentOutput,
  RawAgentOutput,
} from '../../../../src/activities/agents/types';
import { resolveExecutable } from '../../../../src/activities/process';
import type { AgentSpec } from '../../../../src/config/loop-input';

const FIXTURES = path.resolve(__dirname, '../../../fixtures/agent-output');
const FAKE_AGENTS = path.resolve(__dirname, '../../../fixtures/fake-agents');
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const WS = '/home/dev/ws';
const THREAD = '0199a213-81c0-7800-8aa1-bbab2a035a53';
const LIMIT =
  "You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/codex/settings/usage to purchase more credits or try again in 2 hours 5 minutes.";

const fixture = (name: string): string => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const raw = (stdout: string, o: Partial<RawAgentOutput> = {}): RawAgentOutput => ({
  stdout,
  stderr: '',
  exitCode: 0,
  now: NOW,
  ...o,
});
const jsonl = (...events: unknown[]): string => events.map((e) => JSON.stringify(e) + '\n').join('');

const tmpDirs: string[] = [];
const tmpDir = (prefix: string): string => {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  tmpDirs.push(d);
  return d;
};
afterAll(() => tmpDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const invocation = (workspace: string, spec: Partial<AgentSpec> = {}): AgentInvocation => ({
  prompt: '# Task\n\nCreate hello.txt.\n',
  promptFile: path.join(workspace, '.ralph', 'prompt.md'),
  workspace,
  spec: { adapter: 'codex', args: [], env: {}, ...spec },
  loopId: 'loop-1',
  iteration: 1,
  artifactDir: path.join(workspace, '.ralph'),
});

/** Runs a built command against the fake CLIs (first on PATH), the way runAgent does, and returns what it logged. */
async function runFake(cmd: AgentCommand, workspace: string, extraEnv: Record<string, string> = {}) {
  const log = path.join(tmpDir('ralph-argv-'), 'argv.jsonl');
  const env = {
    ...process.env,
    ...cmd.env,
    ...extraEnv,
    PATH: `${FAKE_AGENTS}${path.delimiter}${process.env.PATH ?? ''}`,
    FAKE_AGENT_ARGV_LOG: log,
  };
  const file = resolveExecutable(cmd.file, workspace, env.PATH);
  if (!file) throw new Error(`${cmd.file} not found on PATH`);
  const r = await execa(file, cmd.args, {
    cwd: workspace,
    env,
    reject: false,
    ...(cmd.input !== undefined ? { input: cmd.input } : { stdin: 'ignore' as const }),
  });
  const argv = fs
    .readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as string[]);
  const out: RawAgentOutput = { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode ?? null, now: Date.now() };
  return { file, argv, exitCode: r.exitCode, out };
}

describe('codexAdapter.build', () => {
  it('runs exec with JSON events, a workspace-write sandbox, no git check, the model, agent.args, then the prompt', () => {
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
        '# Task\n\nCreate hello.txt.\n',
      ],
    });
  });

  it('omits --model when the spec names none and runs agent.binary when set', () => {
    const cmd = codexAdapter.build(invocation('/ws', { binary: '/usr/local/bin/codex' }));
    expect(cmd.file).toBe('/usr/local/bin/codex');
    expect(cmd.args).not.toContain('--model');
  });
});

describe('codexAdapter.parse', () => {
  const transcript = fixture('codex-exec.jsonl');
  const answer =
    'Fixed the off-by-one in `src/range.ts` and added a regression test.\n\n## Evidence\n- src/range.ts\n- src/range.test.ts';
  const cases: { name: string; out: RawAgentOutput; expected: ParsedAgentOutput }[] = [
    {
      name: 'reads the last agent message, the usage and the applied file changes from a JSONL transcript',
      out: raw(transcript),
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
      out: raw(fixture('codex-usage-limit.jsonl'), { exitCode: 1 }),
      expected: {
        finalText: LIMIT,
        usageLimit: { message: LIMIT, resetAt: NOW + 2 * 3_600_000 },
        sessionId: THREAD,
        isError: true,
      },
    },
    {
      name: 'ignores a rate-limit error Codex recovered from when the run was cut before the turn completed',
      out: raw(transcript.slice(0, transcript.lastIndexOf('{"type":"turn.completed"') + 30), { exitCode: null }),
      expected: {
        finalText: answer,
        filesTouched: [`${WS}/src/range.ts`, `${WS}/src/range.test.ts`],
        sessionId: THREAD,
      },
    },
    {
      name: 'reads a usage limit from stderr when Codex failed before printing events',
      out: raw('', {
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
      out: raw(
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
      out: raw('Created hello.txt.\n'),
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
    const parsed = codexAdapter.parse(raw(stdout, { stderr: stdout, exitCode: 1 }));
    expect(typeof parsed.finalText).toBe('string');
  });

  it('never throws on any prefix of a transcript (a run killed mid-write)', () => {
    for (let cut = 0; cut <= transcript.length; cut += 7) {
      expect(typeof codexAdapter.parse(raw(transcript.slice(0, cut), { exitCode: null })).finalText).toBe('string');
    }
  });
});

describe('codexAdapter with the fake codex CLI', () => {
  it('runs exactly the argv build() makes and parses the events the CLI printed', async () => {
    const ws = tmpDir('ralph-ws-');
    const cmd = codexAdapter.build(invocation(ws, { model: 'gpt-5-codex', args: ['--ephemeral'] }));
    const run = await runFake(cmd, ws);
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
    const run = await runFake(cmd, ws, { FAKE_AGENT_MODE: 'usage-limit' });
    expect(run.argv).toEqual([cmd.args]);
    expect(run.exitCode).toBe(1);
    const parsed = codexAdapter.parse(run.out);
    expect(parsed).toMatchObject({ finalText: LIMIT, isError: true, usageLimit: { message: LIMIT } });
    expect(parsed.usageLimit?.resetAt).toBe(run.out.now + 2 * 3_600_000);
    expect(fs.existsSync(path.join(ws, 'hello.txt'))).toBe(false);
  });
});
