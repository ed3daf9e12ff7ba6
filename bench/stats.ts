/** Small statistics helpers for the benchmark scripts. */
import fs from 'node:fs';
import path from 'node:path';

/** The p-th percentile (0-100) of values, nearest-rank. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/**
 * Writes a benchmark's figures to bench/results/<name>.json (repo root, from dist/bench too), or to
 * `$BENCH_RESULTS_DIR/<name>.json` when set (the CI smoke test, so committed results are not overwritten), and
 * returns the path.
 */
export function writeResult(name: string, data: unknown): string {
  let root = __dirname;
  while (!fs.existsSync(path.join(root, 'package.json'))) root = path.dirname(root);
  const dir = process.env.BENCH_RESULTS_DIR || path.join(root, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
  return file;
}

/** Least-squares slope of y over x; NaN with fewer than two distinct x. */
export function regressionSlope(points: number[][]): number {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p[0], 0) / n;
  const my = points.reduce((a, p) => a + p[1], 0) / n;
  const sxx = points.reduce((a, p) => a + (p[0] - mx) ** 2, 0);
  const sxy = points.reduce((a, p) => a + (p[0] - mx) * (p[1] - my), 0);
  return sxx > 0 ? sxy / sxx : NaN;
}
