/**
 * Prompt phase: what the next agent run is told besides the task: the feedback of earlier iterations, a human's
 * guidance, and (anti-laziness layer) the reinforcement level's sections, chosen before the run.
 */
import type { AntiLazinessTracker } from '../../core/anti-laziness';
import type { LoopContext } from './context';
import type { RoutedRun } from './routing-types';
import type { PendingAnswer } from '../../core/questions';
import { questionsForPrompt } from './question';

/** What the agent phase puts in the prompt. */
export interface PromptPlan {
  feedback: string[];
  guidance?: string;
  /** The reinforcement level and its prompt sections (anti-laziness layer only). */
  reinforcement?: ReturnType<AntiLazinessTracker['beforeIteration']>;
  /** The routed agent, its instructions and timeout (automatic routing only). */
  routed?: RoutedRun;
  /** A human's answer to the agent's last question. */
  answer?: PendingAnswer;
  /** Questions allowed and left, for the prompt's "how to ask". */
  questions?: { max: number; left: number };
}

/** Takes the pending feedback and guidance, and the reinforcement for iteration `n`. */
export function planPrompt(ctx: LoopContext, n: number): PromptPlan {
  const { feedback, guidance, answer } = ctx.m.promptInputs();
  const questions = questionsForPrompt(ctx);
  return {
    feedback,
    guidance,
    // PDARE's adapted instructions invite a question only when one can still be asked (and answered).
    reinforcement: ctx.tracker?.beforeIteration(n, { canAsk: (questions?.left ?? 0) > 0 }),
    ...(answer ? { answer } : {}),
    questions,
  };
}
