/**
 * Routing phase: which agent profile runs each iteration, and what it is told. Runs only under
 * `patched('routing-v1')` and when the profiles folder has profiles, so loops recorded before it (and loops without
 * profiles) issue the same commands as before. The rules are core's RoutingTracker; here are the local activities
 * (profiles, handoff, session file and log) and the breaker's cooldown timer.
 *
 * Per iteration: decide (override > handoff > breaker > classifier + switch rule) → loadAgentProfile → the profile's
 * agent spec, instructions and shared context go into the run, its timeout is the larger of the profile's and the
 * loop's → after the run: a failed routed run counts for the breaker; a handoff declaration is read and applied →
 * session + log written (recordRouting). At the end the session file is removed.
 */
import { log, patched, proxyActivities, proxyLocalActivities, setHandler, sleep } from '@temporalio/workflow';
import type * as activities from '../../activities';
import { ROUTING_DEFAULTS, type RoutingRules } from '../../core/routing/classifier';
import { profileAgentSpec, profileTimeout, type LoadedProfile } from '../../core/routing/profile';
import type { RoutePayload } from '../../core/routing/signal';
import { route } from '../messages';
import { RoutingTracker, newRoutingState, type RoutingState } from '../../core/routing/tracker';
import type { ConfidenceModel, ProfileKeywords } from '../../core/routing/classifier';
import type { ResolvedLoopInput } from '../../config/loop-input';
import type { LoopContext } from './context';
import type { RoutedRun, RoutingCarry, RoutingHandle } from './routing-types';

export type { RoutedRun, RoutingCarry, RoutingHandle } from './routing-types';

/** Patch id of automatic routing: loops recorded before it replay without it. */
export const ROUTING_PATCH = 'routing-v1';
/**
 * Patch id of routing v2: the calibrated confidence (and its vocabulary) and profile budgets. Loops recorded with v1
 * replay with the keyword confidence and no budgets.
 */
export const ROUTING_V2_PATCH = 'routing-v2-calibrated';
/**
 * Patch id of routing v3: the v3 model (keyword features plus the text's own words) decides the confidence. Loops
 * recorded with v2 replay with the v2 model (and v1 loops with v1); budgets are on for v2 and v3.
 */
export const ROUTING_V3_PATCH = 'routing-v3-model';
/**
 * Patch id of routing v4: the v4 model (v3 plus the routing lexicon, and the lexicon's jargon in the complexity)
 * decides. Asked once in createContext (a safe point, see patches-at-start-v1); loops recorded without it replay with
 * v3, and so on down.
 */
export const ROUTING_V4_PATCH = 'routing-v4-model';
/** Routing v5: v4's features with weights fitted on more real text, and the certainty rule of complexity. */
export const ROUTING_V5_PATCH = 'routing-v5-model';
/** Routing v6: v5 fitted on one blind split more, with the small-work rule and "compute" as a verb for FinOps. */
export const ROUTING_V6_PATCH = 'routing-v6-model';
/**
 * Routing v7: v6's weights with the sense rule (a domain matched only by its everyday words, in a text that names
 * nothing of its technical world, counts as general) and a move from a version to a version as the upgrade chore.
 */
export const ROUTING_V7_PATCH = 'routing-v7-model';
/**
 * Routing v8: v6's features fitted on the eight blind splits spent since v6, v7's sense rules, and a hosted tool's
 * vendor (Heroku, Vercel, Firebase...) as a cloud word for FinOps.
 */
export const ROUTING_V8_PATCH = 'routing-v8-model';
/**
 * Routing v9: v8's weights with more sense rules (testing's mock and coverage, data's exports and warehouses of goods,
 * security's audit trail: everyday words outside their technical worlds count as general).
 */
export const ROUTING_V9_PATCH = 'routing-v9-model';
/**
 * Routing v10: v9 with more sense rules (SRE's monitor, docs' page and link, backend's get, data's calendar words
 * beside goods) and security's words for weakness classes, advisories and unsafe comparison or loading
 * (src/core/routing/sense.ts, src/core/routing/vocabulary.ts). Asked once at the start, after routing-v9-model.
 */
export const ROUTING_V10_PATCH = 'routing-v10-model';
/**
 * Routing v13: v10 with v11's, v12's and v13's rules (a ticket's escalation lead, attack payloads as evidence, more
 * everyday words and the trades' plain words; src/core/routing/). v11 and v12 were never a loop's default, so no
 * patch names them. Asked once at the start, after routing-v10-model.
 */
export const ROUTING_V13_PATCH = 'routing-v13-model';
/**
 * Routing v14: v13 with a logged incident of the trade read as a record, cluster-cost tools as FinOps's cloud words,
 * more of four domains' technical worlds and more plain words of the trades (src/core/routing/). Asked once at the
 * start, after routing-v13-model.
 */
export const ROUTING_V14_PATCH = 'routing-v14-model';
/**
 * Routing v15: v14 with users' and staff's words for a trade's work (src/core/routing/vocabulary.ts). Asked once at
 * the start, after routing-v14-model.
 */
export const ROUTING_V15_PATCH = 'routing-v15-model';
/**
 * Routing v16: v15 with more of testers', users' and staff's words for a trade's work (src/core/routing/vocabulary.ts).
 * Asked once at the start, after routing-v15-model.
 */
export const ROUTING_V16_PATCH = 'routing-v16-model';
/**
 * Routing v17: v16 where small work that is only a constraint of docs or testing work does not make a task small, with
 * arrows between versions, a business's security deposits and guards, and more developers' jargon
 * (src/core/routing/classifier.ts, vocabulary.ts). Asked once at the start, after routing-v16-model.
 */
export const ROUTING_V17_PATCH = 'routing-v17-model';
/**
 * Routing v18: v17 where SRE's zones are a cloud's, a lockout is one of security's everyday words, with more of
 * developers', testers' and staff's words (src/core/routing/sense.ts, vocabulary.ts). Asked once at the start, after
 * routing-v17-model.
 */
export const ROUTING_V18_PATCH = 'routing-v18-model';
/**
 * Routing v21 (v19 and v20 were never a loop's default): v18 with narrower technical worlds and more everyday words, a
 * command quoted alone read as its name, and more of developers', maintainers' and staff's words
 * (src/core/routing/sense.ts, classifier.ts, vocabulary.ts). Asked once at the start, after routing-v18-model.
 */
export const ROUTING_V21_PATCH = 'routing-v21-model';
/**
 * Routing v24 (v22 and v23 were never a loop's default): v21 with a product element's quoted name read as the
 * product's, data's migrations and SRE's escalations in their own sense only, REST an API's, a server's mail and messages
 * backend's beside what goes wrong with them, a trade's tests its own, and the words of v21's to v23's held-out splits
 * (src/core/routing/sense.ts, classifier.ts, vocabulary.ts). Asked once at the start, after routing-v21-model.
 */
export const ROUTING_V24_PATCH = 'routing-v24-model';
/**
 * Routing v25: v24 where a product element's quoted name is no evidence of a domain's world, with more elements named
 * so, a UI's toasts, a trade's paperwork and tests, and the words of v24's held-out splits (src/core/routing/sense.ts,
 * classifier.ts, vocabulary.ts). Asked once at the start, after routing-v24-model.
 */
export const ROUTING_V25_PATCH = 'routing-v25-model';
/**
 * Routing v26: v25 where a command named in backticks is a product element, a vault a secrets manager's, a renewal a
 * certificate's or a key's, a build software's and a toast a UI's only when it names one, with the words of the four
 * blind splits after v24's (src/core/routing/sense.ts, classifier.ts, vocabulary.ts). Asked once at the start, after
 * routing-v25-model.
 */
export const ROUTING_V26_PATCH = 'routing-v26-model';
/**
 * Routing v29: v28's rules and vocabulary with weights of its own, refitted on every split read until v28 was judged
 * and calibrated on v28's held-out splits (src/core/routing/model-v29.ts). v27 and v28 were never a loop's default.
 * Asked once at the start, after routing-v26-model.
 */
export const ROUTING_V29_PATCH = 'routing-v29-model';
/**
 * Patch id of host-affine routing: a host-bound loop runs routing's activities (profiles, session, handoff, log) on
 * its host's queue, like every other workspace activity, instead of as local activities on whichever worker runs the
 * workflow task.
 */
export const ROUTING_HOST_PATCH = 'routing-host-queue';

type Acts = typeof activities;
type RoutingActs = Pick<Acts, 'startRouting' | 'loadAgentProfile' | 'readHandoff' | 'recordRouting'>;

// Reading profiles, the handoff and writing the session are short and local to the worker: a marker event each.
const localActs = proxyLocalActivities<Acts>({ startToCloseTimeout: '30 seconds', retry: { maximumAttempts: 3 } });

// A routed run's profile, loaded by a normal activity (patch persist-activity-v1): the agent starts right after it, and
// an abort delivered with a local activity's result could find the agent not yet started, and on replay started.
const normalActs = proxyActivities<Acts>({ startToCloseTimeout: '30 seconds', retry: { maximumAttempts: 3 } });

/**
 * Routing's activities for this loop: on the host's queue for a host-bound loop (patch routing-host-queue; the
 * workspace is there), else local activities. `ctx.acts` follows a `ralph move`, so routing moves with the loop.
 */
function acts(ctx: LoopContext): RoutingActs {
  if (ctx.input.host && patched(ROUTING_HOST_PATCH)) return ctx.acts;
  return localActs;
}

/** Registers the `route` signal (a no-op for a loop without routing, apart from a warning). */
export function setRouteHandler(m: { state: { loopId: string } }, h: RoutingHandle): void {
  setHandler(route, (payload?: RoutePayload) => {
    if (!h.tracker) {
      h.early.push(payload);
      log.warn(`route ${JSON.stringify(payload)}: routing is not active (yet) in loop ${m.state.loopId}`);
      return;
    }
    const r = h.tracker.requestOverride(payload, new Date().toISOString());
    if (r.applied) log.info(`route: ${r.note}`);
    else log.warn(`route ${r.note}`);
  });
}

const rulesOf = (input: ResolvedLoopInput): RoutingRules => ({ ...ROUTING_DEFAULTS, ...(input.routing ?? {}) });

/**
 * Starts routing when it is on (input), patched in, and the profiles folder has profiles: one local activity lists
 * them (and resumes a session left by an earlier run of this id). A continued run takes everything from its carry.
 */
export async function startRoutingPhase(ctx: LoopContext, h: RoutingHandle, carry?: RoutingCarry): Promise<void> {
  const { input, m } = ctx;
  if (input.routing?.enabled === false) return;
  if (!patched(ROUTING_PATCH)) return;
  let profiles: ProfileKeywords[];
  let state: RoutingState;
  if (carry) {
    profiles = carry.profiles;
    state = carry.state;
    h.taskText = carry.taskText;
  } else {
    const r = await acts(ctx).startRouting({
      workspace: input.workspace,
      dir: input.routing?.profilesDir,
      stateDir: ctx.stateDir,
      loopId: m.state.loopId,
      promptFile: input.prompt ? undefined : input.promptFile,
    });
    for (const w of r.warnings) log.warn(w);
    if (!r.profiles.length) return;
    profiles = r.profiles.map(({ name, domain, keywords, weights }) => ({ name, domain, keywords, weights }));
    h.taskText = r.taskText;
    state = newRoutingState(input.routing?.carryIn);
    if (r.session) {
      state.agent = r.session.activeAgent;
      state.domain = r.session.domain;
      state.confidence = r.session.lastConfidence;
      state.chain = r.session.chain;
      state.context = r.session.sharedContext;
    }
    if (r.sessionError) state.warnings.push(r.sessionError);
  }
  // Routing v29 for loops started now, v26, v25, v24, v21, v18, v17, v16, v15, v14, v13, v10, v9, v8, v7, v6, v5 or v4 for loops recorded
  // before it: decided in createContext (patches routing-v4-model to routing-v29-model, asked at the start like
  // patches-at-start-v1, never after a local activity). v3 for loops recorded with patches-at-start-v1 but before v4;
  // v3, v2 (calibrated confidence, budgets) or v1 asked here, after the startRouting local activity, by loops recorded
  // before patches-at-start-v1. The first patch a loop was recorded with, newest first, decides.
  const recorded: readonly [boolean, ConfidenceModel][] = [
    [ctx.routingV29, 'calibrated-v29'],
    [ctx.routingV26, 'calibrated-v26'],
    [ctx.routingV25, 'calibrated-v25'],
    [ctx.routingV24, 'calibrated-v24'],
    [ctx.routingV21, 'calibrated-v21'],
    [ctx.routingV18, 'calibrated-v18'],
    [ctx.routingV17, 'calibrated-v17'],
    [ctx.routingV16, 'calibrated-v16'],
    [ctx.routingV15, 'calibrated-v15'],
    [ctx.routingV14, 'calibrated-v14'],
    [ctx.routingV13, 'calibrated-v13'],
    [ctx.routingV10, 'calibrated-v10'],
    [ctx.routingV9, 'calibrated-v9'],
    [ctx.routingV8, 'calibrated-v8'],
    [ctx.routingV7, 'calibrated-v7'],
    [ctx.routingV6, 'calibrated-v6'],
    [ctx.routingV5, 'calibrated-v5'],
    [ctx.routingV4, 'calibrated-v4'],
  ];
  const model =
    recorded.find(([on]) => on)?.[1] ??
    (ctx.patchesAtStart || patched(ROUTING_V3_PATCH)
      ? 'calibrated-v3'
      : patched(ROUTING_V2_PATCH)
        ? 'calibrated'
        : 'keywords');
  const t = new RoutingTracker(rulesOf(input), m.state.loopId, profiles, state, input.routing?.carryIn?.taskId, {
    model,
  });
  h.tracker = t;
  m.state.routing = Object.assign(t.state, { profiles: profiles.map((p) => p.name) });
  for (const p of h.early.splice(0)) t.requestOverride(p, new Date().toISOString());
  // A breaker that opened in an earlier run still has its cooldown to wait.
  if (state.breaker.openUntil !== undefined) startCooldown(t, state.breaker.openUntil);
}

/** The durable cooldown of an open breaker: a timer that closes it (survives worker restarts; replays the same). */
function startCooldown(t: RoutingTracker, openUntil: number): void {
  void sleep(Math.max(0, openUntil - Date.now())).then(() => {
    if (t.closeBreaker(Date.now())) log.info('routing circuit breaker closed: automatic routing is back on');
  });
}

/** The text the classifier reads for iteration `n`: the task, plus the last feedback after the first iteration. */
function classifiedText(ctx: LoopContext, h: RoutingHandle, feedback: string[]): string {
  const task = ctx.input.prompt ?? h.taskText ?? '';
  return feedback.length ? `${task}\n${feedback.join('\n').slice(0, 2000)}` : task;
}

/** Chooses and loads the agent of iteration `n`; undefined when routing is off (the base run, unchanged). */
export async function routeIteration(
  ctx: LoopContext,
  h: RoutingHandle,
  n: number,
  feedback: string[],
): Promise<RoutedRun | undefined> {
  const t = h.tracker;
  if (!t) return undefined;
  const { input } = ctx;
  const d = t.decide(n, classifiedText(ctx, h, feedback), Date.now());
  let profile: LoadedProfile | undefined;
  if (d.agent) {
    const loader = ctx.persistActivity && !ctx.input.host ? normalActs : acts(ctx);
    const r = await loader.loadAgentProfile({
      workspace: input.workspace,
      dir: input.routing?.profilesDir,
      name: d.agent,
      maxInstructionsChars: t.rules.maxInstructionsChars,
    });
    const opened = t.loaded(n, d.agent, r, Date.now());
    if (r.ok) profile = r.profile;
    else log.warn(r.warning);
    if (opened.opened) breakerOpened(t);
  }
  log.info(`iteration ${n}: ${profile ? `profile ${profile.name}` : 'base agent'} (${d.reason})`);
  return {
    profile,
    agent: profile ? profileAgentSpec(input.agent, profile) : input.agent,
    sections: t.sections(profile?.instructions),
    timeoutSeconds: profileTimeout(input.iterationTimeoutSeconds, profile),
  };
}

function breakerOpened(t: RoutingTracker): void {
  log.error(`routing circuit breaker OPEN: ${t.state.warnings[t.state.warnings.length - 1]}`);
  if (t.state.breaker.openUntil !== undefined) startCooldown(t, t.state.breaker.openUntil);
}

/**
 * After the run: a failed routed run counts for the breaker; a handoff declared at the end of the answer is read
 * (local activity, only when the answer mentions one) and applied; the session and log are written.
 */
export async function afterRoutedRun(
  ctx: LoopContext,
  h: RoutingHandle,
  n: number,
  routed: RoutedRun | undefined,
  run: { result?: activities.RunAgentResult; failure?: string; timedOut: boolean },
): Promise<void> {
  const t = h.tracker;
  if (!t || !routed) return;
  const res = run.result;
  const name = routed.profile?.name;
  t.ranIteration(n, name, res?.finalTextTail ?? '');
  const failed = run.timedOut || !!run.failure || (res !== undefined && res.exitCode !== 0);
  if (name && failed) {
    const opened = t.runFailed(
      n,
      name,
      run.failure ?? (run.timedOut ? 'timed out' : `exit code ${res?.exitCode}`),
      Date.now(),
    );
    if (opened.opened) breakerOpened(t);
  }
  if (res && /handoff/i.test(res.finalTextTail)) {
    const r = await acts(ctx).readHandoff({
      stdoutPath: res.stdoutPath,
      stderrPath: res.stderrPath,
      adapter: routed.agent.adapter,
      maxHandoffContextChars: t.rules.maxHandoffContextChars,
      secrets: t.rules.secrets,
    });
    if (r.found) {
      const v = t.handoff(n, r.ok ? { ok: true, handoff: r.handoff, redacted: r.redacted } : r, Date.now());
      if (v.accepted) log.info(`handoff ${v.note}`);
      else log.warn(v.note);
    }
  }
  if (name) {
    const b = t.spent(n, name, res?.usage, Date.now());
    if (b.exhausted) log.warn(`routing: ${b.note}`);
  }
  await acts(ctx).recordRouting({
    stateDir: ctx.stateDir,
    loopId: ctx.m.state.loopId,
    session: t.session(Date.now()),
    entries: t.takeLog(),
  });
}

/** At the loop's end: the last log entries, the session file removed, and what a parent project passes on. */
export async function endRouting(ctx: LoopContext, h: RoutingHandle): Promise<void> {
  const t = h.tracker;
  if (!t) return;
  await acts(ctx).recordRouting({
    stateDir: ctx.stateDir,
    loopId: ctx.m.state.loopId,
    session: null,
    entries: t.takeLog(),
  });
}

/** What continue-as-new carries, when routing is active. */
export function routingCarry(h: RoutingHandle): RoutingCarry | undefined {
  const t = h.tracker;
  if (!t) return undefined;
  // The profile names shown by status are rebuilt from the profiles in the next run.
  const state = { ...t.state } as RoutingState & { profiles?: string[] };
  delete state.profiles;
  return { state, profiles: [...t.profiles], taskText: h.taskText };
}
