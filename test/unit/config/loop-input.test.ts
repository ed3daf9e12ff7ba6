import { parseLoopInput } from '../../../src/config/loop-input';

const ok = {
  prompt: 'p',
  workspace: '/w',
  agent: { adapter: 'scripted', script: 's.json' },
  completion: { command: 'true' },
};

describe('LoopInput', () => {
  it('applies defaults to a minimal input', () => {
    expect(parseLoopInput(ok)).toMatchObject({
      maxIterations: 10,
      iterationTimeoutSeconds: 1800,
      heartbeatTimeoutSeconds: 60,
      continueAsNewEvery: 50,
      agent: { args: [], env: {} },
    });
  });

  it.each([
    [{ ...ok, prompt: undefined }, 'input.prompt: set `prompt` (the task text) or `promptFile`'],
    [{ ...ok, maxIterations: 0 }, 'input.maxIterations'],
    [
      { ...ok, agent: { adapter: 'gpt' } },
      'input.agent.adapter: must be one of claude-code, codex, gemini, aider, command, scripted',
    ],
    [{ ...ok, agent: { adapter: 'command' } }, 'input.agent.command: the command adapter needs `command`'],
    [{ ...ok, agent: { adapter: 'scripted' } }, 'input.agent.script: the scripted adapter needs `script`'],
    [{ ...ok, completion: {} }, 'input.completion: set `completion.command`'],
    [{ ...ok, maxIteratons: 5 }, 'maxIteratons'],
  ])('names the bad field of %j', (raw, message) => {
    expect(() => parseLoopInput(raw)).toThrow(message);
  });
});

describe('antiLaziness, the anti-laziness settings under their current name', () => {
  const base = {
    prompt: 'x',
    workspace: '/w',
    agent: { adapter: 'scripted' as const, script: 's.json' },
    completion: { command: 'true' },
  };

  it('is read as persistence (the field running loops and histories keep), and the old name still works', () => {
    expect(parseLoopInput({ ...base, antiLaziness: { enabled: false } }).persistence.enabled).toBe(false);
    expect(parseLoopInput({ ...base, persistence: { enabled: false } }).persistence.enabled).toBe(false);
    expect(parseLoopInput(base).persistence.enabled).toBe(true);
  });

  it('refuses both names at once, saying which to keep', () => {
    expect(() => parseLoopInput({ ...base, antiLaziness: {}, persistence: {} })).toThrow(
      'input: both antiLaziness and persistence are set: keep antiLaziness',
    );
  });
});
