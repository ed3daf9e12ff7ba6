/**
 * `ralph route explain`, `ralph routing stats` (no server) and `ralph route <id> --agent` (the `route` signal reaches
 * a real loop on a real dev server), through the built CLI as a subprocess.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import execa from 'execa';
import { Harness, scriptedLoop, tempWorkspace } from '../helpers/env';

const CLI = path.resolve(__dirname, '../../dist/src/cli/index.js');
const PROFILES = path.resolve(__dirname, '../fixtures/routing/agents');

async function ralph(args: string[], cwd = process.cwd()): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await execa(process.execPath, [CLI, ...args], {
    reject: false,
    cwd,
    timeout: 60_000,
    env: { TEMPORAL_ADDRESS: '', TEMPORAL_NAMESPACE: '', RALPH_TASK_QUEUE: '', USER: 'env-user' },
  });
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
});

describe('ralph route explain', () => {
  it('explains a routed security task as text and as JSON', async () => {
    const text = 'Review this Python code for security issues and fix any injection vulnerabilities';
    const r = await ralph(['route', 'explain', text, '--profiles', PROFILES]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/domain\s+security/);
    expect(r.stdout).toMatch(/agent\s+security_specialist \(routed\)/);
    const j = await ralph(['route', 'explain', text, '--profiles', PROFILES, '--json']);
    expect(JSON.parse(j.stdout)).toMatchObject({ domain: 'security', route: true, agent: 'security_specialist' });
  });

  it('keeps a general task with the base agent', async () => {
    const j = await ralph(['route', 'explain', "What's the weather?", '--profiles', PROFILES, '--json']);
    expect(JSON.parse(j.stdout)).toMatchObject({ domain: 'general', route: false, agent: 'base', confidence: 0 });
  });

  it('reads ./.ralph/agents by default and says when there are none', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-route-'));
    const r = await ralph(['route', 'explain', 'Harden the authentication and fix the XSS in the comments'], ws);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/no profiles in \.ralph\/agents: the base agent always runs/);
    expect(r.stdout).toMatch(/agent\s+base \(base agent\)/);
  });
});

describe('ralph routing stats', () => {
  it('prints the figures of the routing logs under a state dir', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-stats-'));
    const log = path.join(dir, 'loops', 'l1', 'routing', 'log.jsonl');
    fs.mkdirSync(path.dirname(log), { recursive: true });
    const at = '2026-01-01T00:00:00Z';
    const lines = [
      { at, event: 'decision', loopId: 'l1', domain: 'security', suggested: 'sec', chosen: 'sec' },
      { at, event: 'load', loopId: 'l1', chosen: 'sec', ok: true, loadMs: 3 },
      { at, event: 'handoff', loopId: 'l1', from: 'sec', to: 'sre' },
      { at, event: 'load', loopId: 'l1', chosen: 'sre', ok: false, reason: 'not_found' },
    ];
    fs.writeFileSync(log, lines.map((l) => JSON.stringify(l)).join('\n') + '\nnot json\n');
    const r = await ralph(['routing', 'stats', '--state-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/agent load success\s+50% of 2/);
    expect(r.stdout).toMatch(/handoffs per task\s+1 /);
    expect(r.stderr).toMatch(/1 unreadable line/);
    const j = JSON.parse((await ralph(['routing', 'stats', '--state-dir', dir, '--json'])).stdout);
    expect(j).toMatchObject({ tasks: 1, loads: 2, loadSuccessRate: 0.5, loadErrors: { not_found: 1 }, skipped: 1 });
  });

  it('fails clearly without logs', async () => {
    const r = await ralph(['routing', 'stats', '--state-dir', path.join(os.tmpdir(), 'no-such-ralph-dir')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no routing log under .*: run a loop with agent profiles/);
  });
});

describe('ralph route <id> --agent', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('rejects a path as agent name before connecting', async () => {
    const r = await ralph(['route', 'any-loop', '--agent', '../etc', '--address', '127.0.0.1:1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--agent: invalid agent name "..\/etc"/);
  });

  it('sends the route signal with the agent, who and why to a running loop', async () => {
    const ws = tempWorkspace({ 'check.js': 'process.exit(1)' }, { default: [{ sleep: 30000 }] });
    const id = await h.startLoop(scriptedLoop(ws, { maxIterations: 1 }));
    await h.waitFor(id, (s) => s.phase === 'agent' || s.iteration >= 1);
    const r = await ralph([
      'route',
      id,
      '--agent',
      'security_specialist',
      '--reason',
      'it is a security task',
      '--by',
      'ana',
      '--address',
      h.env.address,
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/route sent to ralphLoop .*profile security_specialist runs from the next iteration/);
    const history = await h.client.workflow.getHandle(id).fetchHistory();
    const signaled = history.events!.find((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'route');
    const payload = signaled!.workflowExecutionSignaledEventAttributes!.input!.payloads![0];
    expect(JSON.parse(Buffer.from(payload.data!).toString())).toMatchObject({
      agent: 'security_specialist',
      by: 'ana',
      reason: 'it is a security task',
      requestId: expect.any(String),
    });
    await h.signal(id, 'abort', { by: 'test' });
    await h.result(id);
  });

  it('refuses a project id, naming the task loops to route instead', async () => {
    const ws = tempWorkspace(
      {
        'check.js': 'process.exit(1)',
        'prd.json': JSON.stringify({
          userStories: [{ id: 'T1', title: 'Fix it', acceptanceCriteria: ['ok'], priority: 1, passes: false }],
        }),
      },
      { default: [{ sleep: 30000 }] },
    );
    const id = `project-route-${Date.now()}`;
    await h.client.workflow.start('ralphProject', {
      taskQueue: h.taskQueue,
      workflowId: id,
      args: [
        {
          prdFile: 'prd.json',
          workspace: ws,
          agent: { adapter: 'scripted', script: '.ralph-script.json' },
          completion: { command: 'node check.js' },
        },
      ],
    });
    const r = await ralph(['route', id, '--agent', 'security_specialist', '--address', h.env.address]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`${id} is a project: route the loop of its running task instead`));
    await h.client.workflow.getHandle(id).signal('abort');
    await h.client.workflow.getHandle(id).result();
  });

  it('refuses a loop that does not exist', async () => {
    const r = await ralph(['route', 'no-such-loop', '--agent', 'security_specialist', '--address', h.env.address]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no loop with id "no-such-loop"/);
  });
});
