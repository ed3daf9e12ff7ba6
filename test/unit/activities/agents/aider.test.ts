import fs from 'node:fs';
import path from 'node:path';
import { aiderAdapter } from '../../../../src/activities/agents/aider';
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

const RATE_LIMITED = 'The API provider has rate limited you. Try again later or check your quotas.';

const tmpDir = useTmpDirs();

/** The invocation of one aider run, its prompt file written as runAgent writes it (when the workspace exists). */
const invocation = (workspace: string, spec: Partial<AgentSpec> = {}) => {
  const inv = agentInvocation('aider', workspace, spec, '# Task\n\nCreate hello.py.\n');
  if (fs.existsSync(workspace)) {
    fs.mkdirSync(path.dirname(inv.promptFile), { recursive: true });
    fs.writeFileSync(inv.promptFile, inv.prompt);
  }
  return inv;
};

describe('aiderAdapter.build', () => {
  it('sends the prompt file as one message, answers yes, prints plain unstreamed text, the model, then agent.args', () => {
    const cmd = aiderAdapter.build(invocation('/ws', { model: 'sonnet', args: ['--no-auto-commits'] }));
    expect(cmd).toEqual({
      file: 'aider',
      args: [
        '--message-file',
        '/ws/.ralph/prompt.md',
        '--yes-always',
        '--no-pretty',
        '--no-stream',
        '--model',
        'sonnet',
        '--no-auto-commits',
      ],
    });
  });

  it('omits --model when the spec names none and runs agent.binary when set', () => {
    const cmd = aiderAdapter.build(invocation('/ws', { binary: '/home/dev/.local/bin/aider' }));
    expect(cmd.file).toBe('/home/dev/.local/bin/aider');
    expect(cmd.args).not.toContain('--model');
  });
});

describe('aiderAdapter.parse', () => {
  const transcript = agentOutput('aider-transcript.txt');

  it('keeps the reply and its edits as the answer, without the banner and the usage lines', () => {
    const { finalText } = aiderAdapter.parse(rawOutput(transcript));
    expect(finalText.startsWith("src/slug.py\nAdd file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y\n")).toBe(
      true,
    );
    expect(finalText).toContain('>>>>>>> REPLACE');
    expect(finalText).toContain('Applied edit to tests/test_slug.py');
    expect(finalText.endsWith('## Evidence\n- src/slug.py\n- tests/test_slug.py')).toBe(true);
    expect(finalText).not.toMatch(/^(Aider v|Main model:|Weak model:|Git repo:|Repo-map:|Tokens:|Cost:)/m);
  });

  const cases: { name: string; out: RawAgentOutput; expected: Omit<ParsedAgentOutput, 'finalText'> }[] = [
    {
      name: 'sums the token reports, keeps the session cost and lists applied edits',
      out: rawOutput(transcript),
      expected: {
        usage: { inputTokens: 16500, outputTokens: 1310, cacheWriteTokens: 2300, cacheReadTokens: 1200, costUsd: 0.03 },
        filesTouched: ['src/slug.py', 'tests/test_slug.py'],
      },
    },
    {
      name: 'reports a rate limit aider gave up on as a usage limit',
      out: rawOutput(agentOutput('aider-rate-limit.txt')),
      expected: { usageLimit: { message: RATE_LIMITED } },
    },
    {
      name: 'ignores a rate limit aider retried past',
      out: rawOutput(agentOutput('aider-rate-limit-recovered.txt')),
      expected: { usage: { inputTokens: 3000, outputTokens: 95, costUsd: 0.01 }, filesTouched: ['README.md'] },
    },
    {
      name: 'reads a quota the provider says is used up',
      out: rawOutput(
        'litellm.RateLimitError: RateLimitError: OpenAIException - You exceeded your current quota, please check your plan and billing details.\n' +
          `${RATE_LIMITED}\n`,
      ),
      expected: { usageLimit: { message: RATE_LIMITED } },
    },
    {
      name: 'reads exact counts with thousands separators (older aider) and tiny costs',
      out: rawOutput('Done.\nTokens: 1,234 sent, 56 received. Cost: $0.0012 message, $0.0012 session.\n'),
      expected: { usage: { inputTokens: 1234, outputTokens: 56, costUsd: 0.0012 } },
    },
    {
      name: 'reads tokens without a cost when the model has no prices',
      out: rawOutput('Done.\nTokens: 2.1k sent, 310 received.\n'),
      expected: { usage: { inputTokens: 2100, outputTokens: 310 } },
    },
    {
      name: 'does not mistake a reply about rate limiting for a usage limit',
      out: rawOutput(
        'Requests over quota now fail with "rate limit exceeded".\nTokens: 900 sent, 40 received.\nApplied edit to api.py\n',
      ),
      expected: { usage: { inputTokens: 900, outputTokens: 40 }, filesTouched: ['api.py'] },
    },
  ];

  it.each(cases)('$name', ({ out, expected }) => {
    // The answer is checked on its own above: here only what was read out of it.
    expect({ ...aiderAdapter.parse(out), finalText: undefined }).toEqual(expected);
  });

  const garbage = [
    '',
    'Tokens: ',
    'Tokens: k sent, .k received.',
    'Tokens: 1.2.3k sent, NaN received. Cost: $. message, $.. session.',
    'Applied edit to ',
    'Cost: $1e400 message, $1e400 session.',
    'litellm.RateLimitError',
    '\u0000\uFFFD\r\n\r\n',
  ];
  it.each(garbage)('never throws on malformed input %j', (stdout) => {
    const parsed = aiderAdapter.parse(rawOutput(stdout, { stderr: stdout, exitCode: 1 }));
    expect(typeof parsed.finalText).toBe('string');
    if (parsed.usage?.costUsd !== undefined) expect(Number.isFinite(parsed.usage.costUsd)).toBe(true);
  });

  it('never throws on any prefix of a transcript (a run killed mid-write)', () => {
    for (let cut = 0; cut <= transcript.length; cut += 3) {
      expect(typeof aiderAdapter.parse(rawOutput(transcript.slice(0, cut), { exitCode: null })).finalText).toBe(
        'string',
      );
    }
  });
});

describe('aiderAdapter with the fake aider CLI', () => {
  it('runs exactly the argv build() makes and parses the transcript the CLI printed', async () => {
    const ws = tmpDir('ralph-ws-');
    const cmd = aiderAdapter.build(
      invocation(ws, { model: 'anthropic/claude-sonnet-4-20250514', args: ['--no-auto-commits'] }),
    );
    const run = await runFakeAgent(cmd, ws);
    expect(run.file).toBe(path.join(FAKE_AGENTS, 'aider'));
    expect(run.argv).toEqual([cmd.args]);
    expect(run.exitCode).toBe(0);
    const parsed = aiderAdapter.parse(run.out);
    expect(parsed).toMatchObject({
      usage: { inputTokens: 2100, outputTokens: 310, costUsd: 0.01 },
      filesTouched: ['hello.py'],
    });
    expect(parsed.usageLimit).toBeUndefined();
    expect(parsed.finalText).toContain('<promise>DONE</promise>');
    expect(parsed.finalText).not.toContain('Commit 1a2b3c4');
    expect(fs.readFileSync(path.join(ws, 'hello.py'), 'utf8')).toBe('print("hello from fake aider")\n');
  });

  it('reports the rate limit aider gave up on, though aider itself exits 0', async () => {
    const ws = tmpDir('ralph-ws-');
    const cmd = aiderAdapter.build(invocation(ws));
    const run = await runFakeAgent(cmd, ws, { FAKE_AGENT_MODE: 'usage-limit' });
    expect(run.argv).toEqual([cmd.args]);
    expect(run.exitCode).toBe(0);
    expect(aiderAdapter.parse(run.out)).toMatchObject({ usageLimit: { message: RATE_LIMITED } });
    expect(fs.existsSync(path.join(ws, 'hello.py'))).toBe(false);
  });
});
