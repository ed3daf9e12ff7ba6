/**
 * Ralph's own Prometheus metrics (prom-client, one registry per process), incremented by activities from what they
 * did or recorded (runAgent, runGate, persistState) — never from workflow code, which replays. Served by
 * {@link serveMetrics} together with the Temporal SDK's own metrics (the Runtime's Prometheus exporter, scraped and
 * appended), so one scrape target has both: `ralph_*` (ours) and `temporal_*` (the SDK's).
 */
import http from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { GateVerdict } from '../core/gate-rules';
import { DETECTOR_GATE_REASONS, type GateStats } from '../core/stats';
import type { IterationRecord, LoopState } from '../core/loop-types';

/** The registry holding every `ralph_*` metric. */
export const registry = new Registry();

const durations = [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600];

/** Every metric we define, by name (docs/operations-and-console.md lists them with example PromQL). */
export const metrics = {
  iterations: new Counter({
    name: 'ralph_iterations_total',
    help: 'Loop iterations recorded, by agent and outcome (completed, continue, claim_rejected, agent_failed...)',
    labelNames: ['agent', 'outcome'] as const,
    registers: [registry],
  }),
  gateRuns: new Counter({
    name: 'ralph_gate_runs_total',
    help: 'Quality gate runs, by gate name and kind',
    labelNames: ['gate', 'kind'] as const,
    registers: [registry],
  }),
  gateFailures: new Counter({
    name: 'ralph_gate_failures_total',
    help: 'Quality gate runs that did not pass, by gate name and kind',
    labelNames: ['gate', 'kind'] as const,
    registers: [registry],
  }),
  gateDuration: new Histogram({
    name: 'ralph_gate_duration_seconds',
    help: 'Wall time of one gate run',
    labelNames: ['gate'] as const,
    buckets: durations,
    registers: [registry],
  }),
  rejections: new Counter({
    name: 'ralph_rejections_total',
    help: "Agents' completion claims rejected by the quality gates, by agent",
    labelNames: ['agent'] as const,
    registers: [registry],
  }),
  escalations: new Counter({
    name: 'ralph_escalations_total',
    help: 'Human gates opened, by reason (max_iterations, regression, stuck_loop, circuit_breaker, rejections...)',
    labelNames: ['reason'] as const,
    registers: [registry],
  }),
  regressions: new Counter({
    name: 'ralph_regressions_total',
    help: 'Regressions detected, by type (test_deletion, coverage_drop, feature_removal, validation_bypass...)',
    labelNames: ['type'] as const,
    registers: [registry],
  }),
  humanGatesPending: new Gauge({
    name: 'ralph_human_gates_pending',
    help: 'Human gates open right now on loops this worker persisted (the cluster-wide count: RalphAwaitingHuman)',
    registers: [registry],
    collect() {
      this.set(openGates.size);
    },
  }),
  humanGateWait: new Histogram({
    name: 'ralph_human_gate_wait_seconds',
    help: 'Time from a human gate opening to its decision, by reason and decision',
    labelNames: ['reason', 'decision'] as const,
    buckets: [60, 300, 900, 1800, 3600, 4 * 3600, 12 * 3600, 86400, 3 * 86400],
    registers: [registry],
  }),
  questions: new Counter({
    name: 'ralph_questions_total',
    help: 'Questions put to a human (question gates opened), by who asked (agent, pdare)',
    labelNames: ['source'] as const,
    registers: [registry],
  }),
  questionAnswerTime: new Histogram({
    name: 'ralph_question_answer_seconds',
    help: "Time from a question to the human's decision at its gate, by decision (answer, approve, reject, abort)",
    labelNames: ['decision'] as const,
    buckets: [60, 300, 900, 1800, 3600, 4 * 3600, 12 * 3600, 86400, 3 * 86400],
    registers: [registry],
  }),
  humanDecisions: new Counter({
    name: 'ralph_human_decisions_total',
    help: 'Human decisions at gates, by decision (approve, reject, abort)',
    labelNames: ['decision'] as const,
    registers: [registry],
  }),
  agentRunDuration: new Histogram({
    name: 'ralph_agent_run_duration_seconds',
    help: 'Wall time of one agent run, by agent adapter',
    labelNames: ['agent'] as const,
    buckets: durations,
    registers: [registry],
  }),
  tokens: new Counter({
    name: 'ralph_agent_tokens_total',
    help: 'Tokens used by agents, by agent and direction (input, output)',
    labelNames: ['agent', 'direction'] as const,
    registers: [registry],
  }),
  cost: new Counter({
    name: 'ralph_agent_cost_usd_total',
    help: 'Cost in USD reported by agents, by agent',
    labelNames: ['agent'] as const,
    registers: [registry],
  }),
  routingDecisions: new Counter({
    name: 'ralph_routing_decisions_total',
    help: 'Agent routing decisions, by chosen agent (`base`: no specialist) and classified domain',
    labelNames: ['agent', 'class'] as const,
    registers: [registry],
  }),
  agentLoads: new Counter({
    name: 'ralph_agent_loads_total',
    help: 'Agent profile loads by routing, by agent and outcome (ok: true/false)',
    labelNames: ['agent', 'ok'] as const,
    registers: [registry],
  }),
  agentLoadDuration: new Histogram({
    name: 'ralph_agent_load_duration_seconds',
    help: 'Time to load an agent profile, by agent',
    labelNames: ['agent'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1],
    registers: [registry],
  }),
  agentLoadErrors: new Counter({
    name: 'ralph_agent_load_errors_total',
    help: 'Agent profile loads that failed (the base agent ran instead), by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  }),
  domainSwitches: new Counter({
    name: 'ralph_domain_switches_total',
    help: 'Switches of the routed agent between domains, by from and to',
    labelNames: ['from', 'to'] as const,
    registers: [registry],
  }),
  handoffs: new Counter({
    name: 'ralph_handoffs_total',
    help: 'Handoffs between agents, by outcome (done, refused)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  }),
  loopsEnded: new Counter({
    name: 'ralph_loops_ended_total',
    help: 'Loops that ended, by status (accepted, aborted, failed)',
    labelNames: ['status'] as const,
    registers: [registry],
  }),
  loopsByRejections: new Counter({
    name: 'ralph_loops_by_rejections_total',
    help: 'Ended loops with gates, by rejected claims (0, 1, 2, 3+) and whether their first gate run passed',
    labelNames: ['rejected', 'first_try'] as const,
    registers: [registry],
  }),
  loopWork: new Counter({
    name: 'ralph_loop_work_seconds_total',
    help: 'Time of ended loops by part (agent, check, gates): gate overhead = gates / sum',
    labelNames: ['part'] as const,
    registers: [registry],
  }),
  detectorGateDecisions: new Counter({
    name: 'ralph_detector_gate_decisions_total',
    help: 'Human decisions at gates the detectors opened, by reason and decision (approve: a false positive)',
    labelNames: ['reason', 'decision'] as const,
    registers: [registry],
  }),
  interventions: new Counter({
    name: 'ralph_interventions_total',
    help: 'Anti-laziness interventions (non-PASS detections), by type and severity',
    labelNames: ['type', 'severity'] as const,
    registers: [registry],
  }),
};

collectDefaultMetrics({ register: registry, prefix: 'ralph_process_' });

/** Gates open per loop (gate id → reason and opening time), for the pending gauge and the wait histogram. */
const openGates = new Map<string, { gateId: string; reason: string; openedAt: string }>();
/** Keys already counted: a retried local activity must not count twice. Bounded: oldest keys dropped first. */
const counted = new Set<string>();
const once = (key: string): boolean => {
  if (counted.has(key)) return false;
  counted.add(key);
  if (counted.size > 50_000) counted.delete(counted.values().next().value as string);
  return true;
};

/** Counts one agent run (runAgent): duration, tokens and cost. */
export function observeAgentRun(agent: string, durationMs: number, usage?: IterationRecord['agent']['usage']): void {
  metrics.agentRunDuration.observe({ agent }, durationMs / 1000);
  if (usage?.inputTokens) metrics.tokens.inc({ agent, direction: 'input' }, usage.inputTokens);
  if (usage?.outputTokens) metrics.tokens.inc({ agent, direction: 'output' }, usage.outputTokens);
  if (usage?.costUsd) metrics.cost.inc({ agent }, usage.costUsd);
}

/** Counts one gate run (runGate) and its failure. */
/** Counts routing log entries as they are first appended (routing activities call it; retries append nothing). */
export function observeRouting(
  entries: readonly {
    event: string;
    chosen?: string;
    domain?: string;
    from?: string;
    to?: string;
    ok?: boolean;
    loadMs?: number;
    reason?: string;
  }[],
): void {
  for (const e of entries) {
    if (e.event === 'decision')
      metrics.routingDecisions.inc({ agent: e.chosen ?? 'base', class: e.domain ?? 'general' });
    else if (e.event === 'load') {
      const agent = e.chosen ?? e.to ?? 'unknown';
      metrics.agentLoads.inc({ agent, ok: String(e.ok !== false) });
      if (e.loadMs !== undefined) metrics.agentLoadDuration.observe({ agent }, e.loadMs / 1000);
      if (e.ok === false) metrics.agentLoadErrors.inc({ reason: e.reason ?? 'unknown' });
    } else if (e.event === 'switch') metrics.domainSwitches.inc({ from: e.from ?? 'none', to: e.to ?? 'none' });
    else if (e.event === 'handoff') metrics.handoffs.inc({ outcome: 'done' });
    else if (e.event === 'handoff_refused') metrics.handoffs.inc({ outcome: 'refused' });
  }
}

/** Counts one gate run and its duration; a failure by gate. */
export function observeGate(v: Pick<GateVerdict, 'name' | 'passed' | 'durationMs'> & { kind?: string }): void {
  const labels = { gate: v.name, kind: v.kind ?? 'unknown' };
  metrics.gateRuns.inc(labels);
  if (!v.passed) metrics.gateFailures.inc(labels);
  metrics.gateDuration.observe({ gate: v.name }, v.durationMs / 1000);
}

/**
 * Counts what a persisted state says happened since the last time (persistState): the iteration just recorded, a
 * rejection, newly detected regressions, a gate opening, human decisions, the loop ending. Idempotent per loop.
 */
export function observeState(state: LoopState, record?: IterationRecord): void {
  const id = state.loopId;
  if (record && once(`${id}:iter:${record.n}`)) {
    metrics.iterations.inc({ agent: state.agent || 'unknown', outcome: record.outcome });
    if (record.rejected) metrics.rejections.inc({ agent: state.agent || 'unknown' });
  }
  for (const r of state.persistence?.regressions ?? [])
    if (once(`${id}:reg:${r.id}`)) for (const type of r.types) metrics.regressions.inc({ type });
  const gate = state.pendingGate;
  if (gate && once(`${id}:gate:${gate.id}`)) {
    metrics.escalations.inc({ reason: gate.reason });
    openGates.set(id, { gateId: gate.id, reason: gate.reason, openedAt: gate.openedAt });
  }
  for (const e of state.persistence?.recent ?? [])
    if (once(`${id}:iv:${e.id}`)) metrics.interventions.inc({ type: e.type, severity: e.severity });
  for (const d of state.decisions) {
    if (!once(`${id}:decision:${d.gateId}`)) continue;
    metrics.humanDecisions.inc({ decision: d.decision });
    const reason = d.gateId.slice(0, d.gateId.lastIndexOf('@'));
    if (DETECTOR_GATE_REASONS.includes(reason)) metrics.detectorGateDecisions.inc({ reason, decision: d.decision });
    const open = openGates.get(id);
    if (open?.gateId === d.gateId) {
      const waited = (Date.parse(d.at) - Date.parse(open.openedAt)) / 1000;
      if (Number.isFinite(waited) && waited >= 0)
        metrics.humanGateWait.observe({ reason: open.reason, decision: d.decision }, waited);
    }
  }
  for (const q of state.questions?.log ?? []) {
    if (once(`${id}:question:${q.gateId}`)) metrics.questions.inc({ source: q.source });
    if (q.decision && q.waitMs !== undefined && once(`${id}:answered:${q.gateId}`))
      metrics.questionAnswerTime.observe({ decision: q.decision }, q.waitMs / 1000);
  }
  if (!gate || state.result) openGates.delete(id);
  if (state.result && once(`${id}:end:${state.run}`)) observeEnd(state);
}

/** Counts an ended loop: its status, rejections and first try (loops with gates), and its time by part. */
function observeEnd(state: LoopState): void {
  metrics.loopsEnded.inc({ status: state.result!.status });
  const t = state.totals;
  const gates = Object.values(state.gateStats ?? {});
  if (gates.length) {
    const r = t.rejections ?? 0;
    const firstTry = gates.every((g) => g.firstTryPassed !== false);
    metrics.loopsByRejections.inc({ rejected: r >= 3 ? '3+' : String(r), first_try: String(firstTry) });
  }
  metrics.loopWork.inc({ part: 'agent' }, (t.agentMs ?? 0) / 1000);
  metrics.loopWork.inc({ part: 'check' }, (t.checkMs ?? 0) / 1000);
  metrics.loopWork.inc({ part: 'gates' }, (t.gateMs ?? 0) / 1000);
}

/**
 * The figures of `ralph stats` as Prometheus gauges (`ralph stats --prometheus`, for node_exporter's textfile
 * collector or a pushgateway): the design's rates with their targets and whether they are met, the rejection
 * breakdown, failure shares by category, interventions by type and severity, their rate and remediation success.
 * A registry of its own: these are figures over a window, not this process's counters.
 */
export async function statsExposition(st: GateStats): Promise<string> {
  const reg = new Registry();
  const gauge = <L extends string>(name: string, help: string, labelNames: L[] = []) =>
    new Gauge<L>({ name: `ralph_stats_${name}`, help, labelNames, registers: [reg] });
  gauge('loops', 'Loops in the window (with at least one iteration)').set(st.loops);
  gauge('iterations', 'Iterations of the loops in the window').set(st.iterations);
  const value = gauge('figure', 'A figure with a design target (rates 0..1, rejections per task)', ['figure']);
  const target = gauge('target', 'The design target of the figure', ['figure', 'op']);
  const met = gauge('target_met', '1 when the figure meets its target, 0 when not (absent: nothing measured)', [
    'figure',
  ]);
  for (const t of st.targets) {
    value.set({ figure: t.key }, t.figure);
    target.set({ figure: t.key, op: t.op }, t.value);
    if (t.met !== undefined) met.set({ figure: t.key }, t.met ? 1 : 0);
  }
  const rej = gauge('loops_by_rejections', 'Loops with gates by rejections (escalated: reached the gate)', [
    'rejected',
  ]);
  const r = st.rejections;
  for (const [k, v] of [
    ['0', r.notRejected],
    ['1', r.once],
    ['2', r.twice],
    ['3+', r.threeOrMore],
    ['escalated', r.escalated],
  ] as const)
    rej.set({ rejected: k }, v.count);
  const cat = gauge('failure_share', 'Share of iteration failures by category', ['category']);
  for (const c of st.failureCategories) cat.set({ category: c.category }, c.share);
  const byType = gauge('interventions', 'Anti-laziness interventions by type', ['type']);
  for (const [k, n] of Object.entries(st.interventions.byType)) byType.set({ type: k }, n);
  const bySev = gauge('interventions_by_severity', 'Anti-laziness interventions by severity', ['severity']);
  for (const [k, n] of Object.entries(st.interventions.bySeverity)) bySev.set({ severity: k }, n);
  gauge('interventions_per_100_iterations', 'Interventions per 100 iterations').set(st.interventions.per100Iterations);
  gauge('remediation_success_rate', 'Flagged iterations followed by one without the same findings (0..1)').set(
    st.interventions.remediation.rate,
  );
  return (await reg.metrics()).trimEnd();
}

/** Options of {@link serveMetrics}. */
export interface ServeMetricsOptions {
  port: number;
  host?: string;
  /** The SDK's Prometheus exporter (`host:port`), scraped and appended to ours; absent: ours only. */
  sdkAddress?: string;
}

/** Fetches the SDK exporter's text; empty when it doesn't answer (metrics of ours are still served). */
function scrapeSdk(address: string): Promise<string> {
  return new Promise((resolve) => {
    const req = http.get(`http://${address}/metrics`, { timeout: 2000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(res.statusCode === 200 ? body : ''));
    });
    req.on('error', () => resolve(''));
    req.on('timeout', () => req.destroy());
  });
}

/**
 * Serves `GET /metrics` in the Prometheus text format: our registry, then the SDK's exporter output when
 * `sdkAddress` is set. Resolves with the server once listening (port 0: any free port, see `server.address()`).
 */
export async function serveMetrics(o: ServeMetricsOptions): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || !req.url?.startsWith('/metrics')) {
      res.writeHead(404).end('not found: metrics are at /metrics\n');
      return;
    }
    void (async () => {
      const ours = await registry.metrics();
      const sdk = o.sdkAddress ? await scrapeSdk(o.sdkAddress) : '';
      res.writeHead(200, { 'content-type': registry.contentType });
      res.end(sdk ? `${ours}\n${sdk}` : ours);
    })().catch((e: unknown) => res.writeHead(500).end(String(e)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '0.0.0.0', () => resolve());
  });
  return server;
}
