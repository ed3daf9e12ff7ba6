import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import os from 'node:os';
import * as activities from '../activities';
import { type ConnectionConfig, tlsOptions } from '../config/connection';
import { SearchAttributes } from '../core/constants';
import { hostTaskQueue } from '../core/hosts';
import { NoServerError } from '../client/errors';
import { secretsCodec } from '../client/secrets-codec';
import { livenessInterceptor } from '../activities/liveness';
import { prebuiltWorkflowBundle, sharedWorkflowModules } from './workflow-bundle';

/** Options of {@link createWorker}. */
export interface CreateWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  /** Prebuilt workflow bundle (tests bundle once per file); default: bundle src/workflows at start. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** How long running agents get to stop on shutdown before the worker gives up on them. */
  shutdownGraceTime?: WorkerOptions['shutdownGraceTime'];
  maxConcurrentActivityTaskExecutions?: number;
  /**
   * This worker's host (multi-host deployments): loops it validates without a `host` bind to it. Its workspace
   * activities run on the host's own queue, served by {@link createHostWorker}.
   */
  hostId?: string;
}

/** The activities a worker registers: validation reports the worker's host, so an unbound loop binds to it. */
export function workerActivities(hostId?: string): typeof activities {
  if (!hostId) return activities;
  return {
    ...activities,
    validateLoopInput: (i: activities.ValidateLoopInputInput) =>
      activities.validateLoopInput({ ...i, workerHost: hostId }),
  };
}

/** The worker's identity in Temporal's history (ActivityTaskStarted): host and process. */
export const workerIdentity = (hostId: string | undefined): string =>
  `ralph${hostId ? `@${hostId}` : ''}/${process.pid}@${os.hostname()}`;

/** The workflow code: a given bundle, else the one the build wrote (when fresh), else bundle at start. */
function workflowCode(
  given: CreateWorkerOptions['workflowBundle'],
): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath' | 'bundlerOptions'> {
  if (given) return { workflowBundle: given };
  const codePath = prebuiltWorkflowBundle();
  return codePath
    ? { workflowBundle: { codePath } }
    : { workflowsPath: require.resolve('../workflows'), bundlerOptions: { preloadModules: sharedWorkflowModules() } };
}

/**
 * The options every production worker runs with: identity, the secrets codec, the liveness heartbeats, the shutdown
 * grace time and the activity concurrency limit. The workers below and the benchmarks' workers are built from it.
 */
export function productionWorkerOptions(o: CreateWorkerOptions): WorkerOptions {
  return {
    connection: o.connection,
    namespace: o.namespace,
    taskQueue: o.taskQueue,
    identity: workerIdentity(o.hostId),
    activities: workerActivities(o.hostId),
    // Same codec as the client: agent.env values are encrypted in every payload the worker sends.
    dataConverter: { payloadCodecs: [secretsCodec()] },
    interceptors: { activity: [livenessInterceptor] },
    // Activities are cancelled on shutdown; give agents time to be killed cleanly (the default is 0).
    shutdownGraceTime: o.shutdownGraceTime ?? '10 seconds',
    maxConcurrentActivityTaskExecutions: o.maxConcurrentActivityTaskExecutions ?? 20,
  };
}

/** Creates a worker that runs the ralph workflows and activities on the shared queue. */
export async function createWorker(o: CreateWorkerOptions): Promise<Worker> {
  return Worker.create({ ...productionWorkerOptions(o), ...workflowCode(o.workflowBundle) });
}

/**
 * Creates the worker of a host's own queue (`<taskQueue>@<hostId>`): the activities of the loops whose workspace is
 * on this host. No workflows: those run on the shared queue, on any host.
 */
export async function createHostWorker(o: CreateWorkerOptions & { hostId: string }): Promise<Worker> {
  // The host's activities get encrypted agent.env values too: same codec as the shared queue's worker.
  return Worker.create({ ...productionWorkerOptions(o), taskQueue: hostTaskQueue(o.taskQueue, o.hostId) });
}

/** Opens the worker's connection, with a clear error when no server answers. */
export async function connectWorker(c: ConnectionConfig): Promise<NativeConnection> {
  try {
    return await NativeConnection.connect({
      address: c.address,
      tls: tlsOptions(c),
      apiKey: c.apiKey,
      metadata: c.apiKey ? { 'temporal-namespace': c.namespace } : undefined,
    });
  } catch (e) {
    throw new NoServerError(c.address, e);
  }
}

/**
 * Registers the search attributes the loop upserts, when the server lets us (dev server, self-hosted). On Temporal
 * Cloud they are created in the namespace settings; then this only reports what is missing.
 */
export async function ensureSearchAttributes(
  connection: NativeConnection,
  namespace: string,
  log: (msg: string) => void = () => undefined,
): Promise<string[]> {
  const want = Object.values(SearchAttributes);
  const typeEnum: Record<string, number> = {
    Text: 1,
    Keyword: 2,
    Int: 3,
    Double: 4,
    Bool: 5,
    Datetime: 6,
    KeywordList: 7,
  };
  try {
    const have = await connection.operatorService.listSearchAttributes({ namespace });
    const existing = new Set(Object.keys({ ...(have.customAttributes ?? {}), ...(have.systemAttributes ?? {}) }));
    const missing = want.filter((w) => !existing.has(w.name));
    if (missing.length === 0) return [];
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((m) => [m.name, typeEnum[m.type]])),
    });
    log(`registered search attributes: ${missing.map((m) => m.name).join(', ')}`);
    return missing.map((m) => m.name);
  } catch (e) {
    log(
      `could not check/register search attributes (${(e as Error).message}); create them yourself: ${want
        .map((w) => `${w.name}=${w.type}`)
        .join(' ')}`,
    );
    return [];
  }
}
