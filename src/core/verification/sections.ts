/**
 * The protected parts of multi-purpose files: package.json's scripts and test/lint tool fields, tsconfig's strictness
 * options (and `exclude`), pyproject.toml's and setup.cfg's test, coverage and lint sections. An agent may add a
 * dependency; it may not rewrite the test script. Pure text in, text out.
 */

const base = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** package.json fields that decide how tests, coverage and lint run. */
export const PACKAGE_JSON_FIELDS = [
  'scripts',
  'jest',
  'vitest',
  'mocha',
  'ava',
  'nyc',
  'c8',
  'eslintConfig',
  'prettier',
  'tap',
];

/** tsconfig compilerOptions that make the type check stricter (turning one off weakens the check). */
export const TSCONFIG_OPTIONS = [
  'strict',
  'noImplicitAny',
  'strictNullChecks',
  'strictFunctionTypes',
  'strictBindCallApply',
  'strictPropertyInitialization',
  'noImplicitThis',
  'alwaysStrict',
  'useUnknownInCatchVariables',
  'noUnusedLocals',
  'noUnusedParameters',
  'noImplicitReturns',
  'noFallthroughCasesInSwitch',
  'noUncheckedIndexedAccess',
  'exactOptionalPropertyTypes',
  'noImplicitOverride',
  'noPropertyAccessFromIndexSignature',
  'checkJs',
];

/** INI/TOML section headers (without brackets) holding test, coverage or lint settings. */
const PROTECTED_SECTION =
  /^(?:tool\.(?:pytest|coverage|mypy|ruff|pylint|flake8|tox|nox|pyright|hatch\.envs\.(?:test|tests|default)\.scripts)\b.*|tool:pytest|pytest|coverage:.*|flake8|mypy(?:-.*)?|pylint.*|pycodestyle|tox(?::.*)?|testenv(?::.*)?)$/;

/** Reads JSON that may have comments and trailing commas (tsconfig), or undefined when it isn't JSON. */
export function parseJsonc(text: string): Record<string, unknown> | undefined {
  let out = '';
  let quote = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') quote = false;
    } else if (c === '"') {
      quote = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  try {
    const v: unknown = JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

interface IniSection {
  name: string;
  text: string;
}

/** Splits INI/TOML text at its `[section]` headers; the text before the first header has name ''. */
function iniSections(text: string): IniSection[] {
  const out: IniSection[] = [{ name: '', text: '' }];
  for (const line of text.split(/(?<=\n)/)) {
    const m = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/.exec(line.replace(/\r?\n$/, ''));
    if (m) out.push({ name: m[1].replace(/^["']|["']$/g, ''), text: line });
    else out[out.length - 1].text += line;
  }
  return out;
}

/** What differs between two versions of a multi-purpose file in its protected parts. */
export interface SectionChange {
  /** The protected fields or sections that differ (`scripts.test`, `compilerOptions.strict`, `[tool.pytest.ini_options]`). */
  changed: string[];
  /** Fields the agent added that the verification tree leaves out without calling them protected (new scripts). */
  environment?: string[];
  /** The current version with its protected parts put back to the baseline's; undefined when nothing differs. */
  merged?: string;
}

/**
 * Compares the protected parts of a multi-purpose file (package.json, tsconfig*.json, pyproject.toml, setup.cfg)
 * between the baseline and the current version, and builds the current version with those parts restored. A file
 * that was absent on one side is empty text. When either JSON side can't be parsed, the whole file counts as changed
 * and the baseline is the merged text.
 */
export function compareSections(path: string, baseline: string, current: string): SectionChange {
  const b = base(path);
  if (b === 'package.json' || /^tsconfig[^/]*\.json$/.test(b)) {
    const before = baseline.trim() ? parseJsonc(baseline) : {};
    const after = current.trim() ? parseJsonc(current) : {};
    if (!before || !after)
      return baseline === current ? { changed: [] } : { changed: ['(whole file)'], merged: baseline };
    const changed: string[] = [];
    const environment: string[] = [];
    const merged = structuredCloneJson(after);
    if (b === 'package.json') {
      for (const f of PACKAGE_JSON_FIELDS) {
        const was = before[f];
        const now = after[f];
        if (same(was, now)) continue;
        if (f === 'scripts' && isRecord(was) && isRecord(now)) {
          // A changed or removed script is a protected change. A new one is environment: absent from the verification
          // tree (a new `pretest` runs before the tests), harmless unless the original checks then fail.
          const touched = Object.keys(was).filter((k) => !same(was[k], now[k]));
          const added = Object.keys(now).filter((k) => !(k in was));
          changed.push(...touched.map((k) => `scripts.${k}`));
          environment.push(...added.map((k) => `scripts.${k}`));
          const kept = Object.fromEntries(Object.entries(now).filter(([k]) => k in was));
          merged.scripts = { ...kept, ...Object.fromEntries(touched.map((k) => [k, was[k]])) };
          continue;
        }
        changed.push(f);
        if (was === undefined) delete merged[f];
        else merged[f] = was;
      }
    } else {
      const wasOpts = isRecord(before.compilerOptions) ? before.compilerOptions : {};
      const nowOpts = isRecord(after.compilerOptions) ? after.compilerOptions : {};
      const opts = { ...nowOpts };
      for (const o of TSCONFIG_OPTIONS) {
        if (same(wasOpts[o], nowOpts[o])) continue;
        changed.push(`compilerOptions.${o}`);
        if (wasOpts[o] === undefined) delete opts[o];
        else opts[o] = wasOpts[o];
      }
      if (changed.length) merged.compilerOptions = opts;
      for (const f of ['extends', 'exclude']) {
        if (same(before[f], after[f])) continue;
        changed.push(f);
        if (before[f] === undefined) delete merged[f];
        else merged[f] = before[f];
      }
    }
    if (!changed.length && !environment.length) return { changed };
    return {
      changed,
      ...(environment.length ? { environment } : {}),
      merged: JSON.stringify(merged, null, indentOf(current)) + '\n',
    };
  }
  if (/^(?:pyproject\.toml|setup\.cfg)$/.test(b)) {
    const before = iniSections(baseline).filter((s) => PROTECTED_SECTION.test(s.name));
    const after = iniSections(current);
    const changed: string[] = [];
    const wasByName = new Map(before.map((s) => [s.name, s.text]));
    for (const s of after.filter((x) => PROTECTED_SECTION.test(x.name)))
      if (wasByName.get(s.name)?.trim() !== s.text.trim()) changed.push(`[${s.name}]`);
    const nowNames = new Set(after.map((s) => s.name));
    for (const s of before) if (!nowNames.has(s.name)) changed.push(`[${s.name}]`);
    if (!changed.length) return { changed };
    let merged = after.map((s) => (PROTECTED_SECTION.test(s.name) ? (wasByName.get(s.name) ?? '') : s.text)).join('');
    for (const s of before)
      if (!nowNames.has(s.name)) merged += (merged.endsWith('\n') || !merged ? '' : '\n') + s.text;
    return { changed, merged };
  }
  return baseline === current ? { changed: [] } : { changed: ['(whole file)'], merged: baseline };
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const structuredCloneJson = (v: Record<string, unknown>): Record<string, unknown> =>
  JSON.parse(JSON.stringify(v)) as Record<string, unknown>;
const indentOf = (text: string): string | number => /\n(\t|[ ]+)"/.exec(text)?.[1] ?? 2;
