/**
 * Routing side effects: reading agent profiles (`<profilesDir>/<name>.md`, read only), the per-loop session file
 * (`<loopDir>/routing/session.json`, mode 600, atomic) and the routing log (`<loopDir>/routing/log.jsonl`). Nothing
 * here throws for a bad or missing profile: routing never blocks the work, the caller falls back to the base agent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { formatIssues } from '../config/loop-input';
import { ProfileFrontMatter } from '../config/agent-profile';
import { DEFAULT_PROFILES_DIR, RoutingSession } from '../config/routing';
import type { AgentAdapter } from '../config/loop-input';
import { ROUTING_DEFAULTS, type ProfileKeywords } from '../core/routing/classifier';
import { agentNameProblem, parseHandoff, screenHandoff, type Handoff } from '../core/routing/handoff';
import { parseRoutingLog, type RoutingLogEntry } from '../core/routing/log';
import type { LoadedProfile } from '../core/routing/profile';
import { getAdapter } from './agents';
import { loopDir } from './artifacts';
import { readTail } from './process';
import { observeRouting } from '../telemetry/metrics';

/** Largest profile file read; a bigger one is broken (a profile is a page of instructions, not a dump). */
export const MAX_PROFILE_BYTES = 256 * 1024;

/** The profiles folder of a workspace: `dir` if absolute, else relative to the workspace. */
export const profilesDir = (workspace: string, dir: string = DEFAULT_PROFILES_DIR): string =>
  path.resolve(workspace, dir);

/** Why a profile could not be used. */
export type ProfileProblem = 'invalid_name' | 'not_found' | 'too_large' | 'parse_error' | 'invalid';

/** Thrown (and caught inside this module) when a profile file cannot be used. */
export class ProfileError extends Error {
  override readonly name = 'ProfileError';
  constructor(
    readonly reason: ProfileProblem,
    message: string,
  ) {
    super(message);
  }
}

/** Splits a profile file into front matter (YAML between `---` lines at the top) and body. */
export function splitFrontMatter(text: string, file: string): { data: unknown; body: string } {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m)
    throw new ProfileError(
      'parse_error',
      `${file}: no front matter: start the file with a "---" line, the YAML settings (domain: ...), and another "---"`,
    );
  let data: unknown;
  try {
    data = parseYaml(m[1]);
  } catch (e) {
    throw new ProfileError(
      'parse_error',
      `${file}: front matter is not valid YAML: ${(e as Error).message.split('\n')[0]}`,
    );
  }
  return { data: data ?? {}, body: text.slice(m[0].length) };
}

/** Reads and validates one profile file; throws {@link ProfileError}. The name is checked before the disk is touched. */
export function readProfileFile(dir: string, name: string): { front: ProfileFrontMatter; body: string; file: string } {
  const problem = agentNameProblem(name);
  if (problem) throw new ProfileError('invalid_name', problem);
  const file = path.join(dir, `${name}.md`);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new ProfileError('not_found', `agent profile ${name} not found: expected ${file}`);
  }
  if (!stat.isFile()) throw new ProfileError('not_found', `agent profile ${file} is not a file`);
  if (stat.size > MAX_PROFILE_BYTES)
    throw new ProfileError(
      'too_large',
      `${file} is ${stat.size} bytes; a profile may have at most ${MAX_PROFILE_BYTES}`,
    );
  const { data, body } = splitFrontMatter(fs.readFileSync(file, 'utf8'), file);
  const r = ProfileFrontMatter.safeParse(data);
  if (!r.success) throw new ProfileError('invalid', `${file}: ${formatIssues(r.error, 'front matter')}`);
  return { front: r.data, body, file };
}

/** Input of {@link loadAgentProfiles}. */
export interface LoadAgentProfilesInput {
  workspace: string;
  /** The profiles folder (default `.ralph/agents`), relative to the workspace unless absolute. */
  dir?: string;
}

/** Result of {@link loadAgentProfiles}: the keywords of every valid profile (no instructions), and warnings. */
export interface LoadAgentProfilesResult {
  dir: string;
  profiles: (ProfileKeywords & { description?: string })[];
  /** One line per file skipped (bad name, bad front matter...). */
  warnings: string[];
  loadMs: number;
}

/**
 * Lists the profiles of a folder: their names, domains and keywords, for the classifier. An absent folder has no
 * profiles (routing stays off); a bad file is skipped with a warning.
 */
export async function loadAgentProfiles(input: LoadAgentProfilesInput): Promise<LoadAgentProfilesResult> {
  const started = performance.now();
  const dir = profilesDir(input.workspace, input.dir);
  const profiles: LoadAgentProfilesResult['profiles'] = [];
  const warnings: string[] = [];
  let files: string[] = [];
  try {
    files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .sort();
  } catch {
    // No profiles folder: routing is simply not configured.
  }
  for (const f of files) {
    const name = f.slice(0, -3);
    try {
      const { front } = readProfileFile(dir, name);
      profiles.push({
        name,
        domain: front.domain,
        keywords: front.keywords,
        weights: front.weights,
        ...(front.description ? { description: front.description } : {}),
      });
    } catch (e) {
      const err = e as ProfileError;
      // Every other problem's message already names the file.
      warnings.push(`skipped ${err.reason === 'invalid_name' ? `${path.join(dir, f)}: ` : ''}${err.message}`);
    }
  }
  return { dir, profiles, warnings, loadMs: Math.round((performance.now() - started) * 100) / 100 };
}

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

/** The session file of a loop. */
export const sessionFile = (stateDir: string, loopId: string): string =>
  path.join(loopDir(stateDir, loopId), 'routing', 'session.json');

/** The routing log of a loop. */
export const routingLogFile = (stateDir: string, loopId: string): string =>
  path.join(loopDir(stateDir, loopId), 'routing', 'log.jsonl');

/** Writes the session atomically (temp file + rename) with mode 600: it holds context passed between agents. */
export function writeSession(file: string, session: RoutingSession): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(session) + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** Result of {@link readSession}. */
export interface ReadSessionResult {
  session?: RoutingSession;
  /** Set when the file existed but was corrupt or invalid (the caller starts from an empty context). */
  error?: string;
}

/** Reads and validates a session file; absent → nothing, corrupt → an error and no session. */
export function readSession(file: string): ReadSessionResult {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { error: `${file} is not valid JSON (${(e as Error).message}): starting with an empty routing context` };
  }
  const r = RoutingSession.safeParse(raw);
  if (!r.success)
    return { error: `${file}: ${formatIssues(r.error, 'session')}: starting with an empty routing context` };
  return { session: r.data };
}

/** Appends entries to a routing log (mode 600), skipping ids already in its tail: a retried call appends once. */
export function appendRoutingLog(
  file: string,
  entries: readonly (RoutingLogEntry & { id?: string })[],
  onAppended?: (fresh: readonly RoutingLogEntry[]) => void,
): number {
  if (!entries.length) return 0;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const seen = new Set<string>();
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const len = Math.min(size, 256 * 1024);
      const buf = Buffer.alloc(len);
      fs.readSync(fd, buf, 0, len, size - len);
      for (const m of buf.toString('utf8').matchAll(/"id":"([^"]+)"/g)) seen.add(m[1]);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // No log yet.
  }
  const fresh = entries.filter((e) => !e.id || !seen.has(e.id));
  if (fresh.length) fs.appendFileSync(file, fresh.map((e) => JSON.stringify(e)).join('\n') + '\n', { mode: 0o600 });
  onAppended?.(fresh);
  return fresh.length;
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

/** Reads every loop's routing log under `<stateDir>/loops/*`; unreadable lines are counted as skipped. */
export function readRoutingLogs(stateDir: string): { entries: RoutingLogEntry[]; skipped: number; files: string[] } {
  const root = path.join(stateDir, 'loops');
  const entries: RoutingLogEntry[] = [];
  const files: string[] = [];
  let skipped = 0;
  let ids: string[] = [];
  try {
    ids = fs.readdirSync(root).sort();
  } catch {
    return { entries, skipped, files };
  }
  for (const id of ids) {
    const file = path.join(root, id, 'routing', 'log.jsonl');
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    files.push(file);
    const r = parseRoutingLog(text);
    entries.push(...r.entries);
    skipped += r.skipped;
  }
  return { entries, skipped, files };
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
