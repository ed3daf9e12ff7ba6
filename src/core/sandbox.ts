/**
 * The agent sandbox's rules, as pure functions: which paths an agent may write and which hosts it may reach (the
 * settings handed to @anthropic-ai/sandbox-runtime), what a run's output says the sandbox denied, and the one line
 * that says a loop runs unsandboxed. The activities run the sandbox; see activities/agents/sandbox.ts.
 */

/** The sandbox part of a loop's configuration, as core sees it (config/sandbox-config.ts validates it). */
export interface SandboxOptions {
  mode: 'auto' | 'enforce' | 'off';
  allowWrite: string[];
  denyWrite: string[];
  allowedDomains: string[];
  dependencies: 'read-only' | 'writable';
}

/** How one agent run was sandboxed: `enforced`, `unavailable` (auto without a usable sandbox) or `off`. */
export type SandboxState = 'enforced' | 'unavailable' | 'off';

/** What a run (or a loop) records of its sandbox. */
export interface SandboxStatus {
  state: SandboxState;
  /** Why the sandbox could not start (`unavailable`), in one line naming what to install. */
  reason?: string;
}

/** The settings file of @anthropic-ai/sandbox-runtime (the part we use). */
export interface SrtSettings {
  network: { allowedDomains: string[]; deniedDomains: string[] };
  filesystem: { denyRead: string[]; allowWrite: string[]; denyWrite: string[] };
}

/** The model API hosts each adapter talks to by default. */
export const ADAPTER_DOMAINS: Record<string, string[]> = {
  'claude-code': ['api.anthropic.com', 'statsig.anthropic.com', 'sentry.io'],
  codex: ['api.openai.com', 'chatgpt.com', 'auth.openai.com'],
  gemini: [
    'generativelanguage.googleapis.com',
    'oauth2.googleapis.com',
    'cloudcode-pa.googleapis.com',
    'play.googleapis.com',
  ],
  aider: ['api.openai.com', 'api.anthropic.com', 'openrouter.ai', 'generativelanguage.googleapis.com'],
  command: [],
  scripted: [],
};

/**
 * The agent's own folders and files under its HOME, writable one by one (never all of HOME, where ~/.npmrc, pip's
 * config and user site-packages change what every check runs).
 */
export const ADAPTER_HOME_PATHS: Record<string, string[]> = {
  'claude-code': ['.claude', '.claude.json', '.claude.json.backup', '.cache/claude', '.local/state/claude'],
  codex: ['.codex'],
  gemini: ['.gemini'],
  aider: ['.aider', '.aider.chat.history.md', '.aider.input.history', '.cache/aider'],
  command: [],
  scripted: [],
};

/** Dependency folders at the workspace's top level: read-only unless `dependencies: writable`. */
export const DEPENDENCY_FOLDERS = [
  'node_modules',
  '.venv',
  'venv',
  '__pypackages__',
  '.yarn',
  '.pnp.cjs',
  '.pnp.loader.mjs',
];

/** `.git` internals the agent never writes: hooks run on our git calls, config and info change what git sees. */
export const GIT_DENIED = ['hooks', 'info', 'config', 'refs/ralph', 'modules'];

/** Environment variables whose URL value names an API host the agent must reach (the tests' loopback stubs too). */
const URL_ENV = /(_BASE_URL|_API_BASE|_API_URL|_ENDPOINT|_HOST)$/;

/** Everything {@link sandboxSettings} needs to know about one run. */
export interface SandboxPolicyInput {
  adapter: string;
  workspace: string;
  /** The loop's state folder (.ralph): never writable. */
  stateDir: string;
  /** The agent's HOME (its adapter's folders under it are writable). */
  home: string;
  /** The run's own temp folder (TMPDIR), writable. */
  tmpDir: string;
  /** Extra writable paths the adapter needs (e.g. a hook spool), absolute. */
  extraWrite?: string[];
  /** The agent's environment (for `*_BASE_URL` hosts, and config folders such as `CODEX_HOME`). */
  env: Record<string, string | undefined>;
  /** The agent's command-line arguments (for URLs in them: codex's `-c model_providers.x.base_url=...`). */
  args?: string[];
  options: SandboxOptions;
}

/** Joins a workspace-relative or `~/` path to its base; absolute paths are kept. */
export function resolveSandboxPath(p: string, workspace: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return joinPath(home, p.slice(2));
  if (p.startsWith('/')) return normalizePath(p);
  return joinPath(workspace, p);
}

/** The settings for @anthropic-ai/sandbox-runtime: writes confined to the workspace and the agent's own folders. */
export function sandboxSettings(i: SandboxPolicyInput): SrtSettings {
  const ws = normalizePath(i.workspace);
  const at = (p: string) => resolveSandboxPath(p, ws, i.home);
  const allowWrite = uniq([
    ws,
    normalizePath(i.tmpDir),
    ...(ADAPTER_HOME_PATHS[i.adapter] ?? []).map((p) => joinPath(i.home, p)),
    ...configDirsFromEnv(i),
    ...(i.extraWrite ?? []).map(normalizePath),
    ...i.options.allowWrite.map(at),
  ]);
  const denyWrite = uniq([
    ...GIT_DENIED.map((g) => joinPath(ws, `.git/${g}`)),
    normalizePath(i.stateDir),
    ...(i.options.dependencies === 'writable' ? [] : DEPENDENCY_FOLDERS.map((d) => joinPath(ws, d))),
    ...i.options.denyWrite.map(at),
  ]);
  return {
    network: { allowedDomains: allowedDomains(i), deniedDomains: [] },
    filesystem: { denyRead: [], allowWrite, denyWrite },
  };
}

/** Environment variables that move an adapter's own folder out of HOME's default place. */
export const ADAPTER_HOME_ENV: Record<string, string[]> = {
  'claude-code': ['CLAUDE_CONFIG_DIR'],
  codex: ['CODEX_HOME'],
  gemini: ['GEMINI_CLI_HOME'],
  aider: [],
  command: [],
  scripted: [],
};

/**
 * The adapter's folders its environment names (`CODEX_HOME`...), writable like its default ones: never HOME itself or
 * a folder above it (that would open `~/.npmrc` and every other file that changes what a check runs).
 */
function configDirsFromEnv(i: Pick<SandboxPolicyInput, 'adapter' | 'env' | 'home'>): string[] {
  const home = normalizePath(i.home);
  return (ADAPTER_HOME_ENV[i.adapter] ?? [])
    .map((k) => i.env[k])
    .filter((v): v is string => !!v && v.startsWith('/'))
    .map(normalizePath)
    .filter((d) => d !== home && !home.startsWith(`${d}/`) && d !== '/');
}

/**
 * The adapter's own folders to create before a sandboxed run when missing (its first run on a machine): inside the
 * sandbox HOME is read-only, so the agent could not create `~/.codex` itself. Files (`~/.claude.json`) are left alone.
 */
export function adapterFolders(i: Pick<SandboxPolicyInput, 'adapter' | 'env' | 'home'>): string[] {
  const dirs = (ADAPTER_HOME_PATHS[i.adapter] ?? []).filter((p) => !/\./.test(p.replace(/(^|\/)\./g, '$1')));
  return uniq([...dirs.map((p) => joinPath(i.home, p)), ...configDirsFromEnv(i)]);
}

/** The adapter's API hosts, the hosts its URL variables and arguments name, and the configured ones. */
export function allowedDomains(i: Pick<SandboxPolicyInput, 'adapter' | 'env' | 'options' | 'args'>): string[] {
  const named: string[] = [];
  for (const [k, v] of Object.entries(i.env)) {
    if (!v || !URL_ENV.test(k)) continue;
    const host = urlHost(v);
    if (host) named.push(host);
  }
  for (const a of i.args ?? [])
    for (const m of a.matchAll(/https?:\/\/[^\s"'<>]+/gi)) {
      const host = urlHost(m[0]);
      if (host) named.push(host);
    }
  return uniq([...(ADAPTER_DOMAINS[i.adapter] ?? []), ...named, ...i.options.allowedDomains]);
}

/** True when a host is the machine's loopback: the sandbox must then route it through its proxy (no NO_PROXY). */
export const isLoopbackHost = (host: string): boolean => /^(localhost|127(\.\d+){3}|\[::1\])(:\d+)?$/.test(host);

/** `host` or `host:port` of an http(s) URL; undefined for anything else. */
export function urlHost(value: string): string | undefined {
  const m = /^https?:\/\/(?:[^@/]*@)?(\[[^\]]+\]|[^/:?#]+)(?::(\d+))?/i.exec(value.trim());
  if (!m) return undefined;
  return m[2] ? `${m[1].toLowerCase()}:${m[2]}` : m[1].toLowerCase();
}

/** A write the sandbox refused, as the agent's output reports it (evidence, never a verdict). */
export interface SandboxDenial {
  path: string;
  /** The line it was read from (trimmed to 300 characters). */
  line: string;
}

const DENIAL_PATTERNS: RegExp[] = [
  // sh/bash/coreutils: "cannot create /x: Read-only file system", "touch: cannot touch '/x': Read-only file system"
  /(?:cannot (?:create|touch|remove|open|move|overwrite|write)(?: regular file| directory)?|can't create|failed to (?:write|create|open))\s+['"‘]?([^'"’:\n]+?)['"’]?:\s*(?:Read-only file system|Permission denied|Operation not permitted)/i,
  // node: "EROFS: read-only file system, open '/x'"; "EPERM: operation not permitted, open '/x'"
  /(?:EROFS|EPERM|EACCES):[^,\n]*,\s*\w+\s+'([^']+)'/,
  // python: "OSError: [Errno 30] Read-only file system: '/x'"; "PermissionError: [Errno 1] ... : '/x'"
  /\[Errno (?:30|1|13)\][^:\n]*:\s*'([^']+)'/,
];

/** The denied writes an agent's output reports (deduplicated by path, at most `limit`). */
export function parseSandboxDenials(output: string, limit = 50): SandboxDenial[] {
  const out = new Map<string, SandboxDenial>();
  for (const raw of output.split('\n')) {
    if (out.size >= limit) break;
    if (
      !/read-only file system|operation not permitted|permission denied|EROFS|EPERM|EACCES|Errno (30|1|13)\]/i.test(raw)
    )
      continue;
    for (const re of DENIAL_PATTERNS) {
      const m = re.exec(raw);
      if (m?.[1] && !out.has(m[1])) {
        out.set(m[1], { path: m[1], line: raw.trim().slice(0, 300) });
        break;
      }
    }
  }
  return [...out.values()];
}

/** The Debian packages the sandbox needs on Linux, by the tool srt names as missing. */
const PACKAGE_OF: [RegExp, string][] = [
  [/bubblewrap|bwrap/i, 'bubblewrap'],
  [/socat/i, 'socat'],
  [/ripgrep|\brg\b/i, 'ripgrep'],
];

/** The packages a sandbox start failure names as missing (Linux), in install order. */
export function missingSandboxPackages(message: string): string[] {
  return PACKAGE_OF.filter(([re]) => re.test(message)).map(([, pkg]) => pkg);
}

/** The one line that says a loop (or run) is not sandboxed, and how to fix it. */
export function unsandboxedLine(status: SandboxStatus): string {
  if (status.state === 'off') return 'UNSANDBOXED: sandbox.mode is off; the agent can write anywhere its user can';
  return `UNSANDBOXED: the agent sandbox could not start (${status.reason ?? 'unknown reason'}); the agent can write anywhere its user can`;
}

/** The status line of a loop's sandbox (`ralph status`, the console). */
export function sandboxLine(status: SandboxStatus): string {
  return status.state === 'enforced'
    ? 'enforced: the agent writes only in the workspace and its own folders'
    : unsandboxedLine(status);
}

function normalizePath(p: string): string {
  const parts: string[] = [];
  for (const s of p.split('/')) {
    if (!s || s === '.') continue;
    if (s === '..') parts.pop();
    else parts.push(s);
  }
  return `/${parts.join('/')}`;
}

function joinPath(base: string, rel: string): string {
  return normalizePath(`${base}/${rel}`);
}

function uniq(xs: string[]): string[] {
  return [...new Set(xs)];
}
