/**
 * How every benchmark ends: one line per target it measured, then, as the last line, either that every target was met
 * or `MISS bench:<name>: ...` naming the missed ones, with exit code 1 (so CI and scripts see a miss without reading).
 */

/** A benchmark's targets by name: met, missed, or undefined when this run did not measure it. */
export type Verdicts = Record<string, boolean | undefined>;

/** Prints the verdict lines (the MISS line last) and sets a non-zero exit code on a miss; true when all were met. */
export function finishBench(name: string, verdicts: Verdicts, out: (line: string) => void = console.log): boolean {
  const measured = Object.entries(verdicts).filter((e): e is [string, boolean] => e[1] !== undefined);
  const missed = measured.filter(([, ok]) => !ok).map(([k]) => k);
  for (const [k, ok] of measured) out(`  target ${k}: ${ok ? 'met' : 'MISSED'}`);
  if (missed.length) {
    process.exitCode = 1;
    out(`MISS bench:${name}: ${missed.length} of ${measured.length} targets missed (${missed.join(', ')})`);
    return false;
  }
  out(`bench:${name}: ${measured.length ? `all ${measured.length} targets met` : 'no target measured in this run'}`);
  return true;
}
