/**
 * Helpers for agent adapter tests: the output an adapter's parse() is given, temp workspaces, and real subprocess
 * runs of a built command, either as is or against the fake agent CLIs in test/fixtures/fake-agents.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import execa from 'execa';
import type { AgentCommand, AgentInvocation, RawAgentOutput } from '../../src/activities/agents/types';
import { resolveExecutable } from '../../src/activities/process';
import type { AgentSpec } from '../../src/config/loop-input';

/** Folder of the fake `claude`, `codex`, `gemini` and `aider` CLIs. */
export const FAKE_AGENTS = path.resolve(__dirname, '../fixtures/fake-agents');

/** Folder of agent output captured from the real CLIs. */
const AGENT_OUTPUT = path.resolve(__dirname, '../fixtures/agent-output');

/** The fixed end time of a run in parse tests, so relative reset times resolve the same on every run. */
export const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

/** Reads one file of test/fixtures/agent-output as text. */
export function agentOutput(name: string): string {
  return fs.readFileSync(path.join(AGENT_OUTPUT, name), 'utf8');
}

/** Builds the raw output of a run that printed `stdout`, exited 0 and ended at {@link NOW}, with overrides. */
export function rawOutput(stdout: string, o: Partial<RawAgentOutput> = {}): RawAgentOutput {
  return { stdout, stderr: '', exitCode: 0, now: NOW, ...o };
}

/**
 * Returns a function that makes a fresh temp dir (its real path, as a subprocess's cwd reports it) and registers an
 * afterAll that removes every dir it made. Call it once at the top level of a test file.
 */
export function useTmpDirs(): (prefix: string) => string {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  return (prefix) => {
    const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
    dirs.push(d);
    return d;
  };
}

/** Builds the invocation of one iteration (loop-1, iteration 1) of `adapter` in `workspace`, artifacts under .ralph. */
export function agentInvocation(
  adapter: AgentSpec['adapter'],
  workspace: string,
  spec: Partial<AgentSpec> = {},
  prompt = '# Task\n\nCreate hello.txt.\n',
): AgentInvocation {
  return {
    prompt,
    promptFile: path.join(workspace, '.ralph', 'prompt.md'),
    workspace,
    spec: { adapter, args: [], env: {}, ...spec },
    loopId: 'loop-1',
    iteration: 1,
    artifactDir: path.join(workspace, '.ralph'),
  };
}

/** What a real run of a built command did. */
export interface CommandRun {
  /** The executable that ran, as resolved on PATH. */
  file: string;
  exitCode: number;
  /** What the run printed, as runAgent hands it to the adapter's parse(). */
  out: RawAgentOutput;
}

/** What a run against the fake CLIs did, with the argv each fake logged. */
export interface FakeAgentRun extends CommandRun {
  /** One argv per fake process started, in order. */
  argv: string[][];
}

/**
 * Runs a built command as a real subprocess in `workspace` the way runAgent does: this process's env with the
 * command's env and then `extraEnv` on top, the executable resolved on that env's PATH, stdin given the command's
 * input or closed. Throws when the executable is not found.
 */
export async function runCommand(
  cmd: AgentCommand,
  workspace: string,
  extraEnv: Record<string, string> = {},
): Promise<CommandRun> {
  const env = { ...process.env, ...cmd.env, ...extraEnv };
  const file = resolveExecutable(cmd.file, workspace, env.PATH);
  if (!file) throw new Error(`${cmd.file} not found on PATH`);
  const r = await execa(file, cmd.args, {
    cwd: workspace,
    env,
    reject: false,
    ...(cmd.input !== undefined ? { input: cmd.input } : { stdin: 'ignore' as const }),
  });
  const out: RawAgentOutput = { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode ?? null, now: Date.now() };
  return { file, exitCode: r.exitCode, out };
}

/**
 * Runs a built command with the fake agent CLIs first on PATH (`extraEnv` on top, e.g. FAKE_AGENT_MODE) and returns
 * what it did and the argv the fakes logged through FAKE_AGENT_ARGV_LOG.
 */
export async function runFakeAgent(
  cmd: AgentCommand,
  workspace: string,
  extraEnv: Record<string, string> = {},
): Promise<FakeAgentRun> {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-argv-'));
  try {
    const log = path.join(logDir, 'argv.jsonl');
    const run = await runCommand(cmd, workspace, {
      ...extraEnv,
      PATH: `${FAKE_AGENTS}${path.delimiter}${process.env.PATH ?? ''}`,
      FAKE_AGENT_ARGV_LOG: log,
    });
    const argv = fs
      .readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as string[]);
    return { ...run, argv };
  } finally {
    fs.rmSync(logDir, { recursive: true, force: true });
  }
}
