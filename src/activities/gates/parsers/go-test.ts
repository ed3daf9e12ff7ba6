import { unparsed, type GateItem, type ParsedGateOutput } from '../../../core/gates';

/** One line of `go test -json` (cmd/test2json's TestEvent, plus the build events of Go 1.24+). */
interface GoTestEvent {
  Action?: string;
  Package?: string;
  Test?: string;
  Output?: string;
  Elapsed?: number;
  /** On a package's `fail` when its test binary did not build (Go 1.24+). */
  FailedBuild?: string;
  /** On `build-output` / `build-fail` events (Go 1.24+). */
  ImportPath?: string;
}

interface TestState {
  result?: 'pass' | 'fail' | 'skip';
  output: string[];
}

interface PackageState {
  tests: Map<string, TestState>;
  result?: 'pass' | 'fail' | 'skip';
  output: string[];
  failedBuild: boolean;
}

/** Most output lines kept in one failing test's item. */
const MAX_OUTPUT_LINES = 20;

/** Lines of `go test -v` framing, not what a test said. */
const FRAMING = /^\s*(?:=== (?:RUN|PAUSE|CONT|NAME)\s|--- (?:PASS|FAIL|SKIP):\s)/;

/** A compiler or vet message: `file.go:12:5: message` (column optional). */
const COMPILER = /^\s*(\S+\.go):(\d+)(?::(\d+))?: (.+)$/;

/** Where a failing test's output points: a `x_test.go:12:` line it logged, else the first `.go:N` stack frame. */
function locate(lines: string[]): Pick<GateItem, 'file' | 'line'> {
  for (const re of [/(\S+_test\.go):(\d+)/, /(\S+\.go):(\d+)/]) {
    for (const l of lines) {
      const m = re.exec(l);
      if (m && !/\/go\/src\/(?:testing|runtime)\//.test(m[1])) return { file: m[1], line: Number(m[2]) };
    }
  }
  return {};
}

/**
 * Reads `go test -json ./...`: one JSON event per line (`run`/`pass`/`fail`/`skip`/`output`, with Package, Test and
 * Elapsed), plus the `build-output`/`build-fail` events of Go 1.24+. Lines that are not JSON (stderr merged in, or
 * the compiler errors that Go before 1.24, or `GODEBUG=gotestjsonbuildtext=1`, prints as text) are tolerated; compiler
 * messages among them become items.
 *
 * Counting: only leaf tests count. A test with subtests (`TestA` with `TestA/sub`) is not counted itself, so a table
 * test with three cases is three tests, and a failing subtest is not counted twice through its parent. A parent that
 * failed while none of its subtests did (a `t.Error` after `t.Run`) is counted as one failed test, so no failure
 * disappears. A leaf test with no result when its package ended (a crash, a timeout) counts as failed. A package that
 * failed with no failing test (`FAIL pkg [build failed]`, `[setup failed]`, a `TestMain` exit or a panic outside any
 * test) counts as one failed test named `pkg [build failed]` (or `[setup failed]`, `[failed]`), so a build failure
 * never passes as "no tests ran". Packages without test files are ignored.
 *
 * failedNames and ids are `pkg.TestName` (`example.com/m/strs.TestReverse/unicode`); ids list every counted test.
 * Items: one per failed test with what it logged (file:line from its `x_test.go:12:` lines), and one per compiler
 * error. Fails closed: no events at all, a cut-off JSON line, or a package that never reached its final
 * pass/fail/skip event (truncated output) gives `parsed: false`. Never throws.
 */
export function parseGoTestJson(text: string): ParsedGateOutput {
  if (typeof text !== 'string' || !text.trim()) return unparsed('empty go test -json output');
  const reader = new GoTestReader();
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  for (const [index, raw] of lines.entries()) {
    const problem = reader.read(raw, index === lines.length - 1);
    if (problem) return unparsed(problem);
  }
  if (!reader.events) return unparsed('no go test -json events found: the output is not from `go test -json`');
  const unfinished = [...reader.packages.entries()].filter(([, p]) => !p.result);
  if (unfinished.length)
    return unparsed(`truncated go test -json output: package ${unfinished[0][0]} has no final pass/fail event`);
  return new GoTestTally(reader.buildErrors).of(reader.packages);
}

/** Reads `go test -json` lines (and the text lines Go < 1.24 mixes in) into per-package test states. */
class GoTestReader {
  readonly packages = new Map<string, PackageState>();
  /** Compiler errors by package (`''` when the package is unknown), from build-output events or text lines. */
  readonly buildErrors = new Map<string, GateItem[]>();
  events = 0;
  private textPackage = '';

  /** Reads one line; returns why the output cannot be trusted, if it cannot. */
  read(raw: string, last: boolean): string | undefined {
    const line = raw.trim();
    let ev: GoTestEvent | undefined;
    if (line.startsWith('{')) {
      try {
        const v: unknown = JSON.parse(line);
        if (v && typeof v === 'object' && !Array.isArray(v)) ev = v as GoTestEvent;
      } catch {
        if (last) return 'truncated go test -json output: the last line is cut off';
        return `go test -json: malformed event line: ${line.slice(0, 80)}`;
      }
    }
    if (!ev) this.textLine(raw, line);
    else if (typeof ev.Action === 'string') {
      this.events++;
      this.event(ev);
    }
    return undefined;
  }

  private pkg(name: string): PackageState {
    let p = this.packages.get(name);
    if (!p) this.packages.set(name, (p = { tests: new Map(), output: [], failedBuild: false }));
    return p;
  }

  /** Text mode (Go < 1.24, or GODEBUG=gotestjsonbuildtext=1): `# pkg`, compiler lines, `FAIL pkg [build failed]`. */
  private textLine(raw: string, line: string): void {
    const header = /^# (\S+)/.exec(line);
    const f = /^FAIL\s+(\S+)\s+\[(?:build|setup) failed\]/.exec(line);
    if (header) this.textPackage = header[1];
    else if (f) {
      const p = this.pkg(f[1]);
      p.failedBuild = true;
      p.output.push(line);
      // Go < 1.24 prints this line instead of any JSON event for the package.
      p.result ??= 'fail';
    } else this.compilerLine(raw, this.textPackage);
  }

  private event(ev: GoTestEvent): void {
    if (ev.Action === 'build-output') {
      if (typeof ev.Output === 'string')
        this.compilerLine(ev.Output.replace(/\n$/, ''), (ev.ImportPath ?? '').split(' ')[0]);
      return;
    }
    if (ev.Action === 'build-fail' || typeof ev.Package !== 'string') return;
    const p = this.pkg(ev.Package);
    const testName = typeof ev.Test === 'string' && ev.Test ? ev.Test : undefined;
    if (!testName) {
      if (ev.Action === 'output' && typeof ev.Output === 'string') {
        p.output.push(ev.Output.replace(/\n$/, ''));
        if (/\[(?:build|setup) failed\]/.test(ev.Output)) p.failedBuild = true;
      } else if (ev.Action === 'pass' || ev.Action === 'fail' || ev.Action === 'skip') {
        p.result = ev.Action;
        if (ev.FailedBuild) p.failedBuild = true;
      }
      return;
    }
    let t = p.tests.get(testName);
    if (!t) p.tests.set(testName, (t = { output: [] }));
    if (ev.Action === 'output' && typeof ev.Output === 'string') t.output.push(ev.Output.replace(/\n$/, ''));
    else if (ev.Action === 'pass' || ev.Action === 'fail' || ev.Action === 'skip') t.result = ev.Action;
  }

  private compilerLine(line: string, pkgName: string): void {
    const m = COMPILER.exec(line);
    if (!m) return;
    const list = this.buildErrors.get(pkgName) ?? [];
    list.push({
      file: m[1],
      line: Number(m[2]),
      ...(m[3] ? { column: Number(m[3]) } : {}),
      code: 'build',
      severity: 'error',
      message: m[4].trim(),
    });
    this.buildErrors.set(pkgName, list);
  }
}

/** Counts the tests of the packages read, with an item per failed test and per package that failed to build. */
class GoTestTally {
  private passed = 0;
  private failed = 0;
  private skipped = 0;
  private readonly failedNames: string[] = [];
  private readonly ids: string[] = [];
  private readonly items: GateItem[] = [];

  constructor(private readonly buildErrors: Map<string, GateItem[]>) {}

  of(packages: Map<string, PackageState>): ParsedGateOutput {
    for (const [pkgName, p] of packages) this.tallyPackage(pkgName, p);
    // Compiler errors not tied to a failed package above (unknown package, or text merged from stderr).
    for (const list of this.buildErrors.values()) this.items.push(...list);
    const { passed, failed, skipped, failedNames, ids } = this;
    return {
      parsed: true,
      errors: failed,
      tests: { total: passed + failed + skipped, passed, failed, skipped, failedNames, ids },
      items: this.items,
    };
  }

  private tallyPackage(pkgName: string, p: PackageState): void {
    // Every name that has subtests, and every name with a subtest that did not pass or skip: one pass over the
    // prefixes of each name (`A/b/c` → `A`, `A/b`) rather than comparing every pair of tests.
    const parents = new Set<string>();
    const failedBelow = new Set<string>();
    for (const [name, t] of p.tests) {
      const ok = t.result === 'pass' || t.result === 'skip';
      for (let i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
        parents.add(name.slice(0, i));
        if (!ok) failedBelow.add(name.slice(0, i));
      }
    }
    const failedBefore = this.failed;
    for (const [name, t] of p.tests) {
      const full = `${pkgName}.${name}`;
      if (parents.has(name)) {
        if (t.result === 'fail' && !failedBelow.has(name)) {
          this.ids.push(full);
          this.failTest(full, t.output);
        }
        continue;
      }
      this.ids.push(full);
      if (t.result === 'pass') this.passed++;
      else if (t.result === 'skip') this.skipped++;
      else this.failTest(full, t.output);
    }
    if (p.result === 'fail' && this.failed === failedBefore) this.failPackage(pkgName, p);
  }

  private failTest(name: string, output: string[]): void {
    this.failed++;
    this.failedNames.push(name);
    const said = output.filter((l) => l.trim() && !FRAMING.test(l)).map((l) => l.trim());
    const shown = said.slice(0, MAX_OUTPUT_LINES);
    const more = said.length > shown.length ? `\n… ${said.length - shown.length} more lines` : '';
    this.items.push({
      ...locate(said),
      code: 'FAIL',
      severity: 'error',
      message: `${name}${shown.length ? `: ${shown.join('\n')}${more}` : ': failed'}`,
    });
  }

  /** A package that failed with no failed test: its build or setup failed, or it failed on its own. */
  private failPackage(pkgName: string, p: PackageState): void {
    const why = !p.failedBuild
      ? 'failed'
      : p.output.some((l) => l.includes('[setup failed]'))
        ? 'setup failed'
        : 'build failed';
    const full = `${pkgName} [${why}]`;
    this.ids.push(full);
    this.failed++;
    this.failedNames.push(full);
    const compiler = this.buildErrors.get(pkgName) ?? [];
    this.buildErrors.delete(pkgName);
    const own = p.output.filter((l) => l.trim() && !/^(?:FAIL|ok)\b/.test(l.trim()));
    if (compiler.length) this.items.push(...compiler);
    else
      this.items.push({
        ...locate(own),
        code: 'FAIL',
        severity: 'error',
        message: `${full}${own.length ? `: ${own.slice(0, MAX_OUTPUT_LINES).join('\n')}` : ''}`,
      });
  }
}
