/**
 * The `ralphLoop` workflow: one Ralph loop, durable. This file is the loop's outline; each iteration is a pipeline of
 * phases under ./loop (prompt, agent, inspect, verify, decide, record), the rules live in core (LoopMachine,
 * AntiLazinessTracker), and every side effect is an activity (./loop/activities.ts). See ARCHITECTURE.md.
 */
import type { LoopInputRaw } from '../config/loop-input';
import type { LoopResult } from '../core/loop-types';
import { beforeIteration } from './loop/guards';
import { continueAsNewWithCarry, type RalphLoopCarry } from './loop/carry';
import type { Next } from './loop/context';
import { humanGate, regressionGate } from './loop/human-gate';
import { moveHost } from './loop/host';
import { runIteration } from './loop/iteration';
import { fail, finish, persist } from './loop/persist';
import { setLoopHandlers } from './loop/handlers';
import { setRouteHandler, startRoutingPhase } from './loop/routing';
import { createContext, createMachine, validatedInput } from './loop/start';
import { showCurrentDetails } from './loop/details';
import { startVerification, verificationGate } from './loop/original-checks';
import { questionGate } from './loop/question';

export type { RalphLoopCarry } from './loop/carry';
export { ANTI_LAZINESS_PATCH } from './loop/start';
export { VERIFICATION_PATCH } from './loop/original-checks';
export { ROUTING_PATCH } from './loop/routing';

/** Runs a Ralph loop until the completion check passes, a human decides, or it is aborted. */
export async function ralphLoop(rawInput: LoopInputRaw, carry?: RalphLoopCarry): Promise<LoopResult> {
  const m = createMachine(rawInput, carry);
  // The Temporal UI's current details follow the state from here on (no history events).
  showCurrentDetails(m, rawInput);
  // Handlers first, so a signal sent right after start is never lost.
  const live = setLoopHandlers(m);
  setRouteHandler(m, live.routing);
  const input = await validatedInput(m, rawInput, carry);
  const ctx = createContext(input, m, live, carry);
  await startVerification(ctx, carry);
  await startRoutingPhase(ctx, live.routing, carry?.routing);
  await persist(ctx);

  for (;;) {
    const next: Next = (await beforeIteration(ctx)) ?? (await runIteration(ctx));
    switch (next.kind) {
      case 'continue':
        continue;
      case 'continue-as-new':
        return continueAsNewWithCarry(ctx);
      case 'finish':
        return finish(ctx, next.ending);
      case 'fail':
        return fail(ctx, next.error);
      case 'accept':
        return finish(ctx, { status: 'accepted', acceptedBy: next.acceptedBy, reason: next.reason });
      case 'human-gate': {
        // approve/abort end the loop; reject goes on with guidance and extra iterations.
        const ended = await humanGate(ctx, next);
        if (ended) return ended;
        continue;
      }
      case 'question': {
        // answer goes on with the answer in the next prompt; approve accepts, abort ends, reject goes on.
        const ended = await questionGate(ctx, next);
        if (ended) return ended;
        continue;
      }
      case 'move':
        // A host-bound loop re-created on another host (ralph move); an interrupted iteration is redone there.
        await moveHost(ctx);
        continue;
      case 'verification-gate': {
        // approve accepts the work as it is; reject rolls back to the pre-run checkpoint and goes on.
        const ended = await verificationGate(ctx, next);
        if (ended) return ended;
        continue;
      }
      case 'escalate': {
        // approve keeps the changes (accepts if the iteration passed); reject rolls back and goes on.
        const ended = await regressionGate(ctx, next);
        if (ended) return ended;
        continue;
      }
    }
  }
}
