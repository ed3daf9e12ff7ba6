/**
 * Quality gates: kinds, what parsers of real tool output extract, profiles of thresholds, and the verdict rules.
 * Pure and deterministic: parsers and verdicts are unit-tested on committed fixtures without a server.
 */

/** Gate kinds the orchestrator runs. */
export const GateKinds = ['build', 'typecheck', 'lint', 'test', 'coverage', 'audit', 'custom'] as const;
/** One of {@link GateKinds}. */
export type GateKind = (typeof GateKinds)[number];

/** Output formats a gate's parser understands. `exit-code` only looks at the exit code. */
export const OutputFormats = [
  'exit-code',
  'tsc',
  'eslint-json',
  'jest-json',
  'vitest-json',
  'pytest',
  'junit-xml',
  'go-test-json',
  'istanbul-summary',
  'lcov',
  'cobertura',
  'npm-audit-json',
] as const;
/** One of {@link OutputFormats}. */
export type OutputFormat = (typeof OutputFormats)[number];

/** One finding of a tool: a compiler error, a lint message, a failing test, an advisory. */
export interface GateItem {
  file?: string;
  line?: number;
  column?: number;
  /** Compiler code (TS2322), lint rule id (no-unused-vars), advisory id. */
  code?: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

/** Test totals and names, as the runner reported them. */
export interface TestSummary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Full names (`file › describe › it`) of failing tests. */
  failedNames: string[];
  /** Ids (`file: full name`) of every test seen, for inventory diffs. */
  ids?: string[];
}

/** Covered/total counts of one coverage metric. pct is derived: 100 when total is 0, so compare counts. */
export interface CoverageCount {
  covered: number;
  total: number;
  pct: number;
}

/** Coverage totals and the least-covered files. */
export interface CoverageSummary {
  lines: CoverageCount;
  branches: CoverageCount;
  functions: CoverageCount;
  statements: CoverageCount;
  /** Files under the line threshold, worst first (file, line pct). */
  files?: { file: string; linesPct: number }[];
}

/** Advisory severities, lowest first. */
export const Severities = ['none', 'info', 'low', 'moderate', 'high', 'critical'] as const;
/** One of {@link Severities}. */
export type Severity = (typeof Severities)[number];

/** What a parser extracts from a tool's output. `parsed: false` makes the gate fail closed. */
export interface ParsedGateOutput {
  parsed: boolean;
  /** Why parsing failed (shown with the raw output's artifact path). */
  parseError?: string;
  errors?: number;
  warnings?: number;
  /** Messages the tool suppressed (eslint-disable...): informative, never counted. */
  suppressed?: number;
  tests?: TestSummary;
  coverage?: CoverageSummary;
  audit?: { maxSeverity: Severity; counts: Partial<Record<Severity, number>> };
  items: GateItem[];
}

/** A parser: text of a tool's output (or report file) in, findings out. Never throws. */
export type GateParser = (text: string) => ParsedGateOutput;

/** A parse failure: the gate fails closed with this reason. */
export const unparsed = (why: string): ParsedGateOutput => ({ parsed: false, parseError: why, items: [] });
