/**
 * The loop's current details in the Temporal Web UI (Markdown, `setCurrentDetails`): rendered from the machine's state
 * after every change of it, so the details page always says where the loop stands (iteration n/max, phase, the
 * pending gate and the commands that answer it) and, at the end, how it ended. Details are not commands: they never
 * enter the history, so this changes nothing a replay checks.
 */
import { setCurrentDetails } from '@temporalio/workflow';
import type { LoopInputRaw } from '../../config/loop-input';
import type { LoopMachine } from '../../core/loop-machine';
import { loopCurrentDetails, loopStaticSummary } from '../../core/ui-details';

/** Keeps the workflow's current details in step with `m`'s state, from now on. */
export function showCurrentDetails(m: LoopMachine, rawInput: LoopInputRaw | undefined): void {
  const raw = (rawInput ?? {}) as Partial<LoopInputRaw>;
  const task = loopStaticSummary({
    prompt: typeof raw.prompt === 'string' ? raw.prompt : undefined,
    promptFile: typeof raw.promptFile === 'string' ? raw.promptFile : undefined,
  });
  const render = (): void => {
    // Only a view of the state: a state it can't render (a carry from an older version, say) must never fail the
    // workflow task that changed it.
    try {
      setCurrentDetails(loopCurrentDetails(m.state, task));
    } catch (e) {
      setCurrentDetails(`**Status**: ${m.state.status} (details unavailable: ${(e as Error).message})`);
    }
  };
  m.observe(render);
  render();
}
