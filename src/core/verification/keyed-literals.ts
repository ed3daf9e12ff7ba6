/**
 * Special cases keyed on the tests' own values, whatever literal form they take in the product code: an added
 * condition that compares against two or more values which appear TOGETHER on one line of a test file (a
 * `parametrize` or `it.each` row, an assertion), as strings, numbers, tuples or arrays alike. `(0, 1, 0)`, `[0, 1, 0]`,
 * `{0, 1, 0}` and `"0.1.0"` are the same value here, so `self.to_tuple()[:3] == (0, 1, 0) and other... == (0, 1, 1)`
 * is found from the test row `((0, 1, 0), (0, 1, 1))`. A single constant that equals a test value is not flagged
 * (thresholds, units and real constants do); two test inputs of one row tested together in one condition are. Pure.
 */
import { detection, type Detection } from '../detections';
import type { FileDiff } from '../detectors/unified-diff';
import { isProductCode, newLines, type TestText } from './diff-lines';

const SIMPLE = String.raw`(?:'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|-?\d+(?:\.\d+)?)`;
const COMPOUND = new RegExp(String.raw`[([{]\s*(${SIMPLE}(?:\s*,\s*${SIMPLE})+)\s*,?\s*[)\]}]`, 'g');
const SCALAR = new RegExp(SIMPLE, 'g');

const unquote = (s: string): string => s.replace(/^(['"])([\s\S]*)\1$/, '$2');

/**
 * The values of a line in one canonical form: a tuple or array of simple literals as its elements joined by `.`
 * (`(0, 1, 0)` → `0.1.0`), a string as its text, a number as itself; trivial ones (empty, one character, -2..2) left
 * out. The elements of a compound value are not listed again on their own.
 */
export function canonicalValues(line: string): string[] {
  const out: string[] = [];
  let rest = line;
  for (const m of line.matchAll(COMPOUND)) {
    const parts = [...m[1].matchAll(SCALAR)].map((p) => unquote(p[0]));
    out.push(parts.join('.'));
    rest = rest.replace(m[0], ' ');
  }
  for (const m of rest.matchAll(SCALAR)) {
    const v = unquote(m[0]);
    if (/^-?\d+(?:\.\d+)?$/.test(m[0]) ? Math.abs(Number(v)) > 2 : v.length >= 2) out.push(v);
  }
  return [...new Set(out)];
}

/** A line that decides by equality: `==`, `===`, `is`, `in (...)`, `case`. */
const EQUALITY = /===?|!==?|\bis\b|\bcase\b|\bin\s*[([{]/;

/** Flags the special cases described in the module's comment. Critical. */
export function detectKeyedLiterals(diff: readonly FileDiff[], tests: readonly TestText[]): Detection[] {
  const rows: Set<string>[] = [];
  for (const t of tests)
    for (const line of t.text.split('\n')) {
      const v = canonicalValues(line);
      if (v.length >= 2) rows.push(new Set(v));
    }
  if (!rows.length) return [];
  const out: Detection[] = [];
  for (const f of diff) {
    if (!isProductCode(f.path)) continue;
    const evidence: string[] = [];
    for (const l of newLines(f)) {
      if (/^\s*(?:\/\/|#|\*)/.test(l.text) || !EQUALITY.test(l.text)) continue;
      const values = canonicalValues(l.text.replace(/^.*?\b(?:if|elif|case|when|return)\b/, ''));
      if (values.length < 2) continue;
      const row = rows.find((r) => values.filter((v) => r.has(v)).length >= 2);
      if (row) {
        const shared = values.filter((v) => row.has(v));
        evidence.push(
          `${f.path}${l.line ? `:${l.line}` : ''} ${l.text.trim()}  (one test row holds ${shared.join(' and ')})`,
        );
      }
    }
    if (evidence.length)
      out.push(
        detection(
          'special_cased_test_input',
          'critical',
          `${f.path}: the implementation tests for values that one test row holds together, instead of computing the answer.`,
          evidence.slice(0, 10),
        ),
      );
  }
  return out;
}
