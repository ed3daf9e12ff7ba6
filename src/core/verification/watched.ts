/**
 * Which files the PostToolUse hook judges as it runs (in-iteration correction), and the names it records. Apart from
 * the detectors, so that a hook call that touches none of those files does not load them.
 */
import { isCiOrScript, isTestConfig, isTestFile } from '../detectors/validation-bypass';

/** The event recorded when the agent undid, within the iteration, every change the hook blocked. */
export const CORRECTED_IN_ITERATION = 'corrected_in_iteration';
/** The audit category of a tool call the PostToolUse hook blocked. */
export const IN_ITERATION_BLOCK = 'in_iteration_block';

/**
 * Whether the hook judges changes to `p` (workspace-relative): test files, test-runner and coverage configuration,
 * CI pipelines and scripts, and any path of the loop's protected set.
 */
export function isWatchedFile(p: string, protectedPaths?: ReadonlySet<string>): boolean {
  return isTestFile(p) || isTestConfig(p) || isCiOrScript(p) || !!protectedPaths?.has(p);
}
