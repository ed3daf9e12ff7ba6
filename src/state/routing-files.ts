/**
 * The routing files of a workspace and a state folder: agent profiles (`.ralph/agents/*.md` by default), a loop's
 * routing session and its routing log. Plain file I/O; the activities in activities/routing.ts and the CLI read them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ProfileFrontMatter } from '../config/agent-profile';
import { formatIssues } from '../config/loop-input';
import { DEFAULT_PROFILES_DIR, RoutingSession } from '../config/routing';
import { type ProfileKeywords } from '../core/routing/classifier';
import { agentNameProblem } from '../core/routing/handoff';
import { parseRoutingLog, type RoutingLogEntry } from '../core/routing/log';
import { loopDir } from './artifacts';
import { ProfileError, type ProfileProblem } from './errors';

/** Largest profile file read; a bigger one is broken (a profile is a page of instructions, not a dump). */
export const MAX_PROFILE_BYTES = 256 * 1024;

/** The profiles folder of a workspace: `dir` if absolute, else relative to the workspace. */
export const profilesDir = (workspace: string, dir: string = DEFAULT_PROFILES_DIR): string =>
  path.resolve(workspace, dir);

export type { ProfileProblem };

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
export { ProfileError };
