import { WorkflowTypes } from '../core/constants';

export { InvalidInputError } from '../config/errors';
/** Thrown when no Temporal server answers at the configured address. */
export class NoServerError extends Error {
  override readonly name = 'NoServerError';
  constructor(
    readonly address: string,
    override readonly cause?: unknown,
  ) {
    super(
      `no Temporal server at ${address}: start one with \`ralph dev\` (or set --address / TEMPORAL_ADDRESS); ` +
        '`ralph doctor` checks the whole setup',
    );
  }
}

/** Thrown when a loop id names no workflow. */
export class LoopNotFoundError extends Error {
  override readonly name = 'LoopNotFoundError';
  constructor(
    readonly loopId: string,
    readonly namespace: string,
  ) {
    super(`no loop with id "${loopId}" in namespace ${namespace}: list loops with \`ralph list\``);
  }
}

/** Thrown when a signal is sent to a loop that already ended. */
export class LoopFinishedError extends Error {
  override readonly name = 'LoopFinishedError';
  constructor(
    readonly loopId: string,
    readonly signal: string,
    readonly closedStatus: string,
  ) {
    super(`loop "${loopId}" already ended (${closedStatus}): nothing to ${signal}; see \`ralph status ${loopId}\``);
  }
}

/** Thrown when a project id names no workflow. */
export class ProjectNotFoundError extends Error {
  override readonly name = 'ProjectNotFoundError';
  constructor(
    readonly projectId: string,
    readonly namespace: string,
  ) {
    super(`no project with id "${projectId}" in namespace ${namespace}: check the id printed by \`ralph start --prd\``);
  }
}

/** Thrown when a project command names a workflow that is not a `ralphProject` (a loop, say). */
export class NotAProjectError extends Error {
  override readonly name = 'NotAProjectError';
  constructor(
    readonly workflowId: string,
    readonly workflowType: string,
  ) {
    super(
      `"${workflowId}" is a ${workflowType}, not a ${WorkflowTypes.ralphProject}: project commands take the id ` +
        `printed by \`ralph start --prd\` (see a loop with \`ralph status ${workflowId}\`)`,
    );
  }
}

/** Thrown when an operator command is sent to a project that already ended. */
export class ProjectFinishedError extends Error {
  override readonly name = 'ProjectFinishedError';
  constructor(
    readonly projectId: string,
    readonly command: string,
    readonly closedStatus: string,
  ) {
    super(
      `project "${projectId}" already ended (${closedStatus}): nothing to ${command}; see \`ralph status ${projectId}\``,
    );
  }
}

/** Thrown when a project's tasks can't be read because the workflow failed before it recorded any. */
export class ProjectFailedError extends Error {
  override readonly name = 'ProjectFailedError';
  constructor(
    readonly projectId: string,
    readonly failure: string,
  ) {
    super(`project "${projectId}" failed before it recorded its tasks: ${failure}`);
  }
}

/** Thrown when the project refused an operator update (unknown task, nothing blocked...); the message is the project's. */
export class UpdateRejectedError extends Error {
  override readonly name = 'UpdateRejectedError';
  constructor(
    readonly projectId: string,
    readonly update: string,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** Thrown when a loop command (route) names a workflow that is not a `ralphLoop` (a project, say). */
export class NotALoopError extends Error {
  override readonly name = 'NotALoopError';
  constructor(
    readonly workflowId: string,
    readonly workflowType: string,
  ) {
    super(
      `"${workflowId}" is a ${workflowType}, not a ${WorkflowTypes.ralphLoop}: name the loop of its running task ` +
        `(\`ralph status ${workflowId}\` lists them)`,
    );
  }
}

/** Thrown when an encrypted value can't be decrypted: the client and the worker don't share the same key. */
export class SecretsKeyMismatchError extends Error {
  override readonly name = 'SecretsKeyMismatchError';
  constructor() {
    super(
      'an encrypted agent.env value could not be decrypted: the worker and the client that started the loop use ' +
        'different keys; give both the same RALPH_SECRETS_KEY (or the same $RALPH_HOME/secrets.key)',
    );
  }
}
