/** What the project commands share on the way in: finding the project id (argument, --project or $RALPH_PROJECT), and waiting for an update's answer. */
import { z } from 'zod';
import { type ProjectUpdateResult } from '../../client';

import { CommandFailedError, UsageError } from '../run-command';

/** The option every project command takes to name its project without an argument. */
export const ProjectOption = z.object({ project: z.string().min(1).optional() });

/** The environment variable that names the project when neither an argument nor --project does. */
export const PROJECT_ENV = 'RALPH_PROJECT';

/** Help text shared by the project commands: where the project id comes from. */
export const PROJECT_ID_HELP = `the project id: the first argument, --project <id> or $${PROJECT_ENV}`;

/**
 * Splits a project command's arguments into the project id and the rest. `--project` wins; else, when the command
 * takes task ids and $RALPH_PROJECT is set, every argument is a task id; else the first argument is the project id.
 */
export function resolveProject(
  args: string[],
  o: { project?: string; env?: string; takesTasks: boolean; usage: string },
): { projectId: string; rest: string[] } {
  if (o.project) return { projectId: o.project, rest: args };
  if (o.env && o.takesTasks) return { projectId: o.env, rest: args[0] === o.env ? args.slice(1) : args };
  if (args[0]) return { projectId: args[0], rest: args.slice(1) };
  if (o.env) return { projectId: o.env, rest: [] };
  throw new UsageError(`name the project: \`${o.usage}\`, --project <id> or ${PROJECT_ENV}=<id>`);
}

/** How long a command waits for a worker to answer an update. */
export const UPDATE_WAIT_MS = 30_000;

/**
 * Waits for a project update's answer; a worker that doesn't answer within `ms` means none is running: one clear line.
 * (The request stays admitted on the server and may still apply when a worker starts.)
 */
export async function answerWithin(
  p: Promise<ProjectUpdateResult>,
  o: { projectId: string; command: string; taskQueue: string; ms?: number },
): Promise<ProjectUpdateResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new CommandFailedError(
            `no worker answered ${o.command} for project ${o.projectId} within ${(o.ms ?? UPDATE_WAIT_MS) / 1000} s: ` +
              `start one with \`ralph worker\` (task queue ${o.taskQueue}); check with \`ralph status ${o.projectId}\``,
          ),
        ),
      o.ms ?? UPDATE_WAIT_MS,
    );
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}
