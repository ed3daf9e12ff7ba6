/**
 * One helper factory for workflow tests: a real Temporal dev server (the `temporal` binary found by
 * scripts/temporal-bin.js), the workflow bundle built once per test file, and a worker on a fresh task queue.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  bundleWorkflowCode,
  NativeConnection,
  Runtime,
  DefaultLogger,
  type WorkflowBundleWithSourceMap,
  type Worker,
} from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import { createWorker } from '../../src/workers/worker';
import { sharedWorkflowModules } from '../../src/workers/workflow-bundle';
import { DEV_SERVER_DYNAMIC_CONFIG_ARGS } from '../../src/core/constants';
import { ALL_SEARCH_ATTRIBUTE_KEYS } from '../../src/workflows/search-attributes';
import type { LoopInputRaw } from '../../src/config/loop-input';
import type { LoopState, LoopResult } from '../../src/core/loop-types';
import type { AgentScript } from '../../src/scripted-agent/script';

const { locateTemporal } = require('../../scripts/temporal-bin.js') as {
  locateTemporal: (o: { install?: boolean; quiet?: boolean }) => { path?: string; tried: string[] };
};

let runtimeInstalled = false;
/** Keeps SDK logs quiet in tests unless RALPH_TEST_LOG is set. */
export function quietRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({ logger: new DefaultLogger((process.env.RALPH_TEST_LOG as 'INFO') ?? 'WARN') });
}

/** Path of the `temporal` CLI (installed by `npm test`'s pretest step). */
export function temporalPath(): string {
  const r = locateTemporal({ install: false, quiet: true });
  if (!r.path) throw new Error(`no temporal binary (${r.tried.join('; ')}): run \`npm run temporal:ensure\``);
  return r.path;
}

/** Starts a real `temporal server start-dev` with the loop's search attributes. */
export async function startDevServer(
  extra: { dbFilename?: string; port?: number } = {},
): Promise<TestWorkflowEnvironment> {
  quietRuntime();
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: temporalPath() },
      searchAttributes: ALL_SEARCH_ATTRIBUTE_KEYS,
      extraArgs: DEV_SERVER_DYNAMIC_CONFIG_ARGS,
      ...extra,
    },
  });
}

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;
/** The workflow bundle, built once per test file. */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({
    workflowsPath: require.resolve('../../src/workflows'),
    // As the build and the worker bundle it: the routing model's modules shared by every loop.
    preloadModules: sharedWorkflowModules(),
    logger: new DefaultLogger('WARN'),
  });
  return bundle;
}

let queueSeq = 0;

/** A dev server plus a running worker; `start` it in beforeAll and `stop` it in afterAll. */
export class Harness {
  private constructor(
    readonly env: TestWorkflowEnvironment,
    readonly taskQueue: string,
    private worker: Worker | undefined,
    private running: Promise<void> | undefined,
  ) {}

  /** The client of the dev server. */
  get client(): Client {
    return this.env.client;
  }

  /** Starts a dev server and (unless `worker: false`) a worker polling a fresh task queue. */
  static async start(o: { worker?: boolean } = {}): Promise<Harness> {
    const env = await startDevServer();
    const taskQueue = `test-${process.pid}-${++queueSeq}`;
    const h = new Harness(env, taskQueue, undefined, undefined);
    if (o.worker !== false) await h.startWorker();
    return h;
  }

  /** Starts (or restarts) the in-process worker. */
  async startWorker(): Promise<void> {
    this.worker = await createWorker({
      connection: this.env.nativeConnection as NativeConnection,
      namespace: this.env.namespace ?? 'default',
      taskQueue: this.taskQueue,
      workflowBundle: await workflowBundle(),
      shutdownGraceTime: '5 seconds',
    });
    this.running = this.worker.run();
  }

  /** Stops the in-process worker. */
  async stopWorker(): Promise<void> {
    if (!this.worker) return;
    this.worker.shutdown();
    await this.running;
    this.worker = undefined;
  }

  /** Stops the worker and the server. */
  async stop(): Promise<void> {
    await this.stopWorker().catch(() => undefined);
    await this.env.teardown();
  }

  /** Starts a `ralphLoop` on this harness's task queue. */
  async startLoop(input: LoopInputRaw, id = `loop-${Date.now()}-${Math.floor(Math.random() * 1e6)}`): Promise<string> {
    await this.client.workflow.start('ralphLoop', { taskQueue: this.taskQueue, workflowId: id, args: [input] });
    return id;
  }

  /** The loop's status query. */
  status(id: string): Promise<LoopState> {
    return this.client.workflow.getHandle(id).query<LoopState>('status');
  }

  /** Waits until the loop's state satisfies `pred` (polls the status query). */
  async waitFor(id: string, pred: (s: LoopState) => boolean, timeoutMs = 60_000): Promise<LoopState> {
    const end = Date.now() + timeoutMs;
    let last: LoopState | undefined;
    while (Date.now() < end) {
      try {
        last = await this.status(id);
        if (pred(last)) return last;
      } catch {
        // the first workflow task may not have run yet
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(
      `timed out waiting for loop ${id}; last state: ${JSON.stringify(last && { status: last.status, phase: last.phase, iteration: last.iteration })}`,
    );
  }

  /** The loop's result. */
  result(id: string): Promise<LoopResult> {
    return this.client.workflow.getHandle(id).result() as Promise<LoopResult>;
  }

  /** Sends a signal. */
  signal(id: string, name: string, payload?: unknown): Promise<void> {
    return this.client.workflow.getHandle(id).signal(name, payload);
  }
}

/** Creates a temp workspace with files and (optionally) a scripted-agent script at `script.json`. */
export function tempWorkspace(
  files: Record<string, string> = {},
  script?: AgentScript | Record<string, unknown>,
): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-ws-'));
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  if (script) fs.writeFileSync(path.join(dir, '.ralph-script.json'), JSON.stringify(script, null, 2));
  return dir;
}

/** A loop input for a scripted agent in `workspace`, with test-friendly defaults. */
export function scriptedLoop(workspace: string, over: Partial<LoopInputRaw> = {}): LoopInputRaw {
  return {
    prompt: 'Make `node check.js` exit 0.',
    workspace,
    agent: { adapter: 'scripted', script: '.ralph-script.json' },
    completion: { command: 'node check.js' },
    maxIterations: 5,
    iterationTimeoutSeconds: 60,
    heartbeatTimeoutSeconds: 10,
    ...over,
  };
}

/** A check script that passes once `file` exists (with optional content). */
export const checkFileExists = (file: string, content?: string): string =>
  `const fs=require('fs');const f=${JSON.stringify(file)};` +
  `if(!fs.existsSync(f)){console.error('missing '+f);process.exit(1)}` +
  (content !== undefined
    ? `if(fs.readFileSync(f,'utf8').trim()!==${JSON.stringify(content)}){console.error('wrong content in '+f);process.exit(1)}`
    : '') +
  `console.log('ok');`;
