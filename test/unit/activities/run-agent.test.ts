/**
 * runAgent on its own, in the SDK's activity test environment (a real activity context: heartbeats, cancellation,
 * timeouts), with the scripted agent as a real subprocess: the prompt it writes, the result it parses, the artifacts it
 * keeps, and the failures it turns into the loop's error types.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { runAgent, type RunAgentInput, type RunAgentResult } from '../../../src/activities/run-agent';
import { AgentSpec } from '../../../src/config/loop-input';
import { ErrorTypes } from '../../../src/core/constants';
import type { AgentScript } from '../../../src/scripted-agent/script';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A workspace whose scripted agent follows `script`, and a run input for iteration 1 of loop `l1`. */
function setup(script: Partial<AgentScript>, over: Partial<RunAgentInput> = {}): RunAgentInput {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-run-agent-'));
  dirs.push(workspace);
  fs.writeFileSync(path.join(workspace, 'script.json'), JSON.stringify(script));
  return {
    loopId: 'l1',
    iteration: 1,
    run: 1,
    maxIterations: 3,
    workspace,
    stateDir: path.join(workspace, '.ralph'),
    agent: AgentSpec.parse({ adapter: 'scripted', script: 'script.json' }),
    prompt: 'Write hello.txt.',
    feedback: ['The check failed: hello.txt is missing.'],
    ...over,
  };
}

/** The failure an activity threw, for its type, message and details. */
const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected the run to fail');
    },
    (e: { type?: string; message: string; details?: unknown[] }) => e,
  );

/**
 * An activity environment whose attempt has room for a sandboxed agent's start on a busy machine (the SDK's mock
 * default is 1 s, and the agent is stopped 500 ms before its attempt's timeout).
 */
const roomy = () => new MockActivityEnvironment({ startToCloseTimeoutMs: 30_000 });

/** True while a process exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('runAgent', () => {
  it('writes the prompt with the task and the feedback, runs the agent in the workspace, and parses its claim', async () => {
    const input = setup(
      { default: [{ write: 'hello.txt', content: 'hi\n' }, { print: 'wrote hello.txt' }, { promise: 'DONE' }] },
      { promise: 'DONE' },
    );
    const r: RunAgentResult = await roomy().run(runAgent, input);
    expect(fs.readFileSync(path.join(input.workspace, 'hello.txt'), 'utf8')).toBe('hi\n');
    expect(r).toMatchObject({ exitCode: 0, timedOut: false, attempt: 1, claim: { claimed: true, via: 'promise' } });
    const prompt = fs.readFileSync(r.promptPath, 'utf8');
    expect(prompt).toContain('Write hello.txt.');
    expect(prompt).toContain('The check failed: hello.txt is missing.');
    expect(fs.readFileSync(r.stdoutPath, 'utf8')).toContain('wrote hello.txt');
    expect(r.outputBytes).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(r.artifactDir, 'agent-result.json'))).toBe(true);
  });

  it('reports no claim and the exit code of an agent that fails', async () => {
    const input = setup({ default: [{ print: 'giving up' }, { exit: 3 }] });
    const r: RunAgentResult = await roomy().run(runAgent, input);
    expect(r).toMatchObject({ exitCode: 3, timedOut: false, claim: { claimed: false } });
    expect(r.finalTextTail).toContain('giving up');
  });

  it('kills an agent at its deadline and fails with AgentTimeout, carrying the partial result', async () => {
    const input = setup({ default: [{ print: 'started' }, { hang: true }] });
    const env = new MockActivityEnvironment({ startToCloseTimeoutMs: 2_000 });
    const e = await failureOf(env.run(runAgent, input));
    expect(e.type).toBe(ErrorTypes.AgentTimeout);
    expect(e.message).toMatch(/^agent timed out after \d+s and its process group was killed$/);
    expect(e.details?.[0]).toMatchObject({ timedOut: true, artifactDir: expect.any(String) });
  });

  it('fails with AgentNotFound, naming the binary and the fix, when the agent cannot be found', async () => {
    const input = setup({}, { agent: AgentSpec.parse({ adapter: 'command', command: ['no-such-agent-binary-xyz'] }) });
    const e = await failureOf(roomy().run(runAgent, input));
    expect(e.type).toBe(ErrorTypes.AgentNotFound);
    expect(e.message).toContain('no-such-agent-binary-xyz');
    expect(e.message).toContain('--agent-binary');
  });

  it('fails with WorkspaceNotFound when the workspace is gone', async () => {
    const input = setup({}, {});
    fs.rmSync(input.workspace, { recursive: true, force: true });
    const e = await failureOf(roomy().run(runAgent, input));
    expect(e.type).toBe(ErrorTypes.WorkspaceNotFound);
  });

  it('kills the agent when the activity is cancelled', async () => {
    // A child in the agent's process group: cancellation kills the whole group, not only the agent.
    const input = setup({ default: [{ run: 'sleep 600 & echo $! > child.pid' }, { hang: true }] });
    const env = roomy();
    const running = env.run(runAgent, input);
    const childPid = path.join(input.workspace, 'child.pid');
    for (let i = 0; i < 100 && !fs.readFileSync(childPid, { flag: 'a+', encoding: 'utf8' }).trim(); i++)
      await new Promise((r) => setTimeout(r, 100));
    env.cancel();
    await expect(running).rejects.toMatchObject({ name: 'CancelledFailure' });
    const pid = Number(fs.readFileSync(childPid, 'utf8'));
    expect(pid).toBeGreaterThan(0);
    for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(pid)).toBe(false);
  });

  it('runs the completion check after the agent in a fused iteration', async () => {
    const input = setup(
      { default: [{ write: 'hello.txt', content: 'hi' }, { promise: 'DONE' }] },
      {
        promise: 'DONE',
        then: { agentTimeoutSeconds: 30, check: { command: 'test -f hello.txt', timeoutSeconds: 30, on: 'claim' } },
      },
    );
    const r: RunAgentResult = await new MockActivityEnvironment({ startToCloseTimeoutMs: 60_000 }).run(runAgent, input);
    expect(r.check).toMatchObject({ passed: true, exitCode: 0 });
  });
});
