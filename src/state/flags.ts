/**
 * Flags humans put on accepted loops whose work was bad after all (`ralph flag <id> --reason`): the false negatives
 * of `ralph stats`. A finished workflow takes no signal and no search attribute, so a flag is a line of
 * `<stateDir>/loops/<loopId>/flags.jsonl`, next to the loop's state.json, appended and never rewritten.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LoopState } from '../core/loop-types';
import type { LoopFlag } from '../core/stats';
import { loopDir } from './artifacts';

/** Path of a loop's flags. */
export const flagsFile = (stateDir: string, loopId: string): string =>
  path.join(loopDir(stateDir, loopId), 'flags.jsonl');

/** Longest reason kept. */
const MAX_REASON = 2000;

/** Appends one flag as one line (one write on an O_APPEND file: concurrent flags never interleave). */
export async function appendFlag(stateDir: string, flag: LoopFlag): Promise<string> {
  const file = flagsFile(stateDir, flag.loopId);
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const reason = flag.reason.length > MAX_REASON ? `${flag.reason.slice(0, MAX_REASON - 1)}…` : flag.reason;
  const line = Buffer.from(JSON.stringify({ ...flag, reason }) + '\n');
  const fh = await fs.promises.open(file, 'a');
  try {
    await fh.write(line, 0, line.length);
  } finally {
    await fh.close();
  }
  return file;
}

const isFlag = (v: unknown): v is LoopFlag => {
  const f = v as Partial<LoopFlag> | null;
  return !!f && typeof f === 'object' && typeof f.loopId === 'string' && typeof f.reason === 'string';
};

/**
 * A loop's flags, oldest first: none when the loop's folder exists without flags, `undefined` when the folder itself
 * is not here (the loop ran on another host, or its state folder was removed), so stats can say it could not look.
 * Lines that are not whole flags (a hand edit) are skipped.
 */
export function readFlags(stateDir: string, loopId: string): LoopFlag[] | undefined {
  let text: string;
  try {
    text = fs.readFileSync(flagsFile(stateDir, loopId), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return fs.existsSync(loopDir(stateDir, loopId)) ? [] : undefined;
  }
  const out: LoopFlag[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line) as unknown;
      if (isFlag(v)) out.push(v);
    } catch {
      continue;
    }
  }
  return out;
}

/**
 * A loop's flags from the state folder its state names (its `stateDir`, else its result's state file), oldest first;
 * `undefined` when that folder is not readable here (the loop ran on another host, say).
 */
export function loopFlags(s: Pick<LoopState, 'loopId' | 'stateDir' | 'result'>): LoopFlag[] | undefined {
  // `<stateDir>/loops/<id>/state.json` → `<stateDir>`.
  const dir = s.stateDir || (s.result?.stateFile ? path.dirname(path.dirname(path.dirname(s.result.stateFile))) : '');
  if (!dir) return undefined;
  try {
    return readFlags(dir, s.loopId);
  } catch {
    return undefined;
  }
}
