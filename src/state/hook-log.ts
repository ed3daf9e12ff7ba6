/**
 * The loop's audit trail: `<stateDir>/loops/<loopId>/hook-log.jsonl`, one JSON object per line, for every hook,
 * detector, gate, agent run and check invocation and every human decision and signal, with time, duration and
 * outcome. Written by activities (and the `ralph hook` command); human decisions by persistState from the state's
 * signal log, so they are written once even though the workflow, not a process, received them. Read by `ralph audit`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LoopState } from '../core/loop-types';
import { redactValue } from '../core/redact';
import { knownSecrets } from '../telemetry/secrets';
import { loopDir } from './artifacts';

/** Kinds of entries, for `ralph audit --type`. */
export const HookLogTypes = [
  'agent',
  'check',
  'gate',
  'detector',
  'hook',
  'decision',
  'signal',
  'console',
  'question',
] as const;
/** One of {@link HookLogTypes}. */
export type HookLogType = (typeof HookLogTypes)[number];

/** One line of the audit trail. */
export interface HookLogEntry {
  /** ISO time the invocation started (a decision: when the loop recorded it). */
  at: string;
  loopId: string;
  iteration?: number;
  type: HookLogType;
  /** What ran: the gate's name, the detector type, the hook event and tool, the signal name... */
  name: string;
  /** How it ended: passed/failed, PASS/WARN/BLOCK, allow/warn/deny, applied/ignored, an exit code... */
  outcome: string;
  durationMs?: number;
  /** Who decided (decisions, signals, console actions). */
  by?: string;
  /** One line of detail (the reason, the measured value). */
  detail?: string;
  /** Idempotency key: an entry whose key is already in the log is not written again. */
  key?: string;
}

/** Path of a loop's audit trail. */
export const hookLogFile = (stateDir: string, loopId: string): string =>
  path.join(loopDir(stateDir, loopId), 'hook-log.jsonl');

/**
 * Appends entries, one line each, with a single O_APPEND write (parallel gates never interleave lines). Values are
 * redacted (registered secrets, API-key-looking strings).
 */
export function appendHookLog(stateDir: string, entries: HookLogEntry[]): void {
  if (!entries.length || !stateDir) return;
  const file = hookLogFile(stateDir, entries[0].loopId);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const text = entries.map((e) => JSON.stringify(redactValue(e, knownSecrets()))).join('\n') + '\n';
  fs.appendFileSync(file, text);
}

/** Reads a loop's audit trail, oldest first; a missing file is empty and unparseable lines are skipped. */
export function readHookLog(stateDir: string, loopId: string): HookLogEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(hookLogFile(stateDir, loopId), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const out: HookLogEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line) as HookLogEntry;
      if (v && typeof v.at === 'string' && typeof v.type === 'string') out.push(v);
    } catch {
      // a line cut short by a crash: skip it
    }
  }
  return out;
}

/**
 * Writes the human decisions and signals in the state's signal log that the audit trail doesn't have yet (keyed by
 * name, time and requestor), so a retried persistState or a continued-as-new run writes each once.
 */
export function recordSignals(state: LoopState): void {
  if (!state.stateDir || (!state.signals.length && !state.questions?.log.length)) return;
  const have = new Set(readHookLog(state.stateDir, state.loopId).flatMap((e) => (e.key ? [e.key] : [])));
  const fresh: HookLogEntry[] = [];
  for (const s of state.signals) {
    const key = `signal:${s.name}:${s.at}:${s.by ?? ''}`;
    if (have.has(key)) continue;
    const gateAnswer = s.applied && ['approve', 'reject', 'abort', 'answer'].includes(s.name) && /gate/.test(s.note);
    const decision = gateAnswer ? state.decisions.find((d) => d.at === s.at && d.decision === s.name) : undefined;
    fresh.push({
      at: s.at,
      loopId: state.loopId,
      iteration: decision ? undefined : state.iteration,
      type: decision || gateAnswer ? 'decision' : 'signal',
      name: decision ? `${s.name} gate ${decision.gateId}` : s.name,
      outcome: s.applied ? 'applied' : 'ignored',
      by: s.by,
      detail: [
        s.note,
        s.reason && `reason: ${s.reason}`,
        decision?.guidance && `guidance: ${decision.guidance}`,
        decision?.text && `answer: ${decision.text}`,
      ]
        .filter(Boolean)
        .join('; '),
      key,
    });
  }
  appendHookLog(state.stateDir, [...fresh, ...questionEntries(state, have)]);
}

/** The loop's questions in the audit trail: one entry when asked, one when answered (with the wait), each once. */
function questionEntries(state: LoopState, have: Set<string>): HookLogEntry[] {
  const out: HookLogEntry[] = [];
  for (const q of state.questions?.log ?? []) {
    const asked = `question:${q.gateId}:asked:${q.askedAt}`;
    if (!have.has(asked))
      out.push({
        at: q.askedAt,
        loopId: state.loopId,
        iteration: q.iteration,
        type: 'question',
        name: `${q.source === 'pdare' ? 'pdare clarification' : 'agent question'} gate ${q.gateId}`,
        outcome: 'asked',
        detail: q.text.replace(/\s+/g, ' ').slice(0, 500),
        key: asked,
      });
    const answered = `question:${q.gateId}:closed:${q.askedAt}`;
    if (q.decision && q.answeredAt && !have.has(answered))
      out.push({
        at: q.answeredAt,
        loopId: state.loopId,
        iteration: q.iteration,
        type: 'question',
        name: `${q.decision} gate ${q.gateId}`,
        outcome: q.decision === 'answer' ? 'answered' : q.decision,
        durationMs: q.waitMs,
        by: q.by,
        detail: q.answer?.replace(/\s+/g, ' ').slice(0, 500),
        key: answered,
      });
  }
  return out;
}
