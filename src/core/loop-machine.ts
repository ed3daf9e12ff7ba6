/**
 * The loop's state and its rules, without I/O or Temporal: the workflow owns one {@link LoopMachine}, feeds it
 * iteration results and human signals, and asks it what to do next. Deterministic: time comes in as arguments.
 */
import {
  EVENTS_KEPT,
  RECORDS_KEPT,
  TERMINAL_STATUSES,
  emptyTotals,
  type GateDecision,
  type GateOption,
  type HumanGate,
  type IterationRecord,
  type LoopPhase,
  type LoopResult,
  type LoopState,
  type LoopStatus,
} from './loop-types';
import { hostIdProblem, type HostBinding, type HostMove } from './hosts';
import { QUESTIONS_KEPT, type PendingAnswer, type QuestionEntry } from './questions';

/** Payload of the approve/reject/abort/pause/resume signals; every field optional (plain `temporal workflow signal`). */
export interface DecisionPayload {
  /** Who decided (shown in status and reports). */
  by?: string;
  reason?: string;
  /** Answer only this gate; a decision naming another gate is ignored. */
  gateId?: string;
  /** Dedupe key: a second signal with the same id is ignored. */
  requestId?: string;
  /** `reject`: guidance for the agent's next prompt. */
  guidance?: string;
  /** `reject`: how many more iterations to grant. */
  extraIterations?: number;
  /** `answer`: the answer to the agent's question (`{"text": "..."}`). */
  text?: string;
}

/** Human-facing signal names; each equals its constant's name. */
export const SignalNames = ['approve', 'reject', 'abort', 'pause', 'resume', 'answer'] as const;
/** One of {@link SignalNames}. */
export type SignalName = (typeof SignalNames)[number];

/** What continue-as-new carries from one run to the next. */
export interface LoopCarry {
  state: LoopState;
  seenRequestIds: string[];
}

/** Options the machine needs from the loop input. */
export interface MachineOptions {
  loopId: string;
  maxIterations: number;
  agent: string;
  workspace: string;
  stateDir: string;
  defaultExtraIterations: number;
  labels: Record<string, string>;
}

const clip = (s: string | undefined, n: number): string | undefined =>
  s === undefined ? undefined : s.length > n ? s.slice(0, n) + '…' : s;

/** The loop's state machine: pure rules over {@link LoopState}. */
export class LoopMachine {
  readonly state: LoopState;
  private readonly seen: string[];
  private abortRequest?: { by?: string; reason?: string };

  constructor(opts: MachineOptions, now: string, carry?: LoopCarry) {
    this.defaultExtra = opts.defaultExtraIterations;
    if (carry) {
      this.state = { ...carry.state, run: carry.state.run + 1, updatedAt: now };
      this.seen = [...carry.seenRequestIds];
    } else {
      this.state = {
        loopId: opts.loopId,
        status: 'running',
        phase: 'starting',
        iteration: 0,
        maxIterations: opts.maxIterations,
        agent: opts.agent,
        workspace: opts.workspace,
        stateDir: opts.stateDir,
        paused: false,
        records: [],
        decisions: [],
        signals: [],
        totals: emptyTotals(),
        pendingFeedback: [],
        run: 0,
        startedAt: now,
        updatedAt: now,
        labels: opts.labels,
      };
      this.seen = [];
    }
  }

  private readonly defaultExtra: number;

  /** True once the loop has ended. */
  get finished(): boolean {
    return TERMINAL_STATUSES.includes(this.state.status);
  }

  /** True when an abort arrived outside a gate and the loop must stop at the next safe point. */
  get abortRequested(): boolean {
    return this.abortRequest !== undefined;
  }

  /** The abort request (who and why), if any. */
  get abortInfo(): { by?: string; reason?: string } | undefined {
    return this.abortRequest;
  }

  private observer?: (state: LoopState) => void;

  /**
   * Calls `fn` after every change of the state (phase, gate, iteration, signal, end): the workflow mirrors the state
   * into the Temporal UI's current details with it. One observer; a later call replaces it.
   */
  observe(fn: (state: LoopState) => void): void {
    this.observer = fn;
  }

  /** Stamps a change and tells the observer. */
  private touch(now: string): void {
    this.state.updatedAt = now;
    this.observer?.(this.state);
  }

  /** Carry for continue-as-new. */
  carry(): LoopCarry {
    return { state: this.state, seenRequestIds: this.seen.slice(-100) };
  }

  /** Sets the phase (and the status that follows from it). */
  setPhase(phase: LoopPhase, now: string): void {
    this.state.phase = phase;
    if (!this.finished) {
      this.state.status =
        phase === 'awaiting_human'
          ? 'awaiting_human'
          : phase === 'paused'
            ? 'paused'
            : phase === 'sleeping_usage_limit'
              ? 'sleeping'
              : 'running';
    }
    this.touch(now);
  }

  /** Number of the iteration that runs next (1-based). */
  get nextIteration(): number {
    return this.state.iteration + 1;
  }

  /** True when the iteration budget is used up. */
  get budgetExhausted(): boolean {
    return this.state.iteration >= this.state.maxIterations;
  }

  /** Takes the feedback, guidance and answer for the next prompt; they stay in state until the iteration is recorded. */
  promptInputs(): { feedback: string[]; guidance?: string; answer?: PendingAnswer } {
    return {
      feedback: [...this.state.pendingFeedback],
      guidance: this.state.pendingGuidance,
      answer: this.state.pendingAnswer,
    };
  }

  /** Questions still allowed in this loop (`max` from the input; the count survives continue-as-new). */
  questionsLeft(max: number): number {
    return Math.max(0, max - (this.state.questions?.asked ?? 0));
  }

  /** Counts a question that opens gate `gateId` (call right after {@link openGate}). */
  recordQuestion(q: Omit<QuestionEntry, 'askedAt'>, max: number, now: string): void {
    const qs = (this.state.questions ??= { max, asked: 0, answered: 0, log: [] });
    qs.max = max;
    qs.asked += 1;
    qs.log.push({ ...q, askedAt: now });
    if (qs.log.length > QUESTIONS_KEPT) qs.log.splice(0, qs.log.length - QUESTIONS_KEPT);
  }

  /** The question log's entry of a decision at a question gate: how and when it was closed, by whom, the wait. */
  private closeQuestion(d: GateDecision): void {
    const q = this.state.questions?.log.find((e) => e.gateId === d.gateId && !e.decision);
    if (!q) return;
    q.decision = d.decision;
    q.answeredAt = d.at;
    q.by = d.by;
    if (d.text) q.answer = clip(d.text, 500);
    const ms = Date.parse(d.at) - Date.parse(q.askedAt);
    if (Number.isFinite(ms) && ms >= 0) q.waitMs = ms;
    if (d.decision === 'answer') this.state.questions!.answered += 1;
  }

  /** Records a finished iteration, its totals and the feedback for the next one. */
  recordIteration(record: IterationRecord, feedback: string[], now: string): void {
    const s = this.state;
    s.iteration = record.n;
    s.records.push(record);
    if (s.records.length > RECORDS_KEPT) s.records.splice(0, s.records.length - RECORDS_KEPT);
    const t = s.totals;
    t.iterations += 1;
    t.agentMs += record.agent.durationMs;
    if (record.agent.claimed) t.claims += 1;
    if (record.agent.failure || (record.agent.exitCode !== null && record.agent.exitCode !== 0)) t.agentFailures += 1;
    if (record.check) {
      t.checksRun += 1;
      t.checkMs += record.check.durationMs;
      if (record.check.passed) t.checksPassed += 1;
      else t.checksFailed += 1;
    }
    if (record.agent.usage) {
      t.inputTokens += record.agent.usage.inputTokens ?? 0;
      t.outputTokens += record.agent.usage.outputTokens ?? 0;
      t.costUsd = Math.round((t.costUsd + (record.agent.usage.costUsd ?? 0)) * 1e6) / 1e6;
    }
    s.pendingFeedback = feedback;
    s.pendingGuidance = undefined;
    s.pendingAnswer = undefined;
    this.touch(now);
  }

  /** Records gate verdicts of an iteration (totals and per-gate stats); returns the new rejection streak. */
  recordGates(
    verdicts: { name: string; kind?: string; passed: boolean; durationMs: number }[],
    rejected: boolean,
  ): number {
    const s = this.state;
    const t = s.totals;
    s.gateStats ??= {};
    for (const v of verdicts) {
      const g = (s.gateStats[v.name] ??= { runs: 0, passed: 0, ms: 0 });
      if (v.kind) g.kind = v.kind;
      if (g.runs === 0) g.firstTryPassed = v.passed;
      g.runs += 1;
      g.ms += v.durationMs;
      if (v.passed) g.passed += 1;
      t.gateRuns = (t.gateRuns ?? 0) + 1;
      t.gateMs = (t.gateMs ?? 0) + v.durationMs;
    }
    if (rejected) {
      t.rejections = (t.rejections ?? 0) + 1;
      s.rejectionStreak = (s.rejectionStreak ?? 0) + 1;
    }
    return s.rejectionStreak ?? 0;
  }

  /** Resets the rejection streak (a human chose to continue). */
  resetRejections(): void {
    this.state.rejectionStreak = 0;
  }

  /** Counts one agent run (including re-runs after a usage limit). */
  countAgentRun(): void {
    this.state.totals.agentRuns += 1;
  }

  /** Records a durable usage-limit sleep. */
  recordUsageLimitWait(ms: number, until: string, now: string): void {
    this.state.totals.usageLimitWaits += 1;
    this.state.totals.usageLimitWaitMs += ms;
    this.state.sleepingUntil = until;
    this.setPhase('sleeping_usage_limit', now);
  }

  /** Clears the usage-limit sleep marker. */
  wake(now: string): void {
    this.state.sleepingUntil = undefined;
    this.setPhase('agent', now);
  }

  /** Opens a human gate; the workflow then waits for {@link pendingDecision}. */
  openGate(gate: Omit<HumanGate, 'id' | 'openedAt' | 'iteration'>, now: string): HumanGate {
    const iteration = this.state.iteration;
    const opened: HumanGate = { ...gate, id: `${gate.reason}@${iteration}`, iteration, openedAt: now };
    this.state.pendingGate = opened;
    this.state.totals.humanGates += 1;
    this.lastDecision = undefined;
    this.setPhase('awaiting_human', now);
    return opened;
  }

  private lastDecision?: GateDecision;

  /** The decision that closed the last gate, once one arrived. */
  get pendingDecision(): GateDecision | undefined {
    return this.lastDecision;
  }

  /**
   * Applies a human signal. Never throws: a signal that makes no sense now (no pending gate, loop finished,
   * duplicate) is recorded as ignored with the reason, and the state is unchanged.
   */
  applySignal(name: SignalName, raw: unknown, now: string): { applied: boolean; note: string } {
    const p = normalisePayload(raw);
    const result = this.decide(name, p, now);
    this.state.signals.push({
      name,
      at: now,
      by: clip(p.by, 100),
      reason: clip(p.reason, 500),
      applied: result.applied,
      note: result.note,
    });
    if (this.state.signals.length > EVENTS_KEPT) this.state.signals.splice(0, this.state.signals.length - EVENTS_KEPT);
    if (p.requestId && result.applied) this.seen.push(p.requestId);
    this.touch(now);
    return result;
  }

  private decide(name: SignalName, p: DecisionPayload, now: string): { applied: boolean; note: string } {
    const s = this.state;
    if (this.finished) return { applied: false, note: `ignored: the loop already ended (${s.status})` };
    if (p.requestId && this.seen.includes(p.requestId))
      return { applied: false, note: `ignored: duplicate of request ${p.requestId}` };
    const gate = s.pendingGate;
    if (name === 'pause') {
      if (s.paused) return { applied: false, note: 'ignored: already paused' };
      s.paused = true;
      return { applied: true, note: 'paused: the loop stops before the next iteration' };
    }
    if (name === 'resume') {
      if (!s.paused) return { applied: false, note: 'ignored: not paused' };
      s.paused = false;
      return { applied: true, note: 'resumed' };
    }
    if (name === 'abort' && !gate) {
      if (this.abortRequest) return { applied: false, note: 'ignored: abort already requested' };
      this.abortRequest = { by: p.by, reason: p.reason };
      return { applied: true, note: 'abort requested: the running agent is cancelled and the loop ends' };
    }
    if (!gate) return { applied: false, note: `ignored: no human gate is pending (phase ${s.phase})` };
    if (p.gateId && p.gateId !== gate.id)
      return { applied: false, note: `ignored: names gate ${p.gateId}, but the pending gate is ${gate.id}` };
    if (!gate.options.includes(name as GateOption))
      return { applied: false, note: `ignored: gate ${gate.id} does not offer ${name}` };
    const decision: GateDecision = {
      gateId: gate.id,
      decision: name as GateOption,
      by: clip(p.by, 100),
      reason: clip(p.reason, 2000),
      at: now,
    };
    if (name === 'answer') {
      const text = p.text ?? p.reason;
      if (!text) return { applied: false, note: 'ignored: an answer needs text, e.g. {"text": "keep the v1 API"}' };
      decision.text = clip(text, 4000);
      s.pendingAnswer = {
        by: decision.by ?? 'a human',
        question: gate.question?.text ?? gate.title,
        text: decision.text!,
      };
      // The answer must reach the agent: a question at the last iteration gets one more.
      if (s.iteration >= s.maxIterations) s.maxIterations = s.iteration + 1;
    }
    if (name === 'reject') {
      const extra = p.extraIterations ?? this.defaultExtra;
      decision.extraIterations = extra;
      decision.guidance = clip(p.guidance ?? p.reason, 4000);
      if (s.iteration + extra > s.maxIterations) s.maxIterations = s.iteration + extra;
      if (decision.guidance) s.pendingGuidance = decision.guidance;
    }
    s.decisions.push(decision);
    if (s.decisions.length > EVENTS_KEPT) s.decisions.splice(0, s.decisions.length - EVENTS_KEPT);
    s.pendingGate = undefined;
    this.lastDecision = decision;
    if (gate.question) this.closeQuestion(decision);
    return { applied: true, note: `${name} applied to gate ${gate.id}` };
  }

  /** Binds the loop's workspace to host `id` (multi-host deployments). */
  bindHost(id: string, boundBy: HostBinding['boundBy'], movable: boolean, now: string): void {
    this.state.host = { id, boundBy, since: now, movable };
  }

  /** Notes that an activity has waited `hostWaitSeconds` for a worker of the loop's host (again). */
  hostWaiting(activity: string, now: string): void {
    const h = this.state.host;
    if (!h) return;
    if (h.waiting) h.waiting = { ...h.waiting, activity, waits: h.waiting.waits + 1 };
    else h.waiting = { activity, since: now, waits: 1 };
    this.touch(now);
  }

  /** The host's worker answered: the loop is no longer waiting for it. */
  hostAnswered(): void {
    if (this.state.host?.waiting) this.state.host.waiting = undefined;
  }

  /** Records the last post-run checkpoint pushed to the workspace's remote. */
  recordPush(label: string): void {
    if (this.state.host) this.state.host.lastPushed = label;
  }

  /**
   * A `move` signal: queues a move to another host, applied at the next safe point. Ignored (and recorded as such)
   * when the loop has ended, is not host-bound, has no remote to move through, or names a bad or the same host.
   */
  requestMove(raw: unknown, now: string): { applied: boolean; note: string } {
    const p = (raw ?? {}) as { host?: unknown; workspace?: unknown; by?: unknown; requestId?: unknown };
    const by = typeof p.by === 'string' ? clip(p.by, 100) : undefined;
    const h = this.state.host;
    const problem = this.finished
      ? `ignored: the loop already ended (${this.state.status})`
      : !h
        ? 'ignored: the loop is not bound to a host (run workers with --host, start loops with --host)'
        : !h.movable
          ? 'ignored: the workspace has no git remote to move through (add one, e.g. `git remote add origin URL`, before starting the loop)'
          : hostIdProblem(p.host)
            ? `ignored: ${hostIdProblem(p.host)}`
            : p.host === h.id
              ? `ignored: the loop is already on host ${h.id}`
              : p.workspace !== undefined && (typeof p.workspace !== 'string' || !p.workspace.startsWith('/'))
                ? 'ignored: the workspace must be an absolute path'
                : typeof p.requestId === 'string' && this.seen.includes(p.requestId)
                  ? `ignored: duplicate of request ${p.requestId}`
                  : undefined;
    const applied = !problem;
    const note = problem ?? `move to host ${String(p.host)} requested: applied at the next safe point`;
    this.state.signals.push({ name: 'move', at: now, by, applied, note });
    if (this.state.signals.length > EVENTS_KEPT) this.state.signals.splice(0, this.state.signals.length - EVENTS_KEPT);
    if (applied) {
      h!.pendingMove = {
        host: p.host as string,
        workspace: p.workspace as string | undefined,
        by,
        requestedAt: now,
      };
      if (typeof p.requestId === 'string') this.seen.push(p.requestId);
    }
    this.touch(now);
    return { applied, note };
  }

  /** Records a completed move: the loop's workspace is now `move.workspace` on host `move.to`. */
  recordMove(move: HostMove, now: string): void {
    const h = this.state.host!;
    this.state.host = {
      id: move.to,
      boundBy: 'move',
      since: now,
      movable: h.movable,
      lastPushed: move.restoredFrom === 'HEAD' ? h.lastPushed : move.restoredFrom,
      moves: [...(h.moves ?? []), move].slice(-20),
    };
    this.state.workspace = move.workspace;
    this.touch(now);
  }

  /** Ends the loop; returns the result the workflow returns. */
  finish(
    result: Omit<LoopResult, 'loopId' | 'iterations' | 'totals' | 'stateFile'>,
    stateFile: string,
    now: string,
  ): LoopResult {
    const full: LoopResult = {
      ...result,
      loopId: this.state.loopId,
      iterations: this.state.iteration,
      totals: this.state.totals,
      stateFile,
    };
    const last = this.state.records[this.state.records.length - 1];
    if (last)
      full.last = {
        outcome: last.outcome,
        ...(last.detections?.length ? { detections: last.detections } : {}),
        ...(last.agent.timedOut ? { agentTimedOut: true } : {}),
      };
    this.state.status = result.status as LoopStatus;
    this.state.phase = 'done';
    this.state.pendingGate = undefined;
    this.state.result = full;
    this.touch(now);
    return full;
  }
}

/** Accepts whatever a signal carried (nothing, a string, an object) and keeps only well-typed fields. */
export function normalisePayload(raw: unknown): DecisionPayload {
  if (typeof raw === 'string') return { reason: raw };
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const r = raw as Record<string, unknown>;
  const str = (k: string): string | undefined =>
    typeof r[k] === 'string' && r[k] !== '' ? (r[k] as string) : undefined;
  const extra = r.extraIterations;
  return {
    by: str('by'),
    reason: str('reason'),
    gateId: str('gateId'),
    requestId: str('requestId'),
    guidance: str('guidance'),
    text: str('text'),
    extraIterations:
      typeof extra === 'number' && Number.isInteger(extra) && extra > 0 && extra <= 10_000 ? extra : undefined,
  };
}
