import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import execa from 'execa';
import { connectClient, listLoops, type LoopSummary } from '../../src/client';
import { ConnectionConfig } from '../../src/config/connection';
import { readHookLog } from '../../src/state/hook-log';
import { Harness, scriptedLoop, tempWorkspace } from '../helpers/env';
import { artifactDir } from '../helpers/chromium';

const CLI = path.resolve(__dirname, '../../dist/src/cli/index.js');
const SECRET = 'ghp_TELEMETRYsecretNEVERlogged0123456789';

let h: Harness;
let worker: ChildProcess;
let stderr = '';
let metricsPort: number;

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

const scrape = async (): Promise<string> => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
/** The value of one sample line (`name{labels} value`), or undefined when absent. */
const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

beforeAll(async () => {
  h = await Harness.start({ worker: false });
  metricsPort = await freePort();
  const sdkPort = await freePort();
  worker = spawn(
    process.execPath,
    [
      CLI,
      'worker',
      '--metrics-port',
      String(metricsPort),
      '--metrics-host',
      '127.0.0.1',
      '--sdk-metrics-address',
      `127.0.0.1:${sdkPort}`,
    ],
    {
      env: { ...process.env, TEMPORAL_ADDRESS: h.env.address, RALPH_TASK_QUEUE: h.taskQueue, RALPH_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  worker.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const end = Date.now() + 60_000;
  while (!stderr.includes('"event":"metrics.listening"') || !stderr.includes('task queue')) {
    if (Date.now() > end || worker.exitCode !== null) throw new Error(`worker did not start:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
});
afterAll(async () => {
  if (worker && worker.exitCode === null) {
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  }
  await h?.stop();
});

describe('worker telemetry', () => {
  it('counts iterations, gates, tokens, escalations and decisions in Prometheus metrics, logs JSON with the loop id, and never writes the agent secret', async () => {
    const client = await connectClient(ConnectionConfig.parse({ address: h.env.address, taskQueue: h.taskQueue }));
    const ws = tempWorkspace(
      { 'check.js': "process.exit(require('fs').existsSync('done.txt') ? 0 : 1)" },
      {
        iterations: [
          [
            { print: 'done, trust me' },
            { usage: { inputTokens: 1200, outputTokens: 300, costUsd: 0.25 } },
            { promise: 'DONE' },
          ],
          [
            { write: 'done.txt', content: 'ok' },
            { usage: { inputTokens: 800, outputTokens: 200, costUsd: 0.15 } },
            { promise: 'DONE' },
          ],
        ],
      },
    );
    const gated = scriptedLoop(ws, {
      completion: { promise: 'DONE' },
      gates: {
        runOn: 'every-iteration',
        gates: [{ name: 'done-file', kind: 'custom', command: 'node check.js', format: 'exit-code' }],
      },
    });
    gated.agent = { ...gated.agent!, env: { GITHUB_TOKEN: SECRET } };
    const id1 = 'telemetry-gated';
    await client.workflow.start('ralphLoop', { taskQueue: h.taskQueue, workflowId: id1, args: [gated] });
    await client.workflow.getHandle(id1).result();

    // A second loop waits at a human gate: scraped while it is running.
    const ws2 = tempWorkspace({ 'check.js': 'process.exit(1)' }, { default: [{ print: 'trying' }] });
    const id2 = 'telemetry-gate';
    await client.workflow.start('ralphLoop', {
      taskQueue: h.taskQueue,
      workflowId: id2,
      args: [scriptedLoop(ws2, { maxIterations: 1 })],
    });
    await h.waitFor(id2, (s) => s.pendingGate !== undefined);
    let text = await scrape();
    expect(sample(text, 'ralph_iterations_total{agent="scripted",outcome="claim_rejected"}')).toBe(1);
    expect(sample(text, 'ralph_rejections_total{agent="scripted"}')).toBe(1);
    expect(sample(text, 'ralph_iterations_total{agent="scripted",outcome="completed"}')).toBe(1);
    expect(sample(text, 'ralph_gate_runs_total{gate="done-file",kind="custom"}')).toBe(2);
    expect(sample(text, 'ralph_gate_failures_total{gate="done-file",kind="custom"}')).toBe(1);
    expect(sample(text, 'ralph_agent_tokens_total{agent="scripted",direction="input"}')).toBe(2000);
    expect(sample(text, 'ralph_agent_cost_usd_total{agent="scripted"}')).toBeCloseTo(0.4);
    expect(sample(text, 'ralph_agent_run_duration_seconds_count{agent="scripted"}')).toBe(3);
    expect(sample(text, 'ralph_escalations_total{reason="max_iterations"}')).toBe(1);
    expect(sample(text, 'ralph_human_gates_pending')).toBe(1);
    expect(text).toContain('# TYPE ralph_routing_decisions_total counter');
    // The SDK's own metrics come through the same endpoint.
    expect(text).toMatch(/^temporal_\w+/m);

    await h.signal(id2, 'approve', { by: 'ops' });
    await h.result(id2);
    text = await scrape();
    // Kept as a test artifact: the example values in docs/operations-and-console.md come from it.
    fs.writeFileSync(path.join(artifactDir('metrics'), 'scrape.txt'), text);
    expect(sample(text, 'ralph_human_gates_pending')).toBe(0);
    expect(sample(text, 'ralph_human_decisions_total{decision="approve"}')).toBe(1);
    expect(sample(text, 'ralph_human_gate_wait_seconds_count{reason="max_iterations",decision="approve"}')).toBe(1);
    expect(sample(text, 'ralph_loops_ended_total{status="accepted"}')).toBe(2);
    // The rates of `ralph stats` as counters: the gated loop was rejected once (its first gate run failed); work time
    // by part (gate overhead = gates / sum); interventions by type and severity.
    expect(sample(text, 'ralph_loops_by_rejections_total{rejected="1",first_try="false"}')).toBe(1);
    expect(sample(text, 'ralph_loop_work_seconds_total{part="gates"}')).toBeGreaterThan(0);
    expect(sample(text, 'ralph_loop_work_seconds_total{part="agent"}')).toBeGreaterThan(0);
    expect(text).toContain('# TYPE ralph_detector_gate_decisions_total counter');
    expect(text).toMatch(/^ralph_interventions_total\{type="[a-z_]+",severity="(warning|critical)"\} [1-9]/m);

    // Logs: every line is JSON; loop events carry the loop id, iteration and event; workflow logs come through too.
    const lines = stderr.split('\n').filter((l) => l.trim());
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.find((l) => l.event === 'iteration.recorded' && l.loopId === id1 && l.iteration === 2)).toBeDefined();
    expect(parsed.find((l) => l.event === 'gate.finished' && l.loopId === id1 && l.passed === false)).toBeDefined();
    expect(
      parsed.find((l) => l.source === 'temporal' && l.loopId === id2 && String(l.msg).includes('human gate')),
    ).toBeDefined();

    // The audit trail has the agent runs, the gates, the detectors and the decision.
    const trail = readHookLog(path.join(ws2, '.ralph'), id2);
    expect(trail.map((e) => e.type)).toEqual(expect.arrayContaining(['agent', 'check', 'decision']));
    expect(trail.find((e) => e.type === 'decision')).toMatchObject({ by: 'ops', outcome: 'applied' });
    expect(
      readHookLog(path.join(ws, '.ralph'), id1)
        .filter((e) => e.type === 'gate')
        .map((e) => e.outcome),
    ).toEqual(['failed', 'passed']);

    // The loops list reads quality and cost from search attributes (visibility is eventually consistent: poll).
    let row: LoopSummary | undefined;
    for (const end = Date.now() + 15_000; Date.now() < end; await new Promise((r) => setTimeout(r, 300))) {
      row = (await listLoops(client)).find((l) => l.loopId === id1);
      if (row?.status === 'accepted' && row.costUsd !== undefined) break;
    }
    expect(row).toMatchObject({ status: 'accepted', quality: 100, costUsd: 0.4, agent: 'scripted' });

    // The Temporal Web UI timeline reads the activities' summaries.
    const events = (await client.workflow.getHandle(id1).fetchHistory()).events ?? [];
    const summaries = events.flatMap((e) => {
      const p = e.userMetadata?.summary;
      return p?.data ? [JSON.parse(Buffer.from(p.data).toString('utf8')) as string] : [];
    });
    expect(summaries).toEqual(
      expect.arrayContaining([
        'iteration 1: run scripted (timeout 1m)',
        'iteration 1: gate done-file (custom)',
        'iteration 2: gate done-file (custom)',
      ]),
    );
    expect(summaries.some((x) => /^iteration 2: gates 1\/1 passed, quality 100%/.test(x))).toBe(true);

    // The secret is in no log line, no history payload, no state file.
    expect(stderr).not.toContain(SECRET);
    const history = JSON.stringify(await client.workflow.getHandle(id1).fetchHistory());
    expect(history).not.toContain(SECRET);
    const files = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    for (const f of files(path.join(ws, '.ralph'))) expect(fs.readFileSync(f, 'utf8')).not.toContain(SECRET);
    await client.connection.close();
  });

  it('prints the audit trail filtered by kind and time, and a watch frame consistent with status --quality', async () => {
    const ralph = (...args: string[]) =>
      execa(process.execPath, [CLI, ...args, '--address', h.env.address], { reject: false });
    const gates = await ralph('audit', 'telemetry-gated', '--type', 'gate', '--json');
    expect(gates.exitCode).toBe(0);
    expect((JSON.parse(gates.stdout) as { name: string; outcome: string }[]).map((e) => [e.name, e.outcome])).toEqual([
      ['done-file', 'failed'],
      ['done-file', 'passed'],
    ]);
    const decisions = await ralph('audit', 'telemetry-gate', '--type', 'decision,signal', '--since', '1h');
    expect(decisions.stdout).toMatch(/decision\s+approve gate \S+\s+applied\s+.*ops/);
    expect((await ralph('audit', 'telemetry-gate', '--since', '1d', '--type', 'gate')).stdout).toContain(
      'no audit entries match',
    );
    const bad = await ralph('audit', 'telemetry-gate', '--type', 'bogus');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--type bogus: unknown; use one or more of agent, check, gate');

    const watch = await ralph('watch', 'telemetry-gated', '--once');
    expect(watch.exitCode).toBe(0);
    const quality = await ralph('status', 'telemetry-gated', '--quality');
    // The watch view carries the same quality bars as `ralph status --quality`.
    const bars = quality.stdout.split('\n').filter((l) => l.includes('iter '));
    expect(bars).toHaveLength(2);
    for (const bar of bars) expect(watch.stdout).toContain(bar);
    expect(watch.stdout).toContain('result: accepted');
  });
});
