import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import execa from 'execa';
import { geminiAdapter } from '../../../../src/activities/agents/gemini';
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
const SESSION = 'c0ffee00-1234-4bcd-8ef0-5a6b7c8d9e0f';
const QUOTA = 'You have exhausted your capacity on this model. Your quota will reset after 2h13m37s.';
const QUOTA_RESET_MS = (2 * 3600 + 13 * 60 + 37) * 1000;

const fixture = (name: string): string => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const raw = (stdout: string, o: Partial<RawAgentOutput> = {}): RawAgentOutput => ({
  stdout,
  stderr: '',
  exitCode: 0,
  now: NOW,
  ...o,
});

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
  spec: { adapter: 'gemini', args: [], env: {}, ...spec },
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

describe('geminiAdapter.build', () => {
  it('runs headless with JSON output, auto-approved tools, the model, then agent.args', () => {
    const cmd = geminiAdapter.build(
      invocation('/ws', { model: 'gemini-2.5-pro', args: ['--include-directories', '../lib'] }),
    );
    expect(cmd).toEqual({
      file: 'gemini',
      args: [
        '-p',
        '# Task\n\nCreate hello.txt.\n',
        '--output-format',
        'json',
        '--approval-mode',
        'yolo',
        '--model',
        'gemini-2.5-pro',
        '--include-directories',
        '../lib',
      ],
    });
  });

  it('omits --model when the spec names none and runs agent.binary when set', () => {
    const cmd = geminiAdapter.build(invocation('/ws', { binary: '/opt/gemini/bin/gemini' }));
    expect(cmd.file).toBe('/opt/gemini/bin/gemini');
    expect(cmd.args).not.toContain('--model');
  });
});

describe('geminiAdapter.parse', () => {
  const output = fixture('gemini-output.json');
  const response =
    'I updated `src/math.ts` so `divide` throws on zero, and the tests pass.\n\n## Evidence\n- src/math.ts\n\n<promise>DONE</promise>';
  const ok: ParsedAgentOutput = {
    finalText: response,
    usage: { inputTokens: 3610, outputTokens: 514, cacheReadTokens: 22529 },
    sessionId: SESSION,
    isError: false,
  };
  const cases: { name: string; out: RawAgentOutput; expected: ParsedAgentOutput }[] = [
    {
      name: 'reads the response, the session and the usage summed over models from the JSON output',
      out: raw(output),
      expected: ok,
    },
    {
      name: 'finds the JSON object after notices printed before it',
      out: raw('Loaded cached credentials.\nData collection is disabled.\n' + output),
      expected: ok,
    },
    {
      name: 'ignores a 429 the CLI retried past when the run succeeded',
      out: raw(output, {
        stderr: 'Attempt 1 failed with status 429. Retrying with backoff... RESOURCE_EXHAUSTED: Quota exceeded\n',
      }),
      expected: ok,
    },
    {
      name: 'reads a usage limit and its reset time from the quota error Gemini writes to stderr',
      out: raw('', { stderr: fixture('gemini-quota-error.stderr.txt'), exitCode: 1 }),
      expected: {
        finalText: `TerminalQuotaError: ${QUOTA}`,
        usageLimit: { message: `TerminalQuotaError: ${QUOTA}`, resetAt: NOW + QUOTA_RESET_MS },
        sessionId: SESSION,
        isError: true,
      },
    },
    {
      name: 'reads a usage limit from a text-mode quota error',
      out: raw('', {
        stderr:
          'Error when talking to Gemini API\nTerminalQuotaError: You have exhausted your daily quota on this model.\n',
        exitCode: 1,
      }),
      expected: {
        finalText: '',
        usageLimit: {
          message: 'TerminalQuotaError: You have exhausted your daily quota on this model.',
          resetAt: undefined,
        },
      },
    },
    {
      name: 'reports an error object that is not a quota error as an error without a usage limit',
      out: raw(
        '{\n  "error": {\n    "type": "FatalAuthenticationError",\n    "message": "Please set an Auth method",\n    "code": 41\n  }\n}\n',
        {
          exitCode: 41,
        },
      ),
      expected: { finalText: 'FatalAuthenticationError: Please set an Auth method', isError: true },
    },
    {
      name: 'keeps the response of an object cut inside its stats',
      out: raw(output.slice(0, output.indexOf('"tools"')), { exitCode: null }),
      expected: { finalText: response },
    },
    {
      name: 'returns text-mode output as the answer',
      out: raw('The capital of France is Paris.\n'),
      expected: { finalText: 'The capital of France is Paris.' },
    },
  ];

  it.each(cases)('$name', ({ out, expected }) => {
    expect(geminiAdapter.parse(out)).toEqual(expected);
  });

  const garbage = [
    '',
    'not json',
    '{',
    '{\n  "response": "unterminated',
    '{"response": 42, "stats": "none", "error": "str"}',
    '{"stats":{"models":{"m":null,"n":{"tokens":"x"},"o":{"tokens":{"prompt":"1","cached":null}}}}}',
    '{"stats":{"models":[1,2]}}',
    '[{"response":"in an array"}]',
    '{"a":"\\"}{"}\n}\n{"b":1',
    '\u0000\uFFFD}{',
    '{\n'.repeat(500),
  ];
  it.each(garbage)('never throws on malformed input %j', (stdout) => {
    const parsed = geminiAdapter.parse(raw(stdout, { stderr: stdout, exitCode: 1 }));
    expect(typeof parsed.finalText).toBe('string');
  });

  it('never throws on any prefix of the JSON output (a run killed mid-write)', () => {
    for (let cut = 0; cut <= output.length; cut += 5) {
      expect(typeof geminiAdapter.parse(raw(output.slice(0, cut), { exitCode: null })).finalText).toBe('string');
    }
  });
});

describe('geminiAdapter with the fake gemini CLI', () => {
  it('runs exactly the argv build() makes and parses the JSON the CLI printed', async () => {
    const ws = tmpDir('ralph-ws-');
    const cmd = geminiAdapter.build(invocation(ws, { model: 'gemini-2.5-flash', args: ['--debug'] }));
    const run = await runFake(cmd, ws);
    expect(run.file).toBe(path.join(FAKE_AGENTS, 'gemini'));
    expect(run.argv).toEqual([cmd.args]);
    expect(run.exitCode).toBe(0);
    expect(geminiAdapter.parse(run.out)).toEqual({
      finalText: 'I have created `hello.txt` with a greeting.\n\n## Evidence\n- hello.txt\n\n<promise>DONE</promise>',
      usage: { inputTokens: 1520, outputTokens: 371, cacheReadTokens: 8210 },
      sessionId: SESSION,
      isError: false,
    });
    expect(fs.readFileSync(path.join(ws, 'hello.txt'), 'utf8')).toBe('hello from fake gemini\n');
  });

  it('reports the usage limit and its reset time when the CLI refuses to work', async () => {
    const ws = tmpDir('ralph-ws-');
    const cmd = geminiAdapter.build(invocation(ws));
    const run = await runFake(cmd, ws, { FAKE_AGENT_MODE: 'usage-limit' });
    expect(run.argv).toEqual([cmd.args]);
    expect(run.exitCode).toBe(1);
    expect(geminiAdapter.parse(run.out)).toEqual({
      finalText: `TerminalQuotaError: ${QUOTA}`,
      usageLimit: { message: `TerminalQuotaError: ${QUOTA}`, resetAt: run.out.now + QUOTA_RESET_MS },
      sessionId: SESSION,
      isError: true,
    });
    expect(fs.existsSync(path.join(ws, 'hello.txt'))).toBe(false);
  });
});
