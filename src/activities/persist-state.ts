import fs from 'node:fs';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import type { IterationRecord, LoopState } from '../core/loop-types';
import type { InterventionEvent } from '../core/anti-laziness-types';
import { analytics } from '../core/report';
import { renderReport } from '../views/report';
import { iterationDir, loopDir, stateFile, writeJsonAtomic } from '../state/artifacts';
import { pruneCheckpoints } from './workspace/prune';
import { observeState } from '../telemetry/metrics';
import { logLoopEvent } from '../telemetry/logger';
import { recordSignals } from '../state/hook-log';

/** Input of {@link persistState}. */
export interface PersistStateInput {
  state: LoopState;
  /** The iteration just recorded: also written to its folder as record.json. */
  record?: IterationRecord;
  /** Intervention events to append to `interventions/events.json` (idempotent by id). */
  events?: InterventionEvent[];
}

/** Result of {@link persistState}. */
export interface PersistStateResult {
  stateFile: string;
  /** Written when the loop has ended. */
  reportPath?: string;
}

/** The loop's intervention log: every detection, one JSON array. */
export const eventsFile = (stateDir: string, loopId: string): string =>
  path.join(loopDir(stateDir, loopId), 'interventions', 'events.json');

/** Reads a loop's intervention events; an absent or unreadable file is an empty log. */
export function readEvents(stateDir: string, loopId: string): InterventionEvent[] {
  try {
    const v = JSON.parse(fs.readFileSync(eventsFile(stateDir, loopId), 'utf8')) as unknown;
    return Array.isArray(v) ? (v as InterventionEvent[]) : [];
  } catch {
    return [];
  }
}

/**
 * Writes the loop's human-readable `state.json` (atomically), the iteration's `record.json`, appends intervention
 * events, and the agent's behaviour profile; once the loop has ended, `report.md` and `analytics.json`. Idempotent: a
 * replayed or retried call writes the same content, and an event already in the log is not appended again.
 */
export async function persistState({ state, record, events }: PersistStateInput): Promise<PersistStateResult> {
  const file = stateFile(state.stateDir, state.loopId);
  const dir = loopDir(state.stateDir, state.loopId);
  if (record) writeJsonAtomic(path.join(iterationDir(state.stateDir, state.loopId, record.n), 'record.json'), record);
  let log: InterventionEvent[] | undefined;
  if (events?.length) {
    log = readEvents(state.stateDir, state.loopId);
    const seen = new Set(log.map((e) => e.id));
    const fresh = events.filter((e) => !seen.has(e.id));
    if (fresh.length) {
      log.push(...fresh);
      writeJsonAtomic(eventsFile(state.stateDir, state.loopId), log);
    }
  }
  if (state.persistence) writeJsonAtomic(path.join(dir, 'profile.json'), state.persistence.profile);
  observeState(state, record);
  recordSignals(state);
  if (record)
    logLoopEvent('iteration.recorded', {
      loopId: state.loopId,
      iteration: record.n,
      outcome: record.outcome,
      quality: record.quality,
    });
  writeJsonAtomic(file, state);
  if (!state.result) return { stateFile: file };
  log ??= readEvents(state.stateDir, state.loopId);
  const reportPath = path.join(dir, 'report.md');
  fs.writeFileSync(reportPath, renderReport(state, log));
  writeJsonAtomic(path.join(dir, 'analytics.json'), analytics(state, log));
  await pruneAfterLoop(state);
  return { stateFile: file, reportPath };
}

/**
 * At a loop's end, prunes the checkpoints of the state folder's finished loops whose retention is over (this loop's
 * own too when it keeps them 0 days). Housekeeping: a failure is logged, never the loop's problem.
 */
async function pruneAfterLoop(state: LoopState): Promise<void> {
  try {
    const r = await pruneCheckpoints({ stateDir: state.stateDir });
    for (const p of r.pruned)
      log(`pruned ${p.deleted.length} checkpoint(s) of finished loop ${p.loopId}, kept ${p.kept.join(', ') || 'none'}`);
  } catch (e) {
    log(`checkpoint pruning failed: ${(e as Error).message}`);
  }
}

function log(message: string): void {
  try {
    Context.current().log.info(message);
  } catch {
    // Called outside an activity (tests, tools): nothing to log to.
  }
}
