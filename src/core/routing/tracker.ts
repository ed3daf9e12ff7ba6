/**
 * The routing state of one loop and the rules that move it: which agent runs the next iteration (an operator's
 * override, a pending handoff, the circuit breaker, the classifier and the switch rule), what a handoff does to the
 * chain, and what the routing log records. Pure, like AntiLazinessTracker: the workflow does the I/O (loading
 * profiles, the session file, the log) and the timers around it, and carries {@link RoutingState} across
 * continue-as-new.
 */
import { breakerOpen, closeIfCooled, closedBreaker, recordFailure, type BreakerState } from './breaker';
import {
  buildRoutingIndex,
  classify,
  shouldSwitch,
  type Classification,
  isCalibrated,
  type ConfidenceModel,
  type ProfileKeywords,
  type RoutingIndex,
  type RoutingRules,
} from './classifier';
import { addContext, routedSections, summariseContext, type ContextEntry } from './context';
import { extendChain, newChain, type Handoff, type HandoffChain } from './handoff';
import type { RoutingLogEntry } from './log';
import { scanSecrets } from './secrets';
import { BASE_AGENT, routePayloadProblem, type RoutePayload } from './signal';

/** Chain name of the base agent (no profile). */
export const BASE = BASE_AGENT;

/** Why an agent runs an iteration. */
export type RouteReason =
  'override' | 'handoff' | 'routed' | 'switch' | 'kept' | 'not_routed' | 'breaker_open' | 'budget_exhausted';

/** A profile's budget: iterations, tokens (input + output) and cost a routed agent may use in one loop. */
export interface ProfileBudget {
  iterations?: number;
  tokens?: number;
  costUsd?: number;
}

/** What a routed agent used so far in this loop. */
export interface AgentSpend {
  iterations: number;
  tokens: number;
  costUsd: number;
}

/** The routing state of a loop (JSON-friendly: carried across continue-as-new, shown by `status`). */
export interface RoutingState {
  /** The profile running now; undefined: the base agent. */
  agent?: string;
  domain: string;
  confidence: number;
  /**
   * The domain the classifier saw when the current agent was chosen (routed, switched or overridden). The switch rule
   * compares new classifications with it, not with the agent's own domain: an agent reached by a handoff or an
   * override keeps running while the task's domain stays the same.
   */
  origin?: string;
  chain: HandoffChain;
  context: ContextEntry[];
  breaker: BreakerState;
  /** A handoff accepted at the end of the last iteration: its target runs next. */
  pendingHandoff?: { target: string; reason: string };
  /** An operator's `route` request not yet applied. */
  pendingOverride?: RoutePayload & { at: string };
  /** Request ids of applied overrides (duplicates are ignored). */
  seenRequests: string[];
  /** The last iteration's output tail, passed on when the domain switches. */
  lastOutput?: ContextEntry;
  /** The last decision, for status. */
  last?: {
    iteration: number;
    agent?: string;
    reason: RouteReason;
    domain: string;
    confidence: number;
    complexity: number;
    why: string[];
  };
  /** Recent warnings (missing profile, refused handoff...), newest last. */
  warnings: string[];
  counters: {
    decisions: number;
    routed: number;
    handoffs: number;
    switches: number;
    overrides: number;
    loadFailures: number;
  };
  /** Sequence of log entries (their ids), carried so ids stay unique across runs. */
  seq: number;
  /** Budgets of the profiles loaded so far (routing v2). */
  budgets?: Record<string, ProfileBudget>;
  /** What each routed agent used in this loop (routing v2). */
  spend?: Record<string, AgentSpend>;
  /** Agents whose budget ran out: routing does not choose them again; an operator's override still can. */
  exhausted?: string[];
}

/** What {@link RoutingTracker.decide} chose for an iteration. */
export interface RouteDecision {
  /** The profile to load, or undefined for the base agent. */
  agent?: string;
  reason: RouteReason;
  classification?: Classification;
}

/** The routing part of a loop's input a project passes to a task's child loop. */
export interface RoutingCarryIn {
  /** The profile the previous task ended with (the switch rule starts from it). */
  agent?: string;
  domain?: string;
  confidence?: number;
  context?: ContextEntry[];
  taskId?: string;
}

const MAX_WARNINGS = 10;
const MAX_SEEN = 100;

/** A fresh routing state (base agent, general domain, empty chain). */
export function newRoutingState(carryIn: RoutingCarryIn = {}): RoutingState {
  return {
    agent: carryIn.agent,
    domain: carryIn.domain ?? 'general',
    confidence: carryIn.confidence ?? 0,
    ...(carryIn.domain ? { origin: carryIn.domain } : {}),
    chain: newChain(carryIn.agent ?? BASE),
    context: [...(carryIn.context ?? [])],
    breaker: closedBreaker(),
    seenRequests: [],
    warnings: [],
    counters: { decisions: 0, routed: 0, handoffs: 0, switches: 0, overrides: 0, loadFailures: 0 },
    seq: 0,
  };
}

/** Routing rules and state of one loop. */
export class RoutingTracker {
  private index: RoutingIndex;
  private pending: (RoutingLogEntry & { id: string })[] = [];
  /** Routing v2 or later: a calibrated model and profile budgets (v1 loops replay without either). */
  readonly v2: boolean;

  constructor(
    readonly rules: RoutingRules,
    readonly loopId: string,
    readonly profiles: readonly ProfileKeywords[],
    readonly state: RoutingState = newRoutingState(),
    readonly taskId?: string,
    options: { model?: ConfidenceModel } = {},
  ) {
    const model = options.model ?? 'calibrated-v29';
    this.v2 = isCalibrated(model);
    this.index = buildRoutingIndex(profiles, model);
  }

  /** Whether `agent`'s budget ran out in this loop. */
  isExhausted(agent: string | undefined): boolean {
    return !!agent && (this.state.exhausted ?? []).includes(agent);
  }

  /** Whether a profile of this name was listed. */
  has(name: string): boolean {
    return this.profiles.some((p) => p.name === name);
  }

  private log(e: Omit<RoutingLogEntry, 'loopId' | 'at'>, now: string): void {
    this.state.seq++;
    this.pending.push({
      id: `${this.loopId}:${this.state.seq}`,
      at: now,
      loopId: this.loopId,
      ...(this.taskId ? { taskId: this.taskId } : {}),
      ...e,
    });
  }

  private warn(w: string): void {
    this.state.warnings = [...this.state.warnings, w].slice(-MAX_WARNINGS);
  }

  /** Log entries recorded since the last call (the workflow appends them to the routing log). */
  takeLog(): (RoutingLogEntry & { id: string })[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  /**
   * Records an operator's `route` request; it applies at the next iteration. A duplicate request id or an invalid
   * payload is ignored with a note (signal handlers never throw).
   */
  requestOverride(payload: unknown, now: string): { applied: boolean; note: string } {
    const problem = routePayloadProblem(payload);
    if (problem) return { applied: false, note: `ignored: ${problem}` };
    const p = payload as RoutePayload;
    if (p.requestId && this.state.seenRequests.includes(p.requestId))
      return { applied: false, note: `ignored: duplicate of request ${p.requestId}` };
    if (p.requestId) this.state.seenRequests = [...this.state.seenRequests, p.requestId].slice(-MAX_SEEN);
    this.state.pendingOverride = { ...p, at: now };
    return { applied: true, note: `${p.agent} runs from the next iteration` };
  }

  /**
   * Chooses the agent of iteration `n` from, in order: an operator's override, a pending handoff, the circuit breaker
   * (open: base agent), then the classifier on `text` (the task, plus the last feedback after iteration 1) with the
   * switch rule against the current domain. Logs the decision.
   */
  decide(n: number, text: string, nowMs: number): RouteDecision {
    const now = new Date(nowMs).toISOString();
    const s = this.state;
    s.counters.decisions++;
    const c = classify(text, this.index, this.rules);
    const suggested = c.route ? c.profile : undefined;
    const d = this.choose(n, c, suggested, nowMs, now);
    if (d.reason === 'routed' || d.reason === 'switch') {
      s.domain = c.domain;
      s.confidence = c.confidence;
      s.origin = c.domain;
    } else if (d.reason === 'override' || d.reason === 'handoff') {
      if (d.reason === 'override') s.origin = c.domain;
      const p = d.agent ? this.profiles.find((x) => x.name === d.agent) : undefined;
      if (p) s.domain = p.domain;
    }
    s.agent = d.agent;
    if (d.agent) s.counters.routed++;
    s.last = {
      iteration: n,
      agent: d.agent,
      reason: d.reason,
      domain: c.domain,
      confidence: c.confidence,
      complexity: c.complexity,
      why: c.why,
    };
    this.log(
      {
        event: 'decision',
        iteration: n,
        domain: c.domain,
        confidence: c.confidence,
        complexity: c.complexity,
        suggested,
        chosen: d.agent,
        reason: d.reason,
      },
      now,
    );
    return d;
  }

  /** The agent of the iteration and why: override, handoff, open breaker, first routing, switch, or kept. */
  private choose(
    n: number,
    c: ReturnType<typeof classify>,
    suggested: string | undefined,
    nowMs: number,
    now: string,
  ): RouteDecision {
    const s = this.state;
    let d: RouteDecision;
    if (s.pendingOverride) {
      const o = s.pendingOverride;
      s.pendingOverride = undefined;
      const agent = o.agent === BASE ? undefined : o.agent;
      s.counters.overrides++;
      // An operator's override gives an exhausted agent a fresh budget.
      if (agent && this.isExhausted(agent)) {
        s.exhausted = (s.exhausted ?? []).filter((a) => a !== agent);
        if (s.spend) delete s.spend[agent];
      }
      this.log(
        {
          event: 'override',
          iteration: n,
          suggested: suggested ?? s.agent,
          chosen: agent,
          reason: o.reason ?? `by ${o.by ?? 'operator'}`,
        },
        now,
      );
      this.startChain(agent);
      d = { agent, reason: 'override', classification: c };
    } else if (s.pendingHandoff) {
      const h = s.pendingHandoff;
      s.pendingHandoff = undefined;
      d = { agent: h.target, reason: 'handoff', classification: c };
    } else if (breakerOpen(s.breaker, nowMs)) {
      d = { agent: undefined, reason: 'breaker_open', classification: c };
    } else if (!s.agent) {
      d = c.route
        ? this.isExhausted(c.profile)
          ? { agent: undefined, reason: 'budget_exhausted', classification: c }
          : { agent: c.profile, reason: 'routed', classification: c }
        : { reason: 'not_routed', classification: c };
      if (d.agent) {
        if (s.domain !== 'general' && s.domain !== c.domain) this.switched(n, s.domain, c, now);
        this.startChain(d.agent);
      }
    } else {
      const from = s.origin ?? s.domain;
      const v = shouldSwitch({ domain: from }, c, this.rules);
      if (v.switch && c.profile && c.profile !== s.agent && !this.isExhausted(c.profile)) {
        this.switched(n, from, c, now, v.reason);
        this.startChain(c.profile);
        d = { agent: c.profile, reason: 'switch', classification: c };
      } else d = { agent: s.agent, reason: 'kept', classification: c };
    }
    return d;
  }

  private startChain(agent: string | undefined): void {
    this.state.chain = newChain(agent ?? BASE);
  }

  private switched(n: number, from: string, c: Classification, now: string, why?: string): void {
    const s = this.state;
    s.counters.switches++;
    if (s.lastOutput)
      s.context = addContext(s.context, { ...s.lastOutput, reason: `domain switch ${from} → ${c.domain}` });
    this.log(
      {
        event: 'switch',
        iteration: n,
        from,
        to: c.domain,
        confidence: c.confidence,
        reason: why ?? `${from} → ${c.domain}`,
      },
      now,
    );
  }

  /**
   * Records how loading the chosen profile went. A failed load counts for the circuit breaker, is logged with its
   * reason, and the iteration falls back to the base agent. Returns whether the breaker just opened.
   */
  loaded(
    n: number,
    agent: string,
    r: { ok: boolean; loadMs: number; reason?: string; warning?: string; profile?: { budget?: ProfileBudget } },
    nowMs: number,
  ): { opened: boolean } {
    const now = new Date(nowMs).toISOString();
    this.log(
      {
        event: 'load',
        iteration: n,
        chosen: agent,
        ok: r.ok,
        loadMs: r.loadMs,
        reason: r.reason,
        level: r.ok ? 'info' : 'warning',
      },
      now,
    );
    if (r.warning) this.warn(r.warning);
    if (r.ok && this.v2 && r.profile?.budget)
      this.state.budgets = { ...(this.state.budgets ?? {}), [agent]: { ...r.profile.budget } };
    if (r.ok) return { opened: false };
    this.state.counters.loadFailures++;
    this.state.agent = undefined;
    this.state.chain = newChain(BASE);
    return this.failure(n, agent, `load failed: ${r.reason}`, nowMs);
  }

  /** Records a failed run of a routed agent (counts for the breaker); returns whether the breaker just opened. */
  runFailed(n: number, agent: string, why: string, nowMs: number): { opened: boolean } {
    this.log(
      { event: 'run_failed', iteration: n, chosen: agent, reason: why, level: 'warning' },
      new Date(nowMs).toISOString(),
    );
    return this.failure(n, agent, why, nowMs);
  }

  private failure(n: number, agent: string, why: string, nowMs: number): { opened: boolean } {
    const r = recordFailure(this.state.breaker, nowMs, this.rules);
    this.state.breaker = r.state;
    if (r.opened) {
      const detail =
        `routing disabled for ${this.rules.breakerCooldownSeconds}s after ${this.rules.breakerFailures} failures of ` +
        `routed agents within ${this.rules.breakerWindowSeconds}s (last: ${agent}: ${why})`;
      this.warn(detail);
      this.log(
        { event: 'breaker_open', iteration: n, chosen: agent, reason: detail, level: 'critical' },
        new Date(nowMs).toISOString(),
      );
      this.state.agent = undefined;
      this.state.chain = newChain(BASE);
    }
    return { opened: r.opened };
  }

  /** Closes the breaker when its cooldown is over (the workflow's timer fired); returns whether it closed. */
  closeBreaker(nowMs: number): boolean {
    const r = closeIfCooled(this.state.breaker, nowMs);
    this.state.breaker = r.state;
    if (r.closed)
      this.log(
        { event: 'breaker_closed', reason: 'cooldown over: automatic routing back on', level: 'info' },
        new Date(nowMs).toISOString(),
      );
    return r.closed;
  }

  /** Remembers the iteration's output tail (secrets redacted): the context passed on if the domain switches. */
  ranIteration(n: number, agent: string | undefined, outputTail: string): void {
    const text = scanSecrets(outputTail.trim()).redacted.slice(-1500);
    if (text) this.state.lastOutput = { agent: agent ?? BASE, iteration: n, text };
  }

  /**
   * Applies a handoff the iteration's output declared (already parsed and screened for secrets) or the reason one was
   * refused. An accepted handoff extends the chain, adds its context and makes the target run next; at the limit or
   * on a cycle the chain stops with `MaxHandoffsExceeded` and this iteration's output is the last valid one.
   */
  handoff(
    n: number,
    r: { ok: true; handoff: Handoff; redacted: number } | { ok: false; error: string },
    nowMs: number,
  ): { accepted: boolean; note: string } {
    const now = new Date(nowMs).toISOString();
    const s = this.state;
    const from = s.agent ?? BASE;
    if (!r.ok) {
      this.warn(r.error);
      this.log({ event: 'handoff_refused', iteration: n, from, reason: r.error, level: 'warning' }, now);
      return { accepted: false, note: r.error };
    }
    const h = r.handoff;
    if (s.chain.stopped) {
      const note = `handoff ${from} → ${h.target} refused: the chain already stopped (${s.chain.stopped.detail})`;
      this.log({ event: 'handoff_refused', iteration: n, from, to: h.target, reason: note, level: 'warning' }, now);
      return { accepted: false, note };
    }
    if (this.isExhausted(h.target)) {
      const note = `handoff ${from} → ${h.target} refused: ${h.target}'s budget ran out in this loop`;
      this.warn(note);
      this.log({ event: 'handoff_refused', iteration: n, from, to: h.target, reason: note, level: 'warning' }, now);
      return { accepted: false, note };
    }
    if (!this.has(h.target)) {
      const note = `handoff ${from} → ${h.target} refused: no profile named ${h.target}`;
      this.warn(note);
      this.log({ event: 'handoff_refused', iteration: n, from, to: h.target, reason: note, level: 'warning' }, now);
      return { accepted: false, note };
    }
    const v = extendChain(s.chain, h, n, this.rules);
    s.chain = v.chain;
    if (!v.ok) {
      const note = `${v.error}: ${v.detail}`;
      this.warn(note);
      this.log({ event: 'handoff_refused', iteration: n, from, to: h.target, reason: note, level: 'error' }, now);
      return { accepted: false, note };
    }
    s.counters.handoffs++;
    s.pendingHandoff = { target: h.target, reason: h.reason };
    s.context = addContext(s.context, { agent: from, iteration: n, reason: h.reason, text: h.context });
    this.log(
      {
        event: 'handoff',
        iteration: n,
        from,
        to: h.target,
        reason: h.reason + (r.redacted ? ` (${r.redacted} secret(s) redacted)` : ''),
      },
      now,
    );
    return { accepted: true, note: `${from} → ${h.target}: ${h.reason}` };
  }

  /**
   * Adds what `agent` used in iteration `n` (one iteration, its tokens and cost) to its spend (routing v2). When a
   * limit of its profile's budget is reached, it hands back to the base agent: logged (`budget_exhausted`, with which
   * limit and the figures), and routing does not choose it again in this loop. A handoff it declared in the same
   * iteration still goes ahead. Returns the note when the budget ran out.
   */
  spent(
    n: number,
    agent: string,
    usage: { inputTokens?: number; outputTokens?: number; costUsd?: number } | undefined,
    nowMs: number,
  ): { exhausted: boolean; note?: string } {
    const s = this.state;
    if (!this.v2 || this.isExhausted(agent)) return { exhausted: false };
    const was = s.spend?.[agent] ?? { iterations: 0, tokens: 0, costUsd: 0 };
    const now: AgentSpend = {
      iterations: was.iterations + 1,
      tokens: was.tokens + (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0),
      costUsd: Math.round((was.costUsd + (usage?.costUsd ?? 0)) * 1e6) / 1e6,
    };
    s.spend = { ...(s.spend ?? {}), [agent]: now };
    const reached = budgetReached(s.budgets?.[agent], now);
    if (!reached) return { exhausted: false };
    const note = `${agent} reached its budget (${reached}): back to the base agent`;
    s.exhausted = [...(s.exhausted ?? []), agent];
    this.warn(note);
    this.log(
      { event: 'budget_exhausted', iteration: n, from: agent, chosen: undefined, reason: note, level: 'warning' },
      new Date(nowMs).toISOString(),
    );
    if (s.agent === agent) {
      s.agent = undefined;
      if (!s.pendingHandoff) s.chain = newChain(BASE);
    }
    return { exhausted: true, note };
  }

  /** The prompt sections of the next iteration: the profile's instructions, then the summarised shared context. */
  sections(instructions: string | undefined): string[] {
    return routedSections(
      instructions,
      summariseContext(this.state.context, this.rules.maxSharedContextChars),
      this.rules.maxInstructionsChars,
    );
  }

  /** The session file's content. */
  session(nowMs: number) {
    const s = this.state;
    return {
      version: 1 as const,
      loopId: this.loopId,
      ...(s.agent ? { activeAgent: s.agent } : {}),
      domain: s.domain,
      lastConfidence: s.confidence,
      chain: s.chain,
      sharedContext: s.context,
      updatedAt: new Date(nowMs).toISOString(),
    };
  }

  /** What a parent project passes to the next task's loop. */
  carryOut(): RoutingCarryIn {
    const s = this.state;
    const ctx = [...s.context];
    if (s.lastOutput) ctx.push(s.lastOutput);
    return { agent: s.agent, domain: s.domain, confidence: s.confidence, context: ctx.slice(-3) };
  }
}

/** Which limit of `budget` `spend` reached ("tokens 12000 of 10000"), or undefined. */
export function budgetReached(budget: ProfileBudget | undefined, spend: AgentSpend): string | undefined {
  if (!budget) return undefined;
  const out: string[] = [];
  if (budget.iterations !== undefined && spend.iterations >= budget.iterations)
    out.push(`iterations ${spend.iterations} of ${budget.iterations}`);
  if (budget.tokens !== undefined && spend.tokens >= budget.tokens)
    out.push(`tokens ${spend.tokens} of ${budget.tokens}`);
  if (budget.costUsd !== undefined && spend.costUsd >= budget.costUsd)
    out.push(`cost $${spend.costUsd} of $${budget.costUsd}`);
  return out.length ? out.join(', ') : undefined;
}

/** The routing part of `ralph status`: active agent and domain, the handoff chain with reasons, breaker, warnings. */
export function routingStatusLines(r: RoutingState): string[] {
  const out = [
    `routing: ${r.agent ?? 'base agent'} (domain ${r.domain}, confidence ${r.confidence})` +
      (r.last ? ` · iteration ${r.last.iteration}: ${r.last.reason}` : ''),
  ];
  const c = r.chain;
  if (c.links.length || c.stopped) {
    out.push(`  chain: ${c.agents.join(' → ')} (${c.links.length} handoff${c.links.length === 1 ? '' : 's'})`);
    for (const l of c.links) out.push(`    ${l.from} → ${l.to} at iteration ${l.iteration}: ${l.reason}`);
    if (c.stopped) out.push(`  stopped: ${c.stopped.error} at iteration ${c.stopped.iteration}: ${c.stopped.detail}`);
  }
  if (r.breaker.openUntil !== undefined)
    out.push(`  circuit breaker OPEN until ${new Date(r.breaker.openUntil).toISOString()}: the base agent runs`);
  if (r.exhausted?.length) out.push(`  budget used up: ${r.exhausted.join(', ')} (routing does not choose them again)`);
  for (const w of r.warnings.slice(-3)) out.push(`  warning: ${w}`);
  return out;
}
