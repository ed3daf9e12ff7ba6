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
  recordVerificationBaseline: Acts['recordVerificationBaseline'];
  verifyWork: Acts['verifyWork'];
  revertProtectedChanges: Acts['revertProtectedChanges'];
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
  const runGate = (gate: GateSpec): Acts['runGate'] =>
    proxyActivities<Acts>({
      startToCloseTimeout: `${gate.timeoutSeconds + 60} seconds`,
      heartbeatTimeout: '1 minute',
      retry: { maximumAttempts: gate.maxAttempts ?? 2, initialInterval: '1 second' },
    }).runGate;
  // Verification (patch verification-v1): the baseline is a checkpoint and a file listing; the verification run is the
  // completion command and every gate at once in a verification tree, so its limit is the longest of them plus time
  // to build and remove the tree. Heartbeats come from the commands it runs.
  const { recordVerificationBaseline, revertProtectedChanges } = proxyActivities<Acts>({
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: '5 minutes',
    retry: { maximumAttempts: 3, initialInterval: '1 second' },
  });
  const longestCheck = Math.max(
    input.completion.timeoutSeconds,
    ...(input.gates?.gates ?? []).filter((g) => g.enabled).map((g) => g.timeoutSeconds),
  );
  const { verifyWork } = proxyActivities<Acts>({
    startToCloseTimeout: `${longestCheck + 300} seconds`,
    heartbeatTimeout: '5 minutes',
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: { maximumAttempts: 2, initialInterval: '1 second' },
  });
  return {
    runAgent,
    checkCompletion,
    inspectIteration,
    restoreCheckpoint,
    persistState,
    runGate,
    recordVerificationBaseline,
    verifyWork,
    revertProtectedChanges,
  };
}
