import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Harness, checkFileExists, scriptedLoop, tempWorkspace } from '../helpers/env';
import { recordHistory } from '../helpers/histories';
import { getLoopStatus, signalLoop } from '../../src/client';
import { GUIDANCE_HEADING } from '../../src/core/prompt';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const promptOf = (ws: string, loopId: string, n: number): string =>
  fs.readFileSync(
    path.join(ws, '.ralph', 'loops', loopId, 'iterations', String(n).padStart(3, '0'), 'prompt.md'),
    'utf8',
  );

describe('ralphLoop', () => {
  it('completes when the check passes at iteration 3, with 3 iteration records', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt', 'all done') },
      {
        iterations: [
          [{ write: 'notes.md', content: 'started' }, { promise: 'COMPLETE' }],
          [{ write: 'done.txt', content: 'half' }],
          [
            { write: 'done.txt', content: 'all done' },
            { usage: { inputTokens: 100, outputTokens: 20, costUsd: 0.01 } },
            { promise: 'COMPLETE' },
          ],
        ],
      },
    );
    const id = await h.startLoop(
      scriptedLoop(ws, { completion: { command: 'node check.js', promise: 'COMPLETE', checkOn: 'every-iteration' } }),
    );
    const result = await h.result(id);
    expect(result.status).toBe('accepted');
    expect(result.acceptedBy).toBe('check');
    expect(result.iterations).toBe(3);
    const s = await h.status(id);
    expect(s.records.map((r) => r.outcome)).toEqual(['claim_rejected', 'continue', 'completed']);
    expect(s.totals).toMatchObject({
      iterations: 3,
      checksRun: 3,
      checksPassed: 1,
      checksFailed: 2,
      claims: 2,
      inputTokens: 100,
      costUsd: 0.01,
    });
    // Feedback of a rejected claim reaches the next prompt.
    expect(promptOf(ws, id, 2)).toContain('TASK COMPLETION REJECTED');
    const state = JSON.parse(fs.readFileSync(result.stateFile, 'utf8'));
    expect(state.status).toBe('accepted');
    expect(fs.existsSync(path.join(ws, '.ralph/loops', id, 'iterations/003/record.json'))).toBe(true);
    // complete-at-3.json was recorded before the fused iteration (three activities per iteration) and stays as it is.
    await recordHistory(h, id, 'fused-complete-at-3');
  });

  it('keeps a quiet check alive past the heartbeat timeout: the worker beats for it while it runs', async () => {
    // A check that prints nothing for 3.5 s with a 1 s heartbeat timeout: only the worker's liveness timer
    // (src/activities/liveness.ts) keeps it from timing out and being retried.
    const ws = tempWorkspace(
      { 'check.js': "setTimeout(() => process.exit(require('fs').existsSync('done.txt') ? 0 : 1), 3500)" },
      { iterations: [[{ write: 'done.txt', content: 'done' }]] },
    );
    const id = await h.startLoop(
      scriptedLoop(ws, {
        heartbeatTimeoutSeconds: 1,
        completion: { command: 'node check.js', checkOn: 'every-iteration' },
      }),
    );
    const result = await h.result(id);
    expect(result).toMatchObject({ status: 'accepted', acceptedBy: 'check', iterations: 1 });
    const history = await h.env.client.workflow.getHandle(id).fetchHistory();
    const attempts = (history.events ?? [])
      .filter((e) => e.activityTaskStartedEventAttributes)
      .map((e) => e.activityTaskStartedEventAttributes!.attempt);
    expect(attempts.length).toBeGreaterThan(0);
    expect(attempts.every((a) => a === 1)).toBe(true);
    expect((history.events ?? []).some((e) => e.activityTaskTimedOutEventAttributes)).toBe(false);
  }, 60_000);

  it('opens a human gate at max iterations and ends accepted when approved', async () => {
    const ws = tempWorkspace({ 'check.js': 'process.exit(1)' }, { default: [{ print: 'trying' }] });
    const id = await h.startLoop(scriptedLoop(ws, { maxIterations: 2 }));
    const s = await h.waitFor(id, (st) => st.pendingGate !== undefined);
    expect(s.status).toBe('awaiting_human');
    expect(s.pendingGate).toMatchObject({
      reason: 'max_iterations',
      options: ['approve', 'reject', 'abort'],
      iteration: 2,
    });
    await h.signal(id, 'approve', { by: 'alice', reason: 'good enough' });
    const r = await h.result(id);
    expect(r).toMatchObject({
      status: 'accepted',
      acceptedBy: 'human',
      by: 'alice',
      reason: 'good enough',
      iterations: 2,
    });
    await recordHistory(h, id, 'gate-approve');
  });

  it('continues after reject with the guidance in the next prompt, then ends aborted on abort', async () => {
    const ws = tempWorkspace({ 'check.js': 'process.exit(1)' }, { default: [{ print: 'trying' }] });
    const id = await h.startLoop(scriptedLoop(ws, { maxIterations: 1 }));
    const gate = (await h.waitFor(id, (st) => st.pendingGate !== undefined)).pendingGate!;
    await h.signal(id, 'reject', {
      gateId: gate.id,
      guidance: 'Use the helper in src/util.ts instead.',
      extraIterations: 2,
      by: 'bob',
    });
    const s = await h.waitFor(id, (st) => st.pendingGate !== undefined && st.iteration === 3);
    expect(s.maxIterations).toBe(3);
    expect(s.decisions[0]).toMatchObject({ decision: 'reject', by: 'bob', extraIterations: 2 });
    const p2 = promptOf(ws, id, 2);
    expect(p2).toContain(GUIDANCE_HEADING);
    expect(p2).toContain('Use the helper in src/util.ts instead.');
    // Guidance is consumed: it is not repeated once the agent has seen it.
    expect(promptOf(ws, id, 3)).not.toContain('Use the helper in src/util.ts instead.');
    await h.signal(id, 'abort', { by: 'bob', reason: 'giving up' });
    expect(await h.result(id)).toMatchObject({ status: 'aborted', by: 'bob', reason: 'giving up', iterations: 3 });
    await recordHistory(h, id, 'gate-reject-abort');
  });

  it('stops between iterations on pause and goes on after resume', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      { iterations: { '3': [{ write: 'done.txt', content: 'x' }] }, default: [{ sleep: 300 }] },
    );
    const id = await h.startLoop(scriptedLoop(ws));
    await h.waitFor(id, (st) => st.phase === 'agent');
    await h.signal(id, 'pause', { by: 'carol' });
    const paused = await h.waitFor(id, (st) => st.status === 'paused');
    const at = paused.iteration;
    await new Promise((r) => setTimeout(r, 1000));
    expect((await h.status(id)).iteration).toBe(at);
    await h.signal(id, 'resume');
    const r = await h.result(id);
    expect(r.status).toBe('accepted');
    expect(r.iterations).toBe(3);
    const s = await h.status(id);
    expect(s.signals.filter((e) => e.applied).map((e) => e.name)).toEqual(['pause', 'resume']);
    await recordHistory(h, id, 'pause-resume');
  });

  it('sleeps durably on a usage limit and re-runs the same iteration without counting it', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      {
        iterations: [
          [{ print: 'working' }],
          [
            { usageLimit: { resetInSeconds: 2 }, onRun: 1 },
            { write: 'done.txt', content: 'x', onRun: 2 },
          ],
        ],
      },
    );
    const id = await h.startLoop(scriptedLoop(ws));
    const sleeping = await h.waitFor(id, (st) => st.status === 'sleeping');
    expect(sleeping.sleepingUntil).toBeDefined();
    expect(sleeping.iteration).toBe(1);
    const r = await h.result(id);
    expect(r).toMatchObject({ status: 'accepted', iterations: 2 });
    expect(r.totals).toMatchObject({ usageLimitWaits: 1, agentRuns: 3, agentFailures: 0 });
    const it2 = path.join(ws, '.ralph/loops', id, 'iterations/002');
    expect(fs.existsSync(path.join(it2, 'agent.stdout.log'))).toBe(true);
    expect(fs.readFileSync(path.join(it2, 'agent.stdout.run2.log'), 'utf8')).toContain('wrote done.txt');
    await recordHistory(h, id, 'usage-limit');
  });

  it('cancels the running agent and kills its process group on abort', async () => {
    // The child is found by its unique command line: inside the sandbox, `$!` is a pid of the sandbox's namespace.
    const marker = `${300 + Math.floor(Math.random() * 1000) / 1000}`;
    const ws = tempWorkspace(
      { 'check.js': 'process.exit(1)' },
      { default: [{ run: `sleep ${marker} & echo started > child.pid; wait` }] },
    );
    const running = (): boolean =>
      execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
        .split('\n')
        .some((l) => l.trim() === `sleep ${marker}`);
    const id = await h.startLoop(scriptedLoop(ws));
    await h.waitFor(id, (st) => st.phase === 'agent');
    const pidFile = path.join(ws, 'child.pid');
    for (let i = 0; i < 50 && !fs.existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 100));
    expect(running()).toBe(true);
    await h.signal(id, 'abort', { reason: 'wrong task' });
    expect(await h.result(id)).toMatchObject({ status: 'aborted', reason: 'wrong task', iterations: 0 });
    let alive = true;
    for (let i = 0; i < 30 && alive; i++) {
      alive = running();
      if (alive) await new Promise((r) => setTimeout(r, 100));
    }
    expect(alive).toBe(false);
  });

  it('records signals that make no sense as ignored, and refuses signals to a finished loop', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      { iterations: [[{ sleep: 500 }], [{ write: 'done.txt', content: 'x' }]] },
    );
    const id = await h.startLoop(scriptedLoop(ws));
    await h.waitFor(id, (st) => st.phase === 'agent');
    await h.signal(id, 'approve', { by: 'eve' });
    await h.signal(id, 'resume');
    await h.signal(id, 'pause', { requestId: 'r1' });
    await h.signal(id, 'resume', { requestId: 'r2' });
    await h.signal(id, 'resume', { requestId: 'r2' });
    await h.signal(id, 'reject', 'not a valid payload shape but must not crash');
    expect((await h.result(id)).status).toBe('accepted');
    const s = await getLoopStatus(h.client, id);
    const byName = s.signals.map((e) => `${e.name}:${e.applied}`);
    expect(byName).toEqual([
      'approve:false',
      'resume:false',
      'pause:true',
      'resume:true',
      'resume:false',
      'reject:false',
    ]);
    expect(s.signals[0].note).toMatch(/no human gate is pending/);
    expect(s.signals[4].note).toMatch(/duplicate of request r2/);
    await expect(signalLoop(h.client, id, 'approve', {})).rejects.toThrow(
      /already ended \(completed\): nothing to approve/,
    );
    await expect(signalLoop(h.client, 'no-such-loop', 'approve', {})).rejects.toThrow(/no loop with id "no-such-loop"/);
  });
});
