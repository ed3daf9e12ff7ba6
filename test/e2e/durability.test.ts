import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Harness, checkFileExists, scriptedLoop, startDevServer, tempWorkspace, workflowBundle } from '../helpers/env';
import { createWorker } from '../../src/workers/worker';
import { recordHistory } from '../helpers/histories';
import type { LoopResult, LoopState } from '../../src/core/loop-types';

const WORKER_MAIN = path.resolve(__dirname, '../../dist/src/workers/main.js');

function spawnWorker(address: string, taskQueue: string): ChildProcess {
  return spawn(process.execPath, [WORKER_MAIN], {
    env: { ...process.env, TEMPORAL_ADDRESS: address, RALPH_TASK_QUEUE: taskQueue, RALPH_LOG_LEVEL: 'WARN' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

const until = async (pred: () => boolean, ms = 30_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('durability', () => {
  it('resumes a loop with no iteration lost or double-counted after the worker is killed -9 mid-agent, retrying from a clean checkpoint', async () => {
    const h = await Harness.start({ worker: false });
    let w1: ChildProcess | undefined;
    let w2: ChildProcess | undefined;
    try {
      const ws = tempWorkspace(
        { 'check.js': checkFileExists('done.txt') },
        {
          iterations: [
            [{ append: 'runs.log', content: '1\n' }],
            [
              { append: 'runs.log', content: '2\n' },
              { write: 'partial.txt', content: 'half-applied by attempt 1', onAttempt: 1 },
              { sleep: 3000 },
              { write: 'done.txt', content: 'ok' },
            ],
          ],
        },
      );
      w1 = spawnWorker(h.env.address, h.taskQueue);
      const id = await h.startLoop(scriptedLoop(ws, { heartbeatTimeoutSeconds: 2 }));
      const runs = path.join(ws, 'runs.log');
      await until(() => fs.existsSync(path.join(ws, 'partial.txt')));
      w1.kill('SIGKILL');
      await new Promise((r) => w1!.once('exit', r));
      w2 = spawnWorker(h.env.address, h.taskQueue);
      const result = (await h.client.workflow.getHandle(id).result()) as LoopResult;
      expect(result).toMatchObject({ status: 'accepted', iterations: 2 });
      const s = await h.client.workflow.getHandle(id).query<LoopState>('status');
      expect(s.records.map((r) => r.n)).toEqual([1, 2]);
      expect(s.totals.iterations).toBe(2);
      // Iteration 2's agent ran again on a second attempt (after the heartbeat timeout), not as a new iteration.
      expect(s.records[1].agent.attempts).toBe(2);
      // Attempt 2 started from iteration 2's pre-run checkpoint: attempt 1's half-applied changes never leaked.
      expect(fs.readFileSync(runs, 'utf8')).toBe('1\n2\n');
      expect(fs.existsSync(path.join(ws, 'partial.txt'))).toBe(false);
    } finally {
      w1?.kill('SIGKILL');
      w2?.kill('SIGTERM');
      if (w2) await new Promise((r) => w2!.once('exit', r));
      await h.stop();
    }
  });

  it("keeps the agent's work when the worker is killed -9 during the check of a fused iteration: only the check runs again", async () => {
    const h = await Harness.start({ worker: false });
    let w1: ChildProcess | undefined;
    let w2: ChildProcess | undefined;
    const marks = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-check-marks-'));
    const started = path.join(marks, 'check-started');
    try {
      // The check's first run marks that it started, then takes 20 s; every later run answers at once.
      const check =
        `const fs=require('fs');if(!fs.existsSync('done.txt'))process.exit(1);` +
        `const m=${JSON.stringify(started)};` +
        `if(!fs.existsSync(m)){fs.writeFileSync(m,'1');setTimeout(()=>process.exit(0),20000)}`;
      const ws = tempWorkspace(
        { 'check.js': check },
        {
          iterations: [
            [
              { append: 'runs.log', content: 'agent ran\n' },
              { write: 'done.txt', content: 'ok' },
            ],
          ],
        },
      );
      w1 = spawnWorker(h.env.address, h.taskQueue);
      const id = await h.startLoop(scriptedLoop(ws, { heartbeatTimeoutSeconds: 2 }));
      await until(() => fs.existsSync(started));
      w1.kill('SIGKILL');
      await new Promise((r) => w1!.once('exit', r));
      w2 = spawnWorker(h.env.address, h.taskQueue);
      const result = (await h.client.workflow.getHandle(id).result()) as LoopResult;
      expect(result).toMatchObject({ status: 'accepted', iterations: 1 });
      const s = await h.client.workflow.getHandle(id).query<LoopState>('status');
      expect(s.records).toHaveLength(1);
      expect(s.records[0].check?.passed).toBe(true);
      // The agent ran once: attempt 2 of the activity took its result and ran the detection pass and the check again.
      expect(s.records[0].agent.attempts).toBe(1);
      expect(fs.readFileSync(path.join(ws, 'runs.log'), 'utf8')).toBe('agent ran\n');
      const dir = path.join(ws, '.ralph/loops', id, 'iterations/001');
      expect(fs.existsSync(path.join(dir, 'agent-finished.json'))).toBe(true);
      expect(fs.existsSync(path.join(dir, 'check.attempt2.log'))).toBe(true);
      expect(fs.existsSync(path.join(dir, 'agent.stdout.attempt2.log'))).toBe(false);
      // One activity did the whole iteration: no separate check activity, no detection-pass marker.
      const events = (await h.client.workflow.getHandle(id).fetchHistory()).events ?? [];
      const scheduled = events
        .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)
        .filter((n): n is string => !!n);
      expect(scheduled.filter((n) => n === 'checkCompletion')).toEqual([]);
      expect(scheduled.filter((n) => n === 'runAgent')).toHaveLength(1);
      await recordHistory(h, id, 'fused-check-retried');
    } finally {
      w1?.kill('SIGKILL');
      w2?.kill('SIGTERM');
      if (w2) await new Promise((r) => w2!.once('exit', r));
      await h.stop();
      fs.rmSync(marks, { recursive: true, force: true });
    }
  });

  it('keeps a loop waiting at a human gate across a dev server restart, and approve completes it', async () => {
    const dbFilename = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-db-')), 'temporal.db');
    const taskQueue = 'restart-test';
    const ws = tempWorkspace({ 'check.js': 'process.exit(1)' }, { default: [{ print: 'trying' }] });
    const id = `restart-${Date.now()}`;

    const env1 = await startDevServer({ dbFilename });
    const w1 = await createWorker({
      connection: env1.nativeConnection,
      namespace: 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
    });
    const r1 = w1.run();
    await env1.client.workflow.start('ralphLoop', {
      taskQueue,
      workflowId: id,
      args: [scriptedLoop(ws, { maxIterations: 1 })],
    });
    const h1 = env1.client.workflow.getHandle(id);
    await until(() => fs.existsSync(path.join(ws, '.ralph/loops', id, 'iterations/001/record.json')));
    let gate: LoopState['pendingGate'];
    for (let i = 0; i < 100 && !gate; i++) {
      gate = (await h1.query<LoopState>('status')).pendingGate;
      if (!gate) await new Promise((r) => setTimeout(r, 100));
    }
    expect(gate?.reason).toBe('max_iterations');
    w1.shutdown();
    await r1;
    await env1.teardown();

    const env2 = await startDevServer({ dbFilename });
    const w2 = await createWorker({
      connection: env2.nativeConnection,
      namespace: 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
    });
    const r2 = w2.run();
    try {
      const h2 = env2.client.workflow.getHandle(id);
      expect((await h2.query<LoopState>('status')).pendingGate?.id).toBe(gate!.id);
      await h2.signal('approve', { by: 'after-restart' });
      expect(await h2.result()).toMatchObject({
        status: 'accepted',
        acceptedBy: 'human',
        by: 'after-restart',
        iterations: 1,
      });
    } finally {
      w2.shutdown();
      await r2;
      await env2.teardown();
    }
  });
});
