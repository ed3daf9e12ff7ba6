/**
 * Names that cross process boundaries: workflow types, task queue, search attributes, error types, paths.
 * Defined once here and used everywhere (CLI, console, worker, workflows, tests, docs).
 */

/** The default task queue the worker polls and `ralph start` targets. */
export const DEFAULT_TASK_QUEUE = 'ralph';
/** The default Temporal namespace. */
export const DEFAULT_NAMESPACE = 'default';
/** The default Temporal frontend address. */
export const DEFAULT_ADDRESS = 'localhost:7233';

/** Workflow type names: stable forever, users type them into `temporal workflow start --type`. */
export const WorkflowTypes = {
  ralphLoop: 'ralphLoop',
  ralphProject: 'ralphProject',
} as const;

/** Search attributes the loop upserts so `temporal workflow list --query` and `ralph list` can filter loops. */
export const SearchAttributes = {
  RalphStatus: { name: 'RalphStatus', type: 'Keyword' },
  RalphIteration: { name: 'RalphIteration', type: 'Int' },
  RalphAwaitingHuman: { name: 'RalphAwaitingHuman', type: 'Bool' },
  RalphAgent: { name: 'RalphAgent', type: 'Keyword' },
  /** Quality score 0-100 of the last iteration the gates measured. */
  RalphQuality: { name: 'RalphQuality', type: 'Double' },
  /** Cost so far in USD, as the agents report it (cents). */
  RalphCostUsd: { name: 'RalphCostUsd', type: 'Double' },
  /** How the agent runs: `enforced` (sandboxed), `unavailable` (auto, the sandbox could not start) or `off`. */
  RalphSandbox: { name: 'RalphSandbox', type: 'Keyword' },
} as const;

/** `--search-attribute name=Type` arguments for `temporal server start-dev`. */
export const devServerSearchAttributeArgs = (): string[] =>
  Object.values(SearchAttributes).flatMap((sa) => ['--search-attribute', `${sa.name}=${sa.type}`]);

/** Failure types a loop ends with on purpose; none of them is retried. */
export const ErrorTypes = {
  InvalidInput: 'InvalidInput',
  WorkspaceNotFound: 'WorkspaceNotFound',
  AgentNotFound: 'AgentNotFound',
  AgentConfigError: 'AgentConfigError',
  /** The agent CLI is not logged in or its API key is invalid: the message names the variable or command that fixes it. */
  AgentAuthFailed: 'AgentAuthFailed',
  PromptFileNotFound: 'PromptFileNotFound',
  /** The agent ran past its deadline and its process group was killed: an outcome the loop records, never retried. */
  AgentTimeout: 'AgentTimeout',
  /** The model's API is overloaded: retried by Temporal's retry policy with backoff, not an iteration of its own. */
  AgentOverloaded: 'AgentOverloaded',
  /** `sandbox.mode: enforce` and the sandbox cannot start on the worker: the message names what to install. */
  SandboxUnavailable: 'SandboxUnavailable',
} as const;
/** A failure type from {@link ErrorTypes}. */
export type ErrorType = (typeof ErrorTypes)[keyof typeof ErrorTypes];
/**
 * The non-retryable error types that end a loop or project with their message: activities throwing these fail at
 * once. (AgentTimeout is non-retryable too, but an outcome, added where the agent runs; AgentOverloaded is retried.)
 */
export const NON_RETRYABLE_ERROR_TYPES: string[] = [
  ErrorTypes.InvalidInput,
  ErrorTypes.WorkspaceNotFound,
  ErrorTypes.AgentNotFound,
  ErrorTypes.AgentConfigError,
  ErrorTypes.AgentAuthFailed,
  ErrorTypes.PromptFileNotFound,
  ErrorTypes.SandboxUnavailable,
];

/** The folder (inside the workspace unless configured) where loops keep state, artifacts and reports. */
export const RALPH_DIR = '.ralph';

/**
 * Dynamic config for a single-node dev server. One task-queue partition, so a task never waits to be forwarded
 * between partitions. A higher transfer-queue poll rate: the history service moves every new activity or workflow
 * task to matching through its transfer queue, whose reader is rate-limited to 20 loads per second per shard (the dev
 * server has one shard), so each dispatch waited up to 50 ms for a token (~40 ms measured, twice per activity round
 * trip without eager dispatch; see bench:floor).
 */
export const DEV_SERVER_DYNAMIC_CONFIG_ARGS: string[] = [
  '--dynamic-config-value',
  'matching.numTaskqueueReadPartitions=1',
  '--dynamic-config-value',
  'matching.numTaskqueueWritePartitions=1',
  '--dynamic-config-value',
  'history.transferProcessorMaxPollRPS=1000',
];
