/**
 * The numbers a human decides a regression or stuck-loop gate on (seed 001, "REGRESSION DETECTED": previous vs
 * current tests, coverage, error counts): what the gates measured at the iteration before and at the flagged one.
 * Pure: the workflow attaches them to the gate; `ralph status` and the console show them as a small table.
 */
import type { CoverageCount } from './gates';

/** What the gates of one iteration measured. Absent fields were not measured (no such gate, unparsed output). */
export interface QualityNumbers {
  iteration: number;
  /** Tests the runner reported, and how many of them failed. */
  tests?: number;
  failing?: number;
  /** Line coverage, percent. */
  coverage?: number;
  typeErrors?: number;
  lintErrors?: number;
  buildErrors?: number;
}

/** Before/after numbers of a gate: `before` is the last earlier iteration that measured anything. */
export interface GateNumbers {
  before?: QualityNumbers;
  after: QualityNumbers;
}

/** What a gate verdict measured, as far as the numbers need it. */
export interface MeasuredGate {
  kind: string;
  metrics?: { tests?: number; failing?: number; coverage?: CoverageCount; errors?: number };
}

type Counted = 'tests' | 'failing' | 'typeErrors' | 'lintErrors' | 'buildErrors';
/** Adds `v` to the count `k` (sums over gates of one kind); an unmeasured value leaves it as it is. */
const add = (q: QualityNumbers, k: Counted, v: number | undefined): void => {
  if (v !== undefined) q[k] = (q[k] ?? 0) + v;
};

/** The numbers of iteration `n` from its gate verdicts; undefined when no gate measured anything. */
export function numbersOf(n: number, verdicts: readonly MeasuredGate[]): QualityNumbers | undefined {
  const q: QualityNumbers = { iteration: n };
  for (const v of verdicts) {
    const m = v.metrics;
    if (!m) continue;
    add(q, 'tests', m.tests);
    add(q, 'failing', m.failing);
    if (m.coverage && q.coverage === undefined) q.coverage = Math.round(m.coverage.pct * 10) / 10;
    const errors = ({ typecheck: 'typeErrors', lint: 'lintErrors', build: 'buildErrors' } as const)[
      v.kind as 'typecheck' | 'lint' | 'build'
    ];
    if (errors) add(q, errors, m.errors);
  }
  return Object.keys(q).length > 1 ? q : undefined;
}

/**
 * The numbers of a gate opened at iteration `n`, from the iterations' records (oldest first): its own numbers and the
 * last earlier ones. Undefined when iteration `n` measured nothing.
 */
export function gateNumbers(
  records: readonly { n: number; numbers?: QualityNumbers }[],
  n: number,
): GateNumbers | undefined {
  const after = records.find((r) => r.n === n)?.numbers;
  if (!after) return undefined;
  const before = [...records].reverse().find((r) => r.n < n && r.numbers)?.numbers;
  return before ? { before, after } : { after };
}

const ROWS: [keyof Omit<QualityNumbers, 'iteration'>, string, string][] = [
  ['tests', 'tests', ''],
  ['failing', 'failing tests', ''],
  ['coverage', 'coverage', '%'],
  ['typeErrors', 'type errors', ''],
  ['lintErrors', 'lint errors', ''],
  ['buildErrors', 'build errors', ''],
];

/** The numbers as table rows: what, before, after, change (`-2`, `+0.5`); only what either side measured. */
export function numbersRows(g: GateNumbers): [string, string, string, string][] {
  const out: [string, string, string, string][] = [];
  for (const [key, label, unit] of ROWS) {
    const b = g.before?.[key];
    const a = g.after[key];
    if (a === undefined && b === undefined) continue;
    const d = a !== undefined && b !== undefined ? Math.round((a - b) * 10) / 10 : undefined;
    const show = (v: number | undefined): string => (v === undefined ? '-' : `${v}${unit}`);
    out.push([label, show(b), show(a), d === undefined ? '' : d > 0 ? `+${d}` : String(d)]);
  }
  return out;
}

/** The header of {@link numbersRows}: which iterations are compared. */
export const numbersHeader = (g: GateNumbers): [string, string, string, string] => [
  '',
  g.before ? `iteration ${g.before.iteration}` : 'before',
  `iteration ${g.after.iteration}`,
  'change',
];
