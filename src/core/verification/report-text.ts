/**
 * The failure text inside machine-readable test reports (what quality gates run: `jest --json`, `vitest
 * --reporter=json`, `go test -json`, JUnit XML), laid out as the runner's console would print it, so the failure
 * excerpt reads a gate's log like a check's. Pure.
 */

/** A report's failures as console-like text, and which runner wrote the report. */
export interface ReportText {
  runner: 'jest' | 'vitest' | 'pytest' | 'go-test' | 'unknown';
  /** `  ● name` blocks (jest's layout) with a `Tests:` line, or go test's own output. */
  text: string;
}

interface AssertionJson {
  fullName?: string;
  title?: string;
  status?: string;
  failureMessages?: unknown[];
}
interface SuiteJson {
  name?: string;
  status?: string;
  message?: string;
  assertionResults?: AssertionJson[];
}

const MAX_BLOCKS = 5;
const indent = (s: string): string =>
  s
    .split('\n')
    .map((l) => (l.trim() ? `    ${l}` : ''))
    .join('\n');

/** A failure message without its stack beyond the first frame (the rest is the runner's own code). */
function withoutStack(message: string): string {
  const lines = message.split('\n');
  const at = lines.findIndex((l) => /^\s+at /.test(l));
  return (at < 0 ? lines : lines.slice(0, at + 1)).join('\n');
}

/**
 * jest's or vitest's JSON: a `● name` block per failed test (or failed suite), then the counts; the counts alone when
 * no test failed (a threshold failed the gate).
 */
function testResultsText(d: Record<string, unknown>, preamble: string[]): ReportText | undefined {
  const suites = d.testResults;
  if (!Array.isArray(suites)) return undefined;
  const runner = 'openHandles' in d || 'numRuntimeErrorTestSuites' in d ? 'jest' : 'vitest';
  const blocks: string[] = [];
  for (const s of suites as SuiteJson[]) {
    const failed = (s.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed) {
      const message = a.failureMessages?.find((m): m is string => typeof m === 'string') ?? '';
      blocks.push(`  ● ${a.fullName ?? a.title ?? '?'}\n\n${indent(withoutStack(message))}\n`);
    }
    // A suite that failed to run (syntax error, import failure) has no failed tests, only its message.
    if (!failed.length && s.status === 'failed' && s.message)
      blocks.push(`  ● ${s.name ?? 'test suite'} failed to run\n\n${indent(withoutStack(s.message))}\n`);
  }
  const n = (k: string): number => (typeof d[k] === 'number' ? (d[k] as number) : 0);
  const counts = `Tests:       ${n('numFailedTests')} failed, ${n('numPassedTests')} passed, ${n('numTotalTests')} total`;
  if (!blocks.length) return { runner: 'unknown', text: [...preamble, counts].join('\n') };
  return { runner, text: [...blocks.slice(0, MAX_BLOCKS), counts].join('\n') };
}

/** go test -json: the `Output` of every event, in order (what `go test` prints). */
function goJsonText(lines: string[]): ReportText | undefined {
  const out: string[] = [];
  for (const l of lines) {
    if (!l.startsWith('{')) continue;
    try {
      const e = JSON.parse(l) as { Action?: unknown; Output?: unknown };
      if (typeof e.Action === 'string' && typeof e.Output === 'string') out.push(e.Output.replace(/\n$/, ''));
    } catch {
      // A line cut mid-write: the others still tell the story.
    }
  }
  return out.length ? { runner: 'go-test', text: out.join('\n') } : undefined;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string): string =>
  s.replace(/&(#x?[0-9a-f]+|\w+);/gi, (m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(parseInt(e.slice(1).replace(/^x/i, ''), /^#x/i.test(e) ? 16 : 10));
    return ENTITIES[e] ?? m;
  });

/** JUnit XML: a `● class name` block per `<failure>` or `<error>`, with its message and text. */
function junitText(text: string): ReportText | undefined {
  if (!/<testsuites?\b/.test(text)) return undefined;
  const blocks: string[] = [];
  const attr = (s: string, k: string): string => decode(new RegExp(`\\b${k}="([^"]*)"`).exec(s)?.[1] ?? '');
  for (const chunk of text.split(/<testcase\b/).slice(1)) {
    if (blocks.length >= MAX_BLOCKS) break;
    const close = chunk.indexOf('>');
    const attrs = chunk.slice(0, close);
    // A self-closed `<testcase ... />` passed.
    if (close < 0 || attrs.endsWith('/')) continue;
    const body = chunk.slice(close + 1).split('</testcase>')[0];
    const f = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/.exec(body);
    if (!f) continue;
    const name = [attr(attrs, 'classname'), attr(attrs, 'name')].filter(Boolean).join(' › ');
    const details = decode(f[3] ?? '').trim();
    const message = attr(f[2], 'message');
    blocks.push(
      `  ● ${name}\n\n${indent(details && details.includes(message) ? details : [message, details].join('\n'))}\n`,
    );
  }
  if (!blocks.length) return undefined;
  const runner = /<testsuites? name="pytest/.test(text) ? 'pytest' : /jest/i.test(text) ? 'jest' : 'unknown';
  return { runner, text: blocks.join('\n') };
}

/** The failures inside a JSON or XML test report, as console-like text; undefined when the text is not a report. */
export function reportText(lines: string[]): ReportText | undefined {
  const start = lines.findIndex((l) => /^\s*[{<]/.test(l));
  if (start < 0) return undefined;
  const rest = lines.slice(start);
  if (rest[0].trim().startsWith('<')) return junitText(rest.join('\n'));
  try {
    const d = JSON.parse(rest.join('\n')) as unknown;
    if (d && typeof d === 'object' && !Array.isArray(d))
      return testResultsText(d as Record<string, unknown>, lines.slice(0, start));
  } catch {
    // Not one JSON document: go test -json writes one event a line.
  }
  return goJsonText(rest);
}
