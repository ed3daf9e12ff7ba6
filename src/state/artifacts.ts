import fs from 'node:fs';
import path from 'node:path';

/** Folder of one loop's state and artifacts: `<stateDir>/loops/<loopId>`. */
export const loopDir = (stateDir: string, loopId: string): string =>
  path.join(stateDir, 'loops', loopId.replace(/[^A-Za-z0-9._-]/g, '_'));

/** Folder of one iteration's artifacts: `<loopDir>/iterations/<NNN>`. */
export const iterationDir = (stateDir: string, loopId: string, n: number): string =>
  path.join(loopDir(stateDir, loopId), 'iterations', String(n).padStart(3, '0'));

/** The loop's human-readable state file. */
export const stateFile = (stateDir: string, loopId: string): string =>
  path.join(loopDir(stateDir, loopId), 'state.json');

/**
 * Writes JSON atomically: a temp file in the same folder, then rename over the target. A crash leaves either the old
 * file or the new one, never half of one. No fsync: these files mirror state whose source of truth is the workflow
 * history, and the next write after a power loss rewrites them; fsync cost ~10 ms per iteration (bench:loop).
 */
export function writeJsonAtomic(file: string, data: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n');
  fs.renameSync(tmp, file);
}

/** Suffix for a file of a re-run (usage limit) or a retried attempt, so no earlier output is overwritten. */
export const attemptSuffix = (run: number, attempt: number): string =>
  `${run > 1 ? `.run${run}` : ''}${attempt > 1 ? `.attempt${attempt}` : ''}`;
