import fs from 'node:fs';
import path from 'node:path';
import { MissingAgentCommandError, commandAdapter } from '../../../../src/activities/agents/command';
import type {
  AgentCommand,
  AgentInvocation,
  ParsedAgentOutput,
  RawAgentOutput,
} from '../../../../src/activities/agents/types';
import type { AgentSpec } from '../../../../src/config/loop-input';
import { NOW, rawOutput, runCommand, useTmpDirs } from '../../../helpers/fake-agents';

const tmpDir = useTmpDirs();

const invocation = (spec: Partial<AgentSpec>, o: Partial<AgentInvocation> = {}): AgentInvocation => ({
  prompt: 'Fix the bug.',
  promptFile: '/ws/.ralph/loops/l1/iterations/3/prompt.md',
  workspace: '/ws',
  spec: { adapter: 'command', args: [], env: {}, ...spec },
  loopId: 'l1',
  iteration: 3,
  artifactDir: '/ws/.ralph/loops/l1/iterations/3',
  ...o,
});

describe('commandAdapter.build', () => {
  const cases: { name: string; inv: AgentInvocation; expected: AgentCommand }[] = [
    {
      name: 'fills every placeholder and runs the first element',
      inv: invocation({
        command: ['my-agent', '--prompt-file', '{promptFile}', '--cwd={workspace}', 'iteration-{iteration}'],
      }),
      expected: {
        file: 'my-agent',
        args: ['--prompt-file', '/ws/.ralph/loops/l1/iterations/3/prompt.md', '--cwd=/ws', 'iteration-3'],
      },
    },
    {
      name: 'passes the prompt as one argument, however it is written',
      inv: invocation({ command: ['agent', '-m', '{prompt}'] }, { prompt: 'line one\nline "two" $HOME `x`' }),
      expected: { file: 'agent', args: ['-m', 'line one\nline "two" $HOME `x`'] },
    },
    {
      name: 'never expands placeholders that a filled-in value brings along',
      inv: invocation({ command: ['agent', '{prompt}'] }, { prompt: 'write to {workspace}/{promptFile}' }),
      expected: { file: 'agent', args: ['write to {workspace}/{promptFile}'] },
    },
    {
      name: 'fills several placeholders in one element and leaves unknown ones alone',
      inv: invocation({ command: ['{workspace}/bin/agent', '--log={workspace}/{iteration}.log', '--model={model}'] }),
      expected: { file: '/ws/bin/agent', args: ['--log=/ws/3.log', '--model={model}'] },
    },
    {
      name: 'runs agent.binary instead of the first element and appends agent.args verbatim',
      inv: invocation({ command: ['ignored', '{iteration}'], binary: '/usr/bin/env', args: ['--literal={prompt}'] }),
      expected: { file: '/usr/bin/env', args: ['3', '--literal={prompt}'] },
    },
  ];

  it.each(cases)('$name', ({ inv, expected }) => {
    expect(commandAdapter.build(inv)).toEqual(expected);
  });

  it('throws MissingAgentCommandError when the spec has no command', () => {
    expect(() => commandAdapter.build(invocation({}))).toThrow(MissingAgentCommandError);
    expect(() => commandAdapter.build(invocation({ command: [] }))).toThrow(/needs `agent.command`/);
  });
});

describe('commandAdapter.parse', () => {
  const cases: { name: string; out: RawAgentOutput; expected: ParsedAgentOutput }[] = [
    {
      name: 'returns stdout as printed as the answer',
      out: rawOutput('Done.\n<promise>COMPLETE</promise>\n'),
      expected: { finalText: 'Done.\n<promise>COMPLETE</promise>\n' },
    },
    {
      name: 'reads a usage limit and its reset time from stderr',
      out: rawOutput('', { stderr: 'error: rate limit exceeded, try again in 15 minutes\n', exitCode: 2 }),
      expected: {
        finalText: '',
        usageLimit: { message: 'error: rate limit exceeded, try again in 15 minutes', resetAt: NOW + 15 * 60_000 },
      },
    },
    {
      name: 'reads a usage limit with an epoch reset from stdout',
      out: rawOutput('Claude AI usage limit reached|1768489200\n', { exitCode: 1 }),
      expected: {
        finalText: 'Claude AI usage limit reached|1768489200\n',
        usageLimit: { message: 'Claude AI usage limit reached|1768489200', resetAt: 1768489200000 },
      },
    },
  ];

  it.each(cases)('$name', ({ out, expected }) => {
    expect(commandAdapter.parse(out)).toEqual(expected);
  });

  it.each(['', '\u0000\uFFFD', '{"not":"parsed"}', 'x'.repeat(100_000)])('never throws on input %#', (stdout) => {
    expect(commandAdapter.parse(rawOutput(stdout, { stderr: stdout, exitCode: null })).finalText).toBe(stdout);
  });
});

describe('commandAdapter with a real process', () => {
  it('runs the filled-in argv in the workspace and reads what it printed', async () => {
    const ws = tmpDir('ralph-ws-');
    const promptFile = path.join(ws, 'prompt.md');
    fs.writeFileSync(promptFile, 'Task from the prompt file\n');
    // The "agent" echoes its argv and cwd, and reads the prompt file it was given.
    const script =
      'const fs = require("fs");' +
      'const fromFile = fs.readFileSync(process.argv[2], "utf8");' +
      'console.log(JSON.stringify({ argv: process.argv.slice(1), cwd: process.cwd(), fromFile }));';
    const inv = invocation(
      { command: [process.execPath, '-e', script, '{prompt}', '{promptFile}', '{workspace}', 'it-{iteration}'] },
      { workspace: ws, promptFile, prompt: 'Fix it.\nNow.' },
    );
    const run = await runCommand(commandAdapter.build(inv), ws);
    expect(run.file).toBe(process.execPath);
    expect(run.exitCode).toBe(0);
    const parsed = commandAdapter.parse(run.out);
    expect(JSON.parse(parsed.finalText)).toEqual({
      argv: ['Fix it.\nNow.', promptFile, ws, 'it-3'],
      cwd: ws,
      fromFile: 'Task from the prompt file\n',
    });
    expect(parsed.usageLimit).toBeUndefined();
  });
});
