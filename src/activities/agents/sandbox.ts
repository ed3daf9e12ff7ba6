/**
 * Running an agent inside @anthropic-ai/sandbox-runtime (srt): whether the sandbox can start on this worker (probed
 * once per process), and the wrapped command of one run (srt's CLI with a settings file written for the run). See
 * core/sandbox.ts for the rules and the trust model in docs/verification-and-trust.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import {
  isLoopbackHost,
  missingSandboxPackages,
  adapterFolders,
  sandboxSettings,
  type SandboxOptions,
  type SandboxPolicyInput,
  type SandboxStatus,
} from '../../core/sandbox';

/** Path of srt's CLI (a dependency of ours). */
export function srtCliPath(): string {
  return path.join(path.dirname(require.resolve('@anthropic-ai/sandbox-runtime/package.json')), 'dist', 'cli.js');
}

let probed: { at: number; status: SandboxStatus } | undefined;
/** A failed probe is tried again after this long (packages may have been installed since). */
const RETRY_FAILED_PROBE_MS = 60_000;

/**
 * Whether the sandbox can start on this machine: srt runs `true` confined to a scratch folder. `enforced` when it
 * can; `unavailable` with one line naming what to install when it cannot. Cached per process.
 */
export function probeSandbox(): SandboxStatus {
  if (probed && (probed.status.state === 'enforced' || Date.now() - probed.at < RETRY_FAILED_PROBE_MS))
    return probed.status;
  probed = { at: Date.now(), status: runProbe() };
  return probed.status;
}

/** Forgets the cached probe (tests). */
export function resetSandboxProbe(): void {
  probed = undefined;
}

function runProbe(): SandboxStatus {
  if (process.platform !== 'linux' && process.platform !== 'darwin')
    return { state: 'unavailable', reason: `the sandbox does not support ${process.platform}; run on Linux or macOS` };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-sandbox-probe-'));
  try {
    const settings = path.join(dir, 'srt.json');
    fs.writeFileSync(
      settings,
      JSON.stringify({
        network: { allowedDomains: [], deniedDomains: [] },
        filesystem: { denyRead: [], allowWrite: [dir], denyWrite: [] },
      }),
    );
    const r = spawnSync(process.execPath, [srtCliPath(), '--settings', settings, '--', 'touch', path.join(dir, 'ok')], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 20_000,
    });
    if (r.status === 0 && fs.existsSync(path.join(dir, 'ok'))) return { state: 'enforced' };
    const said = `${r.stderr ?? ''}${r.stdout ?? ''}${r.error ? r.error.message : ''}`.trim();
    return { state: 'unavailable', reason: describeProbeFailure(said) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** srt's start failure as one line that says what to do. */
export function describeProbeFailure(said: string): string {
  const first = said.split('\n').find((l) => l.trim()) ?? 'the sandbox did not start';
  const pkgs = missingSandboxPackages(said);
  if (process.platform === 'linux' && pkgs.length)
    return `${first.replace(/^Error:\s*/, '').trim()}: install them with \`apt-get install -y ${pkgs.join(' ')}\``;
  if (/user namespace|unshare|setting up uid map|Operation not permitted/i.test(said))
    return `${first.trim()}: bubblewrap needs unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1)`;
  return first.trim().slice(0, 300);
}

/** One run's command, wrapped. */
export interface SandboxedCommand {
  file: string;
  args: string[];
  /** Environment additions for the wrapped run (TMPDIR). */
  env: Record<string, string>;
  /** The settings file written for the run (kept with the run's artifacts). */
  settingsPath: string;
}

/** Everything {@link wrapInSandbox} needs. */
export interface WrapInput {
  file: string;
  args: string[];
  env: Record<string, string>;
  adapter: string;
  workspace: string;
  stateDir: string;
  artifactDir: string;
  sfx: string;
  options: SandboxOptions;
  /** Extra writable paths (the hook spool). */
  extraWrite?: string[];
}

/**
 * The run's command under srt: a settings file for this run (next to its other artifacts), a temp folder of its own
 * (TMPDIR), and `env -u NO_PROXY` when a loopback API (the tests' model stubs) must be reached through srt's proxy:
 * inside the sandbox, loopback is the sandbox's own and empty.
 */
export function wrapInSandbox(w: WrapInput): SandboxedCommand {
  const home = w.env.HOME || os.homedir();
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-agent-'));
  const policy: SandboxPolicyInput = {
    adapter: w.adapter,
    workspace: w.workspace,
    stateDir: w.stateDir,
    home,
    tmpDir,
    extraWrite: w.extraWrite,
    env: w.env,
    args: w.args,
    options: w.options,
  };
  for (const d of adapterFolders(policy)) fs.mkdirSync(d, { recursive: true });
  const settings = sandboxSettings(policy);
  const settingsPath = path.join(w.artifactDir, `sandbox${w.sfx}.json`);
  fs.writeFileSync(settingsPath, JSON.stringify(settings, null, 2));
  const loopback = settings.network.allowedDomains.some(isLoopbackHost);
  const inner = loopback ? ['env', '-u', 'NO_PROXY', '-u', 'no_proxy', w.file, ...w.args] : [w.file, ...w.args];
  return {
    file: process.execPath,
    args: [srtCliPath(), '--settings', settingsPath, '--', ...inner],
    env: { TMPDIR: tmpDir, RALPH_SANDBOX_TMP: tmpDir },
    settingsPath,
  };
}

/** Removes a run's temp folder (after the run). */
export function removeSandboxTmp(env: Record<string, string>): void {
  const dir = env.RALPH_SANDBOX_TMP;
  if (dir && path.basename(dir).startsWith('ralph-agent-')) fs.rmSync(dir, { recursive: true, force: true });
}
