/**
 * `ralph doctor`'s rules, as pure functions: what one check's result is, which results stop a loop from running (the
 * exit code), how the checks read as lines, and the thresholds (Node version, free disk). The CLI gathers the facts.
 */

/** How one check came out: `skip` when a check it depends on failed (no server: no worker to look for). */
export type DoctorStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One line of `ralph doctor`. */
export interface DoctorCheck {
  /** Short name: `node`, `temporal binary`, `server`, `worker`, `agent claude-code`... */
  name: string;
  status: DoctorStatus;
  /** What was found (versions, paths, sources); never a secret's value. */
  detail: string;
  /** The command (or step) that fixes a warn or a fail. */
  fix?: string;
  /** A loop cannot run without this: its failure makes `ralph doctor` exit 1. */
  needed: boolean;
}

/** The oldest Node major the project supports (package.json engines). */
export const MIN_NODE_MAJOR = 20;
/** Below this much free space under the state folder, checkpoints fail: a loop can't run. */
export const DISK_FAIL_BYTES = 100 * 1024 * 1024;
/** Below this much free space, `ralph doctor` warns (checkpoints of a long loop fill it). */
export const DISK_WARN_BYTES = 1024 * 1024 * 1024;

/** The exit code of `ralph doctor`: 1 when a needed check failed, 0 otherwise (warnings don't fail). */
export function doctorExitCode(checks: DoctorCheck[]): number {
  return checks.some((c) => c.needed && c.status === 'fail') ? 1 : 0;
}

/** The Node check from `process.versions.node`. */
export function nodeCheck(version: string): DoctorCheck {
  const major = Number(version.split('.')[0]);
  const ok = Number.isFinite(major) && major >= MIN_NODE_MAJOR;
  return {
    name: 'node',
    status: ok ? 'ok' : 'fail',
    detail: `v${version}${ok ? '' : ` (ralph needs Node ${MIN_NODE_MAJOR} or later)`}`,
    fix: ok ? undefined : `install Node ${MIN_NODE_MAJOR}+ (e.g. \`nvm install ${MIN_NODE_MAJOR}\`)`,
    needed: true,
  };
}

/** Bytes as `12.3 GB` / `512 MB`. */
export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${v >= 100 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

/** The free-disk check of the folder that holds the state folders (checkpoints, iteration artifacts). */
export function diskCheck(folder: string, freeBytes: number): DoctorCheck {
  const status: DoctorStatus = freeBytes < DISK_FAIL_BYTES ? 'fail' : freeBytes < DISK_WARN_BYTES ? 'warn' : 'ok';
  return {
    name: 'disk',
    status,
    detail: `${formatBytes(freeBytes)} free under ${folder}`,
    fix:
      status === 'ok'
        ? undefined
        : `free space under ${folder} (old checkpoints: \`ralph checkpoints prune\`), or choose another --state-dir`,
    needed: true,
  };
}

const MARK: Record<DoctorStatus, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' };

/** The checks as lines: `ok   node  v20.1.0`, with the fix under each warn and fail, and a closing verdict. */
export function doctorLines(checks: DoctorCheck[]): string[] {
  const width = Math.max(...checks.map((c) => c.name.length));
  const lines: string[] = [];
  for (const c of checks) {
    lines.push(`${MARK[c.status]}  ${c.name.padEnd(width)}  ${c.detail}`);
    if (c.fix && (c.status === 'warn' || c.status === 'fail')) lines.push(`${' '.repeat(width + 8)}fix: ${c.fix}`);
  }
  const failed = checks.filter((c) => c.needed && c.status === 'fail').map((c) => c.name);
  const warned = checks.filter((c) => c.status === 'warn' || (!c.needed && c.status === 'fail')).length;
  lines.push(
    failed.length
      ? `not ready: ${failed.join(', ')} must be fixed before a loop can run`
      : `ready to run loops${warned ? ` (${warned} warning${warned > 1 ? 's' : ''})` : ''}`,
  );
  return lines;
}

/** What an agent CLI needs on a worker's machine: its executable, how to install it, where its credentials live. */
export interface AgentSetup {
  adapter: 'claude-code' | 'codex' | 'gemini' | 'aider';
  binary: string;
  install: string;
  /** Variables any one of which configures credentials (only their names are ever printed). */
  keyVars: string[];
  /** Files under HOME a login writes (any one will do). */
  loginFiles: string[];
  /** How to configure credentials. */
  login: string;
}

/** The four real agent CLIs (the scripted and command adapters need nothing installed). */
export const AGENT_SETUPS: readonly AgentSetup[] = [
  {
    adapter: 'claude-code',
    binary: 'claude',
    install: 'npm install -g @anthropic-ai/claude-code',
    keyVars: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'],
    loginFiles: ['.claude/.credentials.json'],
    login: 'set ANTHROPIC_API_KEY in the worker environment (or agent.env), or run `claude /login` as the worker user',
  },
  {
    adapter: 'codex',
    binary: 'codex',
    install: 'npm install -g @openai/codex',
    keyVars: ['CODEX_API_KEY', 'OPENAI_API_KEY'],
    loginFiles: ['.codex/auth.json'],
    login: 'set CODEX_API_KEY or OPENAI_API_KEY in the worker environment (or agent.env), or run `codex login`',
  },
  {
    adapter: 'gemini',
    binary: 'gemini',
    install: 'npm install -g @google/gemini-cli',
    keyVars: ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_APPLICATION_CREDENTIALS'],
    loginFiles: ['.gemini/oauth_creds.json'],
    login: 'set GEMINI_API_KEY in the worker environment (or agent.env), or run `gemini` once to log in',
  },
  {
    adapter: 'aider',
    binary: 'aider',
    install: 'python3 -m pip install aider-install && aider-install',
    keyVars: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY', 'GEMINI_API_KEY', 'DEEPSEEK_API_KEY'],
    loginFiles: ['.aider.conf.yml'],
    login: "set the model provider's API key (e.g. ANTHROPIC_API_KEY) in the worker environment (or agent.env)",
  },
];

/** What the machine showed of one agent CLI. */
export interface AgentFound {
  setup: AgentSetup;
  /** Where the executable is, when it is on PATH. */
  path?: string;
  /** The first line of `<binary> --version`. */
  version?: string;
  /** What `<binary> --version` said when it failed (the executable is there but does not run). */
  broken?: string;
  /** The variable names set, or the login file found (`~/.codex/auth.json`); never a value. */
  credentials: string[];
}

/** The check of one agent CLI: missing is a failure only for the agent the loop will run (`needed`). */
export function agentCheck(a: AgentFound, needed: boolean): DoctorCheck {
  const name = `agent ${a.setup.adapter}`;
  if (!a.path)
    return {
      name,
      status: needed ? 'fail' : 'warn',
      detail: `\`${a.setup.binary}\` not found on PATH`,
      fix: a.setup.install,
      needed,
    };
  if (a.broken)
    return {
      name,
      status: needed ? 'fail' : 'warn',
      detail: `${a.path} does not run: \`${a.setup.binary} --version\` said "${a.broken}"`,
      fix: `reinstall it: ${a.setup.install}`,
      needed,
    };
  const found = `${a.path}${a.version ? ` (${a.version})` : ''}`;
  if (!a.credentials.length)
    return {
      name,
      status: 'warn',
      detail: `${found}; no credentials found (${a.setup.keyVars.join(', ')} unset, no ~/${a.setup.loginFiles[0]})`,
      fix: a.setup.login,
      needed,
    };
  return { name, status: 'ok', detail: `${found}; credentials: ${a.credentials.join(', ')}`, needed };
}
