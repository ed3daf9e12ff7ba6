/** The note `ralph start` prints when no worker polls the task queue: the loop would wait with no sign of why. */
import type { Client } from '@temporalio/client';
import { taskQueuePollers } from '../client';
import type { Output } from './run-command';

/**
 * Notes on stderr (one line) that no worker polls `taskQueue` for workflow tasks, with the command that starts one
 * and `ralph doctor`. Says nothing when a worker polls, or when the server won't describe the queue.
 */
export async function noteMissingWorker(
  client: Client,
  taskQueue: string,
  connectionFlags: string,
  out: Output,
): Promise<void> {
  try {
    const pollers = await taskQueuePollers(client, taskQueue);
    if (pollers.some((p) => p.kind === 'workflow')) return;
  } catch {
    return;
  }
  const flags = connectionFlags ? ` ${connectionFlags}` : '';
  out.note(
    `ralph: no worker polls task queue ${taskQueue}: it waits until one does; start one with ` +
      `\`ralph worker${flags} --task-queue ${taskQueue}\` (\`ralph doctor\` checks the whole setup)`,
  );
}
