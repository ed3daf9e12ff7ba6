import fs from 'node:fs';
import path from 'node:path';
import { claudeCodeAdapter } from '../../../../src/activities/agents/claude-code';
import type { ParsedAgentOutput, RawAgentOutput } from '../../../../src/activities/agents/types';
import type { AgentSpec } from '../../../../src/config/loop-input';
import {
  FAKE_AGENTS,
  agentInvocation,
  agentOutput,
  rawOutput,
  runFakeAgent,
  useTmpDirs,
} from '../../../helpers/fake-agents';

const WS = '/home/dev/ws';
const SESSION = '3f9c1e2a-8b7d-4c6e-9f01-a2b3c4d5e6f7';

const resultLine = (o: Record<string, unknown>): string =>
  JSON.stringify({ type: 'result', subtype: 'success', is_error: false, session_id: 's-1', ...o });

const tmpDir = useTmpDirs();

const invocation = (workspace: string, spec: Partial<AgentSpec> = {}) =>
  agentInvocation('claude-code', workspace, spec);

describe('claudeCodeAdapter.build', () => {
  it('asks for print mode, stream-json with --verbose, accepted edits, the model, then agent.args', () => {
    const cmd = claudeCodeAdapter.build(invocation('/ws', { model: 'opus', args: ['--max-turns', '40'] }));
    expect(cmd).toEqual({
      file: 'claude',
      args: [
        '-p',
        '--output-format',
        'stream-json',
        '--verbose',
        '--permission-mode',
        'acceptEdits',
        '--model',
        'opus',
        '--max-turns',
        '40',
      ],
      input: '# Task\n\nCreate hello.txt.\n',
    });
  });

  it('omits --model when the spec names none and runs agent.binary when set', () => {
    const cmd = claudeCodeAdapter.build(invocation('/ws', { binary: '/opt/claude/bin/claude' }));
    expect(cmd.file).toBe('/opt/claude/bin/claude');
    expect(cmd.args).not.toContain('--model');
  });
});

describe('claudeCodeAdapter.parse', () => {
  const transcript = agentOutput('claude-stream-json.jsonl');
  const cases: { name: string; out: RawAgentOutput; expected: ParsedAgentOutput }[] = [
    {
      name: 'reads the answer, usage, cost, session and edited files from a stream-json transcript',
      out: rawOutput(transcript),
      expected: {
        finalText:
          'All four failing tests in `src/app.test.ts` pass now.\n\n## Evidence\n- src/app.ts\n- src/util.ts\n- notebooks/analysis.ipynb\n- CHANGELOG.md',
        usage: {
          inputTokens: 41,
          outputTokens: 1422,
          cacheReadTokens: 31560,
          cacheWriteTokens: 4890,
          costUsd: 0.18734,
        },
        filesTouched: [`${WS}/src/app.ts`, `${WS}/src/util.ts`, `${WS}/notebooks/analysis.ipynb`, `${WS}/CHANGELOG.md`],
        sessionId: SESSION,
        isError: false,
      },
    },
    {
      name: 'reads a usage limit and its reset time from an error result',
      out: rawOutput(agentOutput('claude-usage-limit.jsonl'), { exitCode: 1 }),
      expected: {
        finalText: "You've hit your limit · resets 3pm (America/New_York)",
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
        usageLimit: {
          message: "You've hit your limit · resets 3pm (America/New_York)",
          resetAt: Date.UTC(2026, 0, 15, 15),
        },
        sessionId: SESSION,
        isError: true,
      },
    },
    {
      name: 'falls back to the last assistant text when the run stopped at its turn limit',
      out: rawOutput(agentOutput('claude-max-turns.jsonl'), { exitCode: 1 }),
      expected: {
        finalText: 'Still refactoring the parser; two modules left.',
        usage: { inputTokens: 15, outputTokens: 120, cacheReadTokens: 900, cacheWriteTokens: 300, costUsd: 0.0412 },
        filesTouched: [`${WS}/src/parser.ts`],
        sessionId: SESSION,
        isError: true,
      },
    },
    {
      name: 'keeps the last assistant message and the edits when the transcript is cut inside the result line',
      out: rawOutput(transcript.slice(0, transcript.lastIndexOf('"total_cost_usd"')), { exitCode: null }),
      expected: {
        finalText:
          'All four failing tests in `src/app.test.ts` pass now.\n## Evidence\n- src/app.ts\n- src/util.ts\n- notebooks/analysis.ipynb\n- CHANGELOG.md',
        filesTouched: [`${WS}/src/app.ts`, `${WS}/src/util.ts`, `${WS}/notebooks/analysis.ipynb`, `${WS}/CHANGELOG.md`],
        sessionId: SESSION,
      },
    },
    {
      name: 'keeps the last text Claude wrote when the run was killed while a tool ran',
      out: rawOutput(transcript.slice(0, transcript.indexOf('{"type":"assistant","message":{"id":"msg_01H"')), {
        exitCode: null,
      }),
      expected: {
        finalText: "I'll look at the failing tests first.",
        filesTouched: [`${WS}/src/app.ts`, `${WS}/src/util.ts`, `${WS}/notebooks/analysis.ipynb`, `${WS}/CHANGELOG.md`],
        sessionId: SESSION,
      },
    },
    {
      name: 'reads a limit written with a typographic apostrophe',
      out: rawOutput(resultLine({ is_error: true, result: 'You’ve hit your weekly limit · resets 3pm' }), {
        exitCode: 1,
      }),
      expected: {
        finalText: 'You’ve hit your weekly limit · resets 3pm',
        usageLimit: { message: 'You’ve hit your weekly limit · resets 3pm', resetAt: Date.UTC(2026, 0, 15, 15) },
        sessionId: 's-1',
        isError: true,
      },
    },
    {
      name: 'understands the epoch form of the limit even in a result not flagged as an error',
      out: rawOutput(resultLine({ result: 'Claude AI usage limit reached|1768489200' })),
      expected: {
        finalText: 'Claude AI usage limit reached|1768489200',
        usageLimit: { message: 'Claude AI usage limit reached|1768489200', resetAt: 1768489200000 },
        sessionId: 's-1',
        isError: false,
      },
    },
    {
      name: 'names a limit core does not know (the session limit) and still reads its reset time',
      out: rawOutput(
        resultLine({ is_error: true, result: "You've hit your session limit · resets 7:20am (Europe/Paris)" }),
        {
          exitCode: 1,
        },
      ),
      expected: {
        finalText: "You've hit your session limit · resets 7:20am (Europe/Paris)",
        usageLimit: {
          message: "You've hit your session limit · resets 7:20am (Europe/Paris)",
          resetAt: Date.UTC(2026, 0, 16, 7, 20),
        },
        sessionId: 's-1',
        isError: true,
      },
    },
    {
      name: 'treats an API error with status 429 as a usage limit',
      out: rawOutput(
        resultLine({
          is_error: true,
          api_error_status: 429,
          result:
            'API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your account\'s rate limit."}}',
        }),
        { exitCode: 1 },
      ),
      expected: {
        finalText:
          'API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your account\'s rate limit."}}',
        usageLimit: {
          message:
            'API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your account\'s rate limit."}}',
          resetAt: undefined,
        },
        sessionId: 's-1',
        isError: true,
        apiStatus: 429,
      },
    },
    {
      name: 'does not mistake a successful answer about rate limiting for a usage limit',
      out: rawOutput(resultLine({ result: 'Clients over quota now get HTTP 429 with "rate limit exceeded".' })),
      expected: {
        finalText: 'Clients over quota now get HTTP 429 with "rate limit exceeded".',
        sessionId: 's-1',
        isError: false,
      },
    },
    {
      name: 'returns plain text output as the answer when the output is not stream-json',
      out: rawOutput('Just an answer.\nOn two lines.\n'),
      expected: { finalText: 'Just an answer.\nOn two lines.' },
    },
    {
      name: 'reads a usage limit from stderr when the CLI failed before answering',
      out: rawOutput('', { stderr: 'Claude AI usage limit reached|1768489200\n', exitCode: 1 }),
      expected: {
        finalText: '',
        usageLimit: { message: 'Claude AI usage limit reached|1768489200', resetAt: 1768489200000 },
      },
    },
  ];

  it.each(cases)('$name', ({ out, expected }) => {
    expect(claudeCodeAdapter.parse(out)).toEqual(expected);
  });

  const garbage = [
    '',
    '\n\n\n',
    'not json at all',
    '{"type":"result"',
    '{"type":"result","result":42,"usage":"lots","total_cost_usd":"1.5","errors":[1,{"a":2}]}',
    '{"type":"assistant","message":null}',
    '{"type":"assistant","message":{"content":"text instead of blocks"}}',
    '{"type":"assistant","message":{"content":[null,1,"x",{"type":"tool_use","name":"Write","input":null}]}}',
    '{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Edit","input":{"file_path":7}}]}}',
    '[1,2,3]\nnull\n"str"\n42',
    '\u0000\u0001\u0002\uFFFD{{{}}}',
    '{"type":"result","subtype":{"nested":true},"is_error":"yes","api_error_status":"429"}',
  ];
  it.each(garbage)('never throws on malformed input %j', (stdout) => {
    const parsed = claudeCodeAdapter.parse(rawOutput(stdout, { stderr: stdout, exitCode: 1 }));
    expect(typeof parsed.finalText).toBe('string');
  });

  it('never throws on any prefix of a transcript (a run killed mid-write)', () => {
    for (let cut = 0; cut <= transcript.length; cut += 13) {
      expect(typeof claudeCodeAdapter.parse(rawOutput(transcript.slice(0, cut))).finalText).toBe('string');
    }
  });
});

describe('claudeCodeAdapter with the fake claude CLI', () => {
  it('runs exactly the argv build() makes and parses the transcript the CLI printed', async () => {
    const ws = tmpDir('ralph-ws-');
    const cmd = claudeCodeAdapter.build(invocation(ws, { model: 'claude-sonnet-4-5', args: ['--max-turns', '30'] }));
    const run = await runFakeAgent(cmd, ws);
    expect(run.file).toBe(path.join(FAKE_AGENTS, 'claude'));
    expect(run.argv).toEqual([cmd.args]);
    expect(run.exitCode).toBe(0);
    expect(claudeCodeAdapter.parse(run.out)).toEqual({
      finalText: 'I created hello.txt with a greeting.\n\n## Evidence\n- hello.txt\n\n<promise>DONE</promise>',
      usage: { inputTokens: 10, outputTokens: 95, cacheReadTokens: 1200, cacheWriteTokens: 1280, costUsd: 0.0123 },
      filesTouched: [path.join(ws, 'hello.txt')],
      sessionId: '7d1f3a52-4c1e-4b8e-9a51-2f0c6e1d9b10',
      isError: false,
    });
    expect(fs.readFileSync(path.join(ws, 'hello.txt'), 'utf8')).toBe('hello from fake claude\n');
  });

  it('reports the usage limit and its reset time when the CLI refuses to work', async () => {
    const ws = tmpDir('ralph-ws-');
    const cmd = claudeCodeAdapter.build(invocation(ws));
    const run = await runFakeAgent(cmd, ws, { FAKE_AGENT_MODE: 'usage-limit' });
    expect(run.argv).toEqual([cmd.args]);
    expect(run.exitCode).toBe(1);
    const parsed = claudeCodeAdapter.parse(run.out);
    expect(parsed.isError).toBe(true);
    expect(parsed.usageLimit?.message).toMatch(/^Claude AI usage limit reached\|\d{10}$/);
    expect(parsed.usageLimit?.resetAt).toBeGreaterThan(run.out.now - 1000);
    expect((parsed.usageLimit?.resetAt ?? 1) % 3_600_000).toBe(0);
    expect(fs.existsSync(path.join(ws, 'hello.txt'))).toBe(false);
  });
});
