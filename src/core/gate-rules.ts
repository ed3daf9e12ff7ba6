/**
 * Gate thresholds, profiles and verdicts: whether a gate's parsed output meets its thresholds, the forced-continuation
 * prompt when it doesn't, and the iteration's quality score. Pure: no I/O, unit-tested without a server.
 */
import type { Detection } from './detections';
import {
  Severities,
  type CoverageCount,
  type GateItem,
  type GateKind,
  type ParsedGateOutput,
  type Severity,
} from './gates';

/** Coverage thresholds in percent, compared against covered/total counts. */
export interface CoverageThresholds {
  lines: number;
  branches: number;
  functions: number;
  statements: number;
}

/** Thresholds a gate can have; which apply depends on the gate kind. */
export interface GateThresholds {
  maxErrors?: number;
  maxWarnings?: number;
  minPassRate?: number;
  coverage?: CoverageThresholds;
  /** Highest audit severity tolerated (e.g. `moderate`: high and critical fail). */
  maxSeverity?: Severity;
}

/** Threshold profiles, exactly as the design defines them. */
export const Profiles = {
  strict: {
    build: { maxErrors: 0 },
    typecheck: { maxErrors: 0 },
    lint: { maxErrors: 0, maxWarnings: 0 },
    test: { minPassRate: 100 },
    coverage: { coverage: { lines: 90, branches: 85, functions: 90, statements: 90 } },
    audit: { maxSeverity: 'low' },
    custom: {},
  },
  standard: {
    build: { maxErrors: 0 },
    typecheck: { maxErrors: 0 },
    lint: { maxErrors: 0, maxWarnings: 50 },
    test: { minPassRate: 95 },
    coverage: { coverage: { lines: 85, branches: 80, functions: 85, statements: 85 } },
    audit: { maxSeverity: 'moderate' },
    custom: {},
  },
  relaxed: {
    build: { maxErrors: 0 },
    typecheck: { maxErrors: 0 },
    lint: { maxErrors: 5, maxWarnings: 100 },
    test: { minPassRate: 90 },
    coverage: { coverage: { lines: 70, branches: 65, functions: 70, statements: 70 } },
    audit: { maxSeverity: 'high' },
    custom: {},
  },
} as const satisfies Record<string, Record<GateKind, GateThresholds>>;
/** A profile name. */
export type ProfileName = keyof typeof Profiles;

/** What a gate run produced, before the verdict. */
export interface GateRun {
  name: string;
  kind: GateKind;
  exitCode: number | null;
  timedOut: boolean;
  /** Set when the command could not start. */
  startError?: string;
  parsed: ParsedGateOutput;
  /** Path of the raw output artifact. */
  outputPath: string;
  durationMs: number;
}

/** A gate's verdict: pass/fail, what was expected and what was measured, and the items to fix. */
export interface GateVerdict {
  name: string;
  kind: GateKind;
  passed: boolean;
  expected: string;
  actual: string;
  message: string;
  /** The first items to fix (bounded). */
  items: GateItem[];
  /** 0..1: how close to passing (1 = passed), for the quality score. */
  score: number;
  durationMs: number;
  outputPath: string;
  /** What the gate measured, for regressions against the loop's baseline. */
  metrics?: { tests?: number; failing?: number; coverage?: CoverageCount; errors?: number };
  /** File listing every test id the runner reported (test gates), for the next iteration's inventory diff. */
  idsPath?: string;
  /** Findings of the gate's own detectors (test inventory from the runner's listing). */
  detections?: Detection[];
}

/** How many items a verdict keeps (and a continuation prompt lists). */
export const MAX_ITEMS = 15;

const pct = (n: number): string => `${Math.round(n * 10) / 10}%`;

/**
 * Decides one gate. Fails closed: a timeout, a command that can't start, or output that can't be parsed never passes.
 * Exit code counts too, except for lint/test/coverage/audit gates whose parsed numbers are the verdict.
 */
export function evaluateGate(run: GateRun, t: GateThresholds): GateVerdict {
  const base = { name: run.name, kind: run.kind, durationMs: run.durationMs, outputPath: run.outputPath };
  const fail = failWith(base);
  if (run.startError)
    return fail('the command runs', 'could not start', `${run.name}: could not start: ${run.startError}`);
  if (run.timedOut) return fail('finishes in time', 'timed out', `${run.name}: timed out (never counts as passing)`);
  const p = run.parsed;
  if (!p.parsed)
    return fail(
      'parseable output',
      'unparseable',
      `${run.name}: output could not be parsed (${p.parseError}); raw output: ${run.outputPath}`,
    );
  const judge = { lint: lintVerdict, test: testVerdict, coverage: coverageVerdict, audit: auditVerdict }[
    run.kind as 'lint' | 'test' | 'coverage' | 'audit'
  ];
  return (judge ?? exitVerdict)(run, t, base, fail);
}

type VerdictBase = Pick<GateVerdict, 'name' | 'kind' | 'durationMs' | 'outputPath'>;
type Fail = (expected: string, actual: string, message: string, items?: GateItem[], score?: number) => GateVerdict;
type Judge = (run: GateRun, t: GateThresholds, base: VerdictBase, fail: Fail) => GateVerdict;

/** A failed verdict of the gate: what was expected, what was found, why, the items (capped) and a score. */
const failWith =
  (base: VerdictBase): Fail =>
  (expected, actual, message, items = [], score = 0) => ({
    ...base,
    passed: false,
    expected,
    actual,
    message,
    items: items.slice(0, MAX_ITEMS),
    score,
  });

/** A lint gate: errors and warnings within their limits. */
const lintVerdict: Judge = (run, t, base, fail) => {
  const p = run.parsed;
  const maxE = t.maxErrors ?? 0;
  const maxW = t.maxWarnings ?? Infinity;
  const e = p.errors ?? 0;
  const w = p.warnings ?? 0;
  const expected = `<= ${maxE} errors, <= ${maxW === Infinity ? '∞' : maxW} warnings`;
  const actual = `${e} errors, ${w} warnings`;
  if (e <= maxE && w <= maxW) return pass(base, expected, actual);
  const score = Math.max(0, 1 - (Math.max(0, e - maxE) * 5 + Math.max(0, w - (maxW === Infinity ? w : maxW))) / 100);
  return fail(
    expected,
    actual,
    `Linting failed: ${actual}. Project requires: max ${maxE} errors, max ${maxW} warnings.`,
    p.items,
    score,
  );
};

/** A test gate: the pass rate (never a pass when no test ran), and a clean run exits 0. */
const testVerdict: Judge = (run, t, base, fail) => {
  const p = run.parsed;
  const s = p.tests;
  if (!s) return fail('a test summary', 'none', `${run.name}: no test results found in the output`);
  const min = t.minPassRate ?? 100;
  const ran = s.passed + s.failed;
  // No test ran at all: never a pass (an agent deleting every test must not pass the gate).
  if (ran === 0) return fail(`>= ${min}% of tests pass`, 'no tests ran', `${run.name}: no tests ran`);
  const rate = (s.passed / ran) * 100;
  const expected = `>= ${min}% pass rate`;
  const actual = `${s.failed} of ${ran} failing (${pct(rate)} pass)`;
  // Runners exit non-zero on any failure; a tolerated failure rate still passes. A clean run must exit 0.
  if (rate >= min && (run.exitCode === 0 || s.failed > 0)) return pass(base, expected, actual);
  if (rate >= min && s.failed === 0)
    return fail(
      expected,
      `${actual}, exit ${run.exitCode}`,
      `${run.name}: all tests passed but the runner exited ${run.exitCode}`,
      p.items,
      0.9,
    );
  return fail(
    expected,
    actual,
    `${s.failed} of ${ran} tests failing. Project requires: ${min}% pass rate. Current pass rate: ${pct(rate)}.`,
    p.items,
    rate / 100,
  );
};

/** A coverage gate: each measure at or above its threshold, compared on counts. */
const coverageVerdict: Judge = (run, t, base, fail) => {
  const p = run.parsed;
  const c = p.coverage;
  const th = t.coverage;
  if (!c) return fail('a coverage report', 'none', `${run.name}: no coverage report found`);
  if (!th) return pass(base, 'no threshold', `lines ${pct(c.lines.pct)}`);
  const gaps = (['lines', 'branches', 'functions', 'statements'] as const)
    .map((k) => ({ k, need: th[k], have: c[k] }))
    // Compare counts: covered*100 >= need*total (pct alone is 100 when total is 0).
    .filter((g) => g.have.covered * 100 < g.need * g.have.total);
  const expected = `lines ${th.lines}%, branches ${th.branches}%, functions ${th.functions}%, statements ${th.statements}%`;
  const actual = `lines ${pct(c.lines.pct)}, branches ${pct(c.branches.pct)}, functions ${pct(c.functions.pct)}, statements ${pct(c.statements.pct)}`;
  if (!gaps.length) return pass(base, expected, actual);
  const items: GateItem[] = (c.files ?? []).map((f) => ({
    file: f.file,
    severity: 'warning',
    message: `lines ${pct(f.linesPct)}`,
  }));
  const worst = gaps.reduce((a, b) => (b.need - b.have.pct > a.need - a.have.pct ? b : a));
  const msg = `Code coverage below threshold: ${gaps.map((g) => `${g.k} ${pct(g.have.pct)} < ${g.need}% (gap ${pct(g.need - g.have.pct)}, ${g.have.covered}/${g.have.total})`).join('; ')}.`;
  return fail(expected, actual, msg, items, Math.max(0, worst.have.pct / worst.need));
};

/** An audit gate: no advisory above the allowed severity. */
const auditVerdict: Judge = (run, t, base, fail) => {
  const p = run.parsed;
  const a = p.audit;
  if (!a) return fail('an audit report', 'none', `${run.name}: no audit report found`);
  const max = t.maxSeverity ?? 'moderate';
  const expected = `no advisory above ${max}`;
  const actual = `max severity ${a.maxSeverity}`;
  if (Severities.indexOf(a.maxSeverity) <= Severities.indexOf(max)) return pass(base, expected, actual);
  return fail(
    expected,
    actual,
    `Security audit failed: advisories up to ${a.maxSeverity} (allowed: ${max}).`,
    p.items,
    0.5,
  );
};

/** Build, typecheck and custom gates: errors counted by the parser if any, and the exit code must be 0. */
const exitVerdict: Judge = (run, t, base, fail) => {
  const p = run.parsed;
  const maxE = t.maxErrors ?? 0;
  const e = p.errors ?? (run.exitCode === 0 ? 0 : 1);
  const expected = `exit 0${p.errors !== undefined ? `, <= ${maxE} errors` : ''}`;
  const actual = `exit ${run.exitCode}${p.errors !== undefined ? `, ${e} errors` : ''}`;
  if (run.exitCode === 0 && e <= maxE) return pass(base, expected, actual);
  const what =
    run.kind === 'custom'
      ? `${run.name} failed`
      : `${run.kind === 'typecheck' ? 'Type check' : 'Build'} failed with ${e} ${e === 1 ? 'error' : 'errors'}`;
  return fail(expected, actual, `${what} (${actual}).`, p.items, Math.max(0, 1 - e / 50));
};

function pass(
  base: Pick<GateVerdict, 'name' | 'kind' | 'durationMs' | 'outputPath'>,
  expected: string,
  actual: string,
): GateVerdict {
  return { ...base, passed: true, expected, actual, message: `${base.name}: passed (${actual})`, items: [], score: 1 };
}

const itemLine = (i: GateItem): string =>
  `${i.file ? `${i.file}${i.line ? `:${i.line}${i.column ? `:${i.column}` : ''}` : ''} ` : ''}${i.code ? `${i.code} ` : ''}${i.message}`.trim();

/** Groups lint items by rule: `no-unused-vars (3): a.ts:1, b.ts:4, ...`. */
function byRule(items: GateItem[]): string[] {
  const groups = new Map<string, GateItem[]>();
  for (const i of items) groups.set(i.code ?? '(no rule)', [...(groups.get(i.code ?? '(no rule)') ?? []), i]);
  return [...groups.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .map(
      ([rule, list]) =>
        `${rule} (${list.length}): ${list
          .slice(0, 5)
          .map((i) => `${i.file ?? '?'}:${i.line ?? '?'}`)
          .join(', ')}${list.length > 5 ? ', …' : ''}`,
    );
}

/**
 * The forced-continuation text for one failed gate, per gate kind: non-negotiable, with the exact failing items.
 */
export function continuationFor(v: GateVerdict): string {
  const list = (xs: string[]): string => xs.map((x) => `  - ${x}`).join('\n');
  switch (v.kind) {
    case 'build':
    case 'typecheck':
      return `${v.message}\nYou claimed the task was done, but the code does not compile.\nREQUIRED: Fix ALL compilation errors before claiming done.\nErrors:\n${list(v.items.map(itemLine))}\nContinue working to resolve these errors.`;
    case 'lint':
      return `${v.message}\nYou claimed done, but quality standards are not met.\nREQUIRED: Fix linting issues to meet project standards. Do not disable rules to get there.\nTop issues by rule:\n${list(byRule(v.items))}\nContinue working until linting passes.`;
    case 'test':
      return `${v.message}\nYou claimed done, but tests are failing.\nREQUIRED: All tests must pass before done. Fix the code, not the tests: deleting, skipping or weakening tests is detected and rejected.\nFailing tests:\n${list(v.items.map(itemLine))}\nContinue working to fix failing tests.`;
    case 'coverage':
      return `${v.message}\nYou claimed done, but coverage standards are not met.\nREQUIRED: Add tests to meet coverage threshold.\nUncovered areas:\n${list(v.items.map(itemLine))}\nContinue working to improve test coverage.`;
    case 'audit':
      return `${v.message}\nREQUIRED: Upgrade or replace the vulnerable dependencies.\nAdvisories:\n${list(v.items.map(itemLine))}\nContinue working until the audit passes.`;
    default:
      return `${v.message}\nExpected: ${v.expected}. Actual: ${v.actual}.\nREQUIRED: Make \`${v.name}\` pass before claiming done.${v.items.length ? `\nDetails:\n${list(v.items.map(itemLine))}` : ''}\nContinue working.`;
  }
}

/** Weights of each gate kind in the quality score (custom gates weigh like build). */
export const QUALITY_WEIGHTS: Record<GateKind, number> = {
  build: 25,
  typecheck: 20,
  test: 30,
  lint: 10,
  coverage: 10,
  audit: 5,
  custom: 10,
};

/**
 * Quality score 0-100 of an iteration: the weighted mean of each gate's score (1 = passed, partial credit by how close
 * it came), with {@link QUALITY_WEIGHTS}. Returns the score and the per-gate breakdown (points earned / possible).
 */
export function qualityScore(verdicts: GateVerdict[]): {
  score: number;
  breakdown: { name: string; points: number; of: number }[];
} {
  if (!verdicts.length) return { score: 0, breakdown: [] };
  const breakdown = verdicts.map((v) => ({
    name: v.name,
    of: QUALITY_WEIGHTS[v.kind],
    points: Math.round(QUALITY_WEIGHTS[v.kind] * v.score * 10) / 10,
  }));
  const of = breakdown.reduce((a, b) => a + b.of, 0);
  const got = breakdown.reduce((a, b) => a + b.points, 0);
  return { score: Math.round((got / of) * 100), breakdown };
}

/**
 * The feedback for the next prompt when gates fail: on a completion claim, the "TASK COMPLETION REJECTED" message with
 * every failed gate (expected vs actual) and its forced-continuation text; otherwise the gates still failing.
 */
export function gateFeedback(
  failed: GateVerdict[],
  o: { claimed: boolean; rejection: number; maxRetries: number },
): string {
  const lines = failed
    .map((f) => `- ${f.name}: ${f.message}\n  Expected: ${f.expected}\n  Actual: ${f.actual}`)
    .join('\n');
  const body = failed.map(continuationFor).join('\n\n');
  if (!o.claimed) return `Quality gates still failing:\n${lines}\n\n${body}`;
  return (
    `TASK COMPLETION REJECTED\nYour claim that this task is done has been rejected. Quality gates failed.\n\n` +
    `Failed gates:\n${lines}\n\nRejection count: ${o.rejection} (a human reviews after ${o.maxRetries}).\n\n${body}`
  );
}

/** Token budget of a loop and how much of it is left. */
export interface BudgetState {
  /** Share of the budget left, 0..1 (the smaller of tokens and cost). */
  left: number;
  exhausted: boolean;
  used: string;
}

/** How much of a token/cost budget is used. Returns undefined when no budget is set. */
export function budgetState(
  used: { tokens: number; costUsd: number },
  budget: { maxTokens?: number; maxCostUsd?: number } | undefined,
  scale = 1,
): BudgetState | undefined {
  if (!budget || (budget.maxTokens === undefined && budget.maxCostUsd === undefined)) return undefined;
  const shares: number[] = [];
  const parts: string[] = [];
  if (budget.maxTokens !== undefined) {
    shares.push(1 - used.tokens / (budget.maxTokens * scale));
    parts.push(`${used.tokens} of ${Math.round(budget.maxTokens * scale)} tokens`);
  }
  if (budget.maxCostUsd !== undefined) {
    shares.push(1 - used.costUsd / (budget.maxCostUsd * scale));
    parts.push(`$${used.costUsd.toFixed(4)} of $${(budget.maxCostUsd * scale).toFixed(2)}`);
  }
  const left = Math.max(0, Math.min(...shares));
  return { left, exhausted: left <= 0, used: parts.join(', ') };
}

/**
 * A completion claim made with suspiciously little work: no claimed or touched file, and fewer than a quarter of the
 * loop's average tokens per earlier iteration (needs at least two earlier iterations with usage).
 */
export function isSuspiciousClaim(
  claim: { claimed: boolean; claimedFiles: number; tokens?: number },
  earlierTokens: number[],
): boolean {
  if (!claim.claimed || claim.claimedFiles > 0 || claim.tokens === undefined || earlierTokens.length < 2) return false;
  const avg = earlierTokens.reduce((a, b) => a + b, 0) / earlierTokens.length;
  return claim.tokens < avg / 4;
}

/** The verdict of a gate that could not run (timed out, failed to start, its activity failed): it never passes. */
export function gateCouldNotRun(gate: { name: string; kind: GateVerdict['kind'] }, why: string): GateVerdict {
  return {
    name: gate.name,
    kind: gate.kind,
    passed: false,
    expected: 'the gate runs',
    actual: 'could not run',
    message: `${gate.name}: could not run (${why})`,
    items: [],
    score: 0,
    durationMs: 0,
    outputPath: '',
  };
}
