/**
 * The agent sandbox as the loop sees it: each run reports how it was sandboxed (the loop's state follows the last
 * run, so status, the console and the RalphSandbox search attribute show an unsandboxed run), and the writes the
 * sandbox refused become `sandbox_denied` events: evidence for a human, never a verdict.
 */
import type { InterventionEvent } from '../../core/anti-laziness-types';
import type * as activities from '../../activities';
import { nowIso, type LoopContext } from './context';

/** Records the run's sandbox status in the loop state; returns its `sandbox_denied` events (none when none). */
export function sandboxEvents(
  ctx: LoopContext,
  n: number,
  result: activities.RunAgentResult | undefined,
): InterventionEvent[] {
  const sb = result?.sandbox;
  if (!sb) return [];
  const { m } = ctx;
  m.state.sandbox = { state: sb.state, ...(sb.reason ? { reason: sb.reason } : {}) };
  if (!sb.denied?.length) return [];
  return [
    {
      id: `${n}:sandbox_denied:1`,
      loopId: m.state.loopId,
      iteration: n,
      timestamp: nowIso(),
      agent: m.state.agent,
      type: 'sandbox_denied',
      severity: 'info',
      verdict: 'PASS',
      details: `the sandbox refused ${sb.denied.length} write(s) outside what the agent may change`,
      evidence: sb.denied.map((d) => `${d.path}: ${d.line}`),
    },
  ];
}
