/**
 * Routing's activities: loading profiles and one profile, the session, reading a handoff, recording routing
 * decisions. The files themselves (profiles, session, log) are read and written by state/routing-files.ts. Nothing
 * here throws for a bad or missing profile: routing never blocks the work, the caller falls back to the base agent.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AgentAdapter } from '../config/loop-input';
import { RoutingSession } from '../config/routing';
import { ROUTING_DEFAULTS } from '../core/routing/classifier';
import { parseHandoff, screenHandoff, type Handoff } from '../core/routing/handoff';
import { type RoutingLogEntry } from '../core/routing/log';
import type { LoadedProfile } from '../core/routing/profile';
import {
  type LoadAgentProfilesInput,
  type LoadAgentProfilesResult,
  ProfileError,
  type ProfileProblem,
  type ReadSessionResult,
  appendRoutingLog,
  loadAgentProfiles,
  profilesDir,
  readProfileFile,
  readSession,
  routingLogFile,
  sessionFile,
  writeSession,
} from '../state/routing-files';
import { observeRouting } from '../telemetry/metrics';
import { getAdapter } from './agents';
import { readTail } from './process';

// The activities among them (registered by name) and the helpers callers used from here.
export {
  MAX_PROFILE_BYTES,
  ProfileError,
  appendRoutingLog,
  loadAgentProfiles,
  profilesDir,
  readProfileFile,
  readRoutingLogs,
  readSession,
  routingLogFile,
  sessionFile,
  splitFrontMatter,
  writeSession,
} from '../state/routing-files';
export type {
  LoadAgentProfilesInput,
  LoadAgentProfilesResult,
  ProfileProblem,
  ReadSessionResult,
} from '../state/routing-files';

/** Input of {@link loadAgentProfile}. */
export interface LoadAgentProfileInput {
  workspace: string;
  dir?: string;
  name: string;
  /** Longest instructions returned (the rest is clipped, with a warning). */
  maxInstructionsChars?: number;
}

/** Result of {@link loadAgentProfile}: the profile, or why the base agent runs instead. */
export type LoadAgentProfileResult =
  | { ok: true; profile: LoadedProfile; loadMs: number; warning?: string }
  | { ok: false; reason: ProfileProblem; warning: string; loadMs: number };

/**
 * Loads one profile for a run: front matter and instructions (clipped to `maxInstructionsChars`). Never throws for a
 * bad profile: `ok: false` with a warning saying what is wrong, and the caller runs the base agent.
 */
export async function loadAgentProfile(input: LoadAgentProfileInput): Promise<LoadAgentProfileResult> {
  const started = performance.now();
  const loadMs = (): number => Math.round((performance.now() - started) * 100) / 100;
  const max = input.maxInstructionsChars ?? ROUTING_DEFAULTS.maxInstructionsChars;
  try {
    const { front, body } = readProfileFile(profilesDir(input.workspace, input.dir), input.name);
    const text = body.trim();
    const o = front.options;
    const profile: LoadedProfile = {
      name: input.name,
      domain: front.domain,
      ...(front.description ? { description: front.description } : {}),
      agent: {
        ...(front.adapter ? { adapter: front.adapter } : {}),
        ...(front.model ? { model: front.model } : {}),
        ...Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)),
      },
      ...(front.budget ? { budget: front.budget } : {}),
      ...(front.iterationTimeoutSeconds ? { iterationTimeoutSeconds: front.iterationTimeoutSeconds } : {}),
      instructions: text.length > max ? text.slice(0, max) : text,
      instructionsChars: text.length,
    };
    const warning =
      text.length > max
        ? `agent profile ${input.name}: instructions clipped from ${text.length} to ${max} characters`
        : undefined;
    return { ok: true, profile, loadMs: loadMs(), ...(warning ? { warning } : {}) };
  } catch (e) {
    const reason =
      e instanceof ProfileError || (e as Error).name === 'ProfileError' ? (e as ProfileError).reason : 'invalid';
    return {
      ok: false,
      reason,
      warning: `${(e as Error).message}: falling back to the base agent`,
      loadMs: loadMs(),
    };
  }
}

/** Input of {@link recordRouting}. */
export interface RecordRoutingInput {
  stateDir: string;
  loopId: string;
  /** The session to write; `null` removes the file (the loop ended). */
  session?: RoutingSession | null;
  /** Log entries to append; an entry's `id` makes the append idempotent. */
  entries?: (RoutingLogEntry & { id?: string })[];
}

/** Result of {@link recordRouting}. */
export interface RecordRoutingResult {
  sessionFile: string;
  logFile: string;
  appended: number;
}

/** Writes (or removes) the loop's routing session and appends to its routing log, in one activity. */
export async function recordRouting(input: RecordRoutingInput): Promise<RecordRoutingResult> {
  const sFile = sessionFile(input.stateDir, input.loopId);
  const lFile = routingLogFile(input.stateDir, input.loopId);
  const appended = appendRoutingLog(lFile, input.entries ?? [], observeRouting);
  if (input.session === null) fs.rmSync(sFile, { force: true });
  else if (input.session) writeSession(sFile, input.session);
  return { sessionFile: sFile, logFile: lFile, appended };
}

/** Input of {@link loadRoutingSession}. */
export interface LoadRoutingSessionInput {
  stateDir: string;
  loopId: string;
}

/**
 * Reads a loop's session (to resume after a restart of the loop under the same id). A corrupt file is logged as an
 * error in the routing log, removed, and the loop starts with an empty context.
 */
export async function loadRoutingSession(input: LoadRoutingSessionInput): Promise<ReadSessionResult> {
  const file = sessionFile(input.stateDir, input.loopId);
  const r = readSession(file);
  if (r.error) {
    appendRoutingLog(routingLogFile(input.stateDir, input.loopId), [
      {
        at: new Date().toISOString(),
        event: 'load',
        loopId: input.loopId,
        ok: false,
        reason: 'session_corrupt',
        level: 'error',
      },
    ]);
    fs.rmSync(file, { force: true });
  }
  return r;
}

/** Input of {@link readHandoff}. */
export interface ReadHandoffInput {
  stdoutPath: string;
  stderrPath: string;
  /** The adapter that produced the output (its parser finds the agent's final text). */
  adapter: AgentAdapter;
  maxHandoffContextChars: number;
  secrets: 'redact' | 'refuse';
}

/** Result of {@link readHandoff}: no declaration, a screened handoff, or why it was refused. */
export type ReadHandoffResult =
  | { found: false }
  | { found: true; ok: true; handoff: Handoff; redacted: number; kinds: string[] }
  | { found: true; ok: false; error: string };

/**
 * Reads the handoff declaration at the end of an agent's answer (its final text, as the adapter parses it), validates
 * it (target name, sizes) and screens its context for secrets (redacted, or the handoff refused).
 */
export async function readHandoff(input: ReadHandoffInput): Promise<ReadHandoffResult> {
  const stdout = readTail(input.stdoutPath, 4 * 1024 * 1024);
  const stderr = readTail(input.stderrPath, 64 * 1024);
  const parsed = getAdapter(input.adapter).parse({ stdout, stderr, exitCode: 0, now: Date.now() });
  const p = parseHandoff(parsed.finalText || stdout, input);
  if (!p.found) return { found: false };
  if (!p.ok) return p;
  const s = screenHandoff(p.handoff, input);
  if (!s.ok) return { found: true, ok: false, error: s.error };
  return {
    found: true,
    ok: true,
    handoff: s.handoff,
    redacted: s.redacted.length,
    kinds: [...new Set(s.redacted.map((f) => f.kind))],
  };
}

/** Input of {@link startRouting}. */
export interface StartRoutingInput extends LoadAgentProfilesInput {
  stateDir: string;
  loopId: string;
  /** The loop's prompt file, when the task is in a file: its start is returned for classification. */
  promptFile?: string;
}

/** Result of {@link startRouting}. */
export interface StartRoutingResult extends LoadAgentProfilesResult {
  /** The first 4000 characters of the prompt file. */
  taskText?: string;
  /** A session left by an earlier run of this loop id, validated. */
  session?: RoutingSession;
  sessionError?: string;
}

/**
 * What a loop needs to route, in one local activity at its start: the profiles' keywords (no profiles: routing stays
 * off), the task text when it is in a file, and a session to resume (a corrupt one is logged and dropped).
 */
export async function startRouting(input: StartRoutingInput): Promise<StartRoutingResult> {
  const profiles = await loadAgentProfiles(input);
  if (!profiles.profiles.length) return profiles;
  let taskText: string | undefined;
  if (input.promptFile)
    try {
      taskText = fs.readFileSync(path.resolve(input.workspace, input.promptFile), 'utf8').slice(0, 4000);
    } catch {
      // validateLoopInput already checked the file; a race leaves routing with the inline prompt only.
    }
  const s = await loadRoutingSession(input);
  return {
    ...profiles,
    ...(taskText ? { taskText } : {}),
    ...(s.session ? { session: s.session } : {}),
    ...(s.error ? { sessionError: s.error } : {}),
  };
}
