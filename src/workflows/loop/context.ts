/**
 * The typed context every phase of a `ralphLoop` iteration receives, and the decision an iteration hands back to the
 * loop. Phases read the input, the machine and the tracker from here and never reach into each other's variables.
 */
import type { GateEvidence } from '../../core/verification/evidence';
import type { CancellationScope } from '@temporalio/workflow';
import type { ResolvedGateSpec, ResolvedLoopInput } from '../../config/loop-input';
import type { LoopMachine } from '../../core/loop-machine';
import type { LoopResult } from '../../core/loop-types';
import type { EscalationRequest, AntiLazinessTracker } from '../../core/anti-laziness';
import type { LoopActivities } from './activities';
import type { RoutingHandle } from './routing-types';
import type { QuestionSource } from '../../core/questions';

/** Handles shared between the signal handlers and the running phase. */
export interface LiveHandles {
  /** The running agent's scope: `abort` cancels it, and the activity kills the agent's process group. */
  agentScope?: CancellationScope;
  /**
   * True while an iteration runs: only then may an activity waiting for a dead host give way to a `ralph move` (the
   * iteration is redone on the new host; a human gate or the loop's end waits for the host instead).
   */
  inIteration?: boolean;
  /** Automatic routing: the tracker once active, and `route` requests received before it was. */
  routing: RoutingHandle;
}

/** Everything a phase needs: the validated input, the loop's rules (machine, tracker) and the activities. */
export interface LoopContext {
  /** The validated input; a `ralph move` changes its host, workspace and stateDir. */
  input: ResolvedLoopInput;
  /** The loop's state and rules (core). */
  readonly m: LoopMachine;
  /** The anti-laziness layer, when on (patch anti-laziness-v1). */
  readonly tracker?: AntiLazinessTracker;
  /** Bound to the loop's host: re-made by a move. */
  acts: LoopActivities;
  readonly live: LiveHandles;
  stateDir: string;
  /** When the completion command runs: on a claim, or after every iteration. */
  readonly checkOn: 'claim' | 'every-iteration';
  /** The enabled quality gates. */
  readonly gateSpecs: ResolvedGateSpec[];
  /** Path of the loop's state.json, as the last persist wrote it (carried through continue-as-new). */
  stateFile: string;
  /** Iterations run by this run: continue-as-new counts them. */
  runIterations: number;
  /** Search attributes as last upserted: only changes are upserted (each upsert is a history event). */
  readonly upserted: Record<string, unknown>;
  /**
   * Patch `patches-at-start-v1` (asked once per run, in createContext): the fused iteration and the v3 routing model
   * are on without asking their patches, and no quality/cost patch is asked. False for loops recorded before it.
   */
  readonly patchesAtStart: boolean;
  /**
   * Patch `persist-activity-v1` (asked once per run, in createContext): state.json is written by a normal activity and
   * a routed run's profile loaded by one, so the code after them sees the same signals on replay (./activities.ts).
   */
  readonly persistActivity: boolean;
  /** Patch `routing-v4-model` (asked once per run, in createContext): routing classifies with the v4 model. */
  readonly routingV4: boolean;
  /** Patch `routing-v5-model` (asked once per run, in createContext, after routing-v4-model): the v5 model. */
  readonly routingV5: boolean;
  /** Patch `routing-v6-model` (asked once per run, in createContext, after routing-v5-model): the v6 model. */
  readonly routingV6: boolean;
  /** Patch `routing-v7-model` (asked once per run, in createContext, after routing-v6-model): the v7 rules. */
  readonly routingV7: boolean;
  /** Patch `routing-v8-model` (asked once per run, in createContext, after routing-v7-model): the v8 model. */
  readonly routingV8: boolean;
  /** Patch `routing-v9-model` (asked once per run, in createContext, after routing-v8-model): the v9 rules. */
  readonly routingV9: boolean;
  /** Patch `routing-v10-model` (asked once per run, in createContext, after routing-v9-model): the v10 rules. */
  readonly routingV10: boolean;
  /** Patch `routing-v13-model` (asked once per run, in createContext, after routing-v10-model): the v13 rules. */
  readonly routingV13: boolean;
  /** Patch `routing-v14-model` (asked once per run, in createContext, after routing-v13-model): the v14 rules. */
  readonly routingV14: boolean;
  /** Patch `routing-v15-model` (asked once per run, in createContext, after routing-v14-model): the v15 keywords. */
  readonly routingV15: boolean;
  /** Patch `routing-v16-model` (asked once per run, in createContext, after routing-v15-model): the v16 keywords. */
  readonly routingV16: boolean;
  /** Patch `routing-v17-model` (asked once per run, in createContext, after routing-v16-model): the v17 rules. */
  readonly routingV17: boolean;
  /** Patch `routing-v18-model` (asked once per run, in createContext, after routing-v17-model): the v18 rules. */
  readonly routingV18: boolean;
  /** Patch `routing-v21-model` (asked once per run, in createContext, after routing-v18-model): the v21 rules. */
  readonly routingV21: boolean;
  /** Patch `routing-v24-model` (asked once per run, in createContext, after routing-v21-model): the v24 rules. */
  readonly routingV24: boolean;
  /** Patch `routing-v25-model` (asked once per run, in createContext, after routing-v24-model): the v25 rules. */
  readonly routingV25: boolean;
  /** Patch `routing-v26-model` (asked once per run, in createContext, after routing-v25-model): the v26 rules. */
  readonly routingV26: boolean;
  /** Patch `routing-v29-model` (asked once per run, in createContext, after routing-v26-model): the v29 model. */
  readonly routingV29: boolean;
  /** The quality/cost search-attribute patch was asked in this run (loops recorded before `patchesAtStart`). */
  qualityCostAsked?: boolean;
  /** The verification baseline, when verification is on (patch verification-v1) and it was recorded. */
  verification?: VerificationBaseline;
  /**
   * Questions are on (patch questions-v1 and `questions.max` > 0), as found when the current iteration's agent run
   * returned (the first thing of a workflow task, so the patch marker replays where it was recorded).
   */
  questionsOn?: boolean;
  /**
   * The loop is a project's child and tells it when a human gate opens and closes (patch `child-gate-notice-v1`,
   * asked once when the context is made).
   */
  notifiesParent?: string;
}

/** What the workflow keeps of the verification baseline (small; carried through continue-as-new). */
export interface VerificationBaseline {
  manifestPath: string;
  /** Fingerprints checked before the manifest and baseline are trusted (kept in history, out of the agent's reach). */
  integrity: { commit: string | null; manifestSha256: string; archiveSha256?: string };
  protectedCount: number;
}

/** A loop result before the machine fills in the totals. */
export type LoopEnding = Omit<LoopResult, 'loopId' | 'iterations' | 'totals' | 'stateFile'>;

/** Human gates the loop itself opens (the anti-laziness layer's gates are {@link Next} `escalate`). */
export type LoopGateReason = 'max_iterations' | 'rejections' | 'budget';

/** What the loop does after a phase: the one place an iteration's outcome turns into control flow. */
export type Next =
  /** Start the next iteration. */
  | { kind: 'continue' }
  /** This run has done its share: continue as new with the carry. */
  | { kind: 'continue-as-new' }
  /** The loop ends (aborted, budget used up with `onBudgetExhausted: end`). */
  | { kind: 'finish'; ending: LoopEnding }
  /** A configuration error: the loop fails, non-retryably, with the activity's message. */
  | { kind: 'fail'; error: Error }
  /** The check and the gates passed: the work is accepted. */
  | { kind: 'accept'; acceptedBy: 'check' | 'promise'; reason: string }
  /** Ask a human: the budget, the rejections or the iterations ran out. */
  | { kind: 'human-gate'; reason: LoopGateReason; title: string; details: string }
  /** The anti-laziness layer escalates iteration `n` (regression, stuck loop...): a human decides. */
  | { kind: 'escalate'; n: number; escalation: EscalationRequest; completed: boolean }
  /** A `ralph move` is pending: re-create the workspace on the new host, then go on there. */
  | { kind: 'move' }
  /** The agent (or PDARE for it) asks a human at iteration `n`: a question gate waits for the answer. */
  | { kind: 'question'; n: number; text: string; options: string[]; source: QuestionSource; diff: string }
  /**
   * Verification stops acceptance of iteration `n`: the original checks fail, protected files changed, or the code
   * special-cases the checks. Approve accepts; reject rolls back to `rollbackTo` and goes on.
   */
  | {
      kind: 'verification-gate';
      n: number;
      reason: 'tampered_verification' | 'protected_edit' | 'unchecked_cheating';
      title: string;
      details: string;
      /** The protected files' diff and the failure excerpt the gate shows. */
      evidence?: GateEvidence;
      /** The anti-laziness layer escalated the same iteration: this gate answers its escalation too. */
      trackerEscalated: boolean;
      rollbackTo?: string;
    };

/** Workflow time as ISO text (deterministic: the SDK's clock). */
export const nowIso = (): string => new Date().toISOString();
