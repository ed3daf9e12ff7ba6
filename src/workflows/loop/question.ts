/**
 * Questions (patch `questions-v1`): an agent that asks (a `<question>` block, or `STATUS: BLOCKED` with a reason) ends
 * its iteration without a check, and a `question` gate waits, with no timeout, for a human's `answer` (or approve,
 * reject, abort). PDARE's `ask_clarification` opens the same gate with its diagnosis as the question. At most
 * `questions.max` per loop; beyond it the block is ordinary text and the agent is told why.
 */
import { patched } from '@temporalio/workflow';
import type { LoopResult } from '../../core/loop-types';
import { diffLine, questionDetails, type AgentQuestion, type QuestionSource } from '../../core/questions';
import { nowIso, type LoopContext, type Next } from './context';
import { endAtGate, openAndWait } from './human-gate';
import { persist } from './persist';

/** Patch id of questions: loops recorded before it never open a question gate. */
export const QUESTIONS_PATCH = 'questions-v1';

/** The question of an iteration: `allowed` when it opens a gate, else it was read as text (the limit is reached). */
export type IterationQuestion = AgentQuestion & { allowed: boolean };

/** Questions the loop allows (0 for loops validated before questions existed: their agents were never told). */
export const questionsMax = (ctx: LoopContext): number => ctx.input.questions?.max ?? 0;

/** What the prompt says about asking: the limit and what is left (nothing for loops without questions). */
export function questionsForPrompt(ctx: LoopContext): { max: number; left: number } | undefined {
  const max = questionsMax(ctx);
  return ctx.input.questions ? { max, left: ctx.m.questionsLeft(max) } : undefined;
}

/**
 * Whether questions are on for this iteration: the loop allows them and the patch is in. Called right after the agent's
 * activity returns, the first thing of that workflow task (never after a local activity, whose marker a replay may
 * resolve in another activation than the one the patch marker is announced in).
 */
export function questionsOn(ctx: LoopContext): boolean {
  ctx.questionsOn = questionsMax(ctx) > 0 && patched(QUESTIONS_PATCH);
  return ctx.questionsOn;
}

/** The question the agent asked in a run that did not fail, if asking is on (and patched in). */
export function askedQuestion(
  ctx: LoopContext,
  run: { result?: { question?: AgentQuestion }; failure?: string; timedOut: boolean },
): IterationQuestion | undefined {
  const q = run.result?.question;
  if (!q || run.failure || run.timedOut || !ctx.questionsOn) return undefined;
  return { ...q, allowed: ctx.m.questionsLeft(questionsMax(ctx)) > 0 };
}

/** PDARE's clarification as a question gate, when questions are on and some are left; else undefined. */
export function clarification(ctx: LoopContext, n: number, question: string, diff: string): Next | undefined {
  if (!ctx.questionsOn || ctx.m.questionsLeft(questionsMax(ctx)) <= 0) return undefined;
  return { kind: 'question', n, text: question, options: [], source: 'pdare', diff };
}

const firstLine = (s: string): string => {
  const l = s.trim().split('\n')[0] ?? '';
  return l.length > 120 ? `${l.slice(0, 119)}…` : l;
};

/**
 * The question gate. `answer` puts the answer in the next prompt and goes on; approve accepts the work as it is (by
 * the human), abort ends the loop, reject goes on with the guidance. Returns the result when the loop ends.
 */
export async function questionGate(
  ctx: LoopContext,
  q: Extract<Next, { kind: 'question' }>,
): Promise<LoopResult | undefined> {
  const { m } = ctx;
  const max = questionsMax(ctx);
  const left = Math.max(0, m.questionsLeft(max) - 1);
  const title =
    q.source === 'pdare'
      ? `PDARE asks for clarification at iteration ${q.n}`
      : `The agent asks (iteration ${q.n}): ${firstLine(q.text)}`;
  const d = await openAndWait(
    ctx,
    {
      reason: 'question',
      title,
      details: questionDetails({ text: q.text, options: q.options, source: q.source, diff: q.diff, left }),
      options: ['answer', 'approve', 'reject', 'abort'],
      question: { text: q.text, options: q.options, source: q.source, diff: q.diff },
    },
    (gate) =>
      m.recordQuestion(
        { gateId: gate.id, iteration: q.n, source: q.source, text: q.text, options: q.options },
        max,
        gate.openedAt,
      ),
  );
  const ended = endAtGate(ctx, d);
  if (ended) return ended;
  m.setPhase('agent', nowIso());
  await persist(ctx);
  return undefined;
}

/** The gate's Next for an agent's question at iteration `n`. */
export function agentQuestionNext(n: number, q: IterationQuestion, changes: Parameters<typeof diffLine>[0]): Next {
  return {
    kind: 'question',
    n,
    text: q.text,
    options: q.options,
    source: 'agent' as QuestionSource,
    diff: diffLine(changes),
  };
}
