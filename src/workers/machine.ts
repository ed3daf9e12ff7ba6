/**
 * What this machine offers a worker, as `ralph doctor` reports it: the agent CLIs on PATH (their versions, whether
 * credentials are configured: names only, never values) and whether the agent sandbox starts (the same probe the
 * agent activity runs before each sandboxed run).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { probeSandbox, resetSandboxProbe, srtCliPath } from '../activities/agents/sandbox';
import { AGENT_SETUPS, type AgentFound, type AgentSetup } from '../core/doctor';
import type { SandboxStatus } from '../core/sandbox';

/** The executable `name` on `searchPath` (PATH's format), if any. */
export function onPath(name: string, searchPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** What `file --version` said: its first non-empty line, and whether it exited 0 (within 10 s). */
export function versionLine(file: string, args = ['--version']): { ok: boolean; line?: string } {
  const r = spawnSync(file, args, { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
  const text = `${r.stdout ?? ''}\n${r.stderr ?? ''}\n${r.error?.message ?? ''}`;
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0)
    ?.slice(0, 120);
  return { ok: r.status === 0, line };
}

/** One agent CLI as this machine has it: path, version, and the credential variables or login file present. */
export function findAgent(setup: AgentSetup, env: NodeJS.ProcessEnv = process.env): AgentFound {
  const found = onPath(setup.binary, env.PATH);
  const home = env.HOME || os.homedir();
  const credentials = setup.keyVars.filter((v) => (env[v] ?? '') !== '');
  for (const f of setup.loginFiles) if (fs.existsSync(path.join(home, f))) credentials.push(`~/${f}`);
  if (!found) return { setup, credentials };
  const v = versionLine(found);
  return { setup, path: found, ...(v.ok ? { version: v.line } : { broken: v.line ?? 'no output' }), credentials };
}

/** Every real agent CLI, as {@link findAgent} sees it. */
export function findAgents(env: NodeJS.ProcessEnv = process.env): AgentFound[] {
  return AGENT_SETUPS.map((s) => findAgent(s, env));
}

/** The sandbox's parts on this machine and whether it starts. */
export interface SandboxFound {
  status: SandboxStatus;
  /** srt's CLI (a dependency of ours), when resolvable. */
  srt?: string;
  /** bubblewrap, socat and ripgrep (what srt needs on Linux): each one's path, or undefined. */
  tools: Record<string, string | undefined>;
}

/** Probes the agent sandbox afresh (srt confines `touch` to a scratch folder), and lists its Linux tools. */
export function findSandbox(searchPath = process.env.PATH ?? ''): SandboxFound {
  let srt: string | undefined;
  try {
    srt = srtCliPath();
  } catch {
    srt = undefined;
  }
  resetSandboxProbe();
  const tools =
    process.platform === 'linux'
      ? { bwrap: onPath('bwrap', searchPath), socat: onPath('socat', searchPath), rg: onPath('rg', searchPath) }
      : { rg: onPath('rg', searchPath) };
  return { status: probeSandbox(), srt, tools };
}
