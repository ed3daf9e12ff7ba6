/**
 * What a loaded agent profile changes about an iteration: the agent spec (adapter, options, model) and the timeout.
 * Pure, so the workflow applies a profile without I/O; the activity that loads profiles returns {@link LoadedProfile}.
 */

/** The fields of an agent spec a profile can set (structurally the loop's `AgentSpec`). */
export interface ProfileAgentFields {
  adapter?: string;
  binary?: string;
  model?: string;
  args?: string[];
  env?: Record<string, string>;
  command?: string[];
  script?: string;
}

/** A profile as loaded for a run: small, the instructions clipped to the configured limit. */
export interface LoadedProfile {
  name: string;
  domain: string;
  description?: string;
  /** Agent overrides: only the fields the profile sets. */
  agent: ProfileAgentFields;
  /** Iterations, tokens (input + output) and cost the routed agent may use in one loop. */
  budget?: { iterations?: number; tokens?: number; costUsd?: number };
  iterationTimeoutSeconds?: number;
  /** The profile's body: the specialist's instructions. */
  instructions: string;
  /** Characters of the body before clipping. */
  instructionsChars: number;
}

/**
 * The agent spec of a routed iteration: the loop's spec with the profile's adapter, options and model on top. When
 * the profile changes the adapter, the loop's adapter-specific options (binary, command, script, args) are dropped:
 * they belong to the other adapter. Env is merged, the profile's values winning.
 */
export function profileAgentSpec<A extends ProfileAgentFields & { adapter: string }>(base: A, p: LoadedProfile): A {
  const o = p.agent;
  const sameAdapter = !o.adapter || o.adapter === base.adapter;
  const spec = sameAdapter
    ? { ...base }
    : ({ adapter: o.adapter, args: [], env: base.env ?? {}, model: base.model } as unknown as A);
  for (const k of ['binary', 'model', 'args', 'command', 'script'] as const)
    if (o[k] !== undefined) (spec as Record<string, unknown>)[k] = o[k];
  if (o.env) spec.env = { ...(spec.env ?? {}), ...o.env };
  return spec;
}

/** The iteration timeout of a routed iteration: the larger of the profile's and the loop's (adaptive) one. */
export const profileTimeout = (loopSeconds: number, p: Pick<LoadedProfile, 'iterationTimeoutSeconds'> | undefined) =>
  Math.max(loopSeconds, p?.iterationTimeoutSeconds ?? 0);
