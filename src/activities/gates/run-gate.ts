import fs from 'node:fs';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import { CancelledFailure } from '@temporalio/common';
import { DEFAULT_FORMATS, type GateSpec } from '../../config/gates-config';
import { evaluateGate, type GateThresholds, type GateVerdict } from '../../core/gate-rules';
import { unparsed, type ParsedGateOutput } from '../../core/gates';
import { iterationDir } from '../../state/artifacts';
import { readTail, runLogged } from '../process';
import { parserFor } from './parsers';
import { diffTestInventory, type TestId } from '../../core/detectors/test-inventory';
import { observeGate } from '../../telemetry/metrics';
import { logLoopEvent } from '../../telemetry/logger';
import { appendHookLog } from '../../state/hook-log';
import { beat } from '../liveness';

/** Input of {@link runGate}. */
export interface RunGateInput {
  loopId: string;
  iteration: number;
  workspace: string;
  stateDir: string;
  gate: GateSpec;
  thresholds: GateThresholds;
  /** The previous run's test ids file (test gates): the runner-side test inventory diff compares against it. */
  previousIds?: string;
}

/** Largest output a parser reads (the end of it). */
const PARSE_LIMIT = 16 * 1024 * 1024;

/**
 * Runs one quality gate in the workspace: its command (in its own process group, with its own timeout), then the
 * parser of its output format (stdout, or its report file), then the verdict against its thresholds. Fails closed:
 * a timeout, a command that can't start or output that can't be parsed never passes. Raw output goes to
 * `iterations/NNN/gates/<name>.log`.
 */
export async function runGate(input: RunGateInput): Promise<GateVerdict> {
  const ctx = Context.current();
  const { gate } = input;
  const verdict = await runGateIn({
    ...input,
    logDir: path.join(iterationDir(input.stateDir, input.loopId, input.iteration), 'gates'),
    onHeartbeat: (p) => beat(ctx, p),
    signal: ctx.cancellationSignal,
  });
  // Metrics and the audit trail count the loop's own gate runs (a verification tree's reruns are the verifier's).
  observeGate({ ...verdict, kind: gate.kind });
  appendHookLog(input.stateDir, [
    {
      at: new Date(Date.now() - verdict.durationMs).toISOString(),
      loopId: input.loopId,
      iteration: input.iteration,
      type: 'gate',
      name: gate.name,
      outcome: verdict.passed ? 'passed' : 'failed',
      durationMs: verdict.durationMs,
      detail: verdict.expected ? `${verdict.actual} (expected ${verdict.expected})` : verdict.actual,
    },
  ]);
  logLoopEvent('gate.finished', {
    loopId: input.loopId,
    iteration: input.iteration,
    gate: gate.name,
    passed: verdict.passed,
    ms: verdict.durationMs,
  });
  return verdict;
}

/** Where and how {@link runGateIn} runs a gate. */
export interface RunGateInInput {
  /** Root the gate's `cwd` is relative to: the workspace, or a verification tree. */
  workspace: string;
  gate: GateSpec;
  thresholds: GateThresholds;
  previousIds?: string;
  /** Folder of the gate's logs and reports. */
  logDir: string;
  /** Variables added to the gate's environment (the verification tree's bytecode prefix). */
  env?: Record<string, string>;
  onHeartbeat?: (p: unknown) => void;
  signal?: AbortSignal;
}

/**
 * Runs one gate in a folder and judges it (what {@link runGate} does in the workspace). Throws CancelledFailure when
 * `signal` aborts it.
 */
export async function runGateIn(input: RunGateInInput): Promise<GateVerdict> {
  const { gate } = input;
  const dir = input.logDir;
  const outputPath = path.join(dir, `${gate.name}.log`);
  const cwd = path.resolve(input.workspace, gate.cwd);
  const reportPath = gate.report ? path.resolve(cwd, gate.report) : undefined;
  // A stale report from an earlier run must never be read as this run's result.
  if (reportPath) fs.rmSync(reportPath, { force: true });
  const r = await runLogged({
    file: gate.command,
    args: [],
    shell: true,
    cwd,
    env: { ...(process.env as Record<string, string>), CI: 'true', FORCE_COLOR: '0', NO_COLOR: '1', ...input.env },
    stdoutPath: outputPath,
    stderrPath: path.join(dir, `${gate.name}.stderr.log`),
    deadlineMs: gate.timeoutSeconds * 1000,
    heartbeatEveryMs: 2000,
    onHeartbeat: input.onHeartbeat,
    signal: input.signal,
  });
  if (r.cancelled) throw new CancelledFailure(`gate ${gate.name} cancelled`);
  const format = gate.format ?? DEFAULT_FORMATS[gate.kind];
  let parsed: ParsedGateOutput;
  if (reportPath && !fs.existsSync(reportPath))
    parsed = unparsed(`report ${gate.report} was not written by \`${gate.command}\``);
  else {
    const text = reportPath ? readTail(reportPath, PARSE_LIMIT) : readTail(outputPath, PARSE_LIMIT);
    parsed = format === 'exit-code' ? { parsed: true, items: [] } : parserFor(format)(text);
    if (reportPath) fs.copyFileSync(reportPath, path.join(dir, `${gate.name}.report${path.extname(reportPath)}`));
  }
  // Tools report absolute paths (eslint, stack traces): show them workspace-relative, as the agent sees them.
  parsed = {
    ...parsed,
    items: parsed.items.map((i) =>
      i.file && path.isAbsolute(i.file) && i.file.startsWith(input.workspace + path.sep)
        ? { ...i, file: path.relative(input.workspace, i.file) }
        : i,
    ),
  };
  const verdict = evaluateGate(
    {
      name: gate.name,
      kind: gate.kind,
      exitCode: r.exitCode,
      timedOut: r.timedOut,
      startError: r.spawnError,
      parsed,
      outputPath,
      durationMs: r.durationMs,
    },
    input.thresholds,
  );
  if (parsed.parsed && (parsed.tests || parsed.coverage))
    verdict.metrics = { tests: parsed.tests?.total, failing: parsed.tests?.failed, coverage: parsed.coverage?.lines };
  // Error counts of the kinds whose errors a human compares at a regression gate (type, lint, build errors).
  if (parsed.parsed && parsed.errors !== undefined && ['typecheck', 'lint', 'build'].includes(gate.kind))
    verdict.metrics = { ...verdict.metrics, errors: parsed.errors };
  const ids = parsed.parsed ? parsed.tests?.ids : undefined;
  if (ids?.length) {
    verdict.idsPath = path.join(dir, `${gate.name}.ids.json`);
    fs.writeFileSync(verdict.idsPath, JSON.stringify(ids));
    const before = input.previousIds ? readIds(input.previousIds) : undefined;
    if (before) verdict.detections = [runnerInventory(before, ids, input.workspace)];
  }
  return verdict;
}

function readIds(file: string): string[] | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    return Array.isArray(v) ? (v as string[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Test inventory from the runner's own listing: ids before vs after. A vanished test only counts when the runner
 * still reported tests from its file (or the file is gone from the workspace): a file that fails to load (syntax
 * error) reports none, and that is a failing suite for the gates, not a deletion.
 */
function runnerInventory(before: string[], after: string[], workspace: string) {
  const split = (id: string): TestId => {
    const i = id.indexOf(': ');
    return i < 0 ? { file: '', name: id } : { file: id.slice(0, i), name: id.slice(i + 2) };
  };
  const b = before.map(split);
  const a = after.map(split);
  const reporting = new Set(a.map((t) => t.file));
  const known = (t: TestId): boolean =>
    reporting.has(t.file) || (t.file !== '' && !fs.existsSync(path.resolve(workspace, t.file)));
  return diffTestInventory(b.filter(known), a).detection;
}
