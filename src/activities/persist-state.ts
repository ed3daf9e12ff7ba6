import path from 'node:path';
import type { IterationRecord, LoopState } from '../core/loop-types';
import { iterationDir, stateFile, writeJsonAtomic } from './artifacts';

/** Input of {@link persistState}. */
export interface PersistStateInput {
  state: LoopState;
  /** The iteration just recorded: also written to its folder as record.json. */
  record?: IterationRecord;
}

/** Result of {@link persistState}. */
export interface PersistStateResult {
  stateFile: string;
}

/**
 * Writes the loop's human-readable `state.json` (atomically) and the iteration's `record.json`. Idempotent: a
 * replayed or retried call writes the same content.
 */
export async function persistState({ state, record }: PersistStateInput): Promise<PersistStateResult> {
  const file = stateFile(state.stateDir, state.loopId);
  if (record) writeJsonAtomic(path.join(iterationDir(state.stateDir, state.loopId, record.n), 'record.json'), record);
  writeJsonAtomic(file, state);
  return { stateFile: file };
}
