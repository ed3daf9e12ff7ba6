/** Where a loop keeps its files (found from its state, or from --state-dir), for the commands that read them. */
import fs from 'node:fs';
import path from 'node:path';
import { loopDir } from '../state/artifacts';
import { getLoopStatus } from '../client';
import { RALPH_DIR } from '../core/constants';
import { type LoopState } from '../core/loop-types';
import type { InterventionEvent } from '../core/anti-laziness-types';
import { CommandFailedError, type CommandContext } from './run-command';

/** Where a loop's files are, and its state when the server answered. */
export interface LoopFolder {
  /** `<stateDir>/loops/<loopId>`. */
  dir: string;
  /** The loop's state from the status query, when it was asked and answered. */
  state?: LoopState;
  /** Why the server's answer was not used (not asked, or the error), for messages. */
  unreachable?: string;
}

/** The loop's state from the server, or why it could not be had (no server, no such loop...). */
export async function tryLoopState(
  ctx: CommandContext,
  loopId: string,
): Promise<{ state?: LoopState; error?: string }> {
  try {
    return { state: await getLoopStatus(await ctx.client(), loopId) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** The state dir a loop's state names: its `stateDir`, else the folder of its result's state file. */
export function stateDirOf(s: LoopState): string | undefined {
  if (s.stateDir) return s.stateDir;
  // `<stateDir>/loops/<id>/state.json` → `<stateDir>`.
  return s.result?.stateFile ? path.dirname(path.dirname(path.dirname(s.result.stateFile))) : undefined;
}

/**
 * Finds a loop's folder: under `stateDir` when the user gave one (the server is not asked), else under the state dir
 * the loop itself reports, else under `./.ralph`.
 */
export async function locateLoop(ctx: CommandContext, loopId: string, stateDir?: string): Promise<LoopFolder> {
  if (stateDir) return { dir: loopDir(path.resolve(stateDir), loopId), unreachable: 'not asked (--state-dir given)' };
  const { state, error } = await tryLoopState(ctx, loopId);
  const fromState = state && stateDirOf(state);
  if (fromState) return { dir: loopDir(fromState, loopId), state };
  return { dir: loopDir(path.resolve(RALPH_DIR), loopId), state, unreachable: error ?? 'no state dir in its state' };
}

/** The path of a loop's intervention log. */
export const eventsFile = (dir: string): string => path.join(dir, 'interventions', 'events.json');

/** Reads a JSON file, turning a missing or broken file into one clear line that names `what` and the path. */
export function readJsonFile<T>(file: string, what: string): T {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new CommandFailedError(
      `${what} at ${file}: ${err.code === 'ENOENT' ? 'the file does not exist' : err.message}`,
    );
  }
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    throw new CommandFailedError(`${what} at ${file}: invalid JSON (${(e as Error).message})`);
  }
}

/** A loop's intervention events, oldest first; throws {@link CommandFailedError} when there is no readable log. */
export function readEvents(dir: string, loopId: string): InterventionEvent[] {
  const file = eventsFile(dir);
  const events = readJsonFile<unknown>(file, `no interventions recorded for loop ${loopId}`);
  if (!Array.isArray(events))
    throw new CommandFailedError(`interventions of loop ${loopId} at ${file}: expected a JSON array of events`);
  return events as InterventionEvent[];
}
