/**
 * Quality metrics across loops (`ralph stats`), each beside the design's target (seed 002: first-try pass rate,
 * rejections per task, escalation rate, gate overhead, false positives and negatives; seed 003: interventions by type
 * and severity, their rate per 100 iterations, remediation success). Pure aggregation over loop states and the flags
 * humans put on accepted loops.
 */
import type { LoopState } from './loop-types';

/** A human's flag on an accepted loop: its work was bad after all (`ralph flag <id> --reason`). */
export interface LoopFlag {
  loopId: string;
  reason: string;
  by?: string;
  /** ISO time of the flag. */
  at: string;
}

/** One loop as stats reads it: its state, and its flags (`undefined`: its state folder is not readable here). */
export interface LoopFacts {
  state: LoopState;
  flags?: LoopFlag[];
}

/** Per-gate figures. */
export interface GateFigures {
  name: string;
  kind?: string;
  runs: number;
  passRate: number;
  meanMs: number;
}

/** A count and its share of the whole. */
export interface Share {
  count: number;
  share: number;
}

/** Figures that have a target in the design documents. */
export type TargetKey =
  | 'firstTryPassRate'
  | 'rejectionsPerLoop'
  | 'escalationRate'
  | 'gateOverheadShare'
  | 'falsePositiveRate'
  | 'falseNegativeRate';

/** A target of the design documents: the figure must be above (`>`), below (`<`) or at most (`<=`) `value`. */
export interface Target {
  key: TargetKey;
  label: string;
  op: '>' | '<' | '<=';
  value: number;
  /** `rate`: a share shown as a percentage; `count`: a plain number. */
  unit: 'rate' | 'count';
  /** Where the design states it. */
  source: string;
}

/** The design's targets (seed 002, "Monitoring & Metrics"), in the order `ralph stats` shows them. */
export const SEED_TARGETS: readonly Target[] = [
  { key: 'firstTryPassRate', label: 'first-try pass rate', op: '>', value: 0.8, unit: 'rate', source: 'seed 002' },
  { key: 'rejectionsPerLoop', label: 'rejections per task', op: '<', value: 2, unit: 'count', source: 'seed 002' },
  { key: 'escalationRate', label: 'escalation rate', op: '<', value: 0.05, unit: 'rate', source: 'seed 002' },
  { key: 'gateOverheadShare', label: 'gate overhead', op: '<', value: 0.1, unit: 'rate', source: 'seed 002' },
  { key: 'falsePositiveRate', label: 'false positives', op: '<', value: 0.01, unit: 'rate', source: 'seed 002' },
  { key: 'falseNegativeRate', label: 'false negatives', op: '<=', value: 0, unit: 'rate', source: 'seed 002' },
];

/** A figure beside its target: `met` is undefined when nothing was measured (no loop the figure applies to). */
export interface TargetCheck extends Target {
  figure: number;
  /** How many loops the figure is over. */
  over: number;
  met?: boolean;
}

/**
 * Human gates opened by the detectors (anti-laziness and verification), as opposed to the policy's own (iterations
 * used up, rejections, budget). A human approving one of these says the detectors stopped legitimate work.
 */
export const DETECTOR_GATE_REASONS: readonly string[] = [
  'regression',
  'stuck_loop',
  'circuit_breaker',
  'recovery_exhausted',
  'tampered_verification',
  'protected_edit',
  'unchecked_cheating',
];

/** Failure categories by gate kind, as the design names them ("Linting errors", "Test failures"...). */
const KIND_CATEGORY: Record<string, string> = {
  build: 'build errors',
  typecheck: 'type errors',
  lint: 'linting errors',
  test: 'test failures',
  coverage: 'coverage below threshold',
  audit: 'audit findings',
  custom: 'custom gate failures',
};

/** What `ralph stats` shows. */
export interface GateStats {
  /** ISO start of the window, when one was given. */
  since?: string;
  loops: number;
  loopsWithGates: number;
  iterations: number;
  /** Share of loops whose first gate run passed every gate. */
  firstTryPassRate: number;
  rejectionsPerLoop: number;
  /** Share of loops in which a human gate opened (a human had to decide). */
  escalationRate: number;
  /** Gate time as a share of agent + check + gate time. */
  gateOverheadShare: number;
  /** Share of loops in which a human approved a gate the detectors opened. */
  falsePositiveRate: number;
  /** Share of accepted loops a human later flagged. */
  falseNegativeRate: number;
  targets: TargetCheck[];
  /** Loops with gates by how often their claims were rejected; `escalated`: they reached the rejections gate. */
  rejections: { notRejected: Share; once: Share; twice: Share; threeOrMore: Share; escalated: Share };
  /** Human gates by reason (max_iterations, rejections, regression, stuck_loop...). */
  humanGates: Record<string, number>;
  falsePositives: { detectorGates: number; decided: number; approved: number; loops: string[] };
  falseNegatives: { accepted: number; flagged: string[]; flags: LoopFlag[]; unreadable: string[] };
  gates: GateFigures[];
  /** Why iterations failed, by category (gate kind, completion check, agent), most frequent first. */
  failureCategories: ({ category: string } & Share)[];
  /** The failing gates' messages with their numbers blanked, most frequent first (top 10). */
  topFailureReasons: ({ reason: string } & Share)[];
  interventions: {
    total: number;
    byType: Record<string, number>;
    bySeverity: Record<string, number>;
    per100Iterations: number;
    /** Flagged iterations followed by one without any of the same findings. */
    remediation: { judged: number; remediated: number; rate: number };
  };
}

const share = (a: number, b: number): number => (b ? Math.round((a / b) * 1000) / 1000 : 0);
const shareOf = (count: number, total: number): Share => ({ count, share: share(count, total) });
const add = (m: Record<string, number>, k: string, n = 1): void => void (m[k] = (m[k] ?? 0) + n);
const gateReason = (gateId: string): string => gateId.slice(0, gateId.lastIndexOf('@'));

/** Whether the loop's first gate run passed every gate. */
const firstTry = (s: LoopState): boolean => s.records.find((r) => r.gates?.length)!.gates!.every((g) => g.passed);

/** Whether the loop reached the rejections gate. */
const rejectionEscalated = (s: LoopState): boolean =>
  s.pendingGate?.reason === 'rejections' || s.decisions.some((d) => d.gateId.startsWith('rejections@'));

/** Human gates of a loop by reason: the decided ones and the one pending. */
function gatesOf(s: LoopState): string[] {
  const ids = new Set(s.decisions.map((d) => d.gateId));
  if (s.pendingGate) ids.add(s.pendingGate.id);
  return [...ids].map(gateReason);
}

/** Aggregates the metrics over loops (each with its flags), checking each against its target. */
export function gateStats(loops: (LoopFacts | LoopState)[], since?: string): GateStats {
  const facts = loops.map((l): LoopFacts => ('state' in l ? l : { state: l, flags: [] }));
  const states = facts.map((f) => f.state);
  const withGates = states.filter((s) => s.records.some((r) => r.gates?.length));
  const escalated = states.filter((s) => s.totals.humanGates > 0 || gatesOf(s).length > 0);
  const humanGates: Record<string, number> = {};
  for (const s of states) for (const r of gatesOf(s)) add(humanGates, r);
  const fp = falsePositives(states);
  const fn = falseNegatives(facts);
  const rejectionsPerLoop = withGates.length
    ? Math.round((withGates.reduce((a, s) => a + (s.totals.rejections ?? 0), 0) / withGates.length) * 100) / 100
    : 0;
  const figures: Record<TargetKey, { figure: number; over: number }> = {
    firstTryPassRate: { figure: share(withGates.filter(firstTry).length, withGates.length), over: withGates.length },
    rejectionsPerLoop: { figure: rejectionsPerLoop, over: withGates.length },
    escalationRate: { figure: share(escalated.length, states.length), over: states.length },
    gateOverheadShare: overhead(withGates),
    falsePositiveRate: { figure: share(fp.loops.length, states.length), over: states.length },
    falseNegativeRate: { figure: share(fn.flagged.length, fn.accepted), over: fn.accepted },
  };
  return {
    since,
    loops: states.length,
    loopsWithGates: withGates.length,
    iterations: states.reduce((a, s) => a + (s.totals.iterations ?? 0), 0),
    ...(Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, v.figure])) as Record<TargetKey, number>),
    targets: SEED_TARGETS.map((t) => ({ ...t, ...figures[t.key], met: checkTarget(t, figures[t.key]) })),
    rejections: rejectionBreakdown(withGates),
    humanGates,
    falsePositives: fp,
    falseNegatives: fn,
    gates: perGate(states),
    ...failures(states),
    interventions: interventions(states),
  };
}

/** Whether a figure meets its target; undefined when it is over no loop. */
export function checkTarget(t: Pick<Target, 'op' | 'value'>, f: { figure: number; over: number }): boolean | undefined {
  if (!f.over) return undefined;
  return t.op === '>' ? f.figure > t.value : t.op === '<' ? f.figure < t.value : f.figure <= t.value;
}

function overhead(states: LoopState[]): { figure: number; over: number } {
  let gateMs = 0;
  let workMs = 0;
  for (const s of states) {
    gateMs += s.totals.gateMs ?? 0;
    workMs += s.totals.agentMs + s.totals.checkMs + (s.totals.gateMs ?? 0);
  }
  return { figure: share(gateMs, workMs), over: states.length };
}

function rejectionBreakdown(withGates: LoopState[]): GateStats['rejections'] {
  const n = { notRejected: 0, once: 0, twice: 0, threeOrMore: 0, escalated: 0 };
  for (const s of withGates) {
    const r = s.totals.rejections ?? 0;
    if (rejectionEscalated(s)) n.escalated++;
    else if (r === 0) n.notRejected++;
    else if (r === 1) n.once++;
    else if (r === 2) n.twice++;
    else n.threeOrMore++;
  }
  const total = withGates.length;
  return {
    notRejected: shareOf(n.notRejected, total),
    once: shareOf(n.once, total),
    twice: shareOf(n.twice, total),
    threeOrMore: shareOf(n.threeOrMore, total),
    escalated: shareOf(n.escalated, total),
  };
}

function falsePositives(states: LoopState[]): GateStats['falsePositives'] {
  let detectorGates = 0;
  let decided = 0;
  let approved = 0;
  const loops: string[] = [];
  for (const s of states) {
    detectorGates += gatesOf(s).filter((r) => DETECTOR_GATE_REASONS.includes(r)).length;
    const ds = s.decisions.filter((d) => DETECTOR_GATE_REASONS.includes(gateReason(d.gateId)));
    decided += ds.length;
    const yes = ds.filter((d) => d.decision === 'approve').length;
    approved += yes;
    if (yes) loops.push(s.loopId);
  }
  return { detectorGates, decided, approved, loops };
}

function falseNegatives(facts: LoopFacts[]): GateStats['falseNegatives'] {
  const accepted = facts.filter((f) => (f.state.result?.status ?? f.state.status) === 'accepted');
  return {
    accepted: accepted.length,
    flagged: accepted.filter((f) => f.flags?.length).map((f) => f.state.loopId),
    flags: accepted.flatMap((f) => f.flags ?? []),
    unreadable: accepted.filter((f) => !f.flags).map((f) => f.state.loopId),
  };
}

function perGate(states: LoopState[]): GateFigures[] {
  const acc = new Map<string, { runs: number; passed: number; ms: number; kind?: string }>();
  for (const s of states)
    for (const [name, g] of Object.entries(s.gateStats ?? {})) {
      const a = acc.get(name) ?? { runs: 0, passed: 0, ms: 0 };
      acc.set(name, { runs: a.runs + g.runs, passed: a.passed + g.passed, ms: a.ms + g.ms, kind: g.kind ?? a.kind });
    }
  return [...acc.entries()]
    .map(([name, g]) => ({
      name,
      kind: g.kind,
      runs: g.runs,
      passRate: share(g.passed, g.runs),
      meanMs: Math.round(g.ms / Math.max(1, g.runs)),
    }))
    .sort((a, b) => b.runs - a.runs);
}

/** Why iterations failed: by category, and the failing gates' messages with their numbers blanked. */
function failures(states: LoopState[]): Pick<GateStats, 'failureCategories' | 'topFailureReasons'> {
  const categories: Record<string, number> = {};
  const reasons: Record<string, number> = {};
  for (const s of states)
    for (const r of s.records) {
      for (const g of r.gates ?? [])
        if (!g.passed) {
          const kind = s.gateStats?.[g.name]?.kind;
          add(categories, (kind && KIND_CATEGORY[kind]) ?? `gate ${g.name} failing`);
          // Numbers vary run to run; the reason is the shape: "unit: N of N failing".
          add(reasons, `${g.name}: ${g.actual.replace(/\d+(\.\d+)?/g, 'N')}`);
        }
      if (r.check && !r.check.passed) add(categories, 'completion check failed');
      if (r.outcome === 'agent_timeout' || r.agent.timedOut) add(categories, 'agent timeouts');
      else if (r.outcome === 'agent_failed') add(categories, 'agent failures');
    }
  const ranked = (m: Record<string, number>): [string, number][] => {
    const total = Object.values(m).reduce((a, b) => a + b, 0);
    return Object.entries(m)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([k, n]) => [k, share(n, total)] as [string, number]);
  };
  return {
    failureCategories: ranked(categories).map(([category, sh]) => ({
      category,
      count: categories[category],
      share: sh,
    })),
    topFailureReasons: ranked(reasons)
      .slice(0, 10)
      .map(([reason, sh]) => ({ reason, count: reasons[reason], share: sh })),
  };
}

function interventions(states: LoopState[]): GateStats['interventions'] {
  const byType: Record<string, number> = {};
  const bySeverity: Record<string, number> = {};
  let judged = 0;
  let remediated = 0;
  for (const s of states) {
    const p = s.persistence;
    if (!p) continue;
    for (const [t, n] of Object.entries(p.counts)) add(byType, t, n);
    // States recorded before severities were counted: the recent events (the last 20) are what is known.
    const sev = p.severities ?? countBy(p.recent.map((e) => e.severity));
    for (const [k, n] of Object.entries(sev)) add(bySeverity, k, n);
    const records = s.records;
    records.forEach((r, i) => {
      const next = records[i + 1];
      if (!r.detections?.length || !next) return;
      judged++;
      if (!next.detections?.some((t) => r.detections!.includes(t))) remediated++;
    });
  }
  const total = Object.values(byType).reduce((a, b) => a + b, 0);
  const iterations = states.reduce((a, s) => a + (s.persistence ? (s.totals.iterations ?? 0) : 0), 0);
  return {
    total,
    byType,
    bySeverity,
    per100Iterations: iterations ? Math.round((total / iterations) * 10000) / 100 : 0,
    remediation: { judged, remediated, rate: share(remediated, judged) },
  };
}

const countBy = (xs: string[]): Record<string, number> => {
  const m: Record<string, number> = {};
  for (const x of xs) add(m, x);
  return m;
};

/** Parses a window like `7d`, `12h`, `30m`, `2w` or an ISO date into the ISO time it starts at, from `now` (ms). */
export function parseSince(text: string, now: number): string | undefined {
  const m = /^(\d+)\s*(m|h|d|w)$/.exec(text.trim());
  if (m) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 }[m[2] as 'm' | 'h' | 'd' | 'w'];
    return new Date(now - Number(m[1]) * unit).toISOString();
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(text.trim())) {
    const t = Date.parse(text.trim());
    return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
  }
  return undefined;
}
