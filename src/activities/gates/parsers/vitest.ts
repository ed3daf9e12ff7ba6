import type { ParsedGateOutput } from '../../../core/gates';
import { parseJestShapedJson, type JestJsonOptions } from './jest';

/**
 * Parses `vitest run --reporter=json` output, the jest-compatible report (see `parseJestJson`), with vitest's
 * differences: skipped tests have status `skipped`, `numTotalTestSuites` counts describe blocks (unused here), there is
 * no `numRuntimeErrorTestSuites` (a file that failed to import is an entry with status `failed`, a one-line message and
 * no assertion: one failed test), and a run that finds no test prints `success: false` (counted in `errors`).
 *
 * Vitest 3 prints `success: true` and exits 1 when a test leaves an unhandled error behind: the JSON cannot show it, so
 * the gate must also require exit code 0. It never throws.
 */
export function parseVitestJson(text: string, options: JestJsonOptions = {}): ParsedGateOutput {
  return parseJestShapedJson('vitest', text, options);
}
