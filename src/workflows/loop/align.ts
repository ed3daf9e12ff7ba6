/**
 * Signals after local activities (patch `signals-after-local-activities-v1`). A status query that reaches the worker
 * while a local activity runs can make it record the activity's marker in one workflow task while the workflow sees
 * the result only in the next, together with (after) the signals that came in meanwhile. A replay resolves the marker
 * in the first task, before those signals. Code that reads what signals change (abort, pause, move, route) right
 * after a local activity, with nothing awaited in between, then takes another path on replay (seen: a `pause` during
 * the iteration's last persistState; the original paused, the replay ran the next agent: a nondeterminism error).
 * A 1 ms timer in between makes the code go on in a workflow task of its own, with the same signals in both.
 */
import { sleep } from '@temporalio/workflow';
import type { LoopContext } from './context';

/** Patch id: loops started under it wait for a timer after local activities before reading what signals change. */
export const SIGNALS_AFTER_LOCAL_ACTIVITIES_PATCH = 'signals-after-local-activities-v1';

/** Waits for a workflow task of its own (a 1 ms timer) when the patch is in; loops recorded before it go straight on. */
export async function alignAfterLocalActivity(ctx: LoopContext): Promise<void> {
  if (ctx.signalsAligned) await sleep(1);
}
