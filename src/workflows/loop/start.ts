/**
 * A loop's start: the machine (from the raw input, or the carry of the previous run), input validation, and the
 * context every phase receives. Order matters for replay: validation (an activity) comes before the anti-laziness
 * patch marker.
 */
import { log, patched, workflowInfo } from '@temporalio/workflow';
import type { ResolvedLoopInput, LoopInputRaw } from '../../config/loop-input';
import { LoopMachine } from '../../core/loop-machine';
import { AntiLazinessTracker } from '../../core/anti-laziness';
import { PERSIST_ACTIVITY_PATCH, loopActivities, validateLoopInputOn, type HostHooks } from './activities';
import type { RalphLoopCarry } from './carry';
import { nowIso, type LiveHandles, type LoopContext } from './context';
import {
  ROUTING_V4_PATCH,
  ROUTING_V5_PATCH,
  ROUTING_V6_PATCH,
  ROUTING_V7_PATCH,
  ROUTING_V8_PATCH,
  ROUTING_V9_PATCH,
  ROUTING_V10_PATCH,
  ROUTING_V13_PATCH,
  ROUTING_V14_PATCH,
  ROUTING_V15_PATCH,
  ROUTING_V16_PATCH,
  ROUTING_V17_PATCH,
  ROUTING_V18_PATCH,
  ROUTING_V21_PATCH,
  ROUTING_V24_PATCH,
  ROUTING_V25_PATCH,
  ROUTING_V26_PATCH,
  ROUTING_V29_PATCH,
} from './routing';
import { asLoopFailure } from './failures';
import { CHILD_GATE_NOTICE_PATCH } from './human-gate';
import { unsandboxedLine } from '../../core/sandbox';

/** Patch id of the anti-laziness layer: loops recorded before it replay without it. */
export const ANTI_LAZINESS_PATCH = 'anti-laziness-v1';
/**
 * The stuck rule on failing iterations with different errors and no quality progress. Loops recorded before it have
 * no `stuck.differentErrors` in their resolved input (the rule is off for them); the patch keeps it off on replay too.
 */
export const STUCK_DIFFERENT_ERRORS_PATCH = 'stuck-different-errors-v1';
/**
 * Patches asked once, here, instead of right after a local activity. A status query that reaches the worker while a
 * local activity runs can make it record the activity's marker in one workflow task and run the code after it in the
 * next; a replay runs that code one task earlier, before the patch markers recorded with it are announced, so a patch
 * asked there replays as not taken (an ended loop's status query then failed with a nondeterminism error). Loops
 * started under this patch take the fused iteration and the v3 routing model without asking their patches, and ask no
 * quality/cost patch; loops recorded before it ask them where they always did.
 */
export const PATCHES_AT_START_PATCH = 'patches-at-start-v1';

/**
 * The loop's machine before validation: from the carry, or from what the raw input says (anything missing gets a
 * placeholder), so the status query answers even when the input is invalid.
 */
export function createMachine(rawInput: LoopInputRaw, carry?: RalphLoopCarry): LoopMachine {
  const raw = (rawInput ?? {}) as Partial<LoopInputRaw>;
  return new LoopMachine(
    {
      loopId: workflowInfo().workflowId,
      maxIterations: typeof raw.maxIterations === 'number' ? raw.maxIterations : 10,
      agent: typeof raw.agent?.adapter === 'string' ? raw.agent.adapter : 'unknown',
      workspace: typeof raw.workspace === 'string' ? raw.workspace : '',
      stateDir: '',
      defaultExtraIterations: typeof raw.defaultExtraIterations === 'number' ? raw.defaultExtraIterations : 3,
      labels: {},
    },
    nowIso(),
    carry?.machine,
  );
}

/**
 * The validated input: a continued run trusts its carry (validated by the first run); a first run validates in an
 * activity, and a bad input fails the loop with the activity's message (the status query says why too).
 */
export async function validatedInput(
  m: LoopMachine,
  rawInput: LoopInputRaw,
  carry?: RalphLoopCarry,
): Promise<ResolvedLoopInput> {
  if (carry) return rawInput as ResolvedLoopInput;
  let input: ResolvedLoopInput;
  try {
    input = await validateLoopInputOn((rawInput as { host?: unknown } | undefined)?.host)({
      raw: rawInput,
      loopId: m.state.loopId,
    });
  } catch (e) {
    const failure = asLoopFailure(e) ?? e;
    // No state file yet (the workspace may not exist): the status query still says why the loop ended.
    m.finish({ status: 'failed', reason: (failure as Error).message }, '', nowIso());
    throw failure;
  }
  m.state.maxIterations = input.maxIterations;
  m.state.workspace = input.workspace;
  m.state.stateDir = input.stateDir;
  m.state.agent = input.agent.adapter;
  m.state.labels = input.labels;
  if (input.host) {
    const byInput = (rawInput as { host?: unknown }).host === input.host;
    m.bindHost(input.host, byInput ? 'input' : 'worker', !!input.checkpointRemoteUrl, nowIso());
  }
  return input;
}

/** The layer's settings, with the different-errors stuck rule off for histories recorded before it. */
function withStuckRules(
  pcfg: NonNullable<ResolvedLoopInput['persistence']>,
): NonNullable<ResolvedLoopInput['persistence']> {
  if (!pcfg.stuck.differentErrors || patched(STUCK_DIFFERENT_ERRORS_PATCH)) return pcfg;
  return { ...pcfg, stuck: { ...pcfg.stuck, differentErrors: 0 } };
}

/** The context of this run: activities bound to the input, the anti-laziness tracker when it is on. */
export function createContext(
  input: ResolvedLoopInput,
  m: LoopMachine,
  live: LiveHandles,
  carry?: RalphLoopCarry,
): LoopContext {
  // The anti-laziness layer: on by default for new loops; histories recorded before it replay without it. Inputs
  // carried from before the layer existed have no `persistence` at all.
  const pcfg: ResolvedLoopInput['persistence'] | undefined = input.persistence;
  const tracker =
    pcfg?.enabled && patched(ANTI_LAZINESS_PATCH)
      ? new AntiLazinessTracker(withStuckRules(pcfg), m.state.loopId, input.agent.adapter, m.state.persistence)
      : undefined;
  if (tracker) m.state.persistence = tracker.state;
  // A project's child tells the project when a human gate opens and closes (its Temporal UI details show it).
  const parent = workflowInfo().parent;
  const notifiesParent = parent && patched(CHILD_GATE_NOTICE_PATCH) ? parent.workflowId : undefined;
  // A safe point: right after the validation activity (or the first thing of a continued run), never after a local one.
  const patchesAtStart = patched(PATCHES_AT_START_PATCH);
  const persistActivity = patched(PERSIST_ACTIVITY_PATCH);
  const routingV4 = patched(ROUTING_V4_PATCH);
  const routingV5 = patched(ROUTING_V5_PATCH);
  const routingV6 = patched(ROUTING_V6_PATCH);
  const routingV7 = patched(ROUTING_V7_PATCH);
  const routingV8 = patched(ROUTING_V8_PATCH);
  const routingV9 = patched(ROUTING_V9_PATCH);
  const routingV10 = patched(ROUTING_V10_PATCH);
  const routingV13 = patched(ROUTING_V13_PATCH);
  const routingV14 = patched(ROUTING_V14_PATCH);
  const routingV15 = patched(ROUTING_V15_PATCH);
  const routingV16 = patched(ROUTING_V16_PATCH);
  const routingV17 = patched(ROUTING_V17_PATCH);
  const routingV18 = patched(ROUTING_V18_PATCH);
  const routingV21 = patched(ROUTING_V21_PATCH);
  const routingV24 = patched(ROUTING_V24_PATCH);
  const routingV25 = patched(ROUTING_V25_PATCH);
  const routingV26 = patched(ROUTING_V26_PATCH);
  const routingV29 = patched(ROUTING_V29_PATCH);
  if (input.sandboxStatus && !m.state.sandbox) m.state.sandbox = input.sandboxStatus;
  if (m.state.sandbox && m.state.sandbox.state !== 'enforced' && !carry)
    log.warn(`loop ${m.state.loopId}: ${unsandboxedLine(m.state.sandbox)}`);
  return {
    input,
    m,
    tracker,
    acts: loopActivities(input, hostHooks(m, live), { persistActivity }),
    live,
    stateDir: input.stateDir,
    checkOn: input.completion.checkOn ?? (input.completion.promise ? 'claim' : 'every-iteration'),
    gateSpecs: input.gates?.gates.filter((g) => g.enabled) ?? [],
    stateFile: carry?.stateFile ?? '',
    runIterations: 0,
    upserted: {},
    patchesAtStart,
    persistActivity,
    routingV4,
    routingV5,
    routingV6,
    routingV7,
    routingV8,
    routingV9,
    routingV10,
    routingV13,
    routingV14,
    routingV15,
    routingV16,
    routingV17,
    routingV18,
    routingV21,
    routingV24,
    routingV25,
    routingV26,
    routingV29,
    ...(notifiesParent ? { notifiesParent } : {}),
  };
}

/** How waits for a host-bound loop's worker show in the loop's state (and so in `ralph status`). */
export function hostHooks(m: LoopMachine, live: LiveHandles): HostHooks {
  return {
    waiting: (activity) => m.hostWaiting(activity, nowIso()),
    answered: () => m.hostAnswered(),
    moveRequested: () => !!live.inIteration && !!m.state.host?.pendingMove,
  };
}
