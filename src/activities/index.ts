/** Every activity the worker registers. Workflows import this module as types only. */
export { validateLoopInput } from './validate-input';
export { runAgent } from './run-agent';
export { checkCompletion } from './check-completion';
export { persistState } from './persist-state';
export { inspectIteration } from './inspect-iteration';
export { restoreCheckpoint } from './restore-checkpoint';
export type { RunAgentInput, RunAgentResult } from './run-agent';
export type { CheckCompletionInput, CheckCompletionResult } from './check-completion';
export type { PersistStateInput, PersistStateResult } from './persist-state';
export type { InspectIterationInput, InspectIterationResult } from './inspect-iteration';
export type { RestoreCheckpointInput, RestoreCheckpointResult } from './restore-checkpoint';
export type { ValidateLoopInputInput } from './validate-input';
export { runGate } from './gates/run-gate';
export { validateProject, markTaskDone } from './project';
export type { ValidateProjectInput, ValidateProjectResult, MarkTaskDoneInput } from './project';
export type { RunGateInput } from './gates/run-gate';
export {
  loadAgentProfiles,
  loadAgentProfile,
  recordRouting,
  loadRoutingSession,
  readHandoff,
  startRouting,
} from './routing';
export type {
  LoadAgentProfilesInput,
  LoadAgentProfilesResult,
  LoadAgentProfileInput,
  LoadAgentProfileResult,
  RecordRoutingInput,
  RecordRoutingResult,
  LoadRoutingSessionInput,
  ReadHandoffInput,
  ReadHandoffResult,
  StartRoutingInput,
  StartRoutingResult,
} from './routing';
