/**
 * `ralph interventions <loopId> [--last n] [--json] [--state-dir dir]`: the anti-laziness layer's findings for a loop,
 * from `<stateDir>/loops/<loopId>/interventions/events.json`. Also where the loop folder is found, shared with
 * `ralph report`: `--state-dir` when given, else the loop's own state dir (status query), else `./.ralph`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { loopDir } from '../../activities/artifacts';
import { getLoopStatus } from '../../client';
import { RALPH_DIR } from '../../core/constants';
import type { LoopState } from '../../core/loop-types';
import type { InterventionEvent } from '../../core/persistence-types';
import { interventionsView } from '../../core/report';
import { CommandFailedError, type CommandContext, intOption, runCommand } from '../run-command';

/** Options of `ralph interventions`. */
export const InterventionsOptions = z.object({
  last: intOption().positive().optional(),
  json: z.boolean().default(false),
  stateDir: z.string().min(1).optional(),
});
/** Options of `ralph interventions`. */
export type InterventionsOptions = z.infer<typeof InterventionsOptions>;

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
function stateDirOf(s: LoopState): string | undefined {
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

/** Registers `ralph interventions`. */
export function interventionsCommand(program: Command): Command {
  return program
    .command('interventions <loopId>')
    .description("list a loop's anti-laziness findings (no files written, false completion, test deletion...)")
    .option('--last <n>', 'only the last n events')
    .option('--json', 'print the events as JSON')
    .option('--state-dir <dir>', "the loops' state dir (default: the loop's own, else ./.ralph)")
    .action(
      runCommand(InterventionsOptions, async (o, [loopId], ctx) => {
        const where = await locateLoop(ctx, loopId, o.stateDir);
        let events: InterventionEvent[];
        try {
          events = readEvents(where.dir, loopId);
        } catch (e) {
          if (where.unreachable && !o.stateDir)
            ctx.out.note(`ralph: loop state not available (${where.unreachable}); looked under ./${RALPH_DIR}`);
          throw e;
        }
        const shown = o.last ? events.slice(-o.last) : events;
        if (o.json) return ctx.out.json(shown);
        for (const l of interventionsView(events, o.last)) ctx.out.line(l);
      }),
    );
}
