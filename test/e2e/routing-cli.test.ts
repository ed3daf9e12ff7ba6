/**
 * `ralph route explain`, `ralph routing stats` (no server) and `ralph route <id> --agent` (the `route` signal reaches
 * a real loop on a real dev server), through the built CLI as a subprocess.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
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

  it('shows the calibrated probability of every domain and which threshold decided', async () => {
    const text = 'Review this Python code for security issues and fix any injection vulnerabilities';
    const r = await ralph(['route', 'explain', text, '--profiles', PROFILES]);
    expect(r.stdout).toMatch(/probability\s+0\.\d+ \(calibrated: right this often\)/);
    expect(r.stdout).toMatch(
      /decided by\s+routed: probability 0\.\d+ > minConfidence 0\.7 and complexity \d+ > minComplexity 3/,
    );
    expect(r.stdout).toMatch(/DOMAIN\s+PROBABILITY\s+MATCHED/);
    expect(r.stdout).toMatch(/security\s+0\.\d+\s+review, security, (\w+, )*injection, vulnerabilities/);
    expect(r.stdout).toMatch(/general \(no specialist\)\s+0\.\d+/);
    const j = JSON.parse((await ralph(['route', 'explain', text, '--profiles', PROFILES, '--json'])).stdout);
    expect(j).toMatchObject({ model: 'calibrated-v29', decidedBy: 'routed' });
    // The probabilities of the domains shown and of no specialist add up to 1 (v3 and v4 leave out unmatched ones < 0.05).
    const sum = Object.values(j.confidences as Record<string, number>).reduce((a, b) => a + b, 0) + j.general;
    expect(Math.abs(sum - 1)).toBeLessThan(0.01);
    // A short task: the complexity threshold decides, with the numbers.
    const short = await ralph(['route', 'explain', 'Fix XSS', '--profiles', PROFILES]);
    expect(short.stdout).toMatch(/decided by\s+minComplexity: complexity 3 is not above 3/);
    expect(short.stdout).toMatch(/agent\s+base \(base agent\)/);
    // A mechanical chore (v5): a rename stays with the base agent, however much security jargon its names hold.
    const chore = 'Rename the auth_tokens module to session_tokens and update the imports of the login middleware';
    const c = await ralph(['route', 'explain', chore, '--profiles', PROFILES]);
    expect(c.stdout).toMatch(/agent\s+base \(base agent\)/);
    expect(c.stdout).toContain('a mechanical chore (leads with "rename"): complexity at most 3');
    // v29's weights already doubt it; with the confidence bar lowered, the chore's complexity decides.
    const cLow = await ralph(['route', 'explain', chore, '--profiles', PROFILES, '--min-confidence', '0.05']);
    expect(cLow.stdout).toMatch(
      /decided by\s+minComplexity: complexity \d is not above 3 \(a mechanical chore: rename\)/,
    );
    expect(
      JSON.parse((await ralph(['route', 'explain', chore, '--profiles', PROFILES, '--json'])).stdout),
    ).toMatchObject({ chore: 'rename', route: false, agent: 'base' });
    // Small work (v6): a flag on a script stays with the base agent, whatever the script's name holds.
    const flag = 'Add a --dry-run flag to rotate_tls_secrets.sh that prints which secrets would be rotated';
    const f = await ralph(['route', 'explain', flag, '--profiles', PROFILES]);
    expect(f.stdout).toMatch(/agent\s+base \(base agent\)/);
    expect(f.stdout).toContain('small work (cli flag): complexity at most 3');
    // With the confidence bar lowered, the complexity decides, and says why it is low.
    const low = await ralph(['route', 'explain', flag, '--profiles', PROFILES, '--min-confidence', '0.05']);
    expect(low.stdout).toMatch(/decided by\s+minComplexity: complexity \d is not above 3 \(small work: cli flag\)/);
    // A raised confidence threshold: the confidence threshold decides.
    const high = await ralph(['route', 'explain', text, '--profiles', PROFILES, '--min-confidence', '0.9999']);
    expect(high.stdout).toMatch(/decided by\s+minConfidence: probability 0\.\d+ is not above 0\.9999/);
  });

  it('classifies with an older routing model on --model, as a loop recorded with it replays', async () => {
    const exam = 'Driving school portal: instructors record mock test results and see each learner pass/fail history.';
    const now = await ralph(['route', 'explain', exam, '--profiles', PROFILES]);
    expect(now.stdout).toMatch(/model\s+routing v29 \(calibrated-v29\)/);
    expect(now.stdout).toMatch(/agent\s+base \(base agent\)/);
    const v8 = await ralph(['route', 'explain', exam, '--profiles', PROFILES, '--model', 'v8']);
    expect(v8.code).toBe(0);
    expect(v8.stdout).toMatch(/model\s+routing v8 \(calibrated-v8\)/);
    expect(v8.stdout).toMatch(/domain\s+testing/);
    expect(v8.stdout).toMatch(/\(routed\)/);
    const v1 = JSON.parse(
      (await ralph(['route', 'explain', exam, '--profiles', PROFILES, '--model', 'keywords', '--json'])).stdout,
    );
    expect(v1).toMatchObject({ model: 'keywords' });
    const bad = await ralph(['route', 'explain', exam, '--profiles', PROFILES, '--model', 'v30']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /--model: unknown routing model "v30": use v29, v28, v27, v26, v25, v24, v23, v22, v21, v20, v19, v18, v17, v16, v15, v14, v13, v12, v11, v10, v9, .*v1/,
    );
  });

  it('stops quietly when its reader closes the pipe', async () => {
    const child = spawn(
      process.execPath,
      [CLI, 'route', 'explain', 'Fix the XSS in comments', '--profiles', PROFILES],
      {
        env: { ...process.env, TEMPORAL_ADDRESS: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(code).toBe(0);
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

  it('prints the reliability table of the confidence against human overrides', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-stats-'));
    const log = path.join(dir, 'loops', 'l2', 'routing', 'log.jsonl');
    fs.mkdirSync(path.dirname(log), { recursive: true });
    const at = '2026-01-01T00:00:00Z';
    const d = (iteration: number, confidence: number) => ({
      at,
      event: 'decision',
      loopId: 'l2',
      iteration,
      domain: 'security',
      confidence,
      suggested: 'sec',
      chosen: 'sec',
    });
    const lines = [
      d(1, 0.75),
      d(2, 0.78),
      // An operator replaced iteration 3's suggestion: that decision was wrong.
      { at, event: 'override', loopId: 'l2', iteration: 3, suggested: 'sec', chosen: 'sre', reason: 'wrong' },
      { ...d(3, 0.72), chosen: 'sre' },
      d(4, 0.95),
      // Not routed: not in the table.
      { at, event: 'decision', loopId: 'l2', iteration: 5, domain: 'docs', confidence: 0.4 },
    ];
    fs.writeFileSync(log, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await ralph(['routing', 'stats', '--state-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Reliability vs human overrides \(4 routed decision\(s\), 1 overridden/);
    expect(r.stdout).toMatch(/CONFIDENCE\s+DECISIONS\s+OVERRIDDEN\s+RIGHT\s+MEAN CONFIDENCE/);
    expect(r.stdout).toMatch(/0\.7-0\.8\s+3\s+1\s+66\.7%\s+0\.750/);
    expect(r.stdout).toMatch(/0\.9-1\.0\s+1\s+0\s+100%\s+0\.950/);
    const j = JSON.parse((await ralph(['routing', 'stats', '--state-dir', dir, '--json'])).stdout);
    expect(j.reliability).toMatchObject({ decisions: 4, overridden: 1 });
    expect(j.reliability.rows.find((x: { from: number }) => x.from === 0.7)).toMatchObject({ n: 3, right: 2 });
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
