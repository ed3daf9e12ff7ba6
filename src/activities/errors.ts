/** The activities' error classes, and how activities report the errors of the layers below them to Temporal. */
import { ApplicationFailure } from '@temporalio/common';
import { ErrorTypes } from '../core/constants';

/**
 * Runs `fn`; an invalid input it reports (config's InvalidInputError) becomes the non-retryable `InvalidInput`
 * failure the workflow ends with, with the same message. Other errors pass unchanged.
 */
export function asActivityFailure<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    // Compared by name: `instanceof` breaks across module registries.
    if ((e as Error).name === 'InvalidInputError')
      throw ApplicationFailure.nonRetryable((e as Error).message, ErrorTypes.InvalidInput);
    throw e;
  }
}

/** Thrown when verifyWork runs for a loop that recorded no verification baseline. */
export class VerificationBaselineMissingError extends Error {
  override readonly name = 'VerificationBaselineMissingError';
  constructor(
    readonly stateDir: string,
    readonly loopId: string,
  ) {
    super(`loop ${loopId} has no verification baseline under ${stateDir}: recordVerificationBaseline must run first`);
  }
}

/** Thrown when the manifest or the baseline no longer match the fingerprints recorded at loop start. */
export class VerificationBaselineChangedError extends Error {
  override readonly name = 'VerificationBaselineChangedError';
  constructor(readonly what: string) {
    super(`the verification ${what} was changed after loop start: the original checks cannot be trusted`);
  }
}

/** Thrown when an input names an agent adapter that does not exist (input that skipped schema validation). */
export class UnknownAgentAdapterError extends Error {
  override readonly name = 'UnknownAgentAdapterError';
  constructor(
    readonly adapter: string,
    known: string[],
  ) {
    super(`unknown agent adapter "${adapter}": use one of ${known.join(', ')}`);
  }
}

/** Thrown when the `command` adapter is used without `agent.command` (the input schema normally prevents it). */
export class MissingAgentCommandError extends Error {
  override readonly name = 'MissingAgentCommandError';
  constructor() {
    super(
      'the command adapter needs `agent.command`: an argv array such as ["my-agent","--prompt-file","{promptFile}"]',
    );
  }
}

/** Thrown when a rollback names a checkpoint that does not exist. */
export class CheckpointNotFoundError extends Error {
  override readonly name = 'CheckpointNotFoundError';
  constructor(
    readonly workspace: string,
    readonly loopId: string,
    readonly label: string,
  ) {
    super(`no checkpoint '${label}' of loop '${loopId}' in ${workspace}`);
  }
}

/** Thrown when a git command on a workspace fails; carries the command, its exit code and stderr. */
export class WorkspaceGitError extends Error {
  override readonly name = 'WorkspaceGitError';
  constructor(
    readonly cwd: string,
    readonly args: string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed in ${cwd} (exit ${exitCode}): ${stderr.trim().split('\n')[0] ?? ''}`);
  }
}

/** Thrown when a checkpoint's manifest names content the store no longer has (deleted by hand, or pruned). */
export class CheckpointContentMissingError extends Error {
  override readonly name = 'CheckpointContentMissingError';
  constructor(
    readonly file: string,
    readonly blob: string,
    readonly store: string,
  ) {
    super(`content of ${file} (blob ${blob}) is missing from the checkpoint store ${store}: the checkpoint is damaged`);
  }
}

/** Thrown (to the requests in flight) when a spawn helper exits before answering. */
export class SpawnHelperExitedError extends Error {
  override readonly name = 'SpawnHelperExitedError';
  constructor(
    readonly helperPid: number | undefined,
    readonly exitCode: number | null,
    readonly signal: string | null,
  ) {
    super(`the spawn helper (pid ${helperPid ?? '?'}) exited (${signal ?? `code ${exitCode}`}) before answering`);
  }
}
