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
      /"aider-not-here" \(adapter aider\) was not found.*set input.agent.binary/,
    ],
  ])('fails non-retryably on %s', async (_what, raw, type, message) => {
    const f = await failure(raw());
    expect(f.type).toBe(type);
    expect(f.nonRetryable).toBe(true);
    expect(f.message).toMatch(message);
  });
});
