/** Every activity the worker registers. Workflows import this module as types only. */
export { validateLoopInput } from './validate-input';
export { runAgent } from './run-agent';
export { checkCompletion } from './check-completion';
export { persistState } from './persist-state';
export { inspectIteration } from './inspect-iteration';
export { restoreCheckpoint } from './restore-checkpoint';
export { relocateWorkspace } from './workspace/remote';
export type { RelocateWorkspaceInput, RelocateWorkspaceResult } from './workspace/remote';
export { pruneCheckpoints } from './workspace/prune';
export type { RunAgentInput, RunAgentResult, RunAgentThen } from './run-agent';
export type { CheckCompletionInput, CheckCompletionResult } from './check-completion';
export type { PersistStateInput, PersistStateResult } from './persist-state';
export type { InspectIterationInput, InspectIterationResult } from './inspect-iteration';
export type { RestoreCheckpointInput, RestoreCheckpointResult } from './restore-checkpoint';
export type { PruneCheckpointsInput, PruneCheckpointsResult } from './workspace/prune';
export type { ValidateLoopInputInput } from './validate-input';
export { runGate } from './gates/run-gate';
export { validateProject, markTaskDone } from './project';
export type { ValidateProjectInput, ValidateProjectResult, MarkTaskDoneInput } from './project';
export type { RunGateInput } from './gates/run-gate';
export { recordVerificationBaseline } from './verification/record-baseline';
export { verifyWork } from './verification/verify-work';
export type { RecordVerificationBaselineInput, RecordVerificationBaselineResult } from './verification/record-baseline';
export type { VerifyWorkInput, VerifyWorkResult } from './verification/verify-work';
export { revertProtectedChanges } from './verification/revert-protected';
export type { RevertProtectedChangesInput, RevertProtectedChangesResult } from './verification/revert-protected';
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
