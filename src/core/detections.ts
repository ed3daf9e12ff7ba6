/**
 * Verdict events that the pure detectors of core emit (test deletion, validation bypass...). The workflow decides
 * what to do with them: a BLOCK stops the loop for a human, a WARN goes into the agent's feedback.
 */

/** How bad a finding is. */
export const Severity = { info: 'info', warning: 'warning', critical: 'critical' } as const;
export type Severity = (typeof Severity)[keyof typeof Severity];

/** What the loop should do about a finding: carry on, tell the agent, or stop for a human. */
export const Verdict = { PASS: 'PASS', WARN: 'WARN', BLOCK: 'BLOCK' } as const;
export type Verdict = (typeof Verdict)[keyof typeof Verdict];

/** One finding of a detector. */
export interface Detection {
  /** Stable snake_case kind, e.g. `test_deletion`, `skip_added`. */
  type: string;
  severity: Severity;
  verdict: Verdict;
  /** One human-readable sentence or two: what was found and why it matters. */
  details: string;
  /** The lines or names that prove it, e.g. `test/a.test.ts:12 it.skip('x', ...)`. */
  evidence: string[];
}

const verdictBySeverity: Record<Severity, Verdict> = { info: 'PASS', warning: 'WARN', critical: 'BLOCK' };

/** Builds a detection whose verdict follows from its severity (info → PASS, warning → WARN, critical → BLOCK). */
export function detection(type: string, severity: Severity, details: string, evidence: string[] = []): Detection {
  return { type, severity, verdict: verdictBySeverity[severity], details, evidence };
}

/** The strictest verdict among detections; PASS for none. */
export function worstVerdict(detections: readonly Detection[]): Verdict {
  if (detections.some((d) => d.verdict === 'BLOCK')) return 'BLOCK';
  return detections.some((d) => d.verdict === 'WARN') ? 'WARN' : 'PASS';
}
