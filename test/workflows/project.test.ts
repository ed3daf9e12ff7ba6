import fs from 'node:fs';
import path from 'node:path';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { ProjectInputRaw } from '../../src/config/project-input';
import type { ProjectState } from '../../src/core/project-machine';
import type { ProjectResult } from '../../src/workflows/ralph-project';
import { Harness, tempWorkspace } from '../helpers/env';
import { recordHistory } from '../helpers/histories';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

/** Passes once the agent wrote `done-<task>`. */
const CHECK = "const t = process.argv[2]; process.exit(require('fs').existsSync('done-' + t) ? 0 : 1);\n";
const finishTask = (id: string) => [
  { append: 'order.log', content: `${id}\n` },
  { write: `done-${id}`, content: 'ok' },
];
const failTask = (id: string) => [{ append: `wip-${id}.txt`, content: 'still trying\n' }];

/** Scaled-down timeouts: simple tasks 30 s, UI tasks 4 s (x1.5 after each timeout). */
const TIMEOUTS = {
  table: {
    simple: { baseSeconds: 30, multiplier: 1 },
    medium: { baseSeconds: 30, multiplier: 1 },
    complex: { baseSeconds: 30, multiplier: 1 },
    ui_heavy: { baseSeconds: 4, multiplier: 1 },
  },
  minSeconds: 1,
};

const story = (id: string, title: string, priority: number, extra: Record<string, unknown> = {}) => ({
  id,
  title,
  description: title,
  acceptanceCriteria: ['it works'],
  priority,
  passes: false,
  ...extra,
});

/** Starts a project; recorded ones take their history's name as id (replay derives child ids from it). */
async function startProject(
  ws: string,
  over: Partial<ProjectInputRaw> = {},
  id = `project-${Date.now()}-${Math.floor(Math.random() * 1e6)}`,
): Promise<string> {
  const input: ProjectInputRaw = {
    prdFile: 'prd.json',
    workspace: ws,
    agent: { adapter: 'scripted', script: '.ralph-script.json' },
    completion: { command: 'node check.js {taskId}' },
    timeouts: TIMEOUTS,
    heartbeatTimeoutSeconds: 10,
    ...over,
  };
  await h.client.workflow.start('ralphProject', { taskQueue: h.taskQueue, workflowId: id, args: [input] });
  return id;
}
const tasksOf = (id: string): Promise<ProjectState> => h.client.workflow.getHandle(id).query<ProjectState>('tasks');
async function waitTasks(id: string, pred: (s: ProjectState) => boolean, ms = 90_000): Promise<ProjectState> {
  const end = Date.now() + ms;
  let last: ProjectState | undefined;
  while (Date.now() < end) {
    last = await tasksOf(id).catch(() => undefined);
    if (last && pred(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`project ${id}: condition not met; last ${JSON.stringify(last?.tasks.map((t) => [t.id, t.status]))}`);
}

describe('ralphProject', () => {
  it('runs a 5-task PRD in priority and dependency order, gives a UI task 1.5x more time after a timeout, and writes progress back', async () => {
    const prd = {
      projectName: 'demo',
      userStories: [
        story('US-001', 'Fix the parser edge case', 1),
        story('US-002', 'Add the dashboard chart view', 2),
        story('US-003', 'Update the docs for export', 3, { dependsOn: ['US-005'] }),
        story('US-004', 'Refactor the config loader', 4),
        story('US-005', 'Add the export function', 5),
      ],
    };
    const ws = tempWorkspace(
      { 'prd.json': JSON.stringify(prd, null, 2) + '\n', 'check.js': CHECK },
      {
        tasks: {
          'US-001': { default: finishTask('US-001') },
          // Needs 4 s: more than the agent's deadline under the UI base timeout (4 s - 0.5 s kill margin), well under
          // the one of 4 x 1.5 = 6 s (5.5 s), so a busy machine's slower agent start never costs a third attempt.
          'US-002': { default: [{ sleep: 4000 }, ...finishTask('US-002')] },
          'US-003': { default: finishTask('US-003') },
          'US-004': { default: finishTask('US-004') },
          'US-005': { default: finishTask('US-005') },
        },
      },
    );
    const id = await startProject(ws, {}, 'project-five-tasks');
    const r = (await h.client.workflow.getHandle(id).result()) as ProjectResult;
    expect(r).toMatchObject({ status: 'done', blocked: [], attempts: 6 });
    expect(fs.readFileSync(path.join(ws, 'order.log'), 'utf8').trim().split('\n')).toEqual([
      'US-001',
      'US-002',
      'US-004',
      'US-005',
      'US-003',
    ]);
    const s = await tasksOf(id);
    const ui = s.tasks.find((t) => t.id === 'US-002')!;
    expect(ui.complexity).toBe('ui_heavy');
    expect(ui.attempts.map((a) => [a.outcome, a.timeoutSeconds])).toEqual([
      ['timeout', 4],
      ['accepted', 6],
    ]);
    expect(ui.attempts[1].why).toContain('x1.5^1');
    const written = JSON.parse(fs.readFileSync(path.join(ws, 'prd.json'), 'utf8')) as typeof prd;
    expect(written.userStories.map((u) => u.passes)).toEqual([true, true, true, true, true]);
    expect(written.projectName).toBe('demo');
    await recordHistory(h, id, 'project-five-tasks');
  });

  it('blocks a task that keeps failing after 3 attempts (gate_failure), runs the others, and unblock --timeout runs it again', async () => {
    const prd = { userStories: [story('T1', 'Fix the importer', 1), story('T2', 'Fix the exporter', 2)] };
    const ws = tempWorkspace(
      { 'prd.json': JSON.stringify(prd, null, 2), 'check.js': CHECK },
      {
        tasks: {
          T1: { attempts: { '4': finishTask('T1') }, default: failTask('T1') },
          T2: { default: finishTask('T2') },
        },
      },
    );
    const id = await startProject(ws, {}, 'project-block-unblock');
    const s = await waitTasks(id, (x) => x.status === 'waiting_operator');
    const t1 = s.tasks.find((t) => t.id === 'T1')!;
    expect(t1).toMatchObject({ status: 'blocked', blockReason: 'gate_failure' });
    expect(t1.attempts.map((a) => a.outcome)).toEqual(['gate_failure', 'gate_failure', 'gate_failure']);
    expect(s.tasks.find((t) => t.id === 'T2')!.status).toBe('done');

    const handle = h.client.workflow.getHandle(id);
    await expect(handle.executeUpdate('unblock', { args: [{ taskIds: ['nope'] }] })).rejects.toThrow(
      WorkflowUpdateFailedError,
    );
    const out = await handle.executeUpdate<{ tasks: string[]; note: string }, [unknown]>('unblock', {
      args: [{ taskIds: ['T1'], timeoutSeconds: 7, reason: 'give it time', by: 'ops' }],
    });
    expect(out.tasks).toEqual(['T1']);
    const r = (await handle.result()) as ProjectResult;
    expect(r).toMatchObject({ status: 'done', blocked: [] });
    const end = await tasksOf(id);
    const again = end.tasks.find((t) => t.id === 'T1')!;
    expect(again.attempts[3]).toMatchObject({ outcome: 'accepted', timeoutSeconds: 7 });
    expect(again.unblocks[0]).toMatchObject({
      by: 'ops',
      reason: 'give it time',
      timeoutSeconds: 7,
      from: 'gate_failure',
    });
    await recordHistory(h, id, 'project-block-unblock');
  });

  it('retry-blocked retries every blocked task once, and finish ends the project reporting what stays blocked', async () => {
    const prd = { userStories: [story('A1', 'Fix alpha', 1), story('B1', 'Fix beta', 2)] };
    const ws = tempWorkspace(
      { 'prd.json': JSON.stringify(prd, null, 2), 'check.js': CHECK },
      { tasks: { A1: { default: failTask('A1') }, B1: { default: failTask('B1') } } },
    );
    const id = await startProject(ws, { timeouts: { ...TIMEOUTS, maxAttemptsPerTask: 2 } });
    await waitTasks(id, (x) => x.status === 'waiting_operator');
    const handle = h.client.workflow.getHandle(id);
    const out = await handle.executeUpdate<{ tasks: string[] }, [unknown]>('retryBlocked', {
      args: [{ maxAttempts: 1 }],
    });
    expect(out.tasks).toEqual(['A1', 'B1']);
    const s = await waitTasks(id, (x) => x.status === 'waiting_operator' && x.attemptsRun === 6);
    expect(s.tasks.map((t) => [t.id, t.attempts.length, t.status])).toEqual([
      ['A1', 3, 'blocked'],
      ['B1', 3, 'blocked'],
    ]);
    await handle.signal('finish', { by: 'ops' });
    const r = (await handle.result()) as ProjectResult;
    expect(r.status).toBe('finished_with_blocked');
    expect(r.blocked.map((b) => b.id)).toEqual(['A1', 'B1']);
  });

  it('continues as new between attempts and keeps the task table exact', async () => {
    const prd = {
      userStories: [story('C1', 'Fix one', 1), story('C2', 'Fix two', 2), story('C3', 'Fix three', 3)],
    };
    const ws = tempWorkspace(
      { 'prd.json': JSON.stringify(prd, null, 2), 'check.js': CHECK },
      {
        tasks: {
          C1: { attempts: { '2': finishTask('C1') }, default: failTask('C1') },
          C2: { default: finishTask('C2') },
          C3: { default: finishTask('C3') },
        },
      },
    );
    const id = await startProject(ws, { continueAsNewEvery: 2 });
    const r = (await h.client.workflow.getHandle(id).result()) as ProjectResult;
    expect(r).toMatchObject({ status: 'done', done: ['C1', 'C2', 'C3'], attempts: 4 });
    const s = await tasksOf(id);
    expect(s.run).toBeGreaterThanOrEqual(1);
    expect(s.tasks.map((t) => [t.id, t.attempts.map((a) => a.outcome)])).toEqual([
      ['C1', ['gate_failure', 'accepted']],
      ['C2', ['accepted']],
      ['C3', ['accepted']],
    ]);
  });

  it('fails at once with the PRD file, line and problem for a bad PRD', async () => {
    const ws = tempWorkspace({ 'prd.json': '{"userStories": [{"id": "X", "title": 3}]}', 'check.js': CHECK });
    const id = await startProject(ws);
    const err = await h.client.workflow
      .getHandle(id)
      .result()
      .then(
        () => undefined,
        (e: { cause?: { message?: string } }) => e,
      );
    expect(err?.cause?.message).toMatch(/invalid PRD: .*prd\.json.*userStories\[0\]\.title/);
    expect((await h.client.workflow.getHandle(id).describe()).status.name).toBe('FAILED');
  });
});
