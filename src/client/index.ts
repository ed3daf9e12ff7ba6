/**
 * Typed helpers over the Temporal client: connect, start a loop, read its status, signal it, list loops.
 * Shared by the CLI and the console; every failure is one of the errors in ./errors with a clear message.
 */
import { randomBytes } from 'node:crypto';
import { Client, Connection, WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import { type ConnectionConfig, tlsOptions } from '../config/connection';
import { type LoopInputRaw, LoopInput, formatIssues } from '../config/loop-input';
import { SearchAttributes, WorkflowTypes } from '../core/constants';
import type { DecisionPayload, SignalName } from '../core/loop-machine';
import type { LoopResult, LoopState } from '../core/loop-types';
import { InvalidInputError, LoopFinishedError, LoopNotFoundError, NoServerError } from './errors';

export * from './errors';

/** Connects a client, failing fast with {@link NoServerError} when nothing answers. */
export async function connectClient(c: ConnectionConfig): Promise<Client> {
  let connection: Connection;
  try {
    connection = await Connection.connect({
      address: c.address,
      tls: tlsOptions(c),
      apiKey: c.apiKey,
      metadata: c.apiKey ? { 'temporal-namespace': c.namespace } : undefined,
      connectTimeout: '5 seconds',
    });
    await connection.workflowService.getSystemInfo({});
  } catch (e) {
    throw new NoServerError(c.address, e);
  }
  return new Client({ connection, namespace: c.namespace });
}

/** A fresh loop id: `ralph-<slug of the task>-<6 hex>`. */
export function newLoopId(hint = 'loop'): string {
  const slug = hint
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 30);
  return `ralph-${slug || 'loop'}-${randomBytes(3).toString('hex')}`;
}

/** Options of {@link startLoop}. */
export interface StartLoopOptions {
  taskQueue: string;
  loopId?: string;
}

/** Validates the input (here, at the edge) and starts a `ralphLoop` workflow; returns its id. */
export async function startLoop(client: Client, input: LoopInputRaw, o: StartLoopOptions): Promise<string> {
  const parsed = LoopInput.safeParse(input);
  if (!parsed.success) throw new InvalidInputError(`invalid loop input: ${formatIssues(parsed.error)}`);
  const loopId = o.loopId ?? newLoopId(input.prompt ?? input.promptFile ?? 'loop');
  await client.workflow.start(WorkflowTypes.ralphLoop, {
    taskQueue: o.taskQueue,
    workflowId: loopId,
    args: [input],
  });
  return loopId;
}

async function describeOrThrow(client: Client, loopId: string): Promise<{ handle: WorkflowHandle; closed?: string }> {
  const handle = client.workflow.getHandle(loopId);
  try {
    const d = await handle.describe();
    return { handle, closed: d.status.name === 'RUNNING' ? undefined : d.status.name };
  } catch (e) {
    if (e instanceof WorkflowNotFoundError || (e as Error).name === 'WorkflowNotFoundError')
      throw new LoopNotFoundError(loopId, client.options.namespace);
    throw e;
  }
}

/** The loop's current state (the `status` query). For an ended loop without a worker, the state from its result. */
export async function getLoopStatus(client: Client, loopId: string): Promise<LoopState> {
  const { handle, closed } = await describeOrThrow(client, loopId);
  try {
    return await handle.query<LoopState>('status');
  } catch (e) {
    if (!closed) throw e;
    const result = (await handle.result().catch(() => undefined)) as LoopResult | undefined;
    return {
      loopId,
      status: result?.status ?? 'failed',
      phase: 'done',
      iteration: result?.iterations ?? 0,
      maxIterations: 0,
      agent: '',
      workspace: '',
      stateDir: '',
      paused: false,
      records: [],
      decisions: [],
      signals: [],
      totals: result?.totals ?? ({} as LoopState['totals']),
      pendingFeedback: [],
      run: 0,
      startedAt: '',
      updatedAt: '',
      labels: {},
      result,
    };
  }
}

/** Sends a human signal; refuses clearly when the loop doesn't exist or already ended. */
export async function signalLoop(
  client: Client,
  loopId: string,
  name: SignalName,
  payload: DecisionPayload = {},
): Promise<void> {
  const { handle, closed } = await describeOrThrow(client, loopId);
  if (closed) throw new LoopFinishedError(loopId, name, closed.toLowerCase());
  await handle.signal(name, payload);
}

/** Waits for a loop's result. */
export async function loopResult(client: Client, loopId: string): Promise<LoopResult> {
  await describeOrThrow(client, loopId);
  return (await client.workflow.getHandle(loopId).result()) as LoopResult;
}

/** One row of {@link listLoops}. */
export interface LoopSummary {
  loopId: string;
  workflowStatus: string;
  status?: string;
  iteration?: number;
  awaitingHuman: boolean;
  agent?: string;
  startTime: string;
}

/** Lists loops, newest first, optionally only those waiting for a human. */
export async function listLoops(
  client: Client,
  o: { awaitingHuman?: boolean; limit?: number } = {},
): Promise<LoopSummary[]> {
  let query = `WorkflowType = '${WorkflowTypes.ralphLoop}'`;
  if (o.awaitingHuman)
    query += ` AND ${SearchAttributes.RalphAwaitingHuman.name} = true AND ExecutionStatus = 'Running'`;
  const out: LoopSummary[] = [];
  for await (const wf of client.workflow.list({ query })) {
    const sa = (wf.searchAttributes ?? {}) as Record<string, unknown[] | undefined>;
    const first = <T>(k: string): T | undefined => sa[k]?.[0] as T | undefined;
    out.push({
      loopId: wf.workflowId,
      workflowStatus: wf.status.name,
      status: first<string>(SearchAttributes.RalphStatus.name),
      iteration: first<number>(SearchAttributes.RalphIteration.name),
      awaitingHuman: first<boolean>(SearchAttributes.RalphAwaitingHuman.name) === true,
      agent: first<string>(SearchAttributes.RalphAgent.name),
      startTime: wf.startTime.toISOString(),
    });
    if (out.length >= (o.limit ?? 100)) break;
  }
  return out;
}
