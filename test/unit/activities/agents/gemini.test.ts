import fs from 'node:fs';
import path from 'node:path';
import { geminiAdapter, geminiHookSettings } from '../../../../src/activities/agents/gemini';
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

const SESSION = 'c0ffee00-1234-4bcd-8ef0-5a6b7c8d9e0f';
const QUOTA = 'You have exhausted your capacity on this model. Your quota will reset after 2h13m37s.';
const QUOTA_RESET_MS = (2 * 3600 + 13 * 60 + 37) * 1000;

const tmpDir = useTmpDirs();

const invocation = (workspace: string, spec: Partial<AgentSpec> = {}) => agentInvocation('gemini', workspace, spec);

describe('geminiAdapter.build', () => {
  it('runs headless with JSON output, auto-approved tools, the model, then agent.args; the prompt on stdin', () => {
    const cmd = geminiAdapter.build(
      invocation('/ws', { model: 'gemini-2.5-pro', args: ['--include-directories', '../lib'] }),
    );
    expect(cmd).toEqual({
      file: 'gemini',
      args: [
        '-p',
        ' ',
        '--output-format',
        'json',
        '--approval-mode',
        'yolo',
        '--model',
        'gemini-2.5-pro',
        '--include-directories',
        '../lib',
      ],
      input: '# Task\n\nCreate hello.txt.\n',
    });
  });

  it("registers ralph's hooks in a root-owned system settings file of its own, with the loop's RALPH_* variables", () => {
    const cmd = geminiAdapter.build({ ...invocation('/ws'), hooks: { enabled: true, policy: 'deny' } });
    const settings = geminiHookSettings().hooks as Record<
      string,
      { matcher: string; hooks: { command: string; env: object }[] }[]
    >;
    expect(settings.BeforeTool[0]).toMatchObject({ matcher: '^(write_file|replace|run_shell_command)$' });
    expect(settings.BeforeTool[0].hooks[0].command).toMatch(/ pre-tool-use$/);
    expect(settings.AfterTool[0].hooks[0].command).toMatch(/ post-tool-use$/);
    expect(settings.BeforeTool[0].hooks[0].env).toMatchObject({ RALPH_LOOP_ID: '${RALPH_LOOP_ID}' });
    expect(geminiAdapter.build(invocation('/ws')).env).toBeUndefined();
    // Gemini reads the file only when root owns it and every folder above it: as root (our machines, CI) it is passed;
    // as another user there is no such place under the home folder, and Gemini runs without the hooks.
    if (process.getuid?.() !== 0) {
      expect(cmd.env).toBeUndefined();
      return;
    }
    const file = cmd.env?.GEMINI_CLI_SYSTEM_SETTINGS_PATH;
    expect(file).toMatch(/\/\.cache\/ralph\/gemini-hooks\/[0-9a-f]{16}\.json$/);
    expect(JSON.parse(fs.readFileSync(file!, 'utf8'))).toEqual(geminiHookSettings());
    expect(fs.statSync(file!).mode & 0o022).toBe(0);
    expect(cmd.env).toMatchObject({ RALPH_LOOP_ID: 'loop-1', RALPH_HOOK_POLICY: 'deny', RALPH_WORKSPACE: '/ws' });
  });

  it("leaves an administrator's system settings file alone: no hooks then", () => {
    const cmd = geminiAdapter.build({
      ...invocation('/ws', { env: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/etc/gemini-cli/settings.json' } }),
      hooks: { enabled: true, policy: 'deny' },
    });
    expect(cmd.env).toBeUndefined();
  });

  it('omits --model when the spec names none and runs agent.binary when set', () => {
    const cmd = geminiAdapter.build(invocation('/ws', { binary: '/opt/gemini/bin/gemini' }));
    expect(cmd.file).toBe('/opt/gemini/bin/gemini');
    expect(cmd.args).not.toContain('--model');
  });
});

describe('geminiAdapter.parse', () => {
  const output = agentOutput('gemini-output.json');
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
      out: rawOutput(output),
      expected: ok,
    },
    {
      name: 'finds the JSON object after notices printed before it',
      out: rawOutput('Loaded cached credentials.\nData collection is disabled.\n' + output),
      expected: ok,
    },
    {
      name: 'ignores a 429 the CLI retried past when the run succeeded',
      out: rawOutput(output, {
        stderr: 'Attempt 1 failed with status 429. Retrying with backoff... RESOURCE_EXHAUSTED: Quota exceeded\n',
      }),
      expected: ok,
    },
    {
      name: 'reads a usage limit and its reset time from the quota error Gemini writes to stderr',
      out: rawOutput('', { stderr: agentOutput('gemini-quota-error.stderr.txt'), exitCode: 1 }),
      expected: {
        finalText: `TerminalQuotaError: ${QUOTA}`,
        usageLimit: { message: `TerminalQuotaError: ${QUOTA}`, resetAt: NOW + QUOTA_RESET_MS },
        sessionId: SESSION,
        isError: true,
      },
    },
    {
      name: 'reads a usage limit from a text-mode quota error',
      out: rawOutput('', {
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
      out: rawOutput(
        '{\n  "error": {\n    "type": "FatalAuthenticationError",\n    "message": "Please set an Auth method",\n    "code": 41\n  }\n}\n',
        {
          exitCode: 41,
        },
      ),
      expected: { finalText: 'FatalAuthenticationError: Please set an Auth method', isError: true },
    },
    {
      name: 'keeps the response of an object cut inside its stats',
      out: rawOutput(output.slice(0, output.indexOf('"tools"')), { exitCode: null }),
      expected: { finalText: response },
    },
    {
      name: 'returns text-mode output as the answer',
      out: rawOutput('The capital of France is Paris.\n'),
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
    const parsed = geminiAdapter.parse(rawOutput(stdout, { stderr: stdout, exitCode: 1 }));
    expect(typeof parsed.finalText).toBe('string');
  });

  it('never throws on any prefix of the JSON output (a run killed mid-write)', () => {
    for (let cut = 0; cut <= output.length; cut += 5) {
      expect(typeof geminiAdapter.parse(rawOutput(output.slice(0, cut), { exitCode: null })).finalText).toBe('string');
    }
  });
});

describe('geminiAdapter with the fake gemini CLI', () => {
  it('runs exactly the argv build() makes and parses the JSON the CLI printed', async () => {
    const ws = tmpDir('ralph-ws-');
    const cmd = geminiAdapter.build(invocation(ws, { model: 'gemini-2.5-flash', args: ['--debug'] }));
    const run = await runFakeAgent(cmd, ws);
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
    const run = await runFakeAgent(cmd, ws, { FAKE_AGENT_MODE: 'usage-limit' });
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
