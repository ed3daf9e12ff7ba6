/**
 * The `ralphLoop` workflow: one Ralph loop, durable. Orchestration only: the rules live in core/LoopMachine, every
 * side effect in an activity. See src/workflows/ARCHITECTURE.md for the state machine and continue-as-new policy.
 */
import {
  ApplicationFailure,
  CancellationScope,
  ActivityCancellationType,
  allHandlersFinished,
  condition,
  continueAsNew,
  isCancellation,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type * as activities from '../activities';
import type { LoopInput, LoopInputRaw } from '../config/loop-input';
import { ErrorTypes, NON_RETRYABLE_ERROR_TYPES } from '../core/constants';
import { feedbackFor } from '../core/feedback';
import {
  budgetState,
  gateFeedback,
  isSuspiciousClaim,
  qualityScore,
  type GateThresholds,
  type GateVerdict,
} from '../core/gate-rules';
import { LoopMachine, type LoopCarry, type SignalName } from '../core/loop-machine';
import type { GateDecision, IterationOutcome, IterationRecord, LoopResult } from '../core/loop-types';
import {
  PersistenceTracker,
  postLabel,
  preLabel,
  type EscalationRequest,
  type IterationDecision,
} from '../core/persistence';
import type { InterventionEvent } from '../core/persistence-types';
import { MAX_FEEDBACK_CHARS } from '../core/prompt';
import { rotateFeedback } from '../core/reinforcement';
import * as messages from './messages';
import { SA } from './search-attributes';

/** What one run hands to the next through continue-as-new. */
export interface RalphLoopCarry {
  machine: LoopCarry;
  stateFile: string;
}

const { validateLoopInput } = proxyActivities<typeof activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
});

// Writing state.json is short and local to the worker: a local activity costs one marker event, not six.
const { persistState } = proxyLocalActivities<typeof activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5 },
});

/** Patch id of the anti-laziness layer: loops recorded before it replay without it. */
export const ANTI_LAZINESS_PATCH = 'anti-laziness-v1';

/** Wait used after a usage limit that names no reset time. */
const DEFAULT_USAGE_LIMIT_WAIT_MS = 15 * 60_000;

const nowIso = (): string => new Date().toISOString();

/** Runs a Ralph loop until the completion check passes, a human decides, or it is aborted. */
export async function ralphLoop(rawInput: LoopInputRaw, carry?: RalphLoopCarry): Promise<LoopResult> {
  const info = workflowInfo();
  const raw = (rawInput ?? {}) as Partial<LoopInputRaw>;
  const m = new LoopMachine(
    {
      loopId: info.workflowId,
      maxIterations: typeof raw.maxIterations === 'number' ? raw.maxIterations : 10,
      agent: typeof raw.agent?.adapter === 'string' ? raw.agent.adapter : 'unknown',
      workspace: typeof raw.workspace === 'string' ? raw.workspace : '',
      stateDir: '',
      defaultExtraIterations: typeof raw.defaultExtraIterations === 'number' ? raw.defaultExtraIterations : 3,
      labels: {},
    },
    nowIso(),
    carry?.machine,
  );

  // Handlers first, so a signal sent right after start is never lost.
  let agentScope: CancellationScope | undefined;
  const onSignal = (name: SignalName) => (payload?: unknown) => {
    const r = m.applySignal(name, payload, nowIso());
    if (r.applied) log.info(`signal ${name}: ${r.note}`);
    else log.warn(`signal ${name} ${r.note}`);
    if (name === 'abort' && r.applied && m.abortRequested) agentScope?.cancel();
  };
  setHandler(messages.approve, onSignal('approve'));
  setHandler(messages.reject, onSignal('reject'));
  setHandler(messages.abort, onSignal('abort'));
  setHandler(messages.pause, onSignal('pause'));
  setHandler(messages.resume, onSignal('resume'));
  setHandler(messages.status, () => m.state);

  let input: LoopInput;
  if (carry) {
    input = rawInput as LoopInput;
  } else {
    try {
      input = await validateLoopInput({ raw: rawInput, loopId: info.workflowId });
    } catch (e) {
      const failure = asLoopFailure(e) ?? e;
      // No state file yet (the workspace may not exist): the status query still says why the loop ended.
      m.finish({ status: 'failed', reason: (failure as Error).message }, '', nowIso());
      throw failure;
    }
    m.state.maxIterations = input.maxIterations;
    m.state.workspace = input.workspace;
    m.state.stateDir = input.stateDir as string;
    m.state.agent = input.agent.adapter;
    m.state.labels = input.labels;
  }
  const stateDir = input.stateDir as string;
  // The anti-laziness layer: on by default for new loops; histories recorded before it replay without it.
  const pcfg = input.persistence;
  const tracker =
    pcfg?.enabled && patched(ANTI_LAZINESS_PATCH)
      ? new PersistenceTracker(pcfg, m.state.loopId, input.agent.adapter, m.state.persistence)
      : undefined;
  if (tracker) m.state.persistence = tracker.state;
  const checkOn = input.completion.checkOn ?? (input.completion.promise ? 'claim' : 'every-iteration');

  const { runAgent } = proxyActivities<typeof activities>({
    startToCloseTimeout: `${input.iterationTimeoutSeconds} seconds`,
    heartbeatTimeout: `${input.heartbeatTimeoutSeconds} seconds`,
    // Wait for the agent's process group to be killed before the workflow moves on after an abort.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: {
      maximumAttempts: input.agentMaxAttempts,
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '1 minute',
      nonRetryableErrorTypes: [...NON_RETRYABLE_ERROR_TYPES, 'AgentTimeout'],
    },
  });
  const { checkCompletion } = proxyActivities<typeof activities>({
    startToCloseTimeout: `${input.completion.timeoutSeconds + 60} seconds`,
    heartbeatTimeout: '1 minute',
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: { maximumAttempts: 3, initialInterval: '1 second' },
  });

  // The detection pass is short and runs next to the workflow: a local activity costs one marker event, not six.
  const { inspectIteration } = proxyLocalActivities<typeof activities>({
    startToCloseTimeout: '5 minutes',
    retry: { maximumAttempts: 3, initialInterval: '1 second' },
  });
  const { restoreCheckpoint } = proxyActivities<typeof activities>({
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: '2 minutes',
    retry: { maximumAttempts: 3, initialInterval: '1 second' },
  });

  // Search attributes: upsert only what changed (each upsert is a history event).
  const upserted: Record<string, unknown> = {};
  const syncSearchAttributes = (): void => {
    const want = {
      status: m.state.status,
      iteration: m.state.iteration,
      awaitingHuman: m.state.pendingGate !== undefined,
      agent: m.state.agent,
    };
    const changed = (Object.keys(want) as (keyof typeof want)[]).filter((k) => upserted[k] !== want[k]);
    if (!changed.length) return;
    upsertSearchAttributes(
      changed.map(
        (k) =>
          ({ key: SA[k], value: want[k] }) as Parameters<typeof upsertSearchAttributes>[0] extends (infer U)[]
            ? U
            : never,
      ),
    );
    for (const k of changed) upserted[k] = want[k];
  };

  let stateFile = carry?.stateFile ?? '';
  const persist = async (record?: IterationRecord, events?: InterventionEvent[]): Promise<void> => {
    syncSearchAttributes();
    stateFile = (await persistState({ state: m.state, record, events })).stateFile;
  };
  const finish = async (
    result: Omit<LoopResult, 'loopId' | 'iterations' | 'totals' | 'stateFile'>,
  ): Promise<LoopResult> => {
    if (tracker && result.status !== 'failed') await restoreBest();
    const r = m.finish(result, stateFile, nowIso());
    await persist();
    log.info(`loop ${m.state.loopId} ended: ${r.status} (${r.reason})`);
    return r;
  };
  const fail = async (e: ApplicationFailure): Promise<never> => {
    await finish({ status: 'failed', reason: e.message });
    throw e;
  };

  /**
   * Best output selection at loop end: among iterations at or above the quality threshold, verified first, the
   * highest score; when it is not the final iteration, its checkpoint is restored (working tree or branch).
   */
  const restoreBest = async (): Promise<void> => {
    const best = tracker!.best();
    if (!best) return;
    const t = tracker!.state.trajectory;
    const final = t[t.length - 1];
    tracker!.state.best = best;
    if (!final || final.n === best.iteration || pcfg.bestOutput.restore === 'off') return;
    try {
      const r = await restoreCheckpoint({
        loopId: m.state.loopId,
        workspace: input.workspace,
        stateDir,
        label: best.checkpoint,
        to: pcfg.bestOutput.restore,
        saveAs: postLabel(final.n) === best.checkpoint ? undefined : 'final',
      });
      best.restoredTo = r.restoredTo;
      log.info(`best output: ${best.reason}; restored to ${r.restoredTo}`);
    } catch (e) {
      log.warn(`best output: could not restore ${best.checkpoint}: ${describeActivityFailure(e).message}`);
    }
  };

  /** Opens a human gate and waits, indefinitely, for the decision that closes it. */
  const awaitHuman = async (reason: string, title: string, details: string): Promise<GateDecision> => {
    const gate = m.openGate({ reason, title, details, options: ['approve', 'reject', 'abort'] }, nowIso());
    log.info(`human gate ${gate.id} opened: ${gate.title}`);
    await persist();
    await condition(() => m.pendingDecision !== undefined);
    return m.pendingDecision!;
  };

  /**
   * Opens a human gate and waits for the decision, indefinitely. Returns the loop's result on approve/abort, or
   * undefined on reject (the loop goes on, with guidance and extra iterations).
   */
  const humanGate = async (reason: string, title: string, details: string): Promise<LoopResult | undefined> => {
    const d = await awaitHuman(reason, title, details);
    const gate = { id: d.gateId };
    if (d.decision === 'approve')
      return finish({
        status: 'accepted',
        acceptedBy: 'human',
        reason: d.reason ?? `approved at gate ${gate.id}`,
        by: d.by,
      });
    if (d.decision === 'abort')
      return finish({ status: 'aborted', reason: d.reason ?? `aborted at gate ${gate.id}`, by: d.by });
    if (reason === 'rejections') m.resetRejections();
    if (reason === 'budget') m.state.budgetScale = (m.state.budgetScale ?? 1) + 0.5;
    m.setPhase('agent', nowIso());
    await persist();
    return undefined;
  };

  /**
   * PDARE's escalation: a human sees the regression. Approve keeps the changes (and accepts the loop if the iteration
   * had passed its check), reject rolls the workspace back to the iteration's pre-run checkpoint and continues with
   * AGGRESSIVE reinforcement, abort ends the loop.
   */
  const regressionGate = async (
    n: number,
    esc: EscalationRequest,
    completed: boolean,
  ): Promise<LoopResult | undefined> => {
    const d = await awaitHuman(esc.reason, esc.title, esc.details);
    const rollbackTo = tracker!.onDecision(d.decision, n);
    if (d.decision === 'abort')
      return finish({ status: 'aborted', reason: d.reason ?? `aborted at gate ${d.gateId}`, by: d.by });
    if (d.decision === 'approve' && completed)
      return finish({
        status: 'accepted',
        acceptedBy: 'human',
        reason: d.reason ?? `approved at gate ${d.gateId}`,
        by: d.by,
      });
    if (rollbackTo) {
      const r = await restoreCheckpoint({
        loopId: m.state.loopId,
        workspace: input.workspace,
        stateDir,
        label: rollbackTo,
        to: 'worktree',
        saveAs: `${postLabel(n)}-rejected`,
      });
      m.state.pendingFeedback.unshift(
        `The reviewer REJECTED iteration ${n} (${esc.title}). Its changes were rolled back to checkpoint ${rollbackTo} ` +
          `(${r.restored} files restored, ${r.removed} removed). Do the task again without repeating what was detected.`,
      );
    }
    m.setPhase('agent', nowIso());
    await persist();
    return undefined;
  };

  const gateSpecs = input.gates?.gates.filter((g) => g.enabled) ?? [];
  const runGates = (): Promise<GateVerdict[]> =>
    Promise.all(
      gateSpecs.map(async (gate) => {
        // Each gate is its own activity: its own timeout and retry policy, and independent gates run in parallel.
        const { runGate } = proxyActivities<typeof activities>({
          startToCloseTimeout: `${gate.timeoutSeconds + 60} seconds`,
          heartbeatTimeout: '1 minute',
          retry: { maximumAttempts: gate.maxAttempts ?? 2, initialInterval: '1 second' },
        });
        try {
          return await runGate({
            loopId: m.state.loopId,
            iteration: m.nextIteration,
            workspace: input.workspace,
            stateDir,
            gate,
            // Resolved (profile + overrides) by validateLoopInput.
            thresholds: gate.thresholds as GateThresholds,
            previousIds: tracker?.state.testIds?.[gate.name],
          });
        } catch (e) {
          // A gate that can't run never counts as passing.
          const why = describeActivityFailure(e).message;
          const failed: GateVerdict = {
            name: gate.name,
            kind: gate.kind,
            passed: false,
            expected: 'the gate runs',
            actual: 'could not run',
            message: `${gate.name}: could not run (${why})`,
            items: [],
            score: 0,
            durationMs: 0,
            outputPath: '',
          };
          return failed;
        }
      }),
    );

  await persist();
  let runIterations = 0;

  for (;;) {
    if (m.abortRequested)
      return finish({ status: 'aborted', reason: m.abortInfo?.reason ?? 'aborted by signal', by: m.abortInfo?.by });

    if (m.state.paused) {
      m.setPhase('paused', nowIso());
      await persist();
      await condition(() => !m.state.paused || m.abortRequested);
      m.setPhase('agent', nowIso());
      continue;
    }

    if (runIterations >= input.continueAsNewEvery || workflowInfo().continueAsNewSuggested) {
      // Handlers are synchronous today; waiting keeps that safe if one ever awaits.
      await condition(allHandlersFinished);
      const next: RalphLoopCarry = { machine: m.carry(), stateFile };
      return continueAsNew<typeof ralphLoop>(input, next);
    }

    if (m.budgetExhausted) {
      if (input.onBudgetExhausted === 'end')
        return finish({
          status: 'failed',
          reason: `${m.state.maxIterations} iterations used up without passing the completion check`,
        });
      const outcome = await humanGate(
        'max_iterations',
        `Reached ${m.state.maxIterations} iterations without passing the completion check`,
        lastIterationSummary(m.state.records[m.state.records.length - 1]),
      );
      if (outcome) return outcome;
      continue;
    }

    // ---- one iteration ----
    const n = m.nextIteration;
    const startedAt = nowIso();
    const t0 = Date.now();
    const prompt = m.promptInputs();
    const reinforcement = tracker?.beforeIteration(n);
    let agent: activities.RunAgentResult | undefined;
    let agentFailure: string | undefined;
    let agentTimedOut = false;
    let agentAttempts = 1;
    for (let run = 1; ; run++) {
      m.setPhase('agent', nowIso());
      m.countAgentRun();
      try {
        agentScope = new CancellationScope();
        agent = await agentScope.run(() =>
          runAgent({
            loopId: m.state.loopId,
            iteration: n,
            run,
            maxIterations: m.state.maxIterations,
            workspace: input.workspace,
            stateDir,
            agent: input.agent,
            prompt: input.prompt,
            promptFile: input.promptFile,
            feedback: prompt.feedback,
            guidance: prompt.guidance,
            promise: input.completion.promise,
            checkCommand: input.completion.command,
            sections: reinforcement?.sections,
            checkpoint: tracker ? { label: preLabel(n, run) } : undefined,
            hooks: tracker && pcfg.hooks.enabled ? { enabled: true, policy: pcfg.hooks.policy } : undefined,
          }),
        );
      } catch (e) {
        if (isCancellation(e) && m.abortRequested)
          return finish({
            status: 'aborted',
            reason: m.abortInfo?.reason ?? 'aborted while the agent was running',
            by: m.abortInfo?.by,
          });
        const fatal = asLoopFailure(e);
        if (fatal) return fail(fatal);
        const f = describeActivityFailure(e);
        agentFailure = f.message;
        agentTimedOut = f.timedOut;
        if (f.result) agent = f.result;
      } finally {
        agentScope = undefined;
      }
      agentAttempts = agent?.attempt ?? agentAttempts;
      if (!agent?.usageLimit) break;
      // Usage limit: sleep durably (a timer, no live process) and run the same iteration again; not a failure.
      const resetAt = agent.usageLimit.resetAt ?? Date.now() + DEFAULT_USAGE_LIMIT_WAIT_MS;
      const waitMs = Math.min(Math.max(1000, resetAt - Date.now() + 1000), input.maxUsageLimitWaitSeconds * 1000);
      m.recordUsageLimitWait(waitMs, new Date(Date.now() + waitMs).toISOString(), nowIso());
      log.info(`usage limit: sleeping ${Math.round(waitMs / 1000)}s before re-running iteration ${n}`, {
        message: agent.usageLimit.message,
      });
      await persist();
      await condition(() => m.abortRequested, waitMs);
      if (m.abortRequested)
        return finish({
          status: 'aborted',
          reason: m.abortInfo?.reason ?? 'aborted during a usage-limit wait',
          by: m.abortInfo?.by,
        });
      m.wake(nowIso());
      agent = undefined;
    }

    const claimed = agent?.claim.claimed ?? false;
    // The detection pass: post-run checkpoint, diff against the pre-run one, workspace detectors.
    let inspected: activities.InspectIterationResult | undefined;
    if (tracker && agent?.checkpoint) {
      m.setPhase('inspecting', nowIso());
      try {
        inspected = await inspectIteration({
          loopId: m.state.loopId,
          iteration: n,
          workspace: input.workspace,
          stateDir,
          pre: preLabel(n),
          // The pre-run checkpoint of run 1 (a usage-limit re-run records its own, under another label).
          preCommit: agent.checkpoint.label === preLabel(n) ? agent.checkpoint.commit : undefined,
          post: postLabel(n),
          exitCode: agent.exitCode,
          claimed,
          claimedFiles: agent.claimedFiles,
          finalTextTail: agent.finalTextTail,
          promptPath: agent.promptPath,
          detectors: pcfg.detectors,
        });
      } catch (e) {
        log.warn(`detection pass failed: ${describeActivityFailure(e).message}`);
      }
    }
    let check: activities.CheckCompletionResult | undefined;
    const command = input.completion.command;
    if (command && !agentFailure && (checkOn === 'every-iteration' || claimed)) {
      m.setPhase('checking', nowIso());
      try {
        check = await checkCompletion({
          loopId: m.state.loopId,
          iteration: n,
          run: 1,
          workspace: input.workspace,
          stateDir,
          command,
          timeoutSeconds: input.completion.timeoutSeconds,
        });
      } catch (e) {
        // A check that can't run never counts as passing.
        check = {
          passed: false,
          exitCode: null,
          timedOut: false,
          durationMs: 0,
          outputPath: '',
          outputTail: describeActivityFailure(e).message,
        };
      }
    }

    let verdicts: GateVerdict[] | undefined;
    let gatesWallMs: number | undefined;
    const gatesCfg = input.gates;
    if (
      gateSpecs.length &&
      gatesCfg &&
      !agentFailure &&
      (gatesCfg.runOn === 'every-iteration' || claimed || !input.completion.promise)
    ) {
      m.setPhase('gates', nowIso());
      const tg = Date.now();
      verdicts = await runGates();
      gatesWallMs = Date.now() - tg;
    }
    const gatesPassed = verdicts ? verdicts.every((v) => v.passed) : false;
    let completed = gateSpecs.length
      ? gatesPassed && (command ? check?.passed === true : true)
      : command
        ? check?.passed === true
        : claimed && !agentFailure;
    const verified = completed && (gateSpecs.length > 0 || !!command);
    const quality = verdicts ? qualityScore(verdicts).score : undefined;
    let decision: IterationDecision | undefined;
    if (tracker) {
      for (const v of verdicts ?? []) if (v.idsPath) (tracker.state.testIds ??= {})[v.name] = v.idsPath;
      const failedText = [
        agentFailure,
        check && !check.passed ? check.outputTail : undefined,
        ...(verdicts ?? []).filter((v) => !v.passed).map((v) => `${v.name}: ${v.message}`),
      ].filter((t): t is string => !!t);
      const metrics = (verdicts ?? []).reduce(
        (acc, v) => ({ tests: acc.tests ?? v.metrics?.tests, coverage: acc.coverage ?? v.metrics?.coverage }),
        {} as NonNullable<GateVerdict['metrics']>,
      );
      decision = tracker.afterIteration({
        n,
        now: nowIso(),
        claimed,
        verified,
        exitCode: agent?.exitCode ?? null,
        changes: inspected?.changes,
        detections: inspected?.detections ?? [],
        gateDetections: (verdicts ?? []).flatMap((v) => v.detections ?? []),
        hallucinated: inspected?.hallucinated ?? 0,
        deletedTests: inspected?.deletedTests ?? [],
        diffSig: inspected?.diffSig,
        stateSig: inspected?.stateSig,
        outputSig: inspected?.outputSig,
        errorText: failedText.join('\n') || undefined,
        quality,
        metrics,
        pre: agent?.checkpoint ? preLabel(n) : undefined,
        post: inspected ? postLabel(n) : undefined,
        taskChars: (input.prompt ?? '').length,
      });
      // A claim nothing backs is overridden: the task stays open (only a promise-only loop would have accepted it).
      if (decision.overrideClaim && completed && !verified) completed = false;
    }
    const rejected = gateSpecs.length > 0 && claimed && !completed && verdicts !== undefined;

    const outcome: IterationOutcome = completed
      ? 'completed'
      : agentTimedOut
        ? 'agent_timeout'
        : agentFailure || (agent && agent.exitCode !== 0)
          ? 'agent_failed'
          : claimed
            ? 'claim_rejected'
            : 'continue';
    const record: IterationRecord = {
      n,
      startedAt,
      durationMs: Date.now() - t0,
      agent: {
        exitCode: agent?.exitCode ?? null,
        durationMs: agent?.durationMs ?? 0,
        claimed,
        claimVia: agent?.claim.via,
        failure: agentFailure,
        timedOut: agentTimedOut || undefined,
        outputBytes: agent?.outputBytes ?? 0,
        claimedFiles: agent?.claimedFiles.length ?? 0,
        usage: agent?.usage,
        attempts: agentAttempts,
      },
      check: check
        ? {
            passed: check.passed,
            exitCode: check.exitCode,
            durationMs: check.durationMs,
            timedOut: check.timedOut || undefined,
          }
        : undefined,
      outcome,
      artifactDir: agent?.artifactDir ?? '',
    };
    if (verdicts) {
      record.gates = verdicts.map((v) => ({
        name: v.name,
        passed: v.passed,
        expected: v.expected,
        actual: v.actual,
        durationMs: v.durationMs,
      }));
      record.quality = quality;
      record.gatesWallMs = gatesWallMs;
      if (rejected) record.rejected = true;
    }
    const tokensOf = (u: { inputTokens?: number; outputTokens?: number } | undefined): number | undefined =>
      u ? (u.inputTokens ?? 0) + (u.outputTokens ?? 0) : undefined;
    const iterTokens = tokensOf(agent?.usage);
    const earlier = m.state.records.map((r) => tokensOf(r.agent.usage)).filter((t): t is number => t !== undefined);
    if (isSuspiciousClaim({ claimed, claimedFiles: agent?.claimedFiles.length ?? 0, tokens: iterTokens }, earlier))
      record.flags = ['suspicious_claim'];

    if (tracker) {
      record.changes = inspected?.changes;
      record.level = reinforcement?.level;
      record.checkpoints = {
        pre: agent?.checkpoint ? preLabel(n) : undefined,
        post: inspected ? postLabel(n) : undefined,
      };
      if (decision?.types.length) {
        record.detections = decision.types;
        record.verdict = decision.verdict;
      }
      if (decision?.overrideClaim) record.claimOverridden = true;
    }
    let feedback = completed
      ? []
      : feedbackFor({
          claimed,
          agentExitCode: agent?.exitCode ?? null,
          agentFailure: agentTimedOut ? undefined : agentFailure,
          agentTimedOut,
          agentOutputTail: agent?.finalTextTail,
          iterationTimeoutSeconds: input.iterationTimeoutSeconds,
          check:
            check && command
              ? {
                  command,
                  passed: check.passed,
                  exitCode: check.exitCode,
                  outputTail: check.outputTail,
                  timedOut: check.timedOut,
                }
              : undefined,
          promiseOnly: !command,
        });
    const streak = verdicts ? m.recordGates(verdicts, rejected) : (m.state.rejectionStreak ?? 0);
    if (rejected) record.rejection = streak;
    const maxRetries = gatesCfg?.rejection.maxRetries ?? 3;
    const failedGates = verdicts?.filter((v) => !v.passed) ?? [];
    if (failedGates.length && !completed)
      feedback.unshift(gateFeedback(failedGates, { claimed, rejection: streak, maxRetries }));
    if (record.flags?.includes('suspicious_claim'))
      feedback.push(
        'Your completion claim came with far less work than earlier iterations and no changed files: make the changes in the workspace, then list them under ## Evidence.',
      );
    const budget = budgetState(
      {
        tokens: m.state.totals.inputTokens + m.state.totals.outputTokens + (iterTokens ?? 0),
        costUsd: m.state.totals.costUsd + (agent?.usage?.costUsd ?? 0),
      },
      gatesCfg?.tokenBudget,
      m.state.budgetScale ?? 1,
    );
    if (
      budget &&
      !completed &&
      !budget.exhausted &&
      budget.left <= (gatesCfg?.tokenBudget?.warnThreshold ?? 0.2) &&
      !m.state.budgetWarned
    ) {
      m.state.budgetWarned = true;
      feedback.push(
        `Token budget: ${Math.round(budget.left * 100)}% left (${budget.used}). Finish what the task requires first.`,
      );
    }
    if (decision && !completed) {
      // After the check's and the gates' own feedback (what failed), what the detectors saw (how the agent cheated).
      feedback.push(...decision.feedback);
      feedback = rotateFeedback(feedback, MAX_FEEDBACK_CHARS);
    }
    m.recordIteration(record, feedback, nowIso());

    if (!completed) m.setPhase('starting', nowIso());
    runIterations++;
    await persist(record, decision?.events);

    if (decision?.escalate) {
      const outcome = await regressionGate(n, decision.escalate, completed);
      if (outcome) return outcome;
      continue;
    }

    if (completed)
      return finish({
        status: 'accepted',
        acceptedBy: command || gateSpecs.length ? 'check' : 'promise',
        reason: gateSpecs.length
          ? `all ${gateSpecs.length} quality gates passed${command ? ` and \`${command}\` passed` : ''} at iteration ${n}`
          : command
            ? `completion check \`${command}\` passed at iteration ${n}`
            : `agent promised completion at iteration ${n}`,
      });

    if (rejected && streak >= maxRetries && gatesCfg?.rejection.escalateToHuman !== false) {
      const outcome = await humanGate(
        'rejections',
        `Completion claim rejected ${streak} times by the quality gates`,
        failedGates.map((v) => `${v.name}: ${v.message}`).join('\n'),
      );
      if (outcome) return outcome;
    } else if (budget?.exhausted) {
      const outcome = await humanGate(
        'budget',
        `Token budget used up before the gates passed (${budget.used})`,
        lastIterationSummary(record),
      );
      if (outcome) return outcome;
    }
  }
}

function lastIterationSummary(r: IterationRecord | undefined): string {
  if (!r) return 'No iteration ran.';
  const check = r.check ? `check ${r.check.passed ? 'passed' : `failed (exit ${r.check.exitCode})`}` : 'check not run';
  return `Last iteration ${r.n}: outcome ${r.outcome}, agent exit ${r.agent.exitCode}, ${check}. Artifacts: ${r.artifactDir}`;
}

interface FailureLike {
  name?: string;
  message?: string;
  type?: string;
  cause?: FailureLike;
  details?: unknown[];
  timeoutType?: unknown;
}

/** A configuration error from an activity becomes the loop's own non-retryable failure, with the same message. */
function asLoopFailure(e: unknown): ApplicationFailure | undefined {
  const cause = (e as FailureLike)?.cause;
  // Compare names, not classes: instanceof breaks across module registries.
  if (
    cause?.name === 'ApplicationFailure' &&
    cause.type &&
    (Object.values(ErrorTypes) as string[]).includes(cause.type)
  )
    return ApplicationFailure.nonRetryable(cause.message ?? 'configuration error', cause.type);
  return undefined;
}

function describeActivityFailure(e: unknown): {
  message: string;
  timedOut: boolean;
  result?: activities.RunAgentResult;
} {
  const err = e as FailureLike;
  const cause = err?.cause;
  if (cause?.name === 'TimeoutFailure')
    return { message: `timed out (${String(cause.timeoutType ?? 'timeout')})`, timedOut: true };
  if (cause?.name === 'ApplicationFailure' && cause.type === 'AgentTimeout')
    return {
      message: cause.message ?? 'agent timed out',
      timedOut: true,
      result: cause.details?.[0] as activities.RunAgentResult | undefined,
    };
  return { message: cause?.message ?? err?.message ?? String(e), timedOut: false };
}
