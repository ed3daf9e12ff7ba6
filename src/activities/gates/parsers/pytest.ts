import { unparsed, type GateItem, type ParsedGateOutput } from '../../../core/gates';

/** ANSI colour and style escapes (`--color=yes`, or a TTY). */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g');

/** One `<count> <outcome>` part of pytest's closing line. */
const PART = /^(\d+) (failed|passed|skipped|deselected|xfailed|xpassed|errors?|warnings?|rerun)$/;

/**
 * pytest's closing line once colour and the `=` rule around it are gone: `<parts> in 0.52s`, optionally followed by
 * `(0:01:05)` for long runs. `no tests ran in 0.01s` has no parts.
 */
const SUMMARY = /^(.*?)\s*\bin (\d+(?:\.\d+)?)s(?: \([\d:.]+\))?$/;

type Counts = Record<
  'failed' | 'passed' | 'skipped' | 'deselected' | 'xfailed' | 'xpassed' | 'error' | 'warning' | 'rerun',
  number
>;

/** Parses one candidate closing line into counts, or undefined when it is not one. */
function summaryCounts(line: string): Counts | undefined {
  const bare = line
    .replace(/^=+\s*/, '')
    .replace(/\s*=+$/, '')
    .trim();
  const m = SUMMARY.exec(bare);
  if (!m) return undefined;
  const counts: Counts = {
    failed: 0,
    passed: 0,
    skipped: 0,
    deselected: 0,
    xfailed: 0,
    xpassed: 0,
    error: 0,
    warning: 0,
    rerun: 0,
  };
  const body = m[1].trim();
  if (body === 'no tests ran') return counts;
  if (!body) return undefined;
  for (const part of body.split(/,\s*/)) {
    const p = PART.exec(part.trim());
    if (!p) return undefined;
    // `1 error` / `2 errors`, `1 warning` / `2 warnings`.
    counts[p[2].replace(/s$/, '') as keyof Counts] += Number(p[1]);
  }
  return counts;
}

/**
 * Splits `tests/test_x.py::TestA::test_b[a - b] - AssertionError: ...` into the node id and the message: the message
 * starts at the first ` - ` after the parametrize brackets, if any, are closed.
 */
function splitNodeId(rest: string): { nodeId: string; message: string } {
  let from = 0;
  const open = rest.indexOf('[');
  const firstDash = rest.indexOf(' - ');
  if (open >= 0 && (firstDash < 0 || open < firstDash)) {
    const close = rest.indexOf('] - ', open);
    if (close >= 0) from = close + 1;
  }
  const dash = rest.indexOf(' - ', from);
  return dash < 0
    ? { nodeId: rest.trim(), message: '' }
    : { nodeId: rest.slice(0, dash).trim(), message: rest.slice(dash + 3).trim() };
}

/**
 * Reads pytest's terminal output (`pytest -q`, `-rA`, plain or coloured): the closing line
 * (`3 failed, 10 passed, 2 skipped, 1 xfailed, 1 error in 0.52s`, `no tests ran in 0.01s`, with or without the `===`
 * rule) and the short test summary's `FAILED <nodeid> - <message>` and `ERROR <nodeid> - <message>` lines.
 *
 * Counting, chosen to match what pytest writes to `--junitxml`: errors (collection errors, fixture errors) count as
 * failed; xfailed counts as skipped; xpassed counts as passed (a strict xpass is already reported as failed);
 * deselected, warnings and reruns are not tests of this run. failedNames are the node ids of the FAILED and ERROR lines,
 * each once (a test that fails and then errors in teardown is one name); an ERROR line of a collection error names the
 * module. pytest prints the short summary by default (`-r fE`); with `-rN` counts are exact but names are missing.
 * Without a closing line (truncated output, a crash, not pytest) the result is `parsed: false`. Never throws.
 */
export function parsePytestSummary(text: string): ParsedGateOutput {
  if (typeof text !== 'string' || !text.trim()) return unparsed('empty pytest output');
  const lines = text.replace(ANSI, '').split(/\r?\n/);
  let counts: Counts | undefined;
  for (let i = lines.length - 1; i >= 0 && !counts; i--) counts = summaryCounts(lines[i].trim());
  if (!counts)
    return unparsed(
      'no pytest summary line (`N passed, N failed in Xs`) found: the output is truncated or is not from pytest',
    );

  const failedNames: string[] = [];
  const items: GateItem[] = [];
  for (const raw of lines) {
    const m = /^(FAILED|ERROR) (\S.*)$/.exec(raw.trimEnd());
    if (!m) continue;
    const { nodeId, message } = splitNodeId(m[2]);
    if (!nodeId || failedNames.includes(nodeId)) continue;
    failedNames.push(nodeId);
    const file = nodeId.split('::')[0];
    items.push({
      ...(/\.py$/.test(file) ? { file } : {}),
      code: m[1],
      severity: 'error',
      message: message ? `${nodeId}: ${message}` : `${nodeId}: ${m[1] === 'ERROR' ? 'error' : 'failed'}`,
    });
  }
  const failed = counts.failed + counts.error;
  const passed = counts.passed + counts.xpassed;
  const skipped = counts.skipped + counts.xfailed;
  return {
    parsed: true,
    errors: failed,
    tests: { total: failed + passed + skipped, passed, failed, skipped, failedNames },
    items,
  };
}
