/**
 * Prompt templates: the task, the loop's position, feedback from the previous iteration and human guidance, and how
 * to signal completion. Pure: the agent activity writes the result to the iteration's prompt.md.
 */

import { answerSection, askingText, type PendingAnswer } from './questions';

/** Everything one iteration's prompt is built from. */
export interface PromptInput {
  task: string;
  loopId: string;
  iteration: number;
  maxIterations: number;
  feedback: string[];
  guidance?: string;
  promise?: string;
  checkCommand?: string;
  /** Extra markdown sections (reinforcement, recovery strategy), placed after the feedback. */
  sections?: string[];
  /** A human's answer to the agent's last question. */
  answer?: PendingAnswer;
  /** How many questions the loop allows and has left (absent in loops started before questions: nothing said). */
  questions?: { max: number; left: number };
}

/** Heading under which the previous iteration's feedback appears (agents are told not to ignore it). */
export const FEEDBACK_HEADING = '## Previous iteration feedback (DO NOT IGNORE)';
/** Heading under which a human reviewer's guidance appears. */
export const GUIDANCE_HEADING = '## Guidance from the human reviewer (follow it)';
/** Longest feedback section carried into a prompt, so prompts don't bloat over long loops. */
export const MAX_FEEDBACK_CHARS = 6000;

/** Builds the prompt for one iteration. */
export function buildPrompt(p: PromptInput): string {
  const parts: string[] = [`# Task\n\n${p.task.trim()}`];
  parts.push(
    `## Loop\n\nThis is iteration ${p.iteration} of at most ${p.maxIterations} of loop \`${p.loopId}\`. ` +
      'Your previous work is already in the workspace: continue from it, do not start over.',
  );
  if (p.answer) parts.push(answerSection(p.answer));
  if (p.guidance) parts.push(`${GUIDANCE_HEADING}\n\n${p.guidance.trim()}`);
  if (p.feedback.length) {
    let body = p.feedback.map((f) => `- ${f.trim().replace(/\n/g, '\n  ')}`).join('\n');
    if (body.length > MAX_FEEDBACK_CHARS) body = body.slice(0, MAX_FEEDBACK_CHARS) + '\n  … (truncated)';
    parts.push(`${FEEDBACK_HEADING}\n\n${body}`);
  }
  for (const section of p.sections ?? []) if (section.trim()) parts.push(section.trim());
  const how: string[] = [
    'Do the work by editing files in the workspace: describing a change is not making it.',
    'Finish the whole task: nothing is deferred to a follow-up, no test is skipped, deleted or weakened.',
  ];
  if (p.checkCommand)
    how.push(
      `The orchestrator verifies completion by running \`${p.checkCommand}\`: it must exit 0. Your claim alone is not enough.`,
    );
  const claim = p.promise ? `<promise>${p.promise}</promise>` : 'EXIT_SIGNAL: true';
  how.push(`When, and only when, the task is completely done, end your answer with \`${claim}\` on its own line.`);
  how.push('List every file you created or changed under an `## Evidence` heading, one `- path` per line.');
  const asking = p.questions ? askingText(p.questions) : undefined;
  if (asking) how.push(asking);
  parts.push(`## How to finish\n\n${how.map((h) => `- ${h}`).join('\n')}`);
  return parts.join('\n\n') + '\n';
}
