/**
 * Every activity proxy of `ralphLoop`, created in one place with its options documented here. The loop's phases get
 * them through {@link LoopActivities}; changing where an activity runs (another task queue, a host's own queue) means
 * changing {@link loopActivities} only.
 */
import {
  ActivityCancellationType,
  proxyActivities,
  proxyLocalActivities,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import type * as activities from '../../activities';
import type { GateSpec } from '../../config/gates-config';
import type { ResolvedLoopInput } from '../../config/loop-input';
import { ErrorTypes, NON_RETRYABLE_ERROR_TYPES } from '../../core/constants';
import { hostIdProblem, hostTaskQueue } from '../../core/hosts';
import { HostMoveRequested, isScheduleToStartTimeout } from './failures';

type Acts = typeof activities;

/** The activities one loop calls, bound to that loop's options (timeouts come from its input). */
export interface LoopActivities {
  runAgent: Acts['runAgent'];
  /** `runAgent` with another iteration timeout (a routed profile's, when it is larger than the loop's). */
  runAgentFor: (timeoutSeconds: number) => Acts['runAgent'];
  checkCompletion: Acts['checkCompletion'];
  inspectIteration: Acts['inspectIteration'];
  restoreCheckpoint: Acts['restoreCheckpoint'];
  persistState: Acts['persistState'];
  /** `runGate` with the options of one gate (its own timeout and retry policy). */
  runGate: (gate: GateSpec) => Acts['runGate'];
  /** Re-creates the workspace on this loop's host (a `ralph move`). */
  relocateWorkspace: Acts['relocateWorkspace'];
  recordVerificationBaseline: Acts['recordVerificationBaseline'];
  verifyWork: Acts['verifyWork'];
  revertProtectedChanges: Acts['revertProtectedChanges'];
  /** Routing's activities (patch routing-host-queue: on the host's queue for a host-bound loop). */
  startRouting: Acts['startRouting'];
  loadAgentProfile: Acts['loadAgentProfile'];
  readHandoff: Acts['readHandoff'];
  recordRouting: Acts['recordRouting'];
}

/** How a host-bound loop learns that its host's worker is missing, and whether a move should interrupt the wait. */
export interface HostHooks {
  /** An activity waited `hostWaitSeconds` for a worker of the host. */
  waiting(activity: string): void;
  /** The host's worker picked up an activity. */
  answered(): void;
  /** A move is pending and may interrupt this wait (the wait then throws {@link HostMoveRequested}). */
  moveRequested(): boolean;
}

/**
 * Input validation runs before the loop's options are known. Config errors (ErrorTypes) are non-retryable: a bad
 * input fails the loop at once with the activity's message. A loop started with a valid `host` is validated on that
 * host's queue (its workspace is there); otherwise on the shared queue, by whichever worker takes it.
 */
export function validateLoopInputOn(host: unknown): Acts['validateLoopInput'] {
  return proxyActivities<Acts>({
    startToCloseTimeout: '1 minute',
    retry: { maximumAttempts: 3, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
    ...(typeof host === 'string' && !hostIdProblem(host)
      ? { taskQueue: hostTaskQueue(workflowInfo().taskQueue, host) }
      : {}),
  }).validateLoopInput;
}

// Writing state.json is short and local to the worker: a local activity costs one marker event, not six.
const { persistState: localPersistState } = proxyLocalActivities<Acts>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5 },
});

/**
 * Patch id: state.json is written by a normal activity, not a local one (and a routed run's profile is loaded by
 * one). A status query that reaches the worker while a local activity runs can make it record the activity's marker
 * in one workflow task while the workflow sees the result only in the next, after the signals that came in meanwhile;
 * a replay resolves the marker in the first task, before them. The loop reads what signals change (abort, pause,
 * move, route) right after a persist (before each iteration) and starts the agent right after the profile is loaded,
 * so such a signal took another path on replay (seen: a `pause` during an iteration's last persist paused the loop,
 * and its replay ran the next agent: a nondeterminism error). A normal activity's completion is a history event of
 * its own: the code after it sees the same signals on replay. Five more events a persist, and about 10 ms.
 */
export const PERSIST_ACTIVITY_PATCH = 'persist-activity-v1';

// The same, as a normal activity (patch persist-activity-v1).
const { persistState: normalPersistState } = proxyActivities<Acts>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5, initialInterval: '1 second' },
});

/**
 * The activity proxies of a loop whose input is `input`. A host-bound loop (`input.host`) runs every workspace
 * activity on its host's queue, the local ones as normal activities (a local activity runs wherever the workflow task
 * runs); each waits for the host's worker as long as it takes, reporting through `hooks` every `hostWaitSeconds`.
 */
export function loopActivities(
  input: ResolvedLoopInput,
  hooks?: HostHooks,
  o: { persistActivity?: boolean } = {},
): LoopActivities {
  if (!input.host) return sharedActivities(input, {}, o.persistActivity);
  const host: ActivityOptions = {
    taskQueue: hostTaskQueue(workflowInfo().taskQueue, input.host),
    scheduleToStartTimeout: `${input.hostWaitSeconds} seconds`,
  };
  const acts = sharedActivities(input, host);
  const h = hooks ?? { waiting: () => undefined, answered: () => undefined, moveRequested: () => false };
  return {
    runAgent: waitForHost('runAgent', acts.runAgent, h, resumed),
    runAgentFor: (seconds) => waitForHost('runAgent', acts.runAgentFor(seconds), h, resumed),
    checkCompletion: waitForHost('checkCompletion', acts.checkCompletion, h),
    inspectIteration: waitForHost('inspectIteration', acts.inspectIteration, h),
    restoreCheckpoint: waitForHost('restoreCheckpoint', acts.restoreCheckpoint, h),
    persistState: waitForHost('persistState', acts.persistState, h),
    runGate: (gate) => waitForHost('runGate', acts.runGate(gate), h),
    relocateWorkspace: waitForHost('relocateWorkspace', acts.relocateWorkspace, h),
    recordVerificationBaseline: waitForHost('recordVerificationBaseline', acts.recordVerificationBaseline, h),
    verifyWork: waitForHost('verifyWork', acts.verifyWork, h),
    revertProtectedChanges: waitForHost('revertProtectedChanges', acts.revertProtectedChanges, h),
    startRouting: waitForHost('startRouting', acts.startRouting, h),
    loadAgentProfile: waitForHost('loadAgentProfile', acts.loadAgentProfile, h),
    readHandoff: waitForHost('readHandoff', acts.readHandoff, h),
    recordRouting: waitForHost('recordRouting', acts.recordRouting, h),
  };
}

/** A run scheduled again after a wait starts from its pre-run checkpoint, as a retried attempt does. */
const resumed = (i: activities.RunAgentInput): activities.RunAgentInput => ({ ...i, resume: (i.resume ?? 0) + 1 });

/**
 * Calls `fn` until a worker of the host picks it up: each schedule-to-start timeout is reported and the activity is
 * scheduled again (the loop never moves by itself), unless a move is pending and may interrupt.
 */
function waitForHost<I, R>(
  activity: string,
  fn: (input: I) => Promise<R>,
  hooks: HostHooks,
  again: (input: I) => I = (i) => i,
): (input: I) => Promise<R> {
  return async (input: I) => {
    for (let i = input; ; i = again(i)) {
      try {
        const r = await fn(i);
        hooks.answered();
        return r;
      } catch (e) {
        if (!isScheduleToStartTimeout(e)) {
          hooks.answered();
          throw e;
        }
        hooks.waiting(activity);
        if (hooks.moveRequested()) throw new HostMoveRequested(activity);
      }
    }
  };
}

/**
 * The proxies of a loop: on the shared queue (single-host deployments: every worker sees the workspace), or with
 * `host` options on a host's queue, where the local activities become normal ones (a local activity runs wherever the
 * workflow task runs, which may be another host).
 */
function sharedActivities(
  input: ResolvedLoopInput,
  host: ActivityOptions = {},
  persistActivity = false,
): LoopActivities {
  const onHost = host.taskQueue !== undefined;
  // Every heartbeating activity beats on a timer while its worker lives (src/activities/liveness.ts): the loop's
  // heartbeat timeout is how soon a dead worker is noticed, whatever the activity was doing when it died.
  const liveness = input.heartbeatTimeoutSeconds * 1000;
  const hostLocal = onHost
    ? proxyActivities<Acts>({
        ...host,
        startToCloseTimeout: '5 minutes',
        retry: { maximumAttempts: 5, initialInterval: '1 second' },
      })
    : undefined;
  const persistState = hostLocal?.persistState ?? (persistActivity ? normalPersistState : localPersistState);
  const runAgentFor = agentRunner(input, host, liveness);
  // The completion command: its own timeout plus a minute to start and collect output.
  const { checkCompletion } = proxyActivities<Acts>({
    ...host,
    startToCloseTimeout: `${input.completion.timeoutSeconds + 60} seconds`,
    heartbeatTimeout: liveness,
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: { maximumAttempts: 3, initialInterval: '1 second' },
  });
  // The detection pass is short and runs next to the workflow: a local activity costs one marker event, not six.
  const inspectIteration =
    hostLocal?.inspectIteration ??
    proxyLocalActivities<Acts>({
      startToCloseTimeout: '5 minutes',
      retry: { maximumAttempts: 3, initialInterval: '1 second' },
    }).inspectIteration;
  // Rollbacks and best-output restores rewrite files: long enough for a big tree, heartbeating.
  const { restoreCheckpoint } = proxyActivities<Acts>({
    ...host,
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: liveness,
    retry: { maximumAttempts: 3, initialInterval: '1 second' },
  });
  // A relocation clones the repository: no heartbeat (git clone reports nothing), a generous limit.
  const { relocateWorkspace } = proxyActivities<Acts>({
    ...host,
    startToCloseTimeout: '30 minutes',
    retry: { maximumAttempts: 3, initialInterval: '5 seconds', nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
  });
  // Each gate is its own activity: its own timeout and retry policy, and independent gates run in parallel.
  const runGate = (gate: GateSpec) =>
    proxyActivities<Acts>({
      ...host,
      startToCloseTimeout: `${gate.timeoutSeconds + 60} seconds`,
      heartbeatTimeout: liveness,
      retry: { maximumAttempts: gate.maxAttempts ?? 2, initialInterval: '1 second' },
    }).runGate;
  const { recordVerificationBaseline, revertProtectedChanges, verifyWork } = verificationProxies(input, host, liveness);

  // Summaries: what the Temporal Web UI's timeline shows for each call ("iteration 7: run claude-code (timeout
  // 30m)"). They are metadata of the scheduling command, not part of it: replay ignores them, so no patch is needed.
  return {
    runAgent: runAgentFor(input.iterationTimeoutSeconds),
    runAgentFor,
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
    relocateWorkspace: (i) =>
      relocateWorkspace.executeWithOptions({ summary: `move: re-create the workspace at ${i.workspace}` }, [i]),
    recordVerificationBaseline: (i) =>
      recordVerificationBaseline.executeWithOptions({ summary: 'verification: record the baseline' }, [i]),
    verifyWork: (i) =>
      verifyWork.executeWithOptions({ summary: `iteration ${i.iteration}: verify on the original checks` }, [i]),
    revertProtectedChanges: (i) =>
      revertProtectedChanges.executeWithOptions({ summary: 'verification: revert protected changes' }, [i]),
    ...routingProxies(hostLocal),
  };
}

/**
 * The agent's activity, for a given iteration timeout (a routed agent's profile may give it a longer one). The
 * heartbeat timeout catches a dead worker early.
 */
function agentRunner(
  input: ResolvedLoopInput,
  host: ActivityOptions,
  liveness: number,
): (timeoutSeconds: number) => Acts['runAgent'] {
  // The agent: startToClose is the iteration timeout; the heartbeat timeout catches a dead worker early. Retries are
  // for infrastructure (a killed worker); an AgentTimeout (our own deadline) is an outcome, not retried.
  const rawRunAgentFor = (timeoutSeconds: number) =>
    proxyActivities<Acts>({
      ...host,
      startToCloseTimeout: `${timeoutSeconds} seconds`,
      heartbeatTimeout: liveness,
      // Wait for the agent's process group to be killed before the workflow moves on after an abort.
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
      retry: {
        maximumAttempts: input.agentMaxAttempts,
        initialInterval: '1 second',
        backoffCoefficient: 2,
        maximumInterval: '1 minute',
        nonRetryableErrorTypes: [...NON_RETRYABLE_ERROR_TYPES, ErrorTypes.AgentTimeout],
      },
    }).runAgent;
  // A routed agent's profile may give it a longer iteration timeout: same options, another startToClose.
  // A fused iteration (`then`): the agent keeps its own deadline, and the activity's limit also covers the detection
  // pass (as long as its local activity had) and the check (its own timeout plus a minute).
  return (timeoutSeconds: number): Acts['runAgent'] =>
    (i) =>
      rawRunAgentFor(timeoutSeconds).executeWithOptions(
        {
          summary: `iteration ${i.iteration}: run ${i.agent.adapter} (timeout ${minutes(timeoutSeconds)}${i.run > 1 ? `, run ${i.run}` : ''})${i.then?.check ? `, then check \`${clip(i.then.check.command, 40)}\`` : ''}`,
          ...(i.then
            ? {
                startToCloseTimeout: `${timeoutSeconds + (i.then.inspect ? 300 : 0) + (i.then.check ? i.then.check.timeoutSeconds + 60 : 0)} seconds`,
              }
            : {}),
        },
        [i.then ? { ...i, then: { ...i.then, agentTimeoutSeconds: timeoutSeconds } } : i],
      );
}

/** Routing's file work (profiles, session, handoff, log) is short: local next to the workflow, or on the host. */
function routingProxies(hostLocal: ReturnType<typeof proxyActivities<Acts>> | undefined) {
  const routing =
    hostLocal ?? proxyLocalActivities<Acts>({ startToCloseTimeout: '30 seconds', retry: { maximumAttempts: 3 } });
  return {
    startRouting: ((i) =>
      routing.startRouting.executeWithOptions({ summary: 'routing: list profiles' }, [i])) as Acts['startRouting'],
    loadAgentProfile: ((i) =>
      routing.loadAgentProfile.executeWithOptions({ summary: `routing: load profile ${i.name}` }, [
        i,
      ])) as Acts['loadAgentProfile'],
    readHandoff: ((i) =>
      routing.readHandoff.executeWithOptions({ summary: 'routing: read the handoff' }, [i])) as Acts['readHandoff'],
    recordRouting: ((i) =>
      routing.recordRouting.executeWithOptions({ summary: 'routing: session and log' }, [i])) as Acts['recordRouting'],
  };
}

/** The verification activities: recording the baseline, verifying on the original checks, reverting protected edits. */
function verificationProxies(input: ResolvedLoopInput, host: ActivityOptions, liveness: number) {
  // Verification (patch verification-v1): the baseline is a checkpoint and a file listing; the verification run is the
  // completion command and every gate at once in a verification tree, so its limit is the longest of them plus time
  // to build and remove the tree. The liveness timer beats throughout, building the tree included.
  const { recordVerificationBaseline, revertProtectedChanges } = proxyActivities<Acts>({
    ...host,
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: liveness,
    retry: { maximumAttempts: 3, initialInterval: '1 second' },
  });
  const longestCheck = Math.max(
    input.completion.timeoutSeconds,
    ...(input.gates?.gates ?? []).filter((g) => g.enabled).map((g) => g.timeoutSeconds),
  );
  const { verifyWork } = proxyActivities<Acts>({
    ...host,
    startToCloseTimeout: `${longestCheck + 300} seconds`,
    heartbeatTimeout: liveness,
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: { maximumAttempts: 2, initialInterval: '1 second' },
  });
  return { recordVerificationBaseline, revertProtectedChanges, verifyWork };
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
