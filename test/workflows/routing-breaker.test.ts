/**
 * The routing circuit breaker on the time-skipping test server: 3 failed runs of a routed agent within 5 minutes open
 * it (the base agent runs, a critical event is logged), and its durable 10-minute cooldown timer closes it again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { createWorker } from '../../src/workers/worker';
import type { LoopState } from '../../src/core/loop-types';
import { parseRoutingLog } from '../../src/core/routing';
import { temporal } from '@temporalio/proto';
import { SearchAttributes } from '../../src/core/constants';
import { checkFileExists, quietRuntime, scriptedLoop, tempWorkspace, workflowBundle } from '../helpers/env';

const { locateTestServer } = require('../../scripts/temporal-bin.js') as {
  locateTestServer: (o: { install?: boolean; quiet?: boolean }) => { path?: string; tried: string[] };
};

let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
const taskQueue = `breaker-${process.pid}`;

beforeAll(async () => {
  quietRuntime();
  const server = locateTestServer({ install: false, quiet: true });
  if (!server.path)
    throw new Error(`no time-skipping test server (${server.tried.join('; ')}): run npm run temporal:ensure`);
  env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: server.path } },
  });
  // The test server starts without our search attributes; the loop upserts them every iteration.
  const T = temporal.api.enums.v1.IndexedValueType;
  const types = {
    Keyword: T.INDEXED_VALUE_TYPE_KEYWORD,
    Int: T.INDEXED_VALUE_TYPE_INT,
    Bool: T.INDEXED_VALUE_TYPE_BOOL,
    Double: T.INDEXED_VALUE_TYPE_DOUBLE,
  };
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(Object.values(SearchAttributes).map((a) => [a.name, types[a.type]])),
  });
  worker = await createWorker({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle(),
    shutdownGraceTime: '5 seconds',
  });
  running = worker.run();
});
afterAll(async () => {
  worker?.shutdown();
  await running?.catch(() => undefined);
  await env?.teardown();
});

const status = (id: string): Promise<LoopState> => env.client.workflow.getHandle(id).query<LoopState>('status');
async function waitFor(id: string, ok: (s: LoopState) => boolean, ms = 90_000): Promise<LoopState> {
  const end = Date.now() + ms;
  let last: LoopState | undefined;
  while (Date.now() < end) {
    last = await status(id).catch(() => undefined);
    if (last && ok(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out; last: ${JSON.stringify(last?.routing)}`);
}

describe('routing circuit breaker', () => {
  it('opens after 3 failed routed runs, runs the base agent, and closes after the 10-minute cooldown', async () => {
    const ws = tempWorkspace(
      {
        'check.js': checkFileExists('done.txt'),
        '.ralph/agents/flaky.md':
          '---\ndomain: security\nadapter: scripted\noptions: { script: .scripts/flaky.json }\n---\nFLAKY\n',
        '.scripts/flaky.json': JSON.stringify({ default: [{ exit: 1 }] }),
      },
      { default: [{ append: 'base.log', content: 'base ran\n' }] },
    );
    const id = `breaker-${Date.now()}`;
    await env.client.workflow.start('ralphLoop', {
      taskQueue,
      workflowId: id,
      args: [
        scriptedLoop(ws, {
          prompt: 'Review this Python code for security issues and fix any injection vulnerabilities you find',
          maxIterations: 4,
          persistence: { enabled: false },
        }),
      ],
    });
    // Iterations 1-3: the routed agent fails each time; the 3rd failure opens the breaker; iteration 4 is the base's.
    const open = await waitFor(id, (s) => s.pendingGate !== undefined);
    expect(open.records.map((r) => r.outcome)).toEqual(['agent_failed', 'agent_failed', 'agent_failed', 'continue']);
    expect(open.routing!.breaker.openUntil).toBeDefined();
    expect(open.routing!.last).toMatchObject({ iteration: 4, reason: 'breaker_open' });
    expect(fs.readFileSync(path.join(ws, 'base.log'), 'utf8')).toBe('base ran\n');
    expect(open.routing!.warnings.join('\n')).toMatch(/routing disabled for 600s after 3 failures/);

    // The loop waits at its human gate; 10 minutes pass on the server: the durable timer closes the breaker.
    await env.sleep('9 minutes');
    expect((await status(id)).routing!.breaker.openUntil).toBeDefined();
    await env.sleep('2 minutes');
    const closed = await waitFor(id, (s) => s.routing!.breaker.openUntil === undefined);
    expect(closed.routing!.breaker.opened).toBe(1);

    // One more iteration: routing is back (the routed agent runs again) and the log has open and close.
    await env.client.workflow.getHandle(id).signal('reject', { by: 'test', extraIterations: 1 });
    const after = await waitFor(id, (s) => s.iteration >= 5);
    expect(after.routing!.last).toMatchObject({ iteration: 5, reason: 'routed', agent: 'flaky' });
    await env.client.workflow.getHandle(id).signal('abort', { by: 'test' });
    await env.client.workflow.getHandle(id).result();
    const log = parseRoutingLog(
      fs.readFileSync(path.join(ws, '.ralph/loops', id, 'routing/log.jsonl'), 'utf8'),
    ).entries;
    expect(log.filter((e) => e.event === 'run_failed')).toHaveLength(4);
    expect(log.find((e) => e.event === 'breaker_open')).toMatchObject({ level: 'critical', iteration: 3 });
    expect(log.find((e) => e.event === 'breaker_closed')).toBeDefined();
  });
});
