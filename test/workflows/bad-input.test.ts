import fs from 'node:fs';
import path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { Harness, checkFileExists, scriptedLoop, tempWorkspace } from '../helpers/env';
import type { LoopInputRaw } from '../../src/config/loop-input';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

/** Starts a loop straight through the Temporal client (as `temporal workflow start` would) and returns its failure. */
let lastId = '';
async function failureOf(input: unknown): Promise<{ message: string; type?: string }> {
  const id = await h.startLoop(input as LoopInputRaw);
  lastId = id;
  try {
    await h.result(id);
  } catch (e) {
    expect((e as Error).name).toBe(WorkflowFailedError.name);
    const cause = (e as { cause?: { message: string; type?: string } }).cause!;
    return { message: cause.message, type: cause.type };
  }
  throw new Error('the loop did not fail');
}

describe('ralphLoop bad input', () => {
  it('fails at once with every bad field named when the input is invalid', async () => {
    const ws = tempWorkspace();
    const f = await failureOf({ ...scriptedLoop(ws), maxIterations: -1, agent: { adapter: 'robot' }, completion: {} });
    expect(f.type).toBe('InvalidInput');
    expect(f.message).toContain('input.maxIterations');
    // The status query of the failed loop says why, too.
    expect(await h.status(lastId)).toMatchObject({ status: 'failed', result: { status: 'failed', reason: f.message } });
    expect(f.message).toContain(
      'input.agent.adapter: must be one of claude-code, codex, gemini, aider, command, scripted',
    );
    expect(f.message).toContain('set `completion.command`');
  });

  it('fails with WorkspaceNotFound and the fix when the workspace does not exist', async () => {
    const f = await failureOf(scriptedLoop('/nonexistent/ralph-workspace'));
    expect(f).toMatchObject({ type: 'WorkspaceNotFound' });
    expect(f.message).toMatch(
      /workspace \/nonexistent\/ralph-workspace does not exist.*create it or fix input.workspace/,
    );
  });

  it('fails with AgentNotFound naming the executable when the agent binary is missing', async () => {
    const ws = tempWorkspace();
    const f = await failureOf({
      ...scriptedLoop(ws),
      agent: { adapter: 'claude-code', binary: 'claude-not-installed-here' },
    });
    expect(f.type).toBe('AgentNotFound');
    expect(f.message).toContain('"claude-not-installed-here" (adapter claude-code) was not found');
  });

  it('keeps a 10 MB agent output in an artifact file, not in the workflow history', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      { iterations: [[{ printBytes: 10 * 1024 * 1024 }, { write: 'done.txt', content: 'x' }]] },
    );
    const id = await h.startLoop(scriptedLoop(ws));
    const r = await h.result(id);
    expect(r.status).toBe('accepted');
    const s = await h.status(id);
    expect(s.records[0].agent.outputBytes).toBeGreaterThanOrEqual(10 * 1024 * 1024);
    const out = path.join(s.records[0].artifactDir, 'agent.stdout.log');
    expect(fs.statSync(out).size).toBeGreaterThanOrEqual(10 * 1024 * 1024);
    const history = await h.client.workflow.getHandle(id).fetchHistory();
    expect(JSON.stringify(history).length).toBeLessThan(100_000);
  });

  it('records a broken agent script as a failed iteration with the error fed back, without crashing the loop', async () => {
    const ws = tempWorkspace({
      'check.js': 'process.exit(1)',
      '.ralph-script.json': '{"iterations": [[{"explode": 1}]]}',
    });
    const id = await h.startLoop(scriptedLoop(ws, { maxIterations: 1 }));
    const s = await h.waitFor(id, (st) => st.pendingGate !== undefined);
    expect(s.records[0]).toMatchObject({ outcome: 'agent_failed', agent: { exitCode: 2 } });
    expect(s.pendingFeedback.join('\n')).toMatch(/exited with code 2[\s\S]*invalid script/);
    await h.signal(id, 'abort');
    expect((await h.result(id)).status).toBe('aborted');
  });
});
