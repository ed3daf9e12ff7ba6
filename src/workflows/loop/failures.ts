/** How activity failures read to the loop: configuration errors, timeouts, and text for records and feedback. */
import { ApplicationFailure } from '@temporalio/workflow';
import type * as activities from '../../activities';
import { AGENT_OVERLOADED_TYPE } from '../../core/agent-failure';
import { ErrorTypes, NON_RETRYABLE_ERROR_TYPES } from '../../core/constants';
import type { IterationRecord } from '../../core/loop-types';
import { HostMoveRequested } from '../errors';

interface FailureLike {
  name?: string;
  message?: string;
  type?: string;
  cause?: FailureLike;
  details?: unknown[];
  timeoutType?: unknown;
}

/** A configuration error from an activity becomes the loop's own non-retryable failure, with the same message. */
export function asLoopFailure(e: unknown): ApplicationFailure | undefined {
  const cause = (e as FailureLike)?.cause;
  // Compare names, not classes: instanceof breaks across module registries.
  // Only the configuration errors end the loop: AgentTimeout and AgentOverloaded are outcomes the loop records.
  if (cause?.name === 'ApplicationFailure' && cause.type && NON_RETRYABLE_ERROR_TYPES.includes(cause.type))
    return ApplicationFailure.nonRetryable(cause.message ?? 'configuration error', cause.type);
  return undefined;
}

/** One line for an activity failure, whether it was a timeout, and the agent's partial result if it sent one. */
export function describeActivityFailure(e: unknown): {
  message: string;
  timedOut: boolean;
  result?: activities.RunAgentResult;
} {
  const err = e as FailureLike;
  const cause = err?.cause;
  if (cause?.name === 'TimeoutFailure')
    return { message: `timed out (${String(cause.timeoutType ?? 'timeout')})`, timedOut: true };
  if (cause?.name === 'ApplicationFailure' && cause.type === ErrorTypes.AgentTimeout)
    return {
      message: cause.message ?? 'agent timed out',
      timedOut: true,
      result: cause.details?.[0] as activities.RunAgentResult | undefined,
    };
  // An overloaded API after the retry policy's last attempt: the run's result says so (failureKind 'overloaded').
  if (cause?.name === 'ApplicationFailure' && cause.type === AGENT_OVERLOADED_TYPE)
    return {
      message: cause.message ?? 'model API overloaded',
      timedOut: false,
      result: cause.details?.[0] as activities.RunAgentResult | undefined,
    };
  return { message: cause?.message ?? err?.message ?? String(e), timedOut: false };
}

/** The last iteration in one line, for a human gate's details. */
export function lastIterationSummary(r: IterationRecord | undefined): string {
  if (!r) return 'No iteration ran.';
  const check = r.check ? `check ${r.check.passed ? 'passed' : `failed (exit ${r.check.exitCode})`}` : 'check not run';
  return `Last iteration ${r.n}: outcome ${r.outcome}, agent exit ${r.agent.exitCode}, ${check}. Artifacts: ${r.artifactDir}`;
}

/** Rethrows a {@link HostMoveRequested}: phases that turn activity failures into outcomes must let it through. */
export function rethrowHostMove(e: unknown): void {
  if ((e as Error)?.name === 'HostMoveRequested') throw e;
}

/** True when an activity failed because no worker picked it up in time (schedule-to-start timeout). */
export function isScheduleToStartTimeout(e: unknown): boolean {
  const cause = (e as FailureLike)?.cause;
  // The SDK decodes the proto enum to 'SCHEDULE_TO_START'; compare values, not classes.
  return cause?.name === 'TimeoutFailure' && cause.timeoutType === 'SCHEDULE_TO_START';
}
export { HostMoveRequested };
