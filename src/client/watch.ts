/**
 * Polling a loop or a project, for whatever shows its progress (`--follow`, `ralph watch`, the demo): one look at the
 * workflow (has it ended, and its state if a worker answers the query in time), and how it ended. The caller decides
 * what to print; every call to Temporal is here.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { LoopResult, LoopState } from '../core/loop-types';
import type { ProjectState } from '../core/project-machine';
import type { ProjectResult } from '../workflows/ralph-project';
import { status, tasks } from '../workflows/messages';
import { LoopNotFoundError, ProjectNotFoundError } from './errors';

/** How long one poll waits for a worker to answer the query. */
const QUERY_WAIT_MS = 5000;

/** One look at a workflow: its state (undefined when no worker answered in time) and, once it ended, its status. */
export interface Poll<S> {
  state?: S;
  /** The closed execution status (`COMPLETED`, `FAILED`, `TERMINATED`...); undefined while it runs. */
  closed?: string;
}

/** The promise's value, or undefined when it fails or takes longer than `ms`. */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([p.catch(() => undefined), t]).finally(() => clearTimeout(timer));
}

/** Whether the workflow ended (its status), or undefined while it runs; `notFound` when there is none. */
async function closedStatus(handle: WorkflowHandle, notFound: () => Error): Promise<string | undefined> {
  try {
    const d = await handle.describe();
    return d.status.name === 'RUNNING' ? undefined : d.status.name;
  } catch (e) {
    if ((e as Error).name === 'WorkflowNotFoundError') throw notFound();
    throw e;
  }
}

/** One look at a loop; {@link LoopNotFoundError} when there is none. */
export async function pollLoop(client: Client, loopId: string): Promise<Poll<LoopState>> {
  const handle = client.workflow.getHandle(loopId);
  const closed = await closedStatus(handle, () => new LoopNotFoundError(loopId, client.options.namespace));
  return { closed, state: await withTimeout(handle.query(status), QUERY_WAIT_MS) };
}

/** One look at a project; {@link ProjectNotFoundError} when there is none. */
export async function pollProject(client: Client, projectId: string): Promise<Poll<ProjectState>> {
  const handle = client.workflow.getHandle(projectId);
  const closed = await closedStatus(handle, () => new ProjectNotFoundError(projectId, client.options.namespace));
  return { closed, state: await withTimeout(handle.query(tasks), QUERY_WAIT_MS) };
}

/**
 * How an ended loop ended: its result, or for a workflow that failed before recording one (invalid input found by the
 * worker, a termination), a `failed` / `aborted` result with the failure's message.
 */
export async function endedLoopResult(client: Client, loopId: string, closed: string): Promise<LoopResult> {
  try {
    return (await client.workflow.getHandle(loopId).result()) as LoopResult;
  } catch (e) {
    return {
      loopId,
      status: closed === 'TERMINATED' || closed === 'CANCELED' ? 'aborted' : 'failed',
      reason: `workflow ${closed.toLowerCase()}: ${failureMessage(e)}`,
      iterations: 0,
      totals: {} as LoopResult['totals'],
      stateFile: '',
    };
  }
}

/** How an ended project ended: its result, or the failure's message. */
export async function endedProjectResult(
  client: Client,
  projectId: string,
): Promise<{ result: ProjectResult } | { failure: string }> {
  return client.workflow
    .getHandle(projectId)
    .result()
    .then(
      (result: ProjectResult) => ({ result }),
      (e: unknown) => ({ failure: failureMessage(e) }),
    );
}

/** Why an ended workflow failed (its failure's message), or undefined when it completed. */
export async function workflowFailure(client: Client, workflowId: string): Promise<string | undefined> {
  return client.workflow
    .getHandle(workflowId)
    .result()
    .then(
      () => undefined,
      (e: unknown) => failureMessage(e),
    );
}

/** Why a workflow failed, without the SDK's wrapping ("Workflow execution failed"). */
export function failureMessage(e: unknown): string {
  const err = e as Error & { cause?: Error };
  return err.cause?.message ?? err.message;
}
