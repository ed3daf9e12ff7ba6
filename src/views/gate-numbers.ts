/** The before/after numbers of a regression or stuck-loop gate as a small text table (`ralph status`, `ralph watch`). */
import { numbersHeader, numbersRows, type GateNumbers } from '../core/gate-numbers';

/** The numbers as aligned lines (header first); none when the gate has no numbers. */
export function gateNumbersLines(g: GateNumbers | undefined): string[] {
  if (!g) return [];
  const rows = [numbersHeader(g), ...numbersRows(g)];
  if (rows.length === 1) return [];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}
