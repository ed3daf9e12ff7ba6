/**
 * The built CLI (`node dist/src/cli/index.js`, built by `npm test`'s pretest) as a real subprocess, against a real
 * dev server and an in-process worker from the test harness; `ralph demo` starts its own server.
 */
import fs from 'node:fs';
import path from 'node:path';
import execa from 'execa';
import YAML from 'yaml';
import type { LoopState } from '../../src/core/loop-types';
import type { LoopSummary } from '../../src/client';
import { Harness, checkFileExists, tempWorkspace } from '../helpers/env';

const CLI = path.resolve(__dirname, '../../dist/src/cli/index.js');

let h: Harness;
beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `ralph <args>` (async, so the in-process worker keeps running). */
async function ralph(args: string[], timeout = 60_000): Promise<Run> {
  const r = await execa(process.execPath, [CLI, ...args], {
    reject: false,
    timeout,
    // Flags are passed explicitly; keep the caller's Temporal env out of the way.
    env: { TEMPORAL_ADDRESS: '', TEMPORAL_NAMESPACE: '', RALPH_TASK_QUEUE: '', USER: 'env-user' },
  });
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

const conn = (): string[] => ['--address', h.env.address, '--task-queue', h.taskQueue];

/** `ralph start` flags for a scripted agent in `ws` (script at .ralph-script.json) checked by `node check.js`. */
const startArgs = (ws: string, ...extra: string[]): string[] => [
  'start',
  '--workspace',
  ws,
  '--script',
  path.join(ws, '.ralph-script.json'),
  '--prompt',
  'Make node check.js pass',
  '--check',
  'node check.js',
  '--iteration-timeout',
  '60',
  '--heartbeat-timeout',
  '10',
  ...conn(),
  ...extra,
];

async function statusJson(id: string): Promise<LoopState> {
  const r = await ralph(['status', id, '--json', ...conn()]);
  expect(r).toMatchObject({ code: 0 });
  return JSON.parse(r.stdout) as LoopState;
}

async function eventually<T>(get: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < end) {
    try {
      last = await get();
      if (ok(last)) return last;
    } catch {
      // not there yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(last)?.slice(0, 2000)}`);
}

/**
 * A workspace whose check never passes and whose agent just prints: it reaches its human gate. Its loops run with
 * --no-anti-laziness: an agent that idles is (rightly) stopped by the stuck-loop gate, and these tests are about the
 * iteration-budget gate.
 */
const gateWorkspace = (): string =>
  tempWorkspace({ 'check.js': 'console.error("not yet"); process.exit(1)' }, { default: [{ print: 'trying' }] });

async function startAtGate(maxIterations = 1): Promise<string> {
  const ws = gateWorkspace();
  const r = await ralph(startArgs(ws, '--max-iterations', String(maxIterations), '--no-anti-laziness'));
  expect(r.code).toBe(0);
  const id = r.stdout.trim();
  await h.waitFor(id, (s) => s.pendingGate !== undefined);
  return id;
}

describe('ralph --help', () => {
  it('lists every command and the global connection options', async () => {
    const r = await ralph(['--help']);
    expect(r.code).toBe(0);
    for (const c of [
      'start',
      'status',
      'list',
      'approve',
      'reject',
      'abort',
      'answer',
      'pause',
      'resume',
      'worker',
      'dev',
      'demo',
    ])
      expect(r.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect(r.stdout).toContain('--address <host:port>');
    expect(r.stdout).toContain('--task-queue <name>');
  });

  it('lists the options of start, including the inherited global ones', async () => {
    const r = await ralph(['start', '--help']);
    expect(r.code).toBe(0);
    for (const o of [
      '--prompt <text>',
      '--prompt-file <file>',
      '--agent <adapter>',
      '--check <shell-command>',
      '--max-iterations <n>',
      '--max-questions <n>',
      '--config <file>',
      '--follow',
      'Global Options:',
      '--address',
    ])
      expect(r.stdout).toContain(o);
  });

  it('prints the package version with --version', async () => {
    const r = await ralph(['--version']);
    expect(r.stdout.trim()).toBe(
      JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')).version,
    );
  });

  it('exits 2 with one line for an unknown option', async () => {
    const r = await ralph(['list', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^ralph: unknown option '--bogus'/);
  });
});

describe('ralph start', () => {
  it('prints a loop id, and the loop completes when the check passes', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      { iterations: [[{ write: 'done.txt', content: 'x' }]] },
    );
    const r = await ralph(startArgs(ws));
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect(id).toMatch(/^ralph-make-node-check-js-pass-[0-9a-f]{6}$/);
    expect(await h.result(id)).toMatchObject({ status: 'accepted', acceptedBy: 'check', iterations: 1 });
  });

  it('prints {loopId} as JSON with --json and uses --id', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      { default: [{ write: 'done.txt', content: 'x' }] },
    );
    const id = `cli-json-${Date.now()}`;
    const r = await ralph(startArgs(ws, '--id', id, '--json'));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ loopId: id });
    await h.result(id);
  });

  it('follows the loop to its end with --follow and exits 0 when accepted', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      // Slow enough for the 1 s poll to see every step.
      {
        iterations: [
          [{ print: 'thinking' }, { sleep: 1500 }],
          [{ sleep: 1500 }, { write: 'done.txt', content: 'x' }],
        ],
      },
    );
    const r = await ralph(startArgs(ws, '--max-iterations', '5', '--follow'));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\[\d\d:\d\d\] iteration 1\/5 · agent · running/);
    expect(r.stdout).toContain('iteration 1 → continue · agent exit 0 · check failed (exit 1) · 0 files changed');
    expect(r.stdout).toContain('feedback: The completion check `node check.js` still failed');
    expect(r.stdout).toContain('iteration 2 → completed');
    expect(r.stdout).toMatch(/accepted by check after 2 iterations/);
  });

  it('exits 1 with --follow when the loop ends aborted', async () => {
    const id = `cli-follow-abort-${Date.now()}`;
    const follow = ralph(startArgs(gateWorkspace(), '--id', id, '--max-iterations', '1', '--follow', '--json'));
    await h.waitFor(id, (s) => s.pendingGate !== undefined);
    // The follower polls every second: let it see the open gate (and print how to answer it) before it closes.
    await new Promise((r) => setTimeout(r, 2500));
    expect((await ralph(['abort', id, '--reason', 'enough', ...conn()])).code).toBe(0);
    const r = await follow;
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ loopId: id, result: { status: 'aborted', reason: 'enough' } });
    expect(r.stderr).toContain(`ralph approve ${id} --address ${h.env.address}`);
    expect(r.stderr).toContain(`ralph reject ${id} --guidance`);
  });

  it('exits 2 naming maxIterations when --max-iterations is -1', async () => {
    const r = await ralph(startArgs(tempWorkspace(), '--max-iterations', '-1'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^ralph: invalid loop input: input\.maxIterations: .*\(--max-iterations\)$/m);
    expect(r.stdout).toBe('');
  });

  it('exits 2 naming the fields when neither a prompt nor a completion criterion is given', async () => {
    const r = await ralph(['start', '--workspace', tempWorkspace(), ...conn()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('input.prompt');
    expect(r.stderr).toContain('input.completion');
  });

  it('reads a YAML config file and lets flags override its fields', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      { default: [{ write: 'done.txt', content: 'x' }] },
    );
    const config = path.join(ws, 'loop.yaml');
    fs.writeFileSync(
      config,
      YAML.stringify({
        prompt: 'from the config',
        workspace: '.',
        agent: { adapter: 'scripted', script: '.ralph-script.json' },
        completion: { command: 'exit 1' },
        maxIterations: 7,
        labels: { team: 'cli' },
      }),
    );
    const id = `cli-config-${Date.now()}`;
    const r = await ralph([
      'start',
      '--config',
      config,
      '--check',
      'node check.js',
      '--max-iterations',
      '3',
      '--id',
      id,
      ...conn(),
    ]);
    expect(r).toMatchObject({ code: 0, stdout: id });
    expect(await h.result(id)).toMatchObject({ status: 'accepted', iterations: 1 });
    const s = await statusJson(id);
    expect(s).toMatchObject({ workspace: ws, maxIterations: 3, labels: { team: 'cli' } });
  });

  it('exits 2 when the config file does not exist', async () => {
    const r = await ralph(['start', '--config', '/nonexistent/loop.json', ...conn()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ralph: config file not found: /nonexistent/loop.json');
  });

  it('exits 1 when a loop with the same --id exists', async () => {
    const id = await startAtGate();
    const r = await ralph(startArgs(gateWorkspace(), '--id', id));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`a loop with id "${id}" already exists`);
    await ralph(['abort', id, ...conn()]);
  });
});

describe('ralph status', () => {
  it('prints the LoopState with --json', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      { default: [{ write: 'done.txt', content: 'x' }] },
    );
    const id = (await ralph(startArgs(ws))).stdout.trim();
    await h.result(id);
    const s = await statusJson(id);
    expect(s).toMatchObject({ loopId: id, status: 'accepted', agent: 'scripted', workspace: ws, iteration: 1 });
    expect(s.records[0]).toMatchObject({ n: 1, outcome: 'completed' });
  });

  it('shows the gate, the commands that answer it, totals and the iteration table when the loop waits for a human', async () => {
    const id = await startAtGate(2);
    const r = await ralph(['status', id, ...conn()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`loop ${id}`);
    expect(r.stdout).toMatch(/status\s+awaiting_human/);
    expect(r.stdout).toContain('human gate max_iterations@2 (max_iterations): Reached 2 iterations');
    expect(r.stdout).toContain(`ralph approve ${id} --address ${h.env.address}`);
    expect(r.stdout).toContain(`ralph abort ${id} --address ${h.env.address}`);
    expect(r.stdout).toContain('totals: 2 iterations · checks 0 passed / 2 failed');
    expect(r.stdout).toMatch(/n\s+outcome\s+agent exit\s+check\s+duration/);
    expect(r.stdout).toMatch(/2\s+continue\s+0\s+failed \(exit 1\)/);
    await ralph(['abort', id, ...conn()]);
  });

  it('exits 1 with "no loop with id" when the id is unknown', async () => {
    const r = await ralph(['status', 'no-such-loop', ...conn()]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      'ralph: no loop with id "no-such-loop" in namespace default: list loops with `ralph list`',
    );
  });

  it('exits 1 saying how to start a server when none answers at the address', async () => {
    const r = await ralph(['status', 'x', '--address', '127.0.0.1:1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no Temporal server at 127.0.0.1:1: start one with `ralph dev`');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('ralph list', () => {
  it('includes a started loop with --json', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      { default: [{ write: 'done.txt', content: 'x' }] },
    );
    const id = (await ralph(startArgs(ws))).stdout.trim();
    await h.result(id);
    const loops = await eventually(
      async () => JSON.parse((await ralph(['list', '--json', ...conn()])).stdout) as LoopSummary[],
      (ls) => ls.some((l) => l.loopId === id && l.status === 'accepted'),
    );
    expect(loops.find((l) => l.loopId === id)).toMatchObject({
      workflowStatus: 'COMPLETED',
      agent: 'scripted',
      awaitingHuman: false,
    });
  });

  it('shows only loops waiting at a human gate with --awaiting-human, also as a table', async () => {
    const id = await startAtGate();
    const waiting = await eventually(
      async () => JSON.parse((await ralph(['list', '--awaiting-human', '--json', ...conn()])).stdout) as LoopSummary[],
      (ls) => ls.some((l) => l.loopId === id),
    );
    expect(waiting.every((l) => l.awaitingHuman && l.workflowStatus === 'RUNNING')).toBe(true);
    const table = await ralph(['list', '--awaiting-human', ...conn()]);
    expect(table.stdout).toMatch(/^LOOP\s+STATUS\s+ITER\s+AGENT\s+GATE\s+STARTED/);
    expect(table.stdout).toMatch(new RegExp(`${id}\\s+awaiting_human\\s+1\\s+scripted\\s+waiting`));
    await ralph(['abort', id, ...conn()]);
  });

  it('exits 2 naming --limit when it is not a positive number', async () => {
    const r = await ralph(['list', '--limit', '0', ...conn()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^ralph: --limit: /);
  });
});

describe('ralph approve', () => {
  it('accepts the work at the gate, recording who approved', async () => {
    const id = await startAtGate();
    const r = await ralph(['approve', id, '--by', 'tester', '--reason', 'good enough', ...conn()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`approved loop ${id} as tester: approve applied to gate max_iterations@1`);
    expect(await h.result(id)).toMatchObject({
      status: 'accepted',
      acceptedBy: 'human',
      by: 'tester',
      reason: 'good enough',
    });
  });

  it('signs as $USER when --by is not given', async () => {
    const id = await startAtGate();
    const r = await ralph(['approve', id, ...conn()]);
    expect(r.code).toBe(0);
    expect(await h.result(id)).toMatchObject({ status: 'accepted', by: 'env-user' });
  });

  it('exits 1 with "already ended" when the loop is finished', async () => {
    const id = await startAtGate();
    await ralph(['approve', id, '--by', 'tester', ...conn()]);
    await h.result(id);
    const r = await ralph(['approve', id, '--by', 'tester', ...conn()]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `ralph: loop "${id}" already ended (completed): nothing to approve; see \`ralph status ${id}\``,
    );
  });

  it('exits 1 saying why when the loop ignores it (no gate pending)', async () => {
    const ws = tempWorkspace({ 'check.js': 'process.exit(1)' }, { default: [{ sleep: 400 }] });
    const id = (await ralph(startArgs(ws, '--max-iterations', '50', '--no-anti-laziness'))).stdout.trim();
    await h.waitFor(id, (s) => s.phase === 'agent');
    const r = await ralph(['approve', id, '--by', 'tester', ...conn()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^ralph: approve was not applied to loop ".*": no human gate is pending/);
    await ralph(['abort', id, ...conn()]);
    expect(await h.result(id)).toMatchObject({ status: 'aborted' });
  });

  it('exits 1 when --gate names another gate', async () => {
    const id = await startAtGate();
    const r = await ralph(['approve', id, '--gate', 'max_iterations@99', ...conn()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('names gate max_iterations@99, but the pending gate is max_iterations@1');
    await ralph(['abort', id, ...conn()]);
  });
});

describe('ralph reject', () => {
  it('continues the loop with the guidance and the extra iterations, until the next gate', async () => {
    const id = await startAtGate(1);
    const r = await ralph([
      'reject',
      id,
      '--guidance',
      'Try the other approach.',
      '--extra-iterations',
      '2',
      '--by',
      'tester',
      '--gate',
      'max_iterations@1',
      ...conn(),
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`rejected loop ${id} as tester: reject applied to gate max_iterations@1`);
    const s = await h.waitFor(id, (st) => st.pendingGate?.id === 'max_iterations@3');
    expect(s).toMatchObject({ maxIterations: 3, iteration: 3 });
    expect(s.decisions[0]).toMatchObject({
      decision: 'reject',
      by: 'tester',
      guidance: 'Try the other approach.',
      extraIterations: 2,
    });
    await ralph(['abort', id, ...conn()]);
  });
});

describe('ralph abort', () => {
  it('ends the loop aborted at the gate, with the reason', async () => {
    const id = await startAtGate();
    const r = await ralph(['abort', id, '--by', 'tester', '--reason', 'wrong task', ...conn()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`aborted loop ${id} as tester`);
    expect(await h.result(id)).toMatchObject({ status: 'aborted', by: 'tester', reason: 'wrong task' });
  });
});

describe('ralph pause', () => {
  it('stops the loop before the next iteration, and ralph resume lets it finish', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      { iterations: { '3': [{ write: 'done.txt', content: 'x' }] }, default: [{ sleep: 1500 }] },
    );
    const id = (await ralph(startArgs(ws, '--max-iterations', '10'))).stdout.trim();
    const p = await ralph(['pause', id, '--by', 'tester', ...conn()]);
    expect(p).toMatchObject({ code: 0 });
    expect(p.stdout).toContain(`paused loop ${id} as tester`);
    const paused = await h.waitFor(id, (s) => s.status === 'paused');
    expect(paused.iteration).toBeLessThan(3);
    expect((await ralph(['pause', id, ...conn()])).stderr).toContain('already paused');
    const r = await ralph(['resume', id, '--by', 'tester', ...conn()]);
    expect(r).toMatchObject({ code: 0 });
    expect(await h.result(id)).toMatchObject({ status: 'accepted', iterations: 3 });
  });
});

describe('ralph demo', () => {
  it('runs both loops on its own server to their expected ends and exits 0', async () => {
    const r = await ralph(['demo', '--json'], 120_000);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { ok: boolean; loops: Record<string, unknown>[] };
    expect(report.ok).toBe(true);
    expect(report.loops).toEqual([
      expect.objectContaining({ name: 'slugify', ok: true, status: 'accepted', acceptedBy: 'check', iterations: 4 }),
      expect.objectContaining({
        name: 'changelog',
        ok: true,
        status: 'accepted',
        acceptedBy: 'human',
        by: 'demo',
        iterations: 2,
      }),
    ]);
    expect(fs.existsSync(report.loops[0].stateFile as string)).toBe(true);
    expect(r.stderr).toContain('$ ralph reject');
    expect(r.stderr).toContain('$ ralph approve');
    expect(r.stderr).toContain('demo passed');
  }, 120_000);
});
