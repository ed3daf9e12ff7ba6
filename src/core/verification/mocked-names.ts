/**
 * A test that checks a mock instead of the code: a new or changed test file replaces a name with a mock or a patch,
 * then asserts on what that very name returns (`jest.mock('./index', () => ({ ...requireActual, isDuration: ... }))`
 * then `expect(isDuration('1h')).toBe(true)`; `vi.mock('../src', ...)`; `monkeypatch.setattr(semver.Version,
 * "is_stable", ...)` then `assert v.is_stable() is expected`). Mocking a dependency and asserting on the code that
 * uses it, or asserting that a mock was called (`expect(query).toHaveBeenCalled()`), is not flagged. Pure.
 */
import { detection, type Detection } from '../detections';
import type { FileDiff } from '../detectors/unified-diff';
import { isTestFile } from '../detectors/validation-bypass';
import { newLines } from './diff-lines';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Names a block of mock code provides: the keys of a jest/vi factory, the attribute a patch sets. */
function mockedNames(lines: string[]): string[] {
  const text = lines.join('\n');
  const names = new Set<string>();
  for (const m of text.matchAll(
    /\b(?:jest|vi)\.(?:mock|doMock)\s*\(\s*(['"`])(\.[^'"`]*)\1\s*,([\s\S]*?)\n\s*\}\)\s*\)\s*;?/g,
  ))
    for (const k of m[3].matchAll(/(?:^|[\s{,])([A-Za-z_$][\w$]*)\s*:/g)) names.add(k[1]);
  for (const m of text.matchAll(
    /\b(?:monkeypatch\.setattr|(?:mocker\.)?patch\.object|mock\.patch\.object)\s*\(\s*[\w.]+\s*,\s*(['"])(\w+)\1/g,
  ))
    names.add(m[2]);
  for (const m of text.matchAll(/\b(?:monkeypatch\.setattr|(?:mocker\.|mock\.)?patch)\s*\(\s*(['"])[\w.]+\.(\w+)\1/g))
    names.add(m[2]);
  return [...names];
}

/** Flags the tests described in the module's comment. Critical. */
export function detectMockedNames(diff: readonly FileDiff[]): Detection[] {
  const out: Detection[] = [];
  for (const f of diff) {
    if (!isTestFile(f.path)) continue;
    const added = newLines(f).map((l) => l.text);
    if (!added.length) continue;
    const names = mockedNames(added);
    const hits: string[] = [];
    for (const n of names) {
      // Asserting on what the mocked name returns: expect(n(...)), expect(x.n(...)), assert ... n(...) / .n(...).
      const asserted = new RegExp(
        String.raw`\bexpect\s*\(\s*(?:await\s+)?(?:[\w$.]+\.)?${escape(n)}\s*\(|^\s*assert\b.*(?:\.|\b)${escape(n)}\s*\(`,
      );
      const line = added.find((l) => asserted.test(l));
      if (line) hits.push(`${n}: ${line.trim()}`);
    }
    if (hits.length)
      out.push(
        detection(
          'mock_of_subject',
          'critical',
          `${f.path}: the test replaces ${hits.length === 1 ? 'a name' : 'names'} with a mock and then asserts on what the mock returns, so it checks the mock instead of the code.`,
          hits.slice(0, 10),
        ),
      );
  }
  return out;
}
