import { AgentAdapters, type AgentAdapter, type AgentSpec } from '../../../../src/config/loop-input';
import { UnknownAgentAdapterError, agentAdapters, getAdapter } from '../../../../src/activities/agents';
import type { AgentInvocation } from '../../../../src/activities/agents';

const invocation = (spec: Partial<AgentSpec> & Pick<AgentSpec, 'adapter'>): AgentInvocation => ({
  prompt: '# Task\n\nDo it.\n',
  promptFile: '/ws/.ralph/prompt.md',
  workspace: '/ws',
  spec: { args: [], env: {}, command: ['my-agent', '{promptFile}'], script: 'script.json', ...spec },
  loopId: 'l1',
  iteration: 1,
  artifactDir: '/ws/.ralph',
});

/** True when `needle` appears in `hay` as consecutive elements. */
const containsRun = (hay: string[], needle: string[]): boolean =>
  hay.some((_, i) => needle.every((n, j) => hay[i + j] === n));

describe('getAdapter', () => {
  it.each([...AgentAdapters])('returns the %s adapter under its own name', (name) => {
    expect(getAdapter(name).name).toBe(name);
    expect(agentAdapters[name]).toBe(getAdapter(name));
  });

  it.each(['cursor', 'toString', '__proto__', ''])('throws UnknownAgentAdapterError for %j', (name) => {
    expect(() => getAdapter(name as AgentAdapter)).toThrow(UnknownAgentAdapterError);
    expect(() => getAdapter(name as AgentAdapter)).toThrow(
      /use one of claude-code, codex, gemini, aider, command, scripted/,
    );
  });
});

describe('every CLI adapter', () => {
  const cli = AgentAdapters.filter((a) => a !== 'command' && a !== 'scripted');

  it.each(cli)('%s runs its default binary unless agent.binary names another', (adapter) => {
    const a = getAdapter(adapter);
    expect(a.build(invocation({ adapter })).file).toBe(a.defaultBinary);
    expect(a.build(invocation({ adapter, binary: '/opt/bin/agent' })).file).toBe('/opt/bin/agent');
  });

  it.each([...AgentAdapters])('%s passes agent.args through, in order', (adapter) => {
    const args = ['--extra', 'value with spaces', '--flag'];
    expect(containsRun(getAdapter(adapter).build(invocation({ adapter, args })).args, args)).toBe(true);
  });

  it.each(cli)(
    '%s passes the prompt through stdin or a file, never argv (128 KiB per argument on Linux)',
    (adapter) => {
      const cmd = getAdapter(adapter).build(invocation({ adapter }));
      expect(cmd.args.join('\n')).not.toContain('Do it.');
      expect(cmd.input === '# Task\n\nDo it.\n' || cmd.args.includes(invocation({ adapter }).promptFile)).toBe(true);
    },
  );

  it.each(cli)('%s builds a command for the empty prompt input validation uses', (adapter) => {
    expect(() => getAdapter(adapter).build(invocation({ adapter }))).not.toThrow();
    expect(() => getAdapter(adapter).build({ ...invocation({ adapter }), prompt: '', promptFile: '' })).not.toThrow();
  });

  it.each([...cli, 'command' as const])('%s parses the same output to the same result (pure)', (adapter) => {
    const out = {
      stdout: '{"type":"result","result":"x"}\nTokens: 1 sent, 2 received.\n',
      stderr: 'rate limited',
      exitCode: 1,
      now: 1,
    };
    expect(getAdapter(adapter).parse(out)).toEqual(getAdapter(adapter).parse({ ...out }));
  });
});
