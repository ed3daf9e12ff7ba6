/**
 * One iteration of a Ralph loop as a pipeline of named phases:
 * prompt → agent → inspect → verify → original checks → judge (decide) → record → persist → next step. Each phase is a function of the
 * {@link LoopContext} in its own file; this one only sequences them.
 */
import { runAgentPhase } from './agent';
import { nowIso, type LoopContext, type Next } from './context';
import { judge, type IterationFacts } from './decide';
import { inspectPhase } from './inspect';
import { nextStep } from './next';
import { originalChecksPhase } from './original-checks';
import { persist } from './persist';
import { planPrompt } from './prompt';
import { recordIteration } from './record';
import { afterRoutedRun, routeIteration } from './routing';
import { verifyPhase } from './verify';
import { sandboxEvents } from './sandbox';
import { askedQuestion, questionsOn } from './question';

/**
 * Runs the next iteration and says what the loop does after it. A `ralph move` that interrupts an activity waiting for
 * a dead host ends the iteration unrecorded (`move`): it is redone on the new host.
 */
export async function runIteration(ctx: LoopContext): Promise<Next> {
  ctx.live.inIteration = true;
  try {
    return await iterate(ctx);
  } catch (e) {
    if ((e as Error)?.name === 'HostMoveRequested') return { kind: 'move' };
    throw e;
  } finally {
    ctx.live.inIteration = false;
  }
}

async function iterate(ctx: LoopContext): Promise<Next> {
  const { m } = ctx;
  const n = m.nextIteration;
  const startedAt = nowIso();
  const t0 = Date.now();
  const plan = planPrompt(ctx, n);
  plan.routed = await routeIteration(ctx, ctx.live.routing, n, plan.feedback);
  const agent = await runAgentPhase(ctx, n, plan);
  if (!agent.ok) return agent.next;
  questionsOn(ctx);
  await afterRoutedRun(ctx, ctx.live.routing, n, plan.routed, agent.run);
  const inspected = await inspectPhase(ctx, n, agent.run);
  // A question the loop puts to a human is not a claim: no check, no gates, no verification.
  const question = askedQuestion(ctx, agent.run);
  const asks = question?.allowed === true;
  const verification = asks ? { command: ctx.input.completion.command } : await verifyPhase(ctx, n, agent.run);
  const original = asks ? undefined : await originalChecksPhase(ctx, n, agent.run, inspected, verification);
  const facts: IterationFacts = { n, startedAt, t0, plan, run: agent.run, inspected, verification, original, question };
  const judgement = judge(ctx, facts);
  const recorded = recordIteration(ctx, facts, judgement);
  if (!judgement.completed) m.setPhase('starting', nowIso());
  ctx.runIterations++;
  const events = [...(judgement.decision?.events ?? []), ...sandboxEvents(ctx, n, agent.run.result)];
  await persist(ctx, recorded.record, events.length ? events : undefined);
  return nextStep(ctx, facts, judgement, recorded);
}
