/**
 * Verify phase: the checks the agent cannot negotiate. The completion command runs when the agent claims done (or
 * after every iteration, `checkOn`); the quality gates run in parallel, each its own activity. A check or a gate that
 * can't run never counts as passing.
 */
import type * as activities from '../../activities';
import { gateCouldNotRun, type GateVerdict } from '../../core/gate-rules';
import type { AgentRun } from './agent';
import { nowIso, type LoopContext } from './context';
import { describeActivityFailure, rethrowHostMove } from './failures';

/** What the checks said about iteration `n`. */
export interface Verification {
  /** The completion command, if the loop has one. */
  command?: string;
  check?: activities.CheckCompletionResult;
  verdicts?: GateVerdict[];
  /** Wall time of the gates phase (all gates, in parallel). */
  gatesWallMs?: number;
}

/** Runs the completion check and the gates that are due for iteration `n`. */
export async function verifyPhase(ctx: LoopContext, n: number, run: AgentRun): Promise<Verification> {
  const { m, input } = ctx;
  const claimed = run.result?.claim.claimed ?? false;
  const out: Verification = { command: input.completion.command };
  const command = out.command;
  // A fused iteration ran the check inside the agent's activity, under the same rule.
  if (run.result?.check) out.check = run.result.check;
  else if (command && !run.failure && (ctx.checkOn === 'every-iteration' || claimed)) {
    m.setPhase('checking', nowIso());
    try {
      out.check = await ctx.acts.checkCompletion({
        loopId: m.state.loopId,
        iteration: n,
        run: 1,
        workspace: input.workspace,
        stateDir: ctx.stateDir,
        command,
        timeoutSeconds: input.completion.timeoutSeconds,
      });
    } catch (e) {
      rethrowHostMove(e);
      out.check = {
        passed: false,
        exitCode: null,
        timedOut: false,
        durationMs: 0,
        outputPath: '',
        outputTail: describeActivityFailure(e).message,
      };
    }
  }
  const gatesCfg = input.gates;
  if (
    ctx.gateSpecs.length &&
    gatesCfg &&
    !run.failure &&
    (gatesCfg.runOn === 'every-iteration' || claimed || !input.completion.promise)
  ) {
    m.setPhase('gates', nowIso());
    const t = Date.now();
    out.verdicts = await runGates(ctx, n);
    out.gatesWallMs = Date.now() - t;
  }
  return out;
}

/** Runs every enabled gate in parallel; a gate that can't run is a failed verdict. */
function runGates(ctx: LoopContext, n: number): Promise<GateVerdict[]> {
  return Promise.all(
    ctx.gateSpecs.map(async (gate) => {
      try {
        return await ctx.acts.runGate(gate)({
          loopId: ctx.m.state.loopId,
          iteration: n,
          workspace: ctx.input.workspace,
          stateDir: ctx.stateDir,
          gate,
          // Resolved (profile + overrides) by validateLoopInput.
          thresholds: gate.thresholds,
          previousIds: ctx.tracker?.state.testIds?.[gate.name],
        });
      } catch (e) {
        rethrowHostMove(e);
        const why = describeActivityFailure(e).message;
        return gateCouldNotRun(gate, why);
      }
    }),
  );
}
