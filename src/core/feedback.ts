/**
 * Feedback rules: what the next iteration must be told about this one. Pure and deterministic.
 */
import { tail } from './claims';

/** What happened in an iteration, as far as feedback is concerned. */
export interface FeedbackInput {
  claimed: boolean;
  agentExitCode: number | null;
  agentFailure?: string;
  agentTimedOut?: boolean;
  agentOutputTail?: string;
  iterationTimeoutSeconds: number;
  check?: { command: string; passed: boolean; exitCode: number | null; outputTail: string; timedOut?: boolean };
  promiseOnly: boolean;
}

/** Longest excerpt of tool output quoted back to the agent. */
export const FEEDBACK_EXCERPT_CHARS = 1500;

/** Returns the feedback items for the next prompt (empty when there is nothing to say). */
export function feedbackFor(i: FeedbackInput): string[] {
  const out: string[] = [];
  if (i.agentTimedOut) {
    out.push(
      `The previous iteration timed out after ${i.iterationTimeoutSeconds}s and was stopped. Work in smaller steps and save progress to files early.`,
    );
  } else if (i.agentFailure) {
    out.push(`The previous agent run failed: ${i.agentFailure}`);
  } else if (i.agentExitCode !== null && i.agentExitCode !== 0) {
    const t = i.agentOutputTail ? `\nLast output:\n${tail(i.agentOutputTail, FEEDBACK_EXCERPT_CHARS)}` : '';
    out.push(`The previous agent run exited with code ${i.agentExitCode}.${t}`);
  }
  if (i.check && !i.check.passed) {
    const why = i.check.timedOut ? 'timed out' : `failed (exit code ${i.check.exitCode ?? 'none'})`;
    const excerpt = i.check.outputTail.trim() ? `\nOutput:\n${tail(i.check.outputTail, FEEDBACK_EXCERPT_CHARS)}` : '';
    if (i.claimed)
      out.push(
        `TASK COMPLETION REJECTED. You claimed the task was done, but the completion check \`${i.check.command}\` ${why}. The task is NOT complete: fix it and continue.${excerpt}`,
      );
    else out.push(`The completion check \`${i.check.command}\` still ${why}.${excerpt}`);
  }
  return out;
}
