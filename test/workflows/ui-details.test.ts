/**
 * What the Temporal Web UI reads of a loop, on the real dev server: the static summary and details the client sets at
 * start (describe), and the current details the loop keeps up to date (the SDK's `__temporal_workflow_metadata`
 * query, which the UI calls): iteration n/max, phase, the pending gate with its commands, and the outcome.
 */
import { startLoop, startProject } from '../../src/client';
import { SearchAttributes } from '../../src/core/constants';
import { Harness, checkFileExists, scriptedLoop, tempWorkspace } from '../helpers/env';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

/** The loop's current details, as the UI reads them. */
async function currentDetails(id: string): Promise<string> {
  const md = await h.client.workflow.getHandle(id).query<{ currentDetails?: string }>('__temporal_workflow_metadata');
  return md.currentDetails ?? '';
}

async function eventually(id: string, ok: (details: string) => boolean, timeoutMs = 60_000): Promise<string> {
  const end = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < end) {
    last = await currentDetails(id).catch(() => '');
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`current details never matched; last:\n${last}`);
}

describe('the Temporal UI texts of a loop', () => {
  it('sets the summary and details at start and says ACCEPTED by the check at the end', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      { iterations: { '2': [{ write: 'done.txt', content: 'x' }] }, default: [{ print: 'working' }] },
    );
    const input = scriptedLoop(ws, {
      prompt: 'Create done.txt so the check passes\n\nMore words the summary leaves out.',
      persistence: { detectors: { stuck: false, noFiles: false } },
    });
    const id = await startLoop(h.client, input, { taskQueue: h.taskQueue });
    const handle = h.client.workflow.getHandle(id);
    const d = await handle.describe();
    expect(await d.staticSummary()).toBe('Create done.txt so the check passes');
    const details = (await d.staticDetails()) ?? '';
    expect(details).toContain(`**Ralph loop** \`${id}\``);
    expect(details).toContain('`node check.js` must exit 0');
    expect(details).toContain('at most 5 before a human decides');
    expect(await handle.result()).toMatchObject({ status: 'accepted', acceptedBy: 'check' });
    const current = await currentDetails(id);
    expect(current.split('\n')[0]).toBe('**ACCEPTED by the check after 2 iterations**');
    expect(current).toContain('**Iteration** 2/5 · **Phase**: done · **Status**: accepted');
    expect(current).toContain('**Task**: Create done.txt so the check passes');
    expect(current).toContain('checks passed 1/2');
  });

  it('shows the pending gate with the commands that answer it, then ABORTED by whom, and RalphStatus aborted', async () => {
    const ws = tempWorkspace({ 'check.js': 'process.exit(1)' }, { default: [{ print: 'trying' }] });
    const input = scriptedLoop(ws, { prompt: 'Never passes', maxIterations: 1, persistence: { enabled: false } });
    const id = await startLoop(h.client, input, { taskQueue: h.taskQueue });
    const atGate = await eventually(id, (t) => t.includes('Waiting for a human'));
    expect(atGate).toContain('**Iteration** 1/1 · **Phase**: waiting for a human · **Status**: awaiting_human');
    expect(atGate).toContain('**Waiting for a human** at gate `max_iterations@1`');
    expect(atGate).toContain(`- \`ralph approve ${id}\``);
    expect(atGate).toContain(`- \`ralph reject ${id} --guidance "what to do differently"\``);
    expect(atGate).toContain(`- \`ralph abort ${id}\``);
    await h.signal(id, 'abort', { by: 'alice', reason: 'wrong approach' });
    expect(await h.result(id)).toMatchObject({ status: 'aborted', by: 'alice' });
    const ended = await currentDetails(id);
    expect(ended.split('\n')[0]).toBe('**ABORTED by alice after 1 iteration**');
    expect(ended).toContain('> wrong approach');
    expect(ended).not.toContain('ACCEPTED');
    expect(ended).not.toContain('Waiting for a human');
    const d = await h.client.workflow.getHandle(id).describe();
    // The list's status is COMPLETED either way: the outcome is in the details and in the RalphStatus attribute.
    expect(d.status.name).toBe('COMPLETED');
    expect(d.searchAttributes[SearchAttributes.RalphStatus.name]).toEqual(['aborted']);
  });

  it('gives a project its PRD as summary, and each child loop its task and attempt', async () => {
    const prd = {
      userStories: [
        { id: 'T1', title: 'Fix the importer', acceptanceCriteria: ['it works'], priority: 1, passes: false },
      ],
    };
    const ws = tempWorkspace(
      { 'prd.json': JSON.stringify(prd), 'check.js': checkFileExists('done-T1') },
      { default: [{ write: 'done-T1', content: 'ok' }] },
    );
    const projectId = await startProject(
      h.client,
      {
        prdFile: 'prd.json',
        workspace: ws,
        agent: { adapter: 'scripted', script: '.ralph-script.json' },
        completion: { command: 'node check.js' },
        heartbeatTimeoutSeconds: 10,
      },
      { taskQueue: h.taskQueue },
    );
    const project = h.client.workflow.getHandle(projectId);
    expect(await project.result()).toMatchObject({ status: 'done' });
    const pd = await project.describe();
    expect(await pd.staticSummary()).toBe('Ralph project: prd.json');
    expect(await pd.staticDetails()).toContain(`\`ralph status ${projectId}\``);
    const projectDetails = await currentDetails(projectId);
    expect(projectDetails.split('\n')[0]).toBe('**DONE: every task (1/1)**');
    expect(projectDetails).toContain('**Tasks**: 1/1 done · 0 blocked · 1 attempts · **Status**: done');
    const childId = `${projectId}--T1--a1`;
    const cd = await h.client.workflow.getHandle(childId).describe();
    expect(await cd.staticSummary()).toBe(`T1: Fix the importer (attempt 1 of project ${projectId})`);
    expect(await cd.staticDetails()).toContain(`Task \`T1\` of project \`${projectId}\`, attempt 1.`);
    const current = await currentDetails(childId);
    expect(current.split('\n')[0]).toBe('**ACCEPTED by the check after 1 iteration**');
    expect(current).toContain('**Task**: Task T1: Fix the importer');
  });

  it('names the task in the current details after continue-as-new, where the static summary is gone', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      { iterations: { '3': [{ write: 'done.txt', content: 'x' }] }, default: [{ print: 'working' }] },
    );
    const input = scriptedLoop(ws, {
      prompt: 'Write done.txt on the third try',
      continueAsNewEvery: 1,
      persistence: { detectors: { stuck: false, noFiles: false } },
    });
    const id = await startLoop(h.client, input, { taskQueue: h.taskQueue });
    const handle = h.client.workflow.getHandle(id);
    expect(await handle.result()).toMatchObject({ status: 'accepted', iterations: 3 });
    expect((await h.status(id)).run).toBe(2);
    // The SDK's continue-as-new carries no user metadata (1.24): the new run has no static summary, so the current
    // details name the task themselves.
    expect(await (await handle.describe()).staticSummary()).toBeUndefined();
    const current = await currentDetails(id);
    expect(current.split('\n')[0]).toBe('**ACCEPTED by the check after 3 iterations**');
    expect(current).toContain('**Task**: Write done.txt on the third try');
  });

  it("takes a prompt file's first line as the summary", async () => {
    const ws = tempWorkspace(
      { 'TASK.md': '# Port the importer to streams\n\nKeep the API.\n', 'check.js': 'process.exit(0)' },
      { default: [] },
    );
    const input = scriptedLoop(ws, { prompt: undefined, promptFile: 'TASK.md' });
    const id = await startLoop(h.client, input, { taskQueue: h.taskQueue });
    const d = await h.client.workflow.getHandle(id).describe();
    expect(await d.staticSummary()).toBe('Port the importer to streams');
    await h.result(id);
  });

  it('says FAILED and why when the input is invalid (no summary from the plain temporal CLI path)', async () => {
    const id = await h.startLoop({ prompt: 'x', workspace: '/nonexistent/ralph-ui-details' } as never);
    await expect(h.result(id)).rejects.toThrow();
    const current = await currentDetails(id);
    expect(current.split('\n')[0]).toBe('**FAILED after 0 iterations**');
    expect(current).toMatch(/^> invalid loop input: input.agent/m);
  });
});
