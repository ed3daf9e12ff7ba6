import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Harness, scriptedLoop, tempWorkspace, temporalPath } from '../helpers/env';
import { recordHistory } from '../helpers/histories';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

// Async on purpose: the worker runs in this process and must keep answering queries while the CLI runs.
const temporal = async (...args: string[]): Promise<string> =>
  (
    await promisify(execFile)(temporalPath(), [...args, '--address', h.env.address], {
      encoding: 'utf8',
      timeout: 30_000,
    })
  ).stdout;

describe('ralphLoop from the plain temporal CLI', () => {
  it('starts with `temporal workflow start`, shows up as awaiting a human, and completes on `temporal workflow signal`', async () => {
    const ws = tempWorkspace({ 'check.js': 'process.exit(1)' }, { default: [{ print: 'trying' }] });
    const id = `plain-cli-${Date.now()}`;
    const input = JSON.stringify(scriptedLoop(ws, { maxIterations: 2 }));
    await temporal(
      'workflow',
      'start',
      '--type',
      'ralphLoop',
      '--task-queue',
      h.taskQueue,
      '--workflow-id',
      id,
      '--input',
      input,
    );
    await h.waitFor(id, (s) => s.pendingGate !== undefined);
    const listed = await temporal('workflow', 'list', '--query', 'RalphAwaitingHuman = true', '--output', 'json');
    expect(listed).toContain(id);
    const status = JSON.parse(
      await temporal('workflow', 'query', '--workflow-id', id, '--name', 'status', '--output', 'json'),
    );
    expect(JSON.stringify(status)).toContain('max_iterations@2');
    await temporal(
      'workflow',
      'signal',
      '--workflow-id',
      id,
      '--name',
      'approve',
      '--input',
      '{"by":"ops","reason":"shipped"}',
    );
    expect(await h.result(id)).toMatchObject({
      status: 'accepted',
      acceptedBy: 'human',
      by: 'ops',
      reason: 'shipped',
      iterations: 2,
    });
    const done = await temporal(
      'workflow',
      'list',
      '--query',
      `WorkflowId = '${id}' AND RalphStatus = 'accepted'`,
      '--output',
      'json',
    );
    expect(done).toContain(id);
    await recordHistory(h, id, 'plain-cli-approve');
  });

  it('accepts a signal with no input at all', async () => {
    const ws = tempWorkspace({ 'check.js': 'process.exit(1)' }, { default: [{ print: 'trying' }] });
    const id = `plain-cli-noinput-${Date.now()}`;
    await temporal(
      'workflow',
      'start',
      '--type',
      'ralphLoop',
      '--task-queue',
      h.taskQueue,
      '--workflow-id',
      id,
      '--input',
      JSON.stringify(scriptedLoop(ws, { maxIterations: 1 })),
    );
    await h.waitFor(id, (s) => s.pendingGate !== undefined);
    await temporal('workflow', 'signal', '--workflow-id', id, '--name', 'abort');
    expect(await h.result(id)).toMatchObject({ status: 'aborted' });
  });
});
