/**
 * What the detectors of cheating the checks cannot see share: which files are product code, the lines a diff added
 * (moved lines aside), and the tests' texts. Pure.
 */
import type { FileDiff } from '../detectors/unified-diff';
import { isTestFile } from '../detectors/validation-bypass';
import { conventionKind, isCodeFile } from './protected-set';

/** A test file's text (its current version): where the tests' literal inputs and expected values come from. */
export interface TestText {
  path: string;
  text: string;
}

/** Source code the product ships: a code file that is no test, test data or test/CI/lint configuration. */
export const isProductCode = (p: string): boolean => isCodeFile(p) && !isTestFile(p) && conventionKind(p) === undefined;

/** Lines added by a file's diff that were not just moved within it, with their index in `added`. */
export function newLines(f: FileDiff): { text: string; index: number; line?: number }[] {
  const removed = new Map<string, number>();
  for (const r of f.removed) removed.set(r.trim(), (removed.get(r.trim()) ?? 0) + 1);
  const out: { text: string; index: number; line?: number }[] = [];
  f.added.forEach((text, index) => {
    const left = removed.get(text.trim()) ?? 0;
    if (left > 0) removed.set(text.trim(), left - 1);
    else out.push({ text, index, line: f.addedLineNumbers?.[index] });
  });
  return out;
}
