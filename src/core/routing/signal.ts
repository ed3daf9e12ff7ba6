/**
 * The `route` signal: an operator forces an agent profile on a loop or project (`ralph route <id> --agent <name>`).
 * Name and payload are defined here, pure, so the CLI, the workflow's `defineSignal` and its handler share them;
 * the handler validates with {@link routePayloadProblem} (no zod in workflow code).
 */
import { agentNameProblem } from './handoff';

/** The signal's name, as `temporal workflow signal --name route` types it. */
export const ROUTE_SIGNAL = 'route';

/** Payload of the `route` signal. */
export interface RoutePayload {
  /** Profile to force, or `base` to force the base agent (no specialist). */
  agent: string;
  /** Who asked. */
  by?: string;
  reason?: string;
  /** Idempotency key: a repeated request is recorded once. */
  requestId?: string;
}

/** The `agent` value that forces the base agent. */
export const BASE_AGENT = 'base';

/** Why a payload is not a valid `route` request, or undefined when it is. */
export function routePayloadProblem(p: unknown): string | undefined {
  if (!p || typeof p !== 'object') return 'route needs a payload {"agent": "<profile name>"}';
  const { agent, by, reason, requestId } = p as Record<string, unknown>;
  if (typeof agent !== 'string') return 'route needs "agent": the profile name, e.g. security_specialist';
  const problem = agentNameProblem(agent);
  if (problem) return problem;
  for (const [k, v] of Object.entries({ by, reason, requestId }))
    if (v !== undefined && (typeof v !== 'string' || v.length > 500))
      return `"${k}" must be a string of at most 500 characters`;
  return undefined;
}
