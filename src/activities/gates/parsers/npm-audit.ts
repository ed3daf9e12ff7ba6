import { Severities, unparsed, type GateItem, type ParsedGateOutput, type Severity } from '../../../core/gates';

/** Severities an advisory can have (every {@link Severity} but `none`). */
const ADVISORY_SEVERITIES = Severities.filter((s): s is Exclude<Severity, 'none'> => s !== 'none');
type AdvisorySeverity = (typeof ADVISORY_SEVERITIES)[number];

const isSeverity = (s: unknown): s is AdvisorySeverity =>
  typeof s === 'string' && (ADVISORY_SEVERITIES as readonly string[]).includes(s);
const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/** How an advisory's severity shows as a gate item: high and critical are errors, low and moderate warnings. */
const itemSeverity = (s: AdvisorySeverity): GateItem['severity'] =>
  s === 'critical' || s === 'high' ? 'error' : s === 'info' ? 'info' : 'warning';

/** The highest severity with a count above zero, `none` when every count is zero. */
function maxOf(counts: Partial<Record<Severity, number>>): Severity {
  for (let i = Severities.length - 1; i > 0; i--) if ((counts[Severities[i]] ?? 0) > 0) return Severities[i];
  return 'none';
}

/** The GHSA id in an advisory URL (`https://github.com/advisories/GHSA-xxxx-xxxx-xxxx`), if any. */
const ghsa = (url: unknown): string | undefined =>
  typeof url === 'string' ? /GHSA(?:-[0-9a-z]{4}){3}/i.exec(url)?.[0] : undefined;

/** An item with the rank of its severity in {@link Severities}, for sorting. */
type Ranked = { rank: number; item: GateItem };

/** Orders items most severe first, then by message, so the verdict's first items are the ones that matter. */
const bySeverity = (a: Ranked, b: Ranked): number =>
  b.rank - a.rank || (a.item.message < b.item.message ? -1 : a.item.message > b.item.message ? 1 : 0);

/** The parsed result: counts, their highest severity, and the items most severe first. */
const done = (counts: Partial<Record<Severity, number>>, items: Ranked[]): ParsedGateOutput => ({
  parsed: true,
  audit: { maxSeverity: maxOf(counts), counts },
  items: items.sort(bySeverity).map((r) => r.item),
});

/** The v7+ report (`auditReportVersion: 2`): one entry per vulnerable package. */
function parseV2(doc: Record<string, unknown>): ParsedGateOutput {
  const vulns = doc.vulnerabilities;
  if (!isRecord(vulns)) return unparsed('npm audit JSON: "vulnerabilities" is not an object');
  const items: Ranked[] = [];
  const fromMap: Partial<Record<Severity, number>> = {};
  for (const [key, v] of Object.entries(vulns)) {
    if (!isRecord(v) || !isSeverity(v.severity))
      return unparsed(`npm audit JSON: vulnerability ${key} has no known severity`);
    const name = typeof v.name === 'string' ? v.name : key;
    const via = Array.isArray(v.via) ? v.via : [];
    // `via` holds advisories (objects with a title) for the package itself, and names of vulnerable dependencies.
    const titles = [
      ...new Set(
        via
          .filter(isRecord)
          .map((a) => (typeof a.title === 'string' ? a.title : ''))
          .filter(Boolean),
      ),
    ];
    const deps = [...new Set(via.filter((a): a is string => typeof a === 'string'))];
    const ids = [
      ...new Set(
        via.filter(isRecord).map((a) => ghsa(a.url) ?? (a.source !== undefined ? String(a.source) : undefined)),
      ),
    ].filter((x): x is string => !!x);
    const range = typeof v.range === 'string' ? ` ${v.range}` : '';
    const what = [titles.join('; '), deps.length ? `via ${deps.join(', ')}` : ''].filter(Boolean).join(' ');
    fromMap[v.severity] = (fromMap[v.severity] ?? 0) + 1;
    items.push({
      rank: Severities.indexOf(v.severity),
      item: {
        ...(ids.length ? { code: ids.join(' ') } : {}),
        severity: itemSeverity(v.severity),
        message: `${name}${range} (${v.severity}): ${what || 'vulnerable'}${v.fixAvailable === false ? ' (no fix available)' : ''}`,
      },
    });
  }
  const meta = isRecord(doc.metadata) ? doc.metadata.vulnerabilities : undefined;
  let counts: Partial<Record<Severity, number>>;
  if (meta === undefined) counts = fromMap;
  else {
    if (!isRecord(meta)) return unparsed('npm audit JSON: metadata.vulnerabilities is not an object');
    counts = {};
    for (const s of ADVISORY_SEVERITIES) {
      const n = meta[s] ?? 0;
      if (!isCount(n)) return unparsed(`npm audit JSON: metadata.vulnerabilities.${s} is not a count`);
      counts[s] = n;
    }
  }
  // Never report less than the map shows: a metadata block that disagrees must not hide a vulnerable package.
  for (const s of ADVISORY_SEVERITIES) counts[s] = Math.max(counts[s] ?? 0, fromMap[s] ?? 0);
  return done(counts, items);
}

/** The v6 report (npm 6, and pnpm's `audit --json`): one entry per advisory. */
function parseV6(doc: Record<string, unknown>): ParsedGateOutput {
  const advisories = doc.advisories;
  if (!isRecord(advisories)) return unparsed('npm audit JSON (v6): "advisories" is not an object');
  const items: Ranked[] = [];
  const fromMap: Partial<Record<Severity, number>> = {};
  for (const [id, a] of Object.entries(advisories)) {
    if (!isRecord(a) || !isSeverity(a.severity))
      return unparsed(`npm audit JSON (v6): advisory ${id} has no known severity`);
    const name = typeof a.module_name === 'string' ? a.module_name : '(unknown package)';
    const range = typeof a.vulnerable_versions === 'string' ? ` ${a.vulnerable_versions}` : '';
    fromMap[a.severity] = (fromMap[a.severity] ?? 0) + 1;
    items.push({
      rank: Severities.indexOf(a.severity),
      item: {
        code: ghsa(a.url) ?? String(a.github_advisory_id ?? a.id ?? id),
        severity: itemSeverity(a.severity),
        message: `${name}${range} (${a.severity}): ${typeof a.title === 'string' ? a.title : 'vulnerable'}`,
      },
    });
  }
  const meta = isRecord(doc.metadata) ? doc.metadata.vulnerabilities : undefined;
  const counts: Partial<Record<Severity, number>> = {};
  for (const s of ADVISORY_SEVERITIES) {
    const n = isRecord(meta) ? (meta[s] ?? 0) : 0;
    if (!isCount(n)) return unparsed(`npm audit JSON (v6): metadata.vulnerabilities.${s} is not a count`);
    // v6 metadata counts vulnerable paths, the map counts advisories: take the larger so neither hides the other.
    counts[s] = Math.max(n, fromMap[s] ?? 0);
  }
  return done(counts, items);
}

/**
 * Reads `npm audit --json`. The npm 7+ report (`auditReportVersion: 2`): counts from `metadata.vulnerabilities`
 * (`info`, `low`, `moderate`, `high`, `critical`: vulnerable packages by their worst advisory), and one item per
 * entry of the `vulnerabilities` map with its severity, affected range, advisory titles and the dependencies it is
 * vulnerable through (`via`), most severe first. The npm 6 report (`advisories` by id, also what `pnpm audit --json`
 * writes) is read too, one item per advisory. `maxSeverity` is the highest severity with a count above zero, `none`
 * when all are zero. npm's error JSON (`{"error": {"code": "ENOLOCK", ...}}`, or the registry's refusal of the audit
 * endpoint), truncated JSON and unknown shapes give `parsed: false`: an audit that did not run never passes. Never
 * throws.
 */
export function parseNpmAuditJson(text: string): ParsedGateOutput {
  if (typeof text !== 'string' || !text.trim()) return unparsed('empty npm audit output');
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return unparsed(`npm audit output is not complete JSON (truncated?): ${(e as Error).message}`);
  }
  if (!isRecord(doc)) return unparsed('npm audit output is not a JSON object');
  if (isRecord(doc.error)) {
    const code = typeof doc.error.code === 'string' ? `${doc.error.code}: ` : '';
    // The registry's refusal has an empty error.summary and says what happened in the top-level message.
    const summary =
      [doc.error.summary, doc.message].find((m): m is string => typeof m === 'string' && !!m.trim()) ?? 'unknown error';
    return unparsed(`npm audit failed: ${code}${summary}`);
  }
  if ('auditReportVersion' in doc || 'vulnerabilities' in doc) {
    if (doc.auditReportVersion !== undefined && doc.auditReportVersion !== 2)
      return unparsed(`npm audit JSON: unsupported auditReportVersion ${String(doc.auditReportVersion)}`);
    return parseV2(doc);
  }
  if ('advisories' in doc) return parseV6(doc);
  if (typeof doc.message === 'string') return unparsed(`npm audit failed: ${doc.message}`);
  return unparsed('npm audit JSON has neither "vulnerabilities" (npm 7+) nor "advisories" (npm 6)');
}
