/**
 * Typed helpers over the Temporal client: connect, start a loop, read its status, signal it, list loops; start a
 * project (a PRD worked task by task), read its tasks, unblock or retry its blocked tasks, finish it.
 * Shared by the CLI and the console; every failure is one of the errors in ./errors (or below) with a clear message.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection, WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import type { SignalDefinition, UpdateDefinition } from '@temporalio/common';
import { type ConnectionConfig, tlsOptions } from '../config/connection';
import { type LoopInputRaw, parseLoopInput } from '../config/loop-input';
import { parseProjectInput, type ProjectInputRaw } from '../config/project-input';
import { SearchAttributes, WorkflowTypes } from '../core/constants';
import { loopStaticDetails, loopStaticSummary, projectStaticDetails, projectStaticSummary } from '../core/ui-details';
import type { DecisionPayload, SignalName } from '../core/loop-machine';
import type { LoopResult, LoopState } from '../core/loop-types';
import type { ProjectState, UnblockRequest } from '../core/project-machine';
import { runningChildren, type ChildGate } from '../core/child-gates';
import type { RoutePayload } from '../core/routing/signal';
import {
  InvalidInputError,
  LoopFinishedError,
  LoopNotFoundError,
  NoServerError,
  NotALoopError,
  NotAProjectError,
  ProjectFailedError,
  ProjectFinishedError,
  ProjectNotFoundError,
  UpdateRejectedError,
} from './errors';
import { secretsCodec } from './secrets-codec';
import {
  finish,
  loopSignals,
  route,
  retryBlocked,
  status,
  tasks,
  unblock,
  type ProjectUpdateAnswer,
} from '../workflows/messages';
import { withTimeout } from './watch';

export * from './errors';
export * from './watch';
export * from './doctor';

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
  // The codec encrypts agent.env values, so secrets never reach Temporal history in the clear.
  return new Client({ connection, namespace: c.namespace, dataConverter: { payloadCodecs: [secretsCodec()] } });
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
  parseLoopInput(input);
  const loopId = o.loopId ?? newLoopId(input.prompt ?? input.promptFile ?? 'loop');
  await client.workflow.start(WorkflowTypes.ralphLoop, {
    taskQueue: o.taskQueue,
    workflowId: loopId,
    args: [input],
    // What the Temporal UI shows in its list and on the details page (the loop keeps its current details itself).
    staticSummary: loopStaticSummary({ ...input, prompt: input.prompt ?? promptFileHead(input) }),
    staticDetails: loopStaticDetails(input, loopId),
  });
  return loopId;
}

/** The first 4 KB of the loop's prompt file, when this machine can read it (the summary's task line); else undefined. */
function promptFileHead(input: LoopInputRaw): string | undefined {
  if (!input.promptFile) return undefined;
  try {
    const fd = fs.openSync(path.resolve(input.workspace ?? process.cwd(), input.promptFile), 'r');
    try {
      const buf = Buffer.alloc(4096);
      return buf.subarray(0, fs.readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

async function describeOrThrow(
  client: Client,
  loopId: string,
): Promise<{ handle: WorkflowHandle; closed?: string; type: string }> {
  const handle = client.workflow.getHandle(loopId);
  try {
    const d = await handle.describe();
    return { handle, closed: d.status.name === 'RUNNING' ? undefined : d.status.name, type: d.type };
  } catch (e) {
    if (e instanceof WorkflowNotFoundError || (e as Error).name === 'WorkflowNotFoundError')
      throw new LoopNotFoundError(loopId, client.options.namespace);
    throw e;
  }
}

/** How long an ended loop's status query may wait for a worker. */
const CLOSED_QUERY_MS = 5_000;

/** The loop's current state (the `status` query). For an ended loop without a worker, the state from its result. */
export async function getLoopStatus(client: Client, loopId: string): Promise<LoopState> {
  const { handle, closed } = await describeOrThrow(client, loopId);
  try {
    // An ended loop's query needs a worker to replay it; without one the server would hold the call for its whole
    // timeout (30 s), so an ended loop gets 5 s before its result is read instead.
    if (closed) return await client.withDeadline(Date.now() + CLOSED_QUERY_MS, () => handle.query(status));
    return await handle.query(status);
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

/**
 * Sends a human signal; refuses clearly when the loop doesn't exist or already ended, and a project for anything but
 * `abort` (a project has no gate of its own: its child loops' gates are answered on the child, {@link NotALoopError}).
 */
export async function signalLoop(
  client: Client,
  loopId: string,
  name: SignalName | 'move',
  payload: DecisionPayload | MovePayload = {},
): Promise<void> {
  const { handle, closed, type } = await describeOrThrow(client, loopId);
  if (closed) throw new LoopFinishedError(loopId, name, closed.toLowerCase());
  if (type === WorkflowTypes.ralphProject && name !== 'abort') throw new NotALoopError(loopId, type);
  const signal: SignalDefinition<[(DecisionPayload | MovePayload)?]> = loopSignals[name];
  await handle.signal(signal, payload);
}

/** Payload of the `move` signal: the host to move a host-bound loop to, and its workspace path there. */
export interface MovePayload {
  host: string;
  workspace?: string;
  by?: string;
  requestId?: string;
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
  /** Quality score 0-100 of the last measured iteration (`RalphQuality`), when the gates measured one. */
  quality?: number;
  /** Cost so far in USD (`RalphCostUsd`). */
  costUsd?: number;
  startTime: string;
}

/** Filters of {@link listLoops}: each narrows the visibility query on the loop's search attributes. */
export interface ListLoopsOptions {
  awaitingHuman?: boolean;
  /** Loop status (`RalphStatus`): running, awaiting_human, accepted... */
  status?: string;
  /** Agent adapter (`RalphAgent`). */
  agent?: string;
  /** ISO time: only loops running, or started or closed at or after it. */
  since?: string;
  limit?: number;
}

/** Quotes a value for a visibility query: letters, digits and `_.:-` only, so no filter can change the query. */
function queryValue(v: string, what: string): string {
  if (!/^[A-Za-z0-9_.:-]+$/.test(v))
    throw new InvalidInputError(`invalid ${what} filter "${v}": use letters, digits and _ . : - only`);
  return `'${v}'`;
}

/** Lists loops, newest first, from their search attributes (no query per loop), optionally filtered. */
export async function listLoops(client: Client, o: ListLoopsOptions = {}): Promise<LoopSummary[]> {
  let query = `WorkflowType = '${WorkflowTypes.ralphLoop}'`;
  if (o.awaitingHuman)
    query += ` AND ${SearchAttributes.RalphAwaitingHuman.name} = true AND ExecutionStatus = 'Running'`;
  if (o.status) query += ` AND ${SearchAttributes.RalphStatus.name} = ${queryValue(o.status, 'status')}`;
  if (o.agent) query += ` AND ${SearchAttributes.RalphAgent.name} = ${queryValue(o.agent, 'agent')}`;
  if (o.since) {
    const at = queryValue(new Date(o.since).toISOString(), 'since');
    query += ` AND (ExecutionStatus = 'Running' OR StartTime >= ${at} OR CloseTime >= ${at})`;
  }
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
      quality: first<number>(SearchAttributes.RalphQuality.name),
      costUsd: first<number>(SearchAttributes.RalphCostUsd.name),
      startTime: wf.startTime.toISOString(),
    });
    if (out.length >= (o.limit ?? 100)) break;
  }
  return out;
}

/** One row of {@link listProjects}. */
export interface ProjectSummary {
  projectId: string;
  workflowStatus: string;
  startTime: string;
}

/** Lists projects (`ralphProject` workflows), newest first. */
export async function listProjects(client: Client, o: { limit?: number } = {}): Promise<ProjectSummary[]> {
  const out: ProjectSummary[] = [];
  for await (const wf of client.workflow.list({ query: `WorkflowType = '${WorkflowTypes.ralphProject}'` })) {
    out.push({ projectId: wf.workflowId, workflowStatus: wf.status.name, startTime: wf.startTime.toISOString() });
    if (out.length >= (o.limit ?? 50)) break;
  }
  return out;
}

/** A workflow's type and execution status (`RUNNING`, `COMPLETED`, ...); {@link LoopNotFoundError} if it doesn't exist. */
export async function describeWorkflow(client: Client, workflowId: string): Promise<{ type: string; status: string }> {
  try {
    const d = await client.workflow.getHandle(workflowId).describe();
    return { type: d.type, status: d.status.name };
  } catch (e) {
    if ((e as Error).name === 'WorkflowNotFoundError')
      throw new LoopNotFoundError(workflowId, client.options.namespace);
    throw e;
  }
}

/**
 * Forces an agent profile (or `base`) on a running loop: the `route` signal. Refuses an ended loop, and a project
 * (it has no route handler: the signal would be buffered and never applied) with {@link NotALoopError}.
 */
export async function routeLoop(client: Client, loopId: string, payload: RoutePayload): Promise<{ type: string }> {
  const w = await describeWorkflow(client, loopId);
  if (w.status !== 'RUNNING') throw new LoopFinishedError(loopId, route.name, w.status.toLowerCase());
  if (w.type === WorkflowTypes.ralphProject) throw new NotALoopError(loopId, w.type);
  await client.workflow.getHandle(loopId).signal(route, payload);
  return { type: w.type };
}

/**
 * A fresh project id: `ralph-project-<slug>-<6 hex>`, the slug from the PRD file's name, or from its directory's name
 * too when the file has a generic name (`prd.json`, `tasks.md`).
 */
export function newProjectId(prdFile: string): string {
  const base = path.basename(prdFile).replace(/\.[^.]*$/, '');
  const dir = path.basename(path.dirname(path.resolve(prdFile)));
  const hint = /^(prd|tasks?|todo|plan|stories|backlog)$/i.test(base) && dir ? `${dir}-${base}` : base;
  const slug = hint
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 30)
    .replace(/-$/, '');
  return `ralph-project-${slug || 'prd'}-${randomBytes(3).toString('hex')}`;
}

/** Options of {@link startProject}. */
export interface StartProjectOptions {
  taskQueue: string;
  projectId?: string;
}

/** Validates the input (here, at the edge) and starts a `ralphProject` workflow; returns its id. */
export async function startProject(client: Client, input: ProjectInputRaw, o: StartProjectOptions): Promise<string> {
  parseProjectInput(input);
  const projectId = o.projectId ?? newProjectId(input.prdFile);
  await client.workflow.start(WorkflowTypes.ralphProject, {
    taskQueue: o.taskQueue,
    workflowId: projectId,
    args: [input],
    staticSummary: projectStaticSummary(input.prdFile),
    staticDetails: projectStaticDetails(input, projectId),
  });
  return projectId;
}

async function projectHandle(client: Client, projectId: string): Promise<{ handle: WorkflowHandle; closed?: string }> {
  let d: { type: string; status: string };
  try {
    d = await describeWorkflow(client, projectId);
  } catch (e) {
    if ((e as Error).name === 'LoopNotFoundError') throw new ProjectNotFoundError(projectId, client.options.namespace);
    throw e;
  }
  if (d.type !== WorkflowTypes.ralphProject) throw new NotAProjectError(projectId, d.type);
  return { handle: client.workflow.getHandle(projectId), closed: d.status === 'RUNNING' ? undefined : d.status };
}

/**
 * The project's task table (the `tasks` query). Throws {@link ProjectFailedError} for a project that failed before it
 * recorded tasks (an invalid PRD, say), with the failure's message.
 */
export async function getProjectTasks(client: Client, projectId: string): Promise<ProjectState> {
  const { handle, closed } = await projectHandle(client, projectId);
  try {
    return await handle.query(tasks);
  } catch (e) {
    if (!closed) throw e;
    const failure = await handle.result().then(
      () => undefined,
      (f: Error & { cause?: Error }) => f.cause?.message ?? f.message,
    );
    if (failure) throw new ProjectFailedError(projectId, failure);
    throw e;
  }
}

/** How long a view waits for a child loop's `status` query. */
const CHILD_QUERY_MS = 5_000;

/**
 * The pending human gates of a project's running child loops (a child's question pauses the whole project until it is
 * answered), read from each child's `status` query at view time. A child that does not answer in time (no worker, or
 * it just ended) is left out.
 */
export async function projectChildGates(client: Client, project: ProjectState): Promise<ChildGate[]> {
  const found = await Promise.all(
    runningChildren(project).map(async (c) => {
      const s = await withTimeout(client.workflow.getHandle(c.loopId).query(status), CHILD_QUERY_MS);
      return s?.pendingGate && !s.result ? { ...c, gate: s.pendingGate } : undefined;
    }),
  );
  return found.filter((g): g is ChildGate => !!g);
}

/** What an operator update did: the tasks it changed and the project's note. */
export type ProjectUpdateResult = ProjectUpdateAnswer;

async function updateProject<A>(
  client: Client,
  projectId: string,
  update: UpdateDefinition<ProjectUpdateAnswer, [A]>,
  command: string,
  arg: A,
): Promise<ProjectUpdateResult> {
  const { handle, closed } = await projectHandle(client, projectId);
  if (closed) throw new ProjectFinishedError(projectId, command, closed.toLowerCase());
  try {
    return await handle.executeUpdate(update, { args: [arg] });
  } catch (e) {
    const err = e as Error & { cause?: Error };
    // Compared by name: `instanceof` breaks across module registries.
    if (err.name === 'WorkflowUpdateFailedError')
      throw new UpdateRejectedError(projectId, update.name, err.cause?.message ?? err.message, e);
    throw e;
  }
}

/**
 * Unblocks named tasks, or every blocked task of a complexity, optionally with a new timeout (the `unblock` update).
 * Throws {@link UpdateRejectedError} with the project's message when it refuses (unknown or unblocked task...).
 */
export function unblockTasks(client: Client, projectId: string, r: UnblockRequest): Promise<ProjectUpdateResult> {
  return updateProject(client, projectId, unblock, 'unblock', r);
}

/** Gives every blocked task `maxAttempts` (default 1) more attempts (the `retryBlocked` update). */
export function retryBlockedTasks(
  client: Client,
  projectId: string,
  r: { maxAttempts?: number; reason?: string; by?: string } = {},
): Promise<ProjectUpdateResult> {
  return updateProject(client, projectId, retryBlocked, 'retry', r);
}

/** Ends a project that waits for an operator with what it has (the `finish` signal). */
export async function finishProject(
  client: Client,
  projectId: string,
  p: { by?: string; reason?: string } = {},
): Promise<void> {
  const { handle, closed } = await projectHandle(client, projectId);
  if (closed) throw new ProjectFinishedError(projectId, 'finish', closed.toLowerCase());
  await handle.signal(finish, p);
}
