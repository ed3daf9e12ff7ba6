/**
 * What `ralph doctor` (and `ralph start`'s hint) asks Temporal: the server's version, the workers polling a task queue
 * (DescribeTaskQueue, with their build ids), and which of the loop's search attributes the namespace lacks.
 */
import type { Client } from '@temporalio/client';
import { SearchAttributes } from '../core/constants';

/** One worker polling a task queue, as the server saw it. */
export interface TaskQueuePoller {
  identity: string;
  /** `workflow` or `activity` pollers. */
  kind: 'workflow' | 'activity';
  /** The worker's build id (versioned workers and worker deployments), when it sent one. */
  buildId?: string;
  lastAccessTime?: string;
}

/** The server's version (GetSystemInfo), or undefined when it doesn't say. */
export async function serverVersion(client: Client): Promise<string | undefined> {
  const info = await client.workflowService.getSystemInfo({});
  return info.serverVersion || undefined;
}

/** The workers polling `taskQueue` for workflow and activity tasks (DescribeTaskQueue, one call per kind). */
export async function taskQueuePollers(client: Client, taskQueue: string): Promise<TaskQueuePoller[]> {
  const kinds = [
    ['workflow', 1],
    ['activity', 2],
  ] as const;
  const out: TaskQueuePoller[] = [];
  for (const [kind, taskQueueType] of kinds) {
    const r = await client.workflowService.describeTaskQueue({
      namespace: client.options.namespace,
      // Kind 1 = TASK_QUEUE_KIND_NORMAL; type 1/2 = TASK_QUEUE_TYPE_WORKFLOW/ACTIVITY.
      taskQueue: { name: taskQueue, kind: 1 },
      taskQueueType,
    });
    for (const p of r.pollers ?? []) {
      const seconds = p.lastAccessTime?.seconds;
      out.push({
        identity: p.identity ?? '',
        kind,
        buildId: p.deploymentOptions?.buildId || p.workerVersionCapabilities?.buildId || undefined,
        lastAccessTime: seconds != null ? new Date(Number(seconds) * 1000).toISOString() : undefined,
      });
    }
  }
  return out;
}

/** The loop's search attributes (`RalphStatus=Keyword` ...) the namespace doesn't have. */
export async function missingSearchAttributes(client: Client): Promise<{ name: string; type: string }[]> {
  const have = await client.connection.operatorService.listSearchAttributes({ namespace: client.options.namespace });
  const existing = new Set(Object.keys({ ...(have.customAttributes ?? {}), ...(have.systemAttributes ?? {}) }));
  return Object.values(SearchAttributes)
    .filter((sa) => !existing.has(sa.name))
    .map((sa) => ({ name: sa.name, type: sa.type }));
}
