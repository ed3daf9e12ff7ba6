/**
 * Text views of a loop's state (pure rendering, no I/O): the anti-laziness summary, regressions, quality bars,
 * interventions, an agent profile and the Markdown report. Shared by the CLI, the console and the activity that
 * writes report.md; the numbers they show are computed in core/report.ts.
 */
/**
 * Rendering of the anti-laziness layer for humans and tools: quality bars, the `status --persistence/--regressions/
 * --quality` views, `ralph interventions` and `ralph profile`, `analytics.json` and `report.md`. Pure: lines and
 * strings in, lines and strings out; the activities and the CLI write or print them.
 */
import type {
  AgentProfile,
  AntiLazinessState,
  BestOutput,
  InterventionEvent,
  RegressionRecord,
  TrajectoryPoint,
} from '../core/anti-laziness-types';
import { pct } from '../core/best-output';
import type { LoopState } from '../core/loop-types';
import { countBy, formatMs, QUALITY_DROP, trajectoryOf } from '../core/report';

/**
 * One bar per iteration, e.g. `iter  2 ██████████████████████████████████░░░░░░  85% BEST`; ✓ marks a verified
 * iteration, BEST the selected one, REGRESSION a critical regression or a drop of ≥5 points from the previous one.
 */
export function qualityBars(trajectory: TrajectoryPoint[], best?: BestOutput, width = 40): string[] {
  return trajectory.map((p, i) => {
    const q = Math.max(0, Math.min(100, p.quality));
    const filled = Math.round((q / 100) * width);
    const marks = [
      p.verified ? '✓' : '',
      best && best.iteration === p.n ? 'BEST' : '',
      regressed(trajectory, i) ? 'REGRESSION' : '',
    ].filter(Boolean);
    const bar = '█'.repeat(filled) + '░'.repeat(width - filled);
    return `iter ${String(p.n).padStart(2)} ${bar} ${pct(p.quality).padStart(4)}${marks.length ? ` ${marks.join(' ')}` : ''}`;
  });
}

/**
 * The `status --persistence` view: baseline and current metrics, regression events, reinforcement level and why,
 * recovery attempts, best and current iteration, circuit breaker. One line saying the layer is off when it is.
 */
export function antiLazinessSummary(state: LoopState): string[] {
  const p = state.persistence;
  if (!p) return ['Persistence Metrics:', `  ${OFF}`];
  const field = (k: string, v: string): string => `  ${k.padEnd(21)} ${v}`;
  const crit = criticalTypes(p.regressions);
  const current = p.trajectory.find((t) => t.n === state.iteration) ?? p.trajectory[p.trajectory.length - 1];
  const recovery = p.recovery;
  const lastRecovery = recovery.history[recovery.history.length - 1];
  const nf = p.profile.noFilesIterations;
  return [
    'Persistence Metrics:',
    field('Baseline Metrics:', metricsText(p.baseline)),
    field('Current Metrics:', metricsText(p.current)),
    field('Regression Events:', `${p.regressions.length}${crit.length ? ` (critical: ${crit.join(', ')})` : ''}`),
    field('Reinforcement Level:', `${p.level}${p.levelReason ? ` (${p.levelReason})` : ''}`),
    field(
      'Recovery Attempts:',
      `${recovery.attempts}${recovery.inProgress ? `, in progress (retry ${recovery.retries})` : ''}` +
        (lastRecovery
          ? `; last: ${lastRecovery.diagnosis.cause} → ${lastRecovery.strategy} (${lastRecovery.outcome})`
          : ''),
    ),
    field(
      'Best Iteration:',
      p.best
        ? `${p.best.iteration} (quality: ${pct(p.best.quality)}${p.best.verified ? ', verified' : ''})`
        : 'none yet',
    ),
    field(
      'Current Iteration:',
      `${state.iteration}${current ? ` (quality: ${pct(current.quality)}${current.n !== state.iteration ? ` at iteration ${current.n}` : ''})` : ''}`,
    ),
    field(
      'Circuit Breaker:',
      `${p.circuitOpen ? 'OPEN' : 'closed'} (${plural(nf.length, 'no-files iteration')}${nf.length ? `: ${nf.slice(-5).join(', ')}` : ''})`,
    ),
  ];
}

/** The `status --regressions` view: every regression record with its summary, deleted tests, recovery, rollback. */
export function regressionsView(state: LoopState): string[] {
  const p = state.persistence;
  if (!p) return ['Regression Events:', `  ${OFF}`];
  if (!p.regressions.length) return ['Regression Events:', '  none'];
  return ['Regression Events:', ...p.regressions.flatMap(regressionLines).map((l) => `  ${l}`)];
}

/** The `ralph interventions` view: a table of the events (the `last` N when given) and counts by type. */
export function interventionsView(events: InterventionEvent[], last?: number): string[] {
  if (!events.length) return ['no interventions recorded'];
  const shown = last !== undefined && last >= 0 ? events.slice(-last) : events;
  const out = [
    `${plural(events.length, 'intervention')}${shown.length < events.length ? ` (last ${shown.length} shown)` : ''}`,
    '',
  ];
  out.push(
    ...textTable(
      ['ITER', 'TYPE', 'SEVERITY', 'VERDICT', 'DETAILS'],
      shown.map((e) => [e.iteration, e.type, e.severity, e.verdict, clip(e.details, 90)]),
    ),
  );
  const counts = countBy(events, (e) => e.type);
  out.push(
    '',
    `by type: ${Object.entries(counts)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')}`,
  );
  return out;
}

/** The `ralph profile` view of an agent's behaviour. */
export function profileView(p: AgentProfile): string[] {
  const field = (k: string, v: string | number): string => `  ${k.padEnd(20)} ${v}`;
  const nf = p.noFilesIterations;
  const out = [
    `Agent profile: ${p.agent}`,
    field('iterations', p.iterations),
    field('files changed', `${p.filesChanged} (${p.filesPerIteration} per iteration)`),
    field(
      'no-files iterations',
      `${p.noFilesCount}${p.iterations ? ` (${pct((p.noFilesCount / p.iterations) * 100)})` : ''}` +
        (nf.length ? `; latest: ${nf.slice(-10).join(', ')}` : ''),
    ),
    field('false completions', p.falseCompletions),
    field('hallucinated files', p.hallucinatedFiles),
  ];
  const ds = Object.entries(p.detections).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (ds.length) {
    out.push('  detections:');
    const w = Math.max(...ds.map(([t]) => t.length));
    for (const [t, n] of ds) out.push(`    ${t.padEnd(w)}  ${n}`);
  } else out.push('  detections:          none');
  return out;
}

/**
 * The loop's `report.md`: title with id, status and reason; a summary table; the quality trajectory; best vs final;
 * regression events; recovery attempts; interventions; reinforcement history; the agent profile; cost.
 */
export function renderReport(state: LoopState, events: InterventionEvent[]): string {
  const p = state.persistence;
  const t = state.totals;
  const trajectory = trajectoryOf(state);
  const tokens = t ? `${t.inputTokens ?? 0} in / ${t.outputTokens ?? 0} out` : 'n/a';
  const reason = state.result?.reason ?? state.pendingGate?.title;
  const sections: [string, string[]][] = [
    ['Summary', summaryTable(state, tokens)],
    [
      'Quality trajectory',
      trajectory.length
        ? ['```text', ...qualityBars(trajectory, p?.best), '```']
        : ['No quality measurements (no quality gates ran).'],
    ],
    ['Best vs final', bestVsFinal(p, trajectory[trajectory.length - 1])],
    [
      'Regression events',
      p?.regressions.length ? ['```text', ...p.regressions.flatMap(regressionLines), '```'] : ['None.'],
    ],
    ...(state.questions?.log.length ? [['Questions', questionLines(state)] as [string, string[]]] : []),
    ['Recovery attempts', recoveryTable(p?.recovery.history ?? [])],
    ['Interventions', interventionsTable(events)],
    ['Reinforcement', reinforcementLines(p)],
    ...(p ? [['Agent profile', ['```text', ...profileView(p.profile), '```']] as [string, string[]]] : []),
    [
      'Cost',
      [
        `- Tokens: ${tokens}`,
        `- Cost: $${(t?.costUsd ?? 0).toFixed(4)}`,
        `- Agent time: ${formatMs(t?.agentMs ?? 0)}; check time: ${formatMs(t?.checkMs ?? 0)}; gate time: ${formatMs(t?.gateMs ?? 0)}`,
        `- Agent runs: ${t?.agentRuns ?? 0}; human gates: ${t?.humanGates ?? 0}`,
      ],
    ],
  ];
  const lines = [`# Ralph loop ${state.loopId}: ${state.status}${reason ? ` (${clip(reason, 200)})` : ''}`];
  for (const [title, body] of sections) lines.push('', `## ${title}`, '', ...body);
  return lines.join('\n') + '\n';
}

/** The loop's questions: how many, answered, and each with who asked, the decision, who decided and the wait. */
function questionLines(state: LoopState): string[] {
  const q = state.questions!;
  return [
    `${q.asked} asked (limit ${q.max}), ${q.answered} answered.`,
    '',
    ...q.log.map(
      (e) =>
        `- iteration ${e.iteration} (${e.source}): ${clip(e.text.replace(/\s+/g, ' '), 200)} → ` +
        (e.decision
          ? `${e.decision}${e.by ? ` by ${e.by}` : ''}${e.waitMs !== undefined ? ` after ${formatMs(e.waitMs)}` : ''}` +
            (e.answer ? `: ${clip(e.answer.replace(/\s+/g, ' '), 200)}` : '')
          : 'waiting'),
    ),
  ];
}

/** The report's summary table: iterations, agent, who accepted, tokens, cost, duration, the layer. */
function summaryTable(state: LoopState, tokens: string): string[] {
  const p = state.persistence;
  const t = state.totals;
  return mdTable(
    ['', ''],
    [
      ['Iterations', `${state.iteration}${state.maxIterations ? ` of at most ${state.maxIterations}` : ''}`],
      ['Agent', state.agent || 'n/a'],
      ['Accepted by', state.result?.acceptedBy ?? (state.result ? 'not accepted' : 'still running')],
      ['Tokens', tokens],
      ['Cost', `$${(t?.costUsd ?? 0).toFixed(2)}`],
      ['Duration', wallMs(state) ? formatMs(wallMs(state)) : 'n/a'],
      ['Anti-laziness layer', p ? `on (level ${p.level})` : 'off'],
    ],
  );
}

/** The best iteration (why, where it was restored) against the final one. */
function bestVsFinal(p: LoopState['persistence'], final: TrajectoryPoint | undefined): string[] {
  const bf: string[] = [];
  if (p?.best) {
    bf.push(
      `- **Best:** iteration ${p.best.iteration}, quality ${pct(p.best.quality)}${p.best.verified ? ', verified' : ''} ` +
        `(checkpoint \`${p.best.checkpoint}\`)`,
    );
    bf.push(`- **Why:** ${p.best.reason}`);
    if (p.best.restoredTo) bf.push(`- **Restored to:** ${p.best.restoredTo}`);
  } else bf.push('- **Best:** none selected (no iteration reached the threshold, or selection is off)');
  if (final)
    bf.push(`- **Final:** iteration ${final.n}, quality ${pct(final.quality)}${final.verified ? ', verified' : ''}`);
  return bf;
}

/** PDARE's recovery attempts as a table. */
function recoveryTable(history: NonNullable<LoopState['persistence']>['recovery']['history']): string[] {
  if (!history.length) return ['None.'];
  return mdTable(
    ['Iteration', 'Trigger', 'Diagnosis', 'Confidence', 'Strategy', 'Retry', 'Outcome'],
    history.map((r) => [
      r.iteration,
      r.trigger.join(', '),
      r.diagnosis.cause,
      `${Math.round(r.diagnosis.confidence * 100)}%`,
      r.strategy,
      r.retry,
      r.outcome,
    ]),
  );
}

/** The interventions that were not a PASS, as a table. */
function interventionsTable(events: InterventionEvent[]): string[] {
  const shown = events.filter((e) => e.verdict !== 'PASS');
  if (!shown.length) return ['None.'];
  return mdTable(
    ['Iteration', 'Type', 'Severity', 'Verdict', 'Details'],
    shown.map((e) => [e.iteration, e.type, e.severity, e.verdict, clip(e.details, 120)]),
  );
}

/** The reinforcement level, why, and its changes. */
function reinforcementLines(p: LoopState['persistence']): string[] {
  if (!p) return ['Off.'];
  return [
    `Current level: **${p.level}** (${p.levelReason || 'no reason recorded'})`,
    ...(p.levelHistory.length
      ? [
          '',
          ...mdTable(
            ['Iteration', 'From', 'To', 'Reason'],
            p.levelHistory.map((c) => [c.iteration, c.from, c.to, c.reason]),
          ),
        ]
      : []),
  ];
}

export const clip = (s: string, n: number): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

/** Renders rows as a left-aligned text table with a header line (columns two spaces apart). */
export function textTable(header: string[], rows: (string | number)[][]): string[] {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}

/** A markdown table; cells have pipes escaped and line breaks flattened. */
export function mdTable(header: string[], rows: (string | number)[][]): string[] {
  const cell = (c: string | number): string =>
    String(c)
      .replace(/\|/g, '\\|')
      .replace(/\s*\n\s*/g, ' ')
      .trim() || ' ';
  return [
    `| ${header.map(cell).join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ];
}

/** Points of a trajectory that regressed: a critical regression, or a drop of ≥ {@link QUALITY_DROP} points. */
export function regressed(trajectory: TrajectoryPoint[], i: number): boolean {
  const p = trajectory[i];
  const prev = trajectory[i - 1];
  return !!p.regression || (prev !== undefined && prev.quality - p.quality >= QUALITY_DROP);
}

export function metricsText(m: Metrics): string {
  const parts: string[] = [];
  if (m.tests !== undefined) parts.push(plural(m.tests, 'test'));
  if (m.coverage) parts.push(`${pct(m.coverage.pct)} coverage (${m.coverage.covered}/${m.coverage.total})`);
  if (!parts.length) return 'not measured';
  return `${parts.join(', ')}${m.iteration !== undefined ? ` (iteration ${m.iteration})` : ''}`;
}

export const OFF = 'anti-laziness layer off (persistence disabled, or the loop predates it)';

/** Critical regression types of a state, deduplicated, in order of detection. */
export function criticalTypes(regs: RegressionRecord[]): string[] {
  return [...new Set(regs.filter((r) => r.severity === 'critical').flatMap((r) => r.types))];
}

/** Lines of one regression record: `[reg-001] Iteration 7 - test_deletion (CRITICAL)` and indented details. */
export function regressionLines(r: RegressionRecord): string[] {
  const out = [`[${r.id}] Iteration ${r.iteration} - ${r.types.join(', ')} (${r.severity.toUpperCase()})`];
  out.push(`  - ${r.summary}`);
  if (r.deletedTests?.length) {
    out.push(`  - ${plural(r.deletedTests.length, 'test')} deleted:`);
    for (const t of r.deletedTests.slice(0, 10)) out.push(`      ${t}`);
    if (r.deletedTests.length > 10) out.push(`      … ${r.deletedTests.length - 10} more`);
  }
  out.push(`  - Recovery: ${RECOVERY_TEXT[r.recovery] ?? r.recovery}`);
  if (r.rollbackTo)
    out.push(r.recovery === 'rolled_back' ? `  - Reverted to ${r.rollbackTo}` : `  - Rollback point: ${r.rollbackTo}`);
  return out;
}

export const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;

export type Metrics = AntiLazinessState['baseline'];

// A plain record (not keyed by the union) so a recovery kind added later still renders, as its raw name.
const RECOVERY_TEXT: Record<string, string> = {
  feedback: 'feedback to the agent',
  retry: 'retried with an adapted prompt',
  escalated: 'escalated, awaiting a human',
  approved: 'escalated, human approved the change',
  rejected: 'escalated, human rejected',
  rolled_back: 'escalated, human rejected: changes rolled back',
  aborted: 'escalated, loop aborted',
};

/** Wall time of a loop from its ISO start and last update (0 when unknown). */
export function wallMs(state: LoopState): number {
  const a = Date.parse(state.startedAt);
  const b = Date.parse(state.updatedAt);
  return Number.isFinite(a) && Number.isFinite(b) && b > a ? b - a : 0;
}
