import { unparsed, type CoverageCount, type CoverageSummary, type ParsedGateOutput } from '../../../core/gates';
import { parseXml, xmlDescendants, type XmlElement } from './junit';

/** Which files a coverage parser lists in {@link CoverageSummary.files}. */
export interface CoverageParseOptions {
  /** Files whose line coverage is below this percentage are listed. Default 100: every file not fully covered. */
  fileThreshold?: number;
  /** At most this many files are listed, worst first. Default 50. */
  maxFiles?: number;
}

const METRICS = ['lines', 'statements', 'functions', 'branches'] as const;

/**
 * A covered/total count with its percentage derived from the counts: 100 when total is 0 (nothing to cover), else
 * covered/total rounded down to two decimals (as istanbul does, so 99.999% never shows as 100%). A tool's own pct is
 * never trusted: thresholds must compare counts (`covered * 100 >= threshold * total`), since the pct of an empty
 * metric is 100.
 */
export function coverageCount(covered: number, total: number): CoverageCount {
  // covered * 10000 / total, not covered / total * 10000: 29/100 * 10000 is 2899.9999999999995 in floating point.
  return { covered, total, pct: total === 0 ? 100 : Math.floor((covered * 10000) / total) / 100 };
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/** A file's line coverage: counts when the report has them, else only a rate (`pct`). */
type FileLines = { file: string; covered: number; total: number } | { file: string; pct: number };

/** The files under the threshold, worst line coverage first (then most uncovered lines, then name). */
function filesUnder(files: FileLines[], o: CoverageParseOptions = {}): { file: string; linesPct: number }[] {
  const threshold = o.fileThreshold ?? 100;
  return files
    .map((f) =>
      'pct' in f
        ? { file: f.file, pct: f.pct, missed: 0 }
        : { file: f.file, pct: coverageCount(f.covered, f.total).pct, missed: f.total - f.covered },
    )
    .filter((f) => f.pct < threshold)
    .sort((a, b) => a.pct - b.pct || b.missed - a.missed || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    .slice(0, o.maxFiles ?? 50)
    .map((f) => ({ file: f.file, linesPct: f.pct }));
}

const summaryOf = (coverage: CoverageSummary): ParsedGateOutput => ({ parsed: true, coverage, items: [] });

/**
 * Reads istanbul's `coverage/coverage-summary.json` (jest/vitest/nyc `--coverageReporters=json-summary`): `total`
 * with `lines`, `statements`, `functions`, `branches` as `{total, covered, skipped, pct}`, and one entry per file.
 * pct is recomputed from covered/total (100 when total is 0: see {@link coverageCount}), so thresholds must compare
 * counts. `files` lists the files under `fileThreshold` line coverage, worst first. Extra metrics (`branchesTrue`,
 * whose pct can be the string "Unknown") are ignored. Truncated or malformed JSON, or a missing metric, gives
 * `parsed: false`. Never throws.
 */
export function parseIstanbulSummary(text: string, options?: CoverageParseOptions): ParsedGateOutput {
  if (typeof text !== 'string' || !text.trim()) return unparsed('empty istanbul coverage summary');
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return unparsed(`istanbul coverage summary is not complete JSON (truncated?): ${(e as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    return unparsed('istanbul coverage summary is not a JSON object');
  const entries = doc as Record<string, unknown>;
  const read = (entry: unknown, where: string): Record<(typeof METRICS)[number], CoverageCount> | string => {
    if (!entry || typeof entry !== 'object') return `${where} is not an object`;
    const out: Partial<Record<(typeof METRICS)[number], CoverageCount>> = {};
    for (const k of METRICS) {
      const m = (entry as Record<string, unknown>)[k] as { covered?: unknown; total?: unknown } | undefined;
      if (!m || !isCount(m.covered) || !isCount(m.total) || m.covered > m.total)
        return `${where}.${k} has no valid {covered, total} counts`;
      out[k] = coverageCount(m.covered, m.total);
    }
    return out as Record<(typeof METRICS)[number], CoverageCount>;
  };
  if (!('total' in entries)) return unparsed('istanbul coverage summary has no "total" entry');
  const total = read(entries.total, 'total');
  if (typeof total === 'string') return unparsed(`istanbul coverage summary: ${total}`);
  const files: { file: string; covered: number; total: number }[] = [];
  for (const [file, entry] of Object.entries(entries)) {
    if (file === 'total') continue;
    const f = read(entry, JSON.stringify(file));
    if (typeof f === 'string') return unparsed(`istanbul coverage summary: ${f}`);
    files.push({ file, covered: f.lines.covered, total: f.lines.total });
  }
  return summaryOf({ ...total, files: filesUnder(files, options) });
}

/**
 * Reads an lcov tracefile (`lcov.info`, from istanbul, coverage.py's `coverage lcov`, c8, genhtml's tools): records
 * from `SF:<file>` to `end_of_record` with `LF/LH` (lines), `BRF/BRH` (branches), `FNF/FNH` (functions). A record
 * that omits a summary line has it counted from its `DA`, `BRDA` and `FN`/`FNDA` lines (coverage.py writes none for
 * an empty file). lcov has no statements: statements are the lines. Records are summed as written (lcov's own tools
 * merge repeated files before writing). Output with no record, or whose last record has no `end_of_record`
 * (truncated), gives `parsed: false`. Never throws.
 */
export function parseLcov(text: string, options?: CoverageParseOptions): ParsedGateOutput {
  if (typeof text !== 'string' || !text.trim()) return unparsed('empty lcov report');
  const sums = { lf: 0, lh: 0, brf: 0, brh: 0, fnf: 0, fnh: 0 };
  const files: { file: string; covered: number; total: number }[] = [];
  type Rec = {
    file: string;
    summary: Partial<Record<'LF' | 'LH' | 'BRF' | 'BRH' | 'FNF' | 'FNH', number>>;
    da: Map<number, number>;
    brda: { total: number; hit: number };
    fn: Set<string>;
    fnHit: Set<string>;
  };
  let rec: Rec | undefined;
  let records = 0;
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line) continue;
    if (line === 'end_of_record') {
      if (!rec) return unparsed(`lcov: end_of_record without SF at line ${i + 1}`);
      const s = rec.summary;
      const lf = s.LF ?? rec.da.size;
      const lh = s.LH ?? [...rec.da.values()].filter((h) => h > 0).length;
      const brf = s.BRF ?? rec.brda.total;
      const brh = s.BRH ?? rec.brda.hit;
      const fnf = s.FNF ?? rec.fn.size;
      const fnh = s.FNH ?? rec.fnHit.size;
      if (lh > lf || brh > brf || fnh > fnf)
        return unparsed(`lcov: record for ${rec.file} has more hits than lines, branches or functions`);
      sums.lf += lf;
      sums.lh += lh;
      sums.brf += brf;
      sums.brh += brh;
      sums.fnf += fnf;
      sums.fnh += fnh;
      files.push({ file: rec.file, covered: lh, total: lf });
      records++;
      rec = undefined;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon < 0) return unparsed(`lcov: unexpected line ${i + 1}: ${line.slice(0, 60)}`);
    const key = line.slice(0, colon);
    const value = line.slice(colon + 1);
    if (key === 'TN') continue;
    if (key === 'SF') {
      if (rec) return unparsed(`lcov: record for ${rec.file} has no end_of_record`);
      rec = { file: value, summary: {}, da: new Map(), brda: { total: 0, hit: 0 }, fn: new Set(), fnHit: new Set() };
      continue;
    }
    if (!rec) return unparsed(`lcov: ${key} outside a record at line ${i + 1}`);
    const parts = value.split(',');
    switch (key) {
      case 'LF':
      case 'LH':
      case 'BRF':
      case 'BRH':
      case 'FNF':
      case 'FNH': {
        const n = Number(value);
        if (!/^\d+$/.test(value) || !isCount(n)) return unparsed(`lcov: bad ${key} value at line ${i + 1}`);
        rec.summary[key] = n;
        break;
      }
      case 'DA': {
        const ln = Number(parts[0]);
        const hits = Number(parts[1]);
        if (!Number.isFinite(ln) || !Number.isFinite(hits)) return unparsed(`lcov: bad DA line ${i + 1}`);
        rec.da.set(ln, Math.max(rec.da.get(ln) ?? 0, hits));
        break;
      }
      case 'BRDA': {
        // BRDA:<line>,<block>,<branch>,<taken> where taken is '-' when the block never ran.
        rec.brda.total++;
        const taken = parts[parts.length - 1];
        if (taken !== '-' && Number(taken) > 0) rec.brda.hit++;
        break;
      }
      case 'FN':
        // FN:<line>,<name> (or FN:<start>,<end>,<name> as coverage.py writes it).
        rec.fn.add(parts.slice(parts.length === 3 && /^\d+$/.test(parts[1]) ? 2 : 1).join(','));
        break;
      case 'FNDA':
        if (Number(parts[0]) > 0) rec.fnHit.add(parts.slice(1).join(','));
        break;
      default:
        // VER, FNL, FNA, LN... : summaries above are enough.
        break;
    }
  }
  if (rec) return unparsed(`truncated lcov report: record for ${rec.file} has no end_of_record`);
  if (!records) return unparsed('lcov report has no records');
  return summaryOf({
    lines: coverageCount(sums.lh, sums.lf),
    statements: coverageCount(sums.lh, sums.lf),
    functions: coverageCount(sums.fnh, sums.fnf),
    branches: coverageCount(sums.brh, sums.brf),
    files: filesUnder(files, options),
  });
}

/** Covered/total of `<line>` elements: covered lines, and branch conditions from `condition-coverage="50% (1/2)"`. */
function lineCounts(lines: XmlElement[]): {
  lines: number;
  covered: number;
  branches: number;
  branchesCovered: number;
} {
  const out = { lines: lines.length, covered: 0, branches: 0, branchesCovered: 0 };
  for (const l of lines) {
    if (Number(l.attrs.hits) > 0) out.covered++;
    const c = /\((\d+)\/(\d+)\)/.exec(l.attrs['condition-coverage'] ?? '');
    if (c) {
      out.branchesCovered += Number(c[1]);
      out.branches += Number(c[2]);
    }
  }
  return out;
}

/** A class's own `<lines><line>` (not those under its `<methods>`). */
const ownLines = (cls: XmlElement): XmlElement[] =>
  cls.children.filter((c) => c.name === 'lines').flatMap((ls) => ls.children.filter((l) => l.name === 'line'));

/**
 * Reads a Cobertura XML report (istanbul's `cobertura` reporter, coverage.py's `coverage xml` / pytest-cov
 * `--cov-report=xml`, JaCoCo and gcovr converters): counts from the `<coverage>` attributes `lines-covered`,
 * `lines-valid`, `branches-covered`, `branches-valid`, counted from the `<line>` elements when an attribute is
 * missing; `line-rate`/`branch-rate` are never used for totals (a rate is not a count). Functions come from
 * `<method>` elements (covered when `hits` > 0, or when one of its lines was hit); a report without methods
 * (coverage.py) has 0 functions (pct 100: compare counts). Statements are the lines. Files are the classes' `filename`s
 * (classes of one file are merged), line coverage counted from their `<line>`s (an empty `<lines/>` is 100%, whatever
 * `line-rate` says), or the class's `line-rate` when it has no `<lines>` element. Truncated or malformed XML, or a root that is not
 * `<coverage>`, gives `parsed: false`. Never throws.
 */
export function parseCobertura(text: string, options?: CoverageParseOptions): ParsedGateOutput {
  if (typeof text !== 'string' || !text.trim()) return unparsed('empty cobertura report');
  const doc = parseXml(text);
  if (!doc.ok) return unparsed(`cobertura XML: ${doc.error}`);
  const root = doc.root;
  if (root.name !== 'coverage') return unparsed(`cobertura XML: root element is <${root.name}>, expected <coverage>`);
  const classes = xmlDescendants(root, 'class');
  const byFile = new Map<string, { covered: number; total: number }>();
  const rateOnly = new Map<string, number>();
  const counted = { lines: 0, covered: 0, branches: 0, branchesCovered: 0 };
  for (const cls of classes) {
    const file = cls.attrs.filename ?? cls.attrs.name ?? '';
    if (!cls.children.some((c) => c.name === 'lines')) {
      // No <lines> at all: only the class's line-rate says how covered the file is.
      const rate = Number(cls.attrs['line-rate']);
      if (cls.attrs['line-rate'] !== undefined && Number.isFinite(rate))
        rateOnly.set(file, Math.floor(Math.min(1, Math.max(0, rate)) * 10000 + 1e-6) / 100);
      continue;
    }
    const c = lineCounts(ownLines(cls));
    counted.lines += c.lines;
    counted.covered += c.covered;
    counted.branches += c.branches;
    counted.branchesCovered += c.branchesCovered;
    const f = byFile.get(file) ?? { covered: 0, total: 0 };
    byFile.set(file, { covered: f.covered + c.covered, total: f.total + c.lines });
  }
  const attr = (name: string): number | undefined | null => {
    const v = root.attrs[name];
    if (v === undefined) return undefined;
    const n = Number(v);
    return v.trim() && isCount(n) ? n : null;
  };
  const pick = (coveredAttr: string, totalAttr: string, covered: number, total: number): CoverageCount | string => {
    const c = attr(coveredAttr);
    const t = attr(totalAttr);
    if (c === null || t === null) return `bad ${coveredAttr}/${totalAttr} attribute`;
    const cc = c ?? covered;
    const tt = t ?? total;
    return cc > tt ? `${coveredAttr} > ${totalAttr}` : coverageCount(cc, tt);
  };
  if (attr('lines-valid') === undefined && !classes.length)
    return unparsed('cobertura XML: no lines-valid attribute and no classes');
  const lines = pick('lines-covered', 'lines-valid', counted.covered, counted.lines);
  const branches = pick('branches-covered', 'branches-valid', counted.branchesCovered, counted.branches);
  if (typeof lines === 'string') return unparsed(`cobertura XML: ${lines}`);
  if (typeof branches === 'string') return unparsed(`cobertura XML: ${branches}`);
  const methods = xmlDescendants(root, 'method');
  const methodsHit = methods.filter((m) =>
    m.attrs.hits !== undefined
      ? Number(m.attrs.hits) > 0
      : xmlDescendants(m, 'line').some((l) => Number(l.attrs.hits) > 0),
  ).length;
  return summaryOf({
    lines,
    statements: lines,
    functions: coverageCount(methodsHit, methods.length),
    branches,
    files: filesUnder(
      [
        ...[...byFile.entries()].map(([file, f]) => ({ file, ...f })),
        ...[...rateOnly.entries()].filter(([file]) => !byFile.has(file)).map(([file, pct]) => ({ file, pct })),
      ],
      options,
    ),
  });
}
