/**
 * Next step: after an iteration is recorded, its judgement becomes what the loop does. The one place that decides
 * between accepting, asking a human and going on.
 */
import type { LoopContext, Next } from './context';
import type { IterationFacts, Judgement } from './decide';
import { lastIterationSummary } from './failures';
import { rollbackLabel } from './original-checks';
import type { Recorded } from './record';
import { diffLine } from '../../core/questions';
import { agentQuestionNext, clarification } from './question';

/**
 * What the loop does after a recorded iteration, in order of precedence: an escalation (human decides on the
 * regression), the agent's question, acceptance, a human gate after too many rejections, a human gate when the token
 * budget is used up, PDARE's clarification (a question gate), else the next iteration.
 */
export function nextStep(ctx: LoopContext, f: IterationFacts, j: Judgement, r: Recorded): Next {
  const { n } = f;
  const { command } = f.verification;
  const gates = ctx.gateSpecs.length;
  // Verification first: whatever else happened, acceptance waits for a human when the checks were changed.
  const vgate = j.original?.gate;
  if (vgate) {
    const esc = j.decision?.escalate;
    return {
      kind: 'verification-gate',
      n,
      ...vgate,
      details: esc ? `${vgate.details}\n\nAlso (${esc.title}):\n${esc.details}` : vgate.details,
      trackerEscalated: !!esc,
      rollbackTo: rollbackLabel(n, f.run),
    };
  }
  const esc = j.decision?.escalate;
  if (esc) {
    // A regression comes first; the agent's question is shown with it (and not counted).
    const asked = f.question?.allowed ? `\n\nThe agent also asked:\n${f.question.text}` : '';
    return { kind: 'escalate', n, escalation: { ...esc, details: esc.details + asked }, completed: j.completed };
  }
  // The agent asks a human (never accepts work): the question gate.
  if (f.question?.allowed) return agentQuestionNext(n, f.question, f.inspected?.changes);
  if (j.completed)
    return {
      kind: 'accept',
      acceptedBy: command || gates ? 'check' : 'promise',
      reason:
        (gates
          ? `all ${gates} quality gates passed${command ? ` and \`${command}\` passed` : ''} at iteration ${n}`
          : command
            ? `completion check \`${command}\` passed at iteration ${n}`
            : `agent promised completion at iteration ${n}`) +
        (j.original ? `; the original checks pass too${j.original.note ? ` (${j.original.note})` : ''}` : ''),
    };
  if (j.rejected && r.streak >= r.maxRetries && ctx.input.gates?.rejection.escalateToHuman !== false)
    return {
      kind: 'human-gate',
      reason: 'rejections',
      title: `Completion claim rejected ${r.streak} times by the quality gates`,
      details: r.failedGates.map((v) => `${v.name}: ${v.message}`).join('\n'),
    };
  if (r.budget?.exhausted)
    return {
      kind: 'human-gate',
      reason: 'budget',
      title: `Token budget used up before the gates passed (${r.budget.used})`,
      details: lastIterationSummary(r.record),
    };
  // PDARE diagnosed specification ambiguity: ask a human for the agent, while questions are left.
  const clarify = j.decision?.clarify
    ? clarification(ctx, n, j.decision.clarify, diffLine(f.inspected?.changes))
    : undefined;
  return clarify ?? { kind: 'continue' };
}
