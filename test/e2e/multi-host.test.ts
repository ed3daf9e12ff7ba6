import { spawn, spawnSync, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Harness, checkFileExists, scriptedLoop } from '../helpers/env';
import type { LoopResult } from '../../src/core/loop-types';
import type { z } from 'zod';
import type { AgentScript as AgentScriptSchema } from '../../src/scripted-agent/script';

type AgentScript = z.input<typeof AgentScriptSchema>;

const WORKER_MAIN = path.resolve(__dirname, '../../dist/src/workers/main.js');
const CLI = path.resolve(__dirname, '../../dist/src/cli/index.js');

/** A worker process of host `hostId`: serves the shared queue and its own `<queue>@<hostId>`. */
function spawnHostWorker(address: string, taskQueue: string, hostId: string): ChildProcess {
  return spawn(process.execPath, [WORKER_MAIN], {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: address,
      RALPH_TASK_QUEUE: taskQueue,
      RALPH_HOST_ID: hostId,
      RALPH_LOG_LEVEL: 'WARN',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

const killHard = async (w: ChildProcess | undefined): Promise<void> => {
  if (!w || w.exitCode !== null || w.signalCode !== null) return;
  const exited = new Promise((r) => w.once('exit', r));
  w.kill('SIGKILL');
  await exited;
};

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });

/** A workspace folder under `root` with a check script and a scripted agent's script. */
function workspaceIn(root: string, name: string, script: AgentScript): string {
  const ws = path.join(root, name);
  fs.mkdirSync(ws, { recursive: true });
  fs.writeFileSync(path.join(ws, 'check.js'), checkFileExists('done.txt'));
  fs.writeFileSync(path.join(ws, '.ralph-script.json'), JSON.stringify(script));
  fs.writeFileSync(path.join(ws, '.gitignore'), '.ralph/\n');
  return ws;
}

interface ActivityRow {
  type: string;
  queue: string;
  identity?: string;
}

/** Every activity of a workflow's runs: its type, the queue it was scheduled on and the worker that started it. */
async function activityRows(h: Harness, id: string): Promise<ActivityRow[]> {
  const rows = new Map<string, ActivityRow>();
  const history = await h.client.workflow.getHandle(id).fetchHistory();
  for (const e of history.events ?? []) {
    const id = String(e.eventId);
    if (e.activityTaskScheduledEventAttributes) {
      const a = e.activityTaskScheduledEventAttributes;
      rows.set(id, { type: a.activityType?.name ?? '', queue: a.taskQueue?.name ?? '' });
    }
    if (e.activityTaskStartedEventAttributes) {
      const a = e.activityTaskStartedEventAttributes;
      const row = rows.get(String(a.scheduledEventId));
      if (row) row.identity = a.identity ?? undefined;
    }
  }
  return [...rows.values()];
}

describe('workers on many hosts', () => {
  let h: Harness;
  let rootA: string;
  let rootB: string;
  const workers: Record<string, ChildProcess | undefined> = {};
  const start = (host: 'A' | 'B'): void => {
    workers[host] = spawnHostWorker(h.env.address, h.taskQueue, host);
  };

  beforeAll(async () => {
    h = await Harness.start({ worker: false });
    rootA = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-hostA-'));
    rootB = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-hostB-'));
    start('A');
    start('B');
  });
  afterAll(async () => {
    await Promise.all(Object.values(workers).map(killHard));
    await h.stop();
  });

  it('runs every workspace activity of a loop on its own host, for loops bound with --host and by the first worker', async () => {
    const script: AgentScript = {
      iterations: [[{ write: 'a.txt', content: '1' }], [{ write: 'done.txt', content: 'ok' }, { claimDone: true }]],
    };
    const wsA = workspaceIn(rootA, 'on-a', script);
    const wsB = workspaceIn(rootB, 'on-b', script);
    const wsAny = workspaceIn(rootA, 'unbound', script);
    const idA = await h.startLoop(scriptedLoop(wsA, { host: 'A' }));
    const idB = await h.startLoop(scriptedLoop(wsB, { host: 'B' }));
    const idAny = await h.startLoop(scriptedLoop(wsAny));
    for (const id of [idA, idB, idAny]) expect(await h.result(id)).toMatchObject({ status: 'accepted', iterations: 2 });

    for (const [id, host] of [
      [idA, 'A'],
      [idB, 'B'],
    ] as const) {
      const rows = await activityRows(h, id);
      expect(rows.length).toBeGreaterThanOrEqual(9);
      // Validation included: a loop started with --host is validated on its host's queue.
      for (const r of rows) {
        expect({ type: r.type, queue: r.queue }).toEqual({ type: r.type, queue: `${h.taskQueue}@${host}` });
        expect(r.identity).toMatch(new RegExp(`^ralph@${host}/`));
      }
      expect((await h.status(id)).host).toMatchObject({ id: host, boundBy: 'input' });
    }
    // Unbound: validated on the shared queue by whichever worker took it, then bound to that worker's host.
    const s = await h.status(idAny);
    expect(s.host?.boundBy).toBe('worker');
    const rows = await activityRows(h, idAny);
    expect(rows[0]).toMatchObject({ type: 'validateLoopInput', queue: h.taskQueue });
    expect(rows[0].identity).toMatch(new RegExp(`^ralph@${s.host!.id}/`));
    for (const r of rows.slice(1)) {
      expect(r.queue).toBe(`${h.taskQueue}@${s.host!.id}`);
      expect(r.identity).toMatch(new RegExp(`^ralph@${s.host!.id}/`));
    }
  });

  it("runs routing's activities (profiles, session, log) on the loop's host too", async () => {
    const ws = workspaceIn(rootA, 'routed', { default: [{ write: 'done.txt', content: 'base' }] });
    fs.mkdirSync(path.join(ws, '.ralph', 'agents'), { recursive: true });
    fs.mkdirSync(path.join(ws, '.scripts'));
    fs.writeFileSync(
      path.join(ws, '.ralph', 'agents', 'security_specialist.md'),
      '---\ndomain: security\nadapter: scripted\noptions: { script: .scripts/sec.json }\n---\nSECURITY-INSTRUCTIONS\n',
    );
    fs.writeFileSync(
      path.join(ws, '.scripts', 'sec.json'),
      JSON.stringify({ default: [{ write: 'done.txt', content: 'specialist' }] }),
    );
    const prompt = 'Review this Python code for security issues and fix any injection vulnerabilities you find';
    const id = await h.startLoop(scriptedLoop(ws, { host: 'A', prompt }));
    expect(await h.result(id)).toMatchObject({ status: 'accepted', iterations: 1 });
    expect(fs.readFileSync(path.join(ws, 'done.txt'), 'utf8')).toBe('specialist');
    const rows = await activityRows(h, id);
    const types = rows.map((r) => r.type);
    for (const t of ['startRouting', 'loadAgentProfile', 'recordRouting']) expect(types).toContain(t);
    for (const r of rows) {
      expect({ type: r.type, queue: r.queue }).toEqual({ type: r.type, queue: `${h.taskQueue}@A` });
      expect(r.identity).toMatch(/^ralph@A\//);
    }
    expect(fs.existsSync(path.join(ws, '.ralph', 'loops', id, 'routing', 'log.jsonl'))).toBe(true);
  });

  it("makes a host's loops wait while its worker is gone (status says so), other hosts' loops go on, and resumes on restart with nothing lost or counted twice", async () => {
    const slow: AgentScript = {
      iterations: [
        [{ append: 'runs.log', content: '1\n' }],
        [
          { append: 'runs.log', content: '2\n' },
          { write: 'partial.txt', content: 'half-applied by the killed run', onAttempt: 1 },
          { sleep: 4000 },
          { write: 'done.txt', content: 'ok' },
        ],
      ],
    };
    const wsA = workspaceIn(rootA, 'killed', slow);
    const wsB = workspaceIn(rootB, 'unaffected', {
      iterations: [[{ sleep: 1500 }], [{ sleep: 1500 }], [{ write: 'done.txt', content: 'ok' }]],
    });
    const loop = { heartbeatTimeoutSeconds: 2, hostWaitSeconds: 2 };
    const idA = await h.startLoop(scriptedLoop(wsA, { host: 'A', ...loop }));
    const idB = await h.startLoop(scriptedLoop(wsB, { host: 'B', ...loop }));
    await h.waitFor(idA, () => fs.existsSync(path.join(wsA, 'partial.txt')));
    await killHard(workers.A);

    // The retry of the agent run waits on A's queue; after hostWaitSeconds the status says so.
    const waiting = await h.waitFor(idA, (s) => !!s.host?.waiting, 60_000);
    expect(waiting.host).toMatchObject({ id: 'A', waiting: { activity: 'runAgent' } });
    expect(waiting.iteration).toBe(1);
    // B's loop never needed A.
    expect(await h.result(idB)).toMatchObject({ status: 'accepted', iterations: 3 });
    expect((await h.status(idA)).status).not.toMatch(/accepted|failed|aborted/);

    start('A');
    const r = (await h.result(idA)) as LoopResult;
    expect(r).toMatchObject({ status: 'accepted', iterations: 2 });
    const s = await h.status(idA);
    expect(s.records.map((x) => x.n)).toEqual([1, 2]);
    expect(s.host?.waiting).toBeUndefined();
    // The run after the wait started from iteration 2's pre-run checkpoint: the killed run's file is gone.
    expect(fs.readFileSync(path.join(wsA, 'runs.log'), 'utf8')).toBe('1\n2\n');
    expect(fs.existsSync(path.join(wsA, 'partial.txt'))).toBe(false);
    for (const row of await activityRows(h, idA)) expect(row.queue).toBe(`${h.taskQueue}@A`);
  });

  it('ralph move re-creates the workspace on another host from the last pushed checkpoint and the loop finishes there', async () => {
    const remote = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-remote-')), 'repo.git');
    execFileSync('git', ['init', '--quiet', '--bare', remote]);
    const wsA = workspaceIn(rootA, 'movable', {
      iterations: [
        [{ write: 'a.txt', content: 'from iteration 1' }],
        [{ write: 'b.txt', content: 'from iteration 2' }],
        [{ append: 'iter3.log', content: 'started\n' }, { sleep: 3000 }, { write: 'done.txt', content: 'ok' }],
      ],
    });
    git(wsA, 'init', '--quiet');
    git(wsA, 'add', '-A');
    git(wsA, 'commit', '--quiet', '-m', 'task');
    git(wsA, 'remote', 'add', 'origin', remote);
    git(wsA, 'push', '--quiet', 'origin', 'HEAD:refs/heads/main');
    git(remote, 'symbolic-ref', 'HEAD', 'refs/heads/main');

    if (!workers.A || workers.A.exitCode !== null || workers.A.signalCode !== null) start('A');
    const id = await h.startLoop(
      scriptedLoop(wsA, { host: 'A', heartbeatTimeoutSeconds: 2, hostWaitSeconds: 2, maxIterations: 6 }),
    );
    await h.waitFor(id, () => fs.existsSync(path.join(wsA, 'iter3.log')));
    await killHard(workers.A);

    const wsB = path.join(rootB, 'moved-here');
    const out = execFileSync(
      process.execPath,
      [CLI, 'move', id, '--host', 'B', '--workspace', wsB, '--by', 'ops', '--address', h.env.address],
      { encoding: 'utf8', env: { ...process.env, RALPH_TASK_QUEUE: h.taskQueue } },
    );
    expect(out).toMatch(/move to host B requested/);

    const r = (await h.result(id)) as LoopResult;
    expect(r).toMatchObject({ status: 'accepted', iterations: 3 });
    const s = await h.status(id);
    expect(s.records.map((x) => x.n)).toEqual([1, 2, 3]);
    expect(s.workspace).toBe(wsB);
    expect(s.host).toMatchObject({
      id: 'B',
      boundBy: 'move',
      moves: [{ from: 'A', to: 'B', by: 'ops', workspace: wsB, restoredFrom: 'iter-002-post' }],
    });
    // The new workspace holds the work of iterations 1-2 (restored) and 3 (redone on B).
    expect(fs.readFileSync(path.join(wsB, 'a.txt'), 'utf8')).toBe('from iteration 1');
    expect(fs.readFileSync(path.join(wsB, 'b.txt'), 'utf8')).toBe('from iteration 2');
    expect(fs.readFileSync(path.join(wsB, 'done.txt'), 'utf8')).toBe('ok');
    expect(fs.existsSync(path.join(wsB, '.ralph/loops', id, 'state.json'))).toBe(true);
    const rows = await activityRows(h, id);
    const afterMove = rows.slice(rows.findIndex((x) => x.type === 'relocateWorkspace'));
    expect(afterMove.length).toBeGreaterThan(3);
    for (const row of afterMove) expect(row.queue).toBe(`${h.taskQueue}@B`);
  });

  it('refuses a bad move with one line saying what is wrong, and never moves a loop that is not host-bound', async () => {
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [CLI, ...args, '--address', h.env.address], {
        encoding: 'utf8',
        env: { ...process.env, RALPH_TASK_QUEUE: h.taskQueue },
      });
    const bad = cli('move', 'some-loop', '--host', 'no spaces');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--host: host id "no spaces" must be 1-63 letters/);
    const rel = cli('move', 'some-loop', '--host', 'B', '--workspace', 'relative/dir');
    expect(rel.stderr).toMatch(/--workspace must be an absolute path on host B/);
    const worker = cli('worker', '--host', '../x');
    expect(worker.status).toBe(2);
    expect(worker.stderr).toMatch(/host/);

    // A host-bound loop whose workspace has no remote to move through: the loop refuses the move, and says why.
    if (!workers.A || workers.A.exitCode !== null || workers.A.signalCode !== null) start('A');
    const ws = workspaceIn(rootA, 'unbound-paused', { default: [{ append: 'x.log', content: 'x\n' }] });
    const id = await h.startLoop(scriptedLoop(ws, { host: 'A', maxIterations: 1, checkpointRemote: 'none' }));
    await h.waitFor(id, (s) => !!s.pendingGate);
    const refused = cli('move', id, '--host', 'B');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/move was not applied .*no git remote to move through/);
    expect((await h.status(id)).host).toMatchObject({ id: 'A', movable: false });
    await h.signal(id, 'abort', { by: 'test' });
  });
});
