import { Harness, checkFileExists, scriptedLoop, tempWorkspace } from '../helpers/env';
import { recordHistory } from '../helpers/histories';
import { RECORDS_KEPT } from '../../src/core/loop-types';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

describe('ralphLoop continue-as-new', () => {
  it('continues as new every 20 iterations in a 60-iteration loop and keeps status totals exact', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      {
        iterations: { '60': [{ write: 'done.txt', content: 'x' }, { usage: { inputTokens: 1, outputTokens: 1 } }] },
        default: [{ usage: { inputTokens: 10, outputTokens: 2, costUsd: 0.001 } }],
      },
    );
    // The agent idles for 59 iterations on purpose: the stuck-loop and no-files detectors would (rightly) stop it.
    const input = scriptedLoop(ws, {
      maxIterations: 100,
      continueAsNewEvery: 20,
      persistence: { detectors: { stuck: false, noFiles: false } },
    });
    const handle = await h.client.workflow.start('ralphLoop', {
      taskQueue: h.taskQueue,
      workflowId: `can-${Date.now()}`,
      args: [input],
    });
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'accepted', iterations: 60 });
    const s = await h.status(handle.workflowId);
    expect(s.run).toBe(2);
    expect(s.totals).toMatchObject({
      iterations: 60,
      agentRuns: 60,
      checksRun: 60,
      checksPassed: 1,
      checksFailed: 59,
      inputTokens: 591,
      outputTokens: 119,
    });
    expect(s.totals.costUsd).toBeCloseTo(0.059, 6);
    expect(s.records).toHaveLength(RECORDS_KEPT);
    // The anti-laziness state crosses continue-as-new too.
    expect(s.persistence!.profile.iterations).toBe(60);
    expect(s.persistence!.level).toBe('AGGRESSIVE');
    expect(s.records[s.records.length - 1].n).toBe(60);
    const first = await h.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).describe();
    expect(first.status.name).toBe('CONTINUED_AS_NEW');
    // Each run stays small: 20 iterations of history, not 60.
    const history = await h.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).fetchHistory();
    expect(history.events!.length).toBeLessThan(20 * 20);
    await recordHistory(h, handle.workflowId, 'continue-as-new-last-run');
  });
});
