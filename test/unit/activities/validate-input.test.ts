import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateLoopInput } from '../../../src/activities/validate-input';

const ws = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-val-'));
const base = (workspace: string): Record<string, unknown> => ({
  prompt: 'p',
  workspace,
  agent: { adapter: 'command', command: ['sh', '-c', 'true'] },
  completion: { command: 'true' },
});

/** The failure a validation throws: its type (non-retryable) and message. */
async function failure(raw: unknown): Promise<{ type?: string; message: string; nonRetryable?: boolean }> {
  try {
    await validateLoopInput({ raw, loopId: 'l' });
  } catch (e) {
    return e as { type?: string; message: string; nonRetryable?: boolean };
  }
  throw new Error('validation passed');
}

describe('validateLoopInput', () => {
  it('returns the input with defaults and absolute paths, and creates the loop folder', async () => {
    const w = ws();
    fs.writeFileSync(path.join(w, 'TASK.md'), 'do it');
    const r = await validateLoopInput({ raw: { ...base(w), prompt: undefined, promptFile: 'TASK.md' }, loopId: 'l' });
    expect(r.promptFile).toBe(path.join(w, 'TASK.md'));
    expect(r.stateDir).toBe(path.join(w, '.ralph'));
    expect(fs.existsSync(path.join(w, '.ralph/loops/l'))).toBe(true);
  });

  it('turns the anti-laziness layer on with defaults, and takes its settings from ralph.config.yaml unless the input sets them', async () => {
    const w = ws();
    const d = await validateLoopInput({ raw: base(w), loopId: 'l' });
    expect(d.persistence).toMatchObject({ enabled: true, stuck: { sameError: 3 }, bestOutput: { threshold: 70 } });
    fs.writeFileSync(
      path.join(w, 'ralph.config.yaml'),
      'persistence:\n  bestOutput:\n    threshold: 80\n  hooks:\n    policy: deny\n',
    );
    const c = await validateLoopInput({ raw: base(w), loopId: 'l' });
    expect(c.persistence).toMatchObject({ bestOutput: { threshold: 80 }, hooks: { policy: 'deny' } });
    const i = await validateLoopInput({ raw: { ...base(w), persistence: { enabled: false } }, loopId: 'l' });
    expect(i.persistence.enabled).toBe(false);
    const bad = await failure({ ...base(w), persistence: { stuck: { sameError: 0 } } });
    expect(bad.message).toMatch(/persistence\.stuck\.sameError/);
  });

  it.each([
    [
      'a relative workspace',
      () => ({ ...base('rel/dir') }),
      'InvalidInput',
      /input.workspace must be an absolute path/,
    ],
    ['a missing workspace', () => base('/nonexistent/ws'), 'WorkspaceNotFound', /create it or fix input.workspace/],
    [
      'a missing prompt file',
      () => ({ ...base(ws()), prompt: undefined, promptFile: 'nope.md' }),
      'PromptFileNotFound',
      /fix input.promptFile/,
    ],
    [
      'a missing scripted script',
      () => ({ ...base(ws()), agent: { adapter: 'scripted', script: 'nope.json' } }),
      'AgentConfigError',
      /fix input.agent.script/,
    ],
    [
      'a missing agent executable',
      () => ({ ...base(ws()), agent: { adapter: 'aider', binary: 'aider-not-here' } }),
      'AgentNotFound',
      /"aider-not-here" \(adapter aider\) was not found.*pass --agent-binary <path> \(input.agent.binary\)/,
    ],
  ])('fails non-retryably on %s', async (_what, raw, type, message) => {
    const f = await failure(raw());
    expect(f.type).toBe(type);
    expect(f.nonRetryable).toBe(true);
    expect(f.message).toMatch(message);
  });
});
