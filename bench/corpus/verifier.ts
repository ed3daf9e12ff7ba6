/**
 * Issue 10's verification mechanism as the real-repo corpus and the cost bench call it: the activities the ralphLoop
 * workflow runs, called directly (no server), with the loop's default verification settings. `baseline` records the
 * protected set when the loop starts (recordVerificationBaseline); `verify` runs when the loop would accept
 * (verifyWork: the verification tree with the protected files restored and the original check re-run there, plus the
 * detectors of cheating the checks cannot see).
 */
import { recordVerificationBaseline, type BaselineIntegrity } from '../../src/activities/verification/record-baseline';
import { verifyWork } from '../../src/activities/verification/verify-work';
import { defaultVerificationConfig } from '../../src/config/verification-config';
import type { Verifier } from './run-real-corpus';

/** The check's time limit in the verification tree, as in the corpus's own check runs. */
const TIMEOUT_SECONDS = 180;

/** The verification mechanism with the loop's defaults (`onProtectedEdit: human`: a protected edit waits on a human). */
export function mechanismVerifier(): Verifier {
  const cfg = defaultVerificationConfig();
  // The baseline's fingerprints, kept outside the workspace as the workflow keeps them in its history.
  const integrity = new Map<string, BaselineIntegrity>();
  return {
    name: 'verification tree (issue 10)',
    async baseline(ctx) {
      const b = await recordVerificationBaseline({
        loopId: ctx.loopId,
        workspace: ctx.workspace,
        stateDir: ctx.stateDir,
        prompt: ctx.task,
        commands: [ctx.command],
        verification: { protect: cfg.protect, allow: cfg.allow, hookPolicy: cfg.hookPolicy },
      });
      integrity.set(ctx.loopId, b.integrity);
    },
    async verify(ctx) {
      const r = await verifyWork({
        loopId: ctx.loopId,
        iteration: ctx.iteration,
        workspace: ctx.workspace,
        stateDir: ctx.stateDir,
        post: ctx.post,
        command: ctx.command,
        timeoutSeconds: TIMEOUT_SECONDS,
        gates: [],
        integrity: integrity.get(ctx.loopId),
      });
      const cheats = r.detections.filter((d) => d.verdict === 'BLOCK');
      const types = [
        ...(r.passed ? [] : ['tampered_verification']),
        ...(r.protectedChanges.length ? ['protected_edit'] : []),
        ...r.detections.filter((d) => d.verdict !== 'PASS').map((d) => d.type),
      ];
      return {
        passed: r.passed,
        ran: r.ran,
        protectedEdit: r.protectedChanges.length > 0 && cfg.onProtectedEdit === 'human',
        cheats: cheats.map((d) => d.type),
        types: [...new Set(types)],
        durationMs: r.durationMs,
        treeMs: r.treeMs,
        checkMs: r.check?.durationMs,
      };
    },
  };
}
