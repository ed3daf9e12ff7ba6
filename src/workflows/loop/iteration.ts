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
import { verifyPhase } from './verify';

/** Runs the next iteration and says what the loop does after it. */
export async function runIteration(ctx: LoopContext): Promise<Next> {
  const { m } = ctx;
  const n = m.nextIteration;
  const startedAt = nowIso();
  const t0 = Date.now();
  const plan = planPrompt(ctx, n);
  const agent = await runAgentPhase(ctx, n, plan);
  if (!agent.ok) return agent.next;
  const inspected = await inspectPhase(ctx, n, agent.run);
  const verification = await verifyPhase(ctx, n, agent.run);
  const original = await originalChecksPhase(ctx, n, agent.run, inspected, verification);
  const facts: IterationFacts = { n, startedAt, t0, plan, run: agent.run, inspected, verification, original };
  const judgement = judge(ctx, facts);
  const recorded = recordIteration(ctx, facts, judgement);
  if (!judgement.completed) m.setPhase('starting', nowIso());
  ctx.runIterations++;
  await persist(ctx, recorded.record, judgement.decision?.events);
  return nextStep(ctx, facts, judgement, recorded);
}
