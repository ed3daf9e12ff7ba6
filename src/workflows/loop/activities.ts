/**
 * Every activity proxy of `ralphLoop`, created in one place with its options documented here. The loop's phases get
 * them through {@link LoopActivities}; changing where an activity runs (another task queue, a host's own queue) means
 * changing {@link loopActivities} only.
 */
import { ActivityCancellationType, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type * as activities from '../../activities';
import type { GateSpec } from '../../config/gates-config';
import type { LoopInput } from '../../config/loop-input';
import { NON_RETRYABLE_ERROR_TYPES } from '../../core/constants';

type Acts = typeof activities;

/** The activities one loop calls, bound to that loop's options (timeouts come from its input). */
export interface LoopActivities {
  runAgent: Acts['runAgent'];
  checkCompletion: Acts['checkCompletion'];
  inspectIteration: Acts['inspectIteration'];
  restoreCheckpoint: Acts['restoreCheckpoint'];
  persistState: Acts['persistState'];
  /** `runGate` with the options of one gate (its own timeout and retry policy). */
  runGate: (gate: GateSpec) => Acts['runGate'];
}

/**
 * Input validation runs before the loop's options are known. Config errors (ErrorTypes) are non-retryable: a bad
 * input fails the loop at once with the activity's message.
 */
export const { validateLoopInput } = proxyActivities<Acts>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
});

// Writing state.json is short and local to the worker: a local activity costs one marker event, not six.
const { persistState } = proxyLocalActivities<Acts>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5 },
});

/** The activity proxies of a loop whose input is `input`. */
export function loopActivities(input: LoopInput): LoopActivities {
  // The agent: startToClose is the iteration timeout; the heartbeat timeout catches a dead worker early. Retries are
  // for infrastructure (a killed worker); an AgentTimeout (our own deadline) is an outcome, not retried.
  const { runAgent } = proxyActivities<Acts>({
    startToCloseTimeout: `${input.iterationTimeoutSeconds} seconds`,
    heartbeatTimeout: `${input.heartbeatTimeoutSeconds} seconds`,
    // Wait for the agent's process group to be killed before the workflow moves on after an abort.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: {
      maximumAttempts: input.agentMaxAttempts,
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '1 minute',
      nonRetryableErrorTypes: [...NON_RETRYABLE_ERROR_TYPES, 'AgentTimeout'],
    },
  });
  // The completion command: its own timeout plus a minute to start and collect output.
  const { checkCompletion } = proxyActivities<Acts>({
    startToCloseTimeout: `${input.completion.timeoutSeconds + 60} seconds`,
    heartbeatTimeout: '1 minute',
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: { maximumAttempts: 3, initialInterval: '1 second' },
  });
  // The detection pass is short and runs next to the workflow: a local activity costs one marker event, not six.
  const { inspectIteration } = proxyLocalActivities<Acts>({
    startToCloseTimeout: '5 minutes',
    retry: { maximumAttempts: 3, initialInterval: '1 second' },
  });
  // Rollbacks and best-output restores rewrite files: long enough for a big tree, heartbeating.
  const { restoreCheckpoint } = proxyActivities<Acts>({
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: '2 minutes',
    retry: { maximumAttempts: 3, initialInterval: '1 second' },
  });
  // Each gate is its own activity: its own timeout and retry policy, and independent gates run in parallel.
  const runGate = (gate: GateSpec) =>
    proxyActivities<Acts>({
      startToCloseTimeout: `${gate.timeoutSeconds + 60} seconds`,
      heartbeatTimeout: '1 minute',
      retry: { maximumAttempts: gate.maxAttempts ?? 2, initialInterval: '1 second' },
    }).runGate;
  // Summaries: what the Temporal Web UI's timeline shows for each call ("iteration 7: run claude-code (timeout
  // 30m)"). They are metadata of the scheduling command, not part of it: replay ignores them, so no patch is needed.
  return {
    runAgent: (i) =>
      runAgent.executeWithOptions(
        {
          summary: `iteration ${i.iteration}: run ${i.agent.adapter} (timeout ${minutes(input.iterationTimeoutSeconds)}${i.run > 1 ? `, run ${i.run}` : ''})`,
        },
        [i],
      ),
    checkCompletion: (i) =>
      checkCompletion.executeWithOptions({ summary: `iteration ${i.iteration}: check \`${clip(i.command, 60)}\`` }, [
        i,
      ]),
    inspectIteration: (i) =>
      inspectIteration.executeWithOptions({ summary: `iteration ${i.iteration}: inspect changes and detectors` }, [i]),
    restoreCheckpoint: (i) =>
      restoreCheckpoint.executeWithOptions({ summary: `restore checkpoint ${i.label} to ${i.to}` }, [i]),
    persistState: (i) => persistState.executeWithOptions({ summary: persistSummary(i) }, [i]),
    runGate: (gate) => (i) =>
      runGate(gate).executeWithOptions({ summary: `iteration ${i.iteration}: gate ${gate.name} (${gate.kind})` }, [i]),
  };
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s).replace(/\s+/g, ' ');
const minutes = (seconds: number): string =>
  seconds % 60 === 0
    ? `${seconds / 60}m`
    : seconds > 60
      ? `${Math.floor(seconds / 60)}m${seconds % 60}s`
      : `${seconds}s`;

/** "iteration 7: gates 3/4 passed, quality 75%, continue" for a recorded iteration; else the loop's status. */
function persistSummary(i: activities.PersistStateInput): string {
  const r = i.record;
  if (!r) return `state: ${i.state.status}${i.state.pendingGate ? ` (gate ${i.state.pendingGate.id})` : ''}`;
  const parts: string[] = [];
  if (r.gates?.length) parts.push(`gates ${r.gates.filter((g) => g.passed).length}/${r.gates.length} passed`);
  if (r.quality !== undefined) parts.push(`quality ${r.quality}%`);
  if (r.check) parts.push(`check ${r.check.passed ? 'passed' : 'failed'}`);
  parts.push(r.outcome);
  return `iteration ${r.n}: ${parts.join(', ')}`;
}
