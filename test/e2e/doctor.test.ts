/**
 * `ralph doctor` as a real subprocess (the built CLI) against a real dev server: with the server down, with no worker
 * on the task queue, with the loop's agent CLI missing, and with everything in place (the real agent CLIs pinned in
 * test/agents on PATH, an in-process worker polling). `ralph start` points at `ralph doctor` in its one-line errors.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import execa from 'execa';
import type { DoctorCheck } from '../../src/core/doctor';
import { taskQueuePollers } from '../../src/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { NativeConnection } from '@temporalio/worker';
import { createHostWorker } from '../../src/workers/worker';
import { Harness, tempWorkspace, temporalPath } from '../helpers/env';

const CLI = path.resolve(__dirname, '../../dist/src/cli/index.js');
const agents = require('../../scripts/agents.js') as {
  ensure: (o: { quiet?: boolean }) => Record<'claude' | 'codex' | 'gemini' | 'aider', { path: string }>;
};

/** Fake credentials: doctor must say they are set and never print them. */
const SECRETS = {
  ANTHROPIC_API_KEY: 'sk-ant-doctor-test-0123456789abcdef',
  OPENAI_API_KEY: 'sk-doctor-test-openai-0123456789',
  GEMINI_API_KEY: 'AIzaDoctorTestGemini0123456789',
};

let h: Harness;
let home: string;
beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  h = await Harness.start();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-doctor-home-'));
  const end = Date.now() + 30_000;
  while (!(await taskQueuePollers(h.client, h.taskQueue)).some((p) => p.kind === 'workflow')) {
    if (Date.now() > end) throw new Error('the harness worker never polled');
    await new Promise((r) => setTimeout(r, 200));
  }
});
afterAll(async () => {
  await h?.stop();
});

/** A folder of symlinks named as the agent CLIs are on a user's PATH, leaving out `without`. */
function agentBin(without: string[] = []): string {
  const found = agents.ensure({ quiet: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-doctor-bin-'));
  for (const [name, a] of Object.entries(found))
    if (!without.includes(name)) fs.symlinkSync(a.path, path.join(dir, name));
  return dir;
}

interface Doctor {
  code: number;
  stdout: string;
  stderr: string;
  checks: Record<string, DoctorCheck>;
}

/** Runs `ralph doctor --json <args>` with PATH starting at `bin`, HOME a fresh folder, and `env` on top. */
async function doctor(args: string[], bin?: string, env: Record<string, string> = {}): Promise<Doctor> {
  const r = await execa(process.execPath, [CLI, 'doctor', '--json', ...args], {
    reject: false,
    timeout: 120_000,
    extendEnv: false,
    env: {
      PATH: [bin, process.env.PATH].filter(Boolean).join(path.delimiter),
      HOME: home,
      ...env,
    },
  });
  const parsed = JSON.parse(r.stdout) as { ok: boolean; checks: DoctorCheck[] };
  expect(parsed.ok).toBe(r.exitCode === 0);
  return {
    code: r.exitCode,
    stdout: r.stdout,
    stderr: r.stderr,
    checks: Object.fromEntries(parsed.checks.map((c) => [c.name, c])),
  };
}

const conn = (): string[] => ['--address', h.env.address, '--task-queue', h.taskQueue];

describe('ralph doctor', () => {
  it('fails with the server down, says how to start one, and skips what needs the server', async () => {
    const d = await doctor(['--address', '127.0.0.1:1']);
    expect(d.code).toBe(1);
    expect(d.checks.server).toMatchObject({ status: 'fail', needed: true });
    expect(d.checks.server.detail).toContain('127.0.0.1:1');
    expect(d.checks.server.fix).toContain('ralph dev');
    expect(d.checks.worker.status).toBe('skip');
    expect(d.checks['search attributes'].status).toBe('skip');
    expect(d.checks.node.status).toBe('ok');
    expect(d.checks.git.status).toBe('ok');
  });

  it('fails with no worker on the task queue and names the command that starts one', async () => {
    const d = await doctor(['--address', h.env.address, '--task-queue', 'nobody-polls-this']);
    expect(d.code).toBe(1);
    expect(d.checks.server.status).toBe('ok');
    expect(d.checks.worker).toMatchObject({ status: 'fail', needed: true });
    expect(d.checks.worker.detail).toBe('no worker polls task queue nobody-polls-this');
    expect(d.checks.worker.fix).toContain(`ralph worker --address ${h.env.address} --task-queue nobody-polls-this`);
    expect(d.checks['search attributes'].status).toBe('ok');
  });

  it('fails when the namespace lacks the search attributes, naming the commands that create them', async () => {
    const bare = await TestWorkflowEnvironment.createLocal({
      server: { executable: { type: 'existing-path', path: temporalPath() } },
    });
    try {
      const d = await doctor(['--address', bare.address]);
      expect(d.code).toBe(1);
      expect(d.checks['search attributes']).toMatchObject({ status: 'fail', needed: true });
      expect(d.checks['search attributes'].detail).toContain('RalphStatus=Keyword');
      expect(d.checks['search attributes'].fix).toContain(
        '`temporal operator search-attribute create --namespace default --name RalphStatus --type Keyword`',
      );
      expect(d.checks['search attributes'].fix).toContain('`ralph worker` registers them when it starts');
    } finally {
      await bare.teardown();
    }
  });

  it("checks a host's own queue with --host: fails without its worker, passes once one polls", async () => {
    const missing = await doctor([...conn(), '--host', 'laptop']);
    expect(missing.code).toBe(1);
    expect(missing.checks['host worker']).toMatchObject({
      status: 'fail',
      detail: `no worker polls ${h.taskQueue}@laptop: loops bound to host laptop wait for it`,
    });
    expect(missing.checks['host worker'].fix).toContain(`ralph worker --host laptop --address ${h.env.address}`);
    const hostWorker = await createHostWorker({
      connection: h.env.nativeConnection as NativeConnection,
      namespace: 'default',
      taskQueue: h.taskQueue,
      hostId: 'laptop',
      shutdownGraceTime: '1 second',
    });
    const running = hostWorker.run();
    try {
      const end = Date.now() + 30_000;
      while (!(await taskQueuePollers(h.client, `${h.taskQueue}@laptop`)).length) {
        if (Date.now() > end) throw new Error('the host worker never polled');
        await new Promise((r) => setTimeout(r, 200));
      }
      const found = await doctor([...conn(), '--host', 'laptop']);
      expect(found.checks['host worker'].status).toBe('ok');
      expect(found.checks['host worker'].detail).toMatch(new RegExp(`^${h.taskQueue}@laptop: ralph@laptop/\\d+@`));
    } finally {
      hostWorker.shutdown();
      await running;
    }
  });

  it("fails when the loop's agent CLI is missing, and only warns for the others", async () => {
    const d = await doctor([...conn(), '--agent', 'codex'], agentBin(['codex', 'gemini']), SECRETS);
    expect(d.code).toBe(1);
    expect(d.checks['agent codex']).toMatchObject({
      status: 'fail',
      needed: true,
      detail: '`codex` not found on PATH',
      fix: 'npm install -g @openai/codex',
    });
    expect(d.checks['agent gemini']).toMatchObject({ status: 'warn', needed: false });
    expect(d.checks['agent claude-code'].status).toBe('ok');
    expect(d.checks.worker.status).toBe('ok');
  });

  it('passes with everything in place: versions, credentials by name only, the worker and its build', async () => {
    const d = await doctor([...conn(), '--agent', 'claude-code', '--workspace', tempWorkspace()], agentBin(), SECRETS);
    const notOk = Object.values(d.checks).filter((c) => c.status !== 'ok');
    expect(notOk).toEqual([]);
    expect(d.code).toBe(0);
    expect(d.checks.worker.detail).toMatch(
      // The SDK's default build id: its version and the workflow bundle's hash.
      /ralph\/\d+@\S+ \(workflow\+activity; build @temporalio\/worker@\d+\.\d+\.\d+\+[0-9a-f]{64}\)/,
    );
    expect(d.checks['agent codex'].detail).toMatch(/codex-cli \d+\.\d+/);
    expect(d.checks['agent claude-code'].detail).toContain('credentials: ANTHROPIC_API_KEY');
    expect(d.checks.sandbox.detail).toContain('bwrap found');
    for (const secret of Object.values(SECRETS)) expect(d.stdout + d.stderr).not.toContain(secret);
  });

  it('prints one line per check and a verdict without --json', async () => {
    const r = await execa(process.execPath, [CLI, 'doctor', '--address', '127.0.0.1:1'], { reject: false });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^FAIL {2}server +nothing answers at 127\.0\.0\.1:1/m);
    expect(r.stdout).toMatch(/^ +fix: `ralph dev`/m);
    expect(r.stdout).toMatch(/^ok {4}node +v\d+/m);
    expect(r.stdout.trim().split('\n').pop()).toBe('not ready: server must be fixed before a loop can run');
  });
});

describe('ralph start', () => {
  it('points at ralph doctor when no server answers', async () => {
    const ws = tempWorkspace({}, { default: [{ print: 'hi' }] });
    const script = path.join(ws, '.ralph-script.json');
    const r = await execa(
      process.execPath,
      [
        CLI,
        'start',
        '--workspace',
        ws,
        '--prompt',
        'x',
        '--script',
        script,
        '--check',
        'true',
        '--address',
        '127.0.0.1:1',
      ],
      { reject: false },
    );
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('`ralph doctor` checks the whole setup');
  });

  it('starts the loop but notes that no worker polls the queue, pointing at ralph worker and ralph doctor', async () => {
    const ws = tempWorkspace({}, { default: [{ print: 'hi' }] });
    const r = await execa(
      process.execPath,
      [CLI, 'start', '--workspace', ws, '--prompt', 'x', '--script', path.join(ws, '.ralph-script.json')].concat([
        '--check',
        'true',
        '--address',
        h.env.address,
        '--task-queue',
        'nobody-polls-start',
      ]),
      { reject: false },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toMatch(/^ralph-x-[0-9a-f]{6}$/);
    expect(r.stderr).toContain(
      `no worker polls task queue nobody-polls-start: it waits until one does; start one with ` +
        `\`ralph worker --address ${h.env.address} --task-queue nobody-polls-start\` (\`ralph doctor\` checks the whole setup)`,
    );
    await h.client.workflow.getHandle(r.stdout.trim()).terminate('test done');
  });
});
