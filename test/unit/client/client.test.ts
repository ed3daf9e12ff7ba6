/**
 * The client (src/client), the one way the CLI and the console talk to Temporal: every function against a real dev
 * server and worker, with the errors it promises for the cases a user meets (no server, unknown id, an ended loop, a
 * loop where a project was meant and back, a bad filter, a refused update).
 */
import fs from 'node:fs';
import type { Client } from '@temporalio/client';
import {
  InvalidInputError,
  LoopFinishedError,
  LoopNotFoundError,
  NoServerError,
  NotALoopError,
  NotAProjectError,
  ProjectFinishedError,
  ProjectNotFoundError,
  UpdateRejectedError,
  connectClient,
  describeWorkflow,
  finishProject,
  getLoopStatus,
  getProjectTasks,
  listLoops,
  listProjects,
  loopResult,
  newLoopId,
  newProjectId,
  retryBlockedTasks,
  routeLoop,
  signalLoop,
  startLoop,
  startProject,
  unblockTasks,
} from '../../../src/client';
import { ConnectionConfig } from '../../../src/config/connection';
import { Harness, checkFileExists, scriptedLoop, tempWorkspace } from '../../helpers/env';

let h: Harness;
let client: Client;
beforeAll(async () => {
  h = await Harness.start();
  client = await connectClient(ConnectionConfig.parse({ address: h.env.address }));
});
afterAll(async () => {
  await client?.connection.close();
  await h?.stop();
});

/** A loop that writes `done` in its first iteration and is accepted by `node check.js`. */
function quickLoop(): ReturnType<typeof scriptedLoop> {
  const ws = tempWorkspace({ 'check.js': checkFileExists('done') }, { default: [{ write: 'done', content: 'ok' }] });
  return scriptedLoop(ws);
}

/** A project whose one task never passes (blocks after one attempt), so it waits for an operator. */
function blockingProject(): { prdFile: string; workspace: string } {
  const prd = {
    userStories: [{ id: 'T1', title: 'Fix it', description: 'x', acceptanceCriteria: ['y'], priority: 1 }],
  };
  const workspace = tempWorkspace({ 'prd.json': JSON.stringify(prd), 'check.js': 'process.exit(1)' }, { default: [] });
  return { prdFile: `${workspace}/prd.json`, workspace };
}

describe('client', () => {
  it('says which address has no server, with the command that starts one', async () => {
    const e = await connectClient(ConnectionConfig.parse({ address: '127.0.0.1:1' })).catch((x: Error) => x);
    expect(e).toBeInstanceOf(NoServerError);
    expect((e as Error).message).toMatch(/^no Temporal server at 127\.0\.0\.1:1: start one with `ralph dev`/);
  });

  it('makes readable, unique ids', () => {
    expect(newLoopId('Fix the Parser!')).toMatch(/^ralph-fix-the-parser-[0-9a-f]{6}$/);
    expect(newLoopId('')).toMatch(/^ralph-loop-[0-9a-f]{6}$/);
    expect(newLoopId('x')).not.toBe(newLoopId('x'));
    expect(newProjectId('/work/shop/prd.json')).toMatch(/^ralph-project-shop-prd-[0-9a-f]{6}$/);
    expect(newProjectId('/work/release-plan.md')).toMatch(/^ralph-project-release-plan-[0-9a-f]{6}$/);
  });

  it('refuses an invalid loop input before anything starts', async () => {
    const id = newLoopId('bad');
    await expect(startLoop(client, { prompt: 'x' } as never, { taskQueue: h.taskQueue, loopId: id })).rejects.toThrow(
      InvalidInputError,
    );
    await expect(describeWorkflow(client, id)).rejects.toThrow(LoopNotFoundError);
  });

  it('starts a loop, reads its status, result and list row, and refuses signals once it ended', async () => {
    const id = await startLoop(client, quickLoop(), { taskQueue: h.taskQueue });
    expect(id).toMatch(/^ralph-/);
    expect(await describeWorkflow(client, id)).toEqual({ type: 'ralphLoop', status: expect.any(String) });
    const r = await loopResult(client, id);
    expect(r.status).toBe('accepted');
    const s = await getLoopStatus(client, id);
    expect(s).toMatchObject({ loopId: id, status: 'accepted' });

    let row: Awaited<ReturnType<typeof listLoops>>[number] | undefined;
    for (let i = 0; i < 50 && !row?.status; i++) {
      row = (await listLoops(client, { limit: 20 })).find((l) => l.loopId === id);
      if (!row?.status) await new Promise((res) => setTimeout(res, 200));
    }
    expect(row).toMatchObject({ loopId: id, workflowStatus: 'COMPLETED', status: 'accepted', awaitingHuman: false });

    await expect(signalLoop(client, id, 'approve', { by: 'me' })).rejects.toThrow(LoopFinishedError);
    await expect(routeLoop(client, id, { profile: 'base' } as never)).rejects.toThrow(LoopFinishedError);
  });

  it('reads an ended loop from its result when no worker answers the query', async () => {
    const id = await startLoop(client, quickLoop(), { taskQueue: h.taskQueue });
    await loopResult(client, id);
    await h.stopWorker();
    try {
      const s = await getLoopStatus(client, id);
      expect(s).toMatchObject({ loopId: id, status: 'accepted', phase: 'done' });
      expect(s.iteration).toBeGreaterThanOrEqual(1);
    } finally {
      await h.startWorker();
    }
  });

  it('names the unknown id, and refuses a filter that could change the list query', async () => {
    await expect(getLoopStatus(client, 'no-such-loop')).rejects.toThrow(LoopNotFoundError);
    await expect(signalLoop(client, 'no-such-loop', 'abort')).rejects.toThrow('no loop with id "no-such-loop"');
    await expect(loopResult(client, 'no-such-loop')).rejects.toThrow(LoopNotFoundError);
    await expect(listLoops(client, { status: "x' OR 1=1" })).rejects.toThrow(InvalidInputError);
    await expect(getProjectTasks(client, 'no-such-project')).rejects.toThrow(ProjectNotFoundError);
  });

  it('runs a project: tasks, a refused and an accepted update, finish; a loop is not a project and back', async () => {
    const { prdFile, workspace } = blockingProject();
    const input = {
      prdFile,
      workspace,
      agent: { adapter: 'scripted' as const, script: '.ralph-script.json' },
      completion: { command: 'node check.js' },
      timeouts: { maxAttemptsPerTask: 1 },
    };
    const id = await startProject(client, input as never, { taskQueue: h.taskQueue });
    expect((await listProjects(client)).map((p) => p.projectId)).toContain(id);
    await expect(routeLoop(client, id, { profile: 'base' } as never)).rejects.toThrow(NotALoopError);

    let state = await getProjectTasks(client, id).catch(() => undefined);
    for (let i = 0; i < 300 && state?.status !== 'waiting_operator'; i++) {
      await new Promise((res) => setTimeout(res, 200));
      state = await getProjectTasks(client, id).catch(() => undefined);
    }
    expect(state).toMatchObject({ status: 'waiting_operator' });
    expect(state!.tasks[0]).toMatchObject({ id: 'T1', status: 'blocked' });

    await expect(unblockTasks(client, id, { taskIds: ['nope'] })).rejects.toThrow(UpdateRejectedError);
    const retried = await retryBlockedTasks(client, id, { maxAttempts: 1, by: 'ops' });
    expect(retried.tasks).toEqual(['T1']);
    for (let i = 0; i < 300 && state?.attemptsRun !== 2; i++) {
      await new Promise((res) => setTimeout(res, 200));
      state = await getProjectTasks(client, id);
    }
    expect(state?.attemptsRun).toBe(2);
    for (let i = 0; i < 300 && state?.status !== 'waiting_operator'; i++) {
      await new Promise((res) => setTimeout(res, 200));
      state = await getProjectTasks(client, id);
    }
    await finishProject(client, id, { by: 'ops' });
    await client.workflow.getHandle(id).result();
    await expect(finishProject(client, id)).rejects.toThrow(ProjectFinishedError);
    await expect(unblockTasks(client, id, { taskIds: ['T1'] })).rejects.toThrow(ProjectFinishedError);

    const loopId = await startLoop(client, quickLoop(), { taskQueue: h.taskQueue });
    await expect(getProjectTasks(client, loopId)).rejects.toThrow(NotAProjectError);
    await loopResult(client, loopId);
    fs.rmSync(workspace, { recursive: true, force: true });
  });
});
