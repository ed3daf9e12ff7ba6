import fs from 'node:fs';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { thresholdsFor } from '../config/gates-config';
import { parseLoopInput, type LoopInput, type ResolvedLoopInput } from '../config/loop-input';
import { asActivityFailure } from './errors';
import { ConfigError, findConfigFile, loadGatesConfig } from '../config/load-config';
import { ErrorTypes, RALPH_DIR } from '../core/constants';
import { getAdapter } from './agents';
import { probeSandbox } from './agents/sandbox';
import type { SandboxStatus } from '../core/sandbox';
import { loopDir } from '../state/artifacts';
import { resolveExecutable } from './process';
import { remoteUrl } from './workspace/remote';
import { writeRetentionPolicy } from './workspace/prune';

/** Input of {@link validateLoopInput}: whatever the workflow was started with. */
export interface ValidateLoopInputInput {
  raw: unknown;
  loopId: string;
  /**
   * The host id of the worker running this validation (`ralph worker --host`), filled in by the worker, never by the
   * workflow: a loop started without `host` binds to it.
   */
  workerHost?: string;
}

/**
 * Validates a loop's input at the edge (it may have come from the plain `temporal` CLI): schema, workspace, prompt
 * file, agent binary. Returns the input with defaults and absolute paths. Fails non-retryably with a message that names
 * the bad field and the fix.
 */
export async function validateLoopInput({
  raw,
  loopId,
  workerHost,
}: ValidateLoopInputInput): Promise<ResolvedLoopInput> {
  const input = asActivityFailure(() => parseLoopInput(raw));
  if (!path.isAbsolute(input.workspace))
    throw ApplicationFailure.nonRetryable(
      `invalid loop input: input.workspace must be an absolute path, got "${input.workspace}"`,
      ErrorTypes.InvalidInput,
    );
  if (!fs.existsSync(input.workspace) || !fs.statSync(input.workspace).isDirectory())
    throw ApplicationFailure.nonRetryable(
      `workspace ${input.workspace} does not exist or is not a directory: create it or fix input.workspace`,
      ErrorTypes.WorkspaceNotFound,
    );
  if (input.promptFile) {
    const pf = path.resolve(input.workspace, input.promptFile);
    if (!fs.existsSync(pf))
      throw ApplicationFailure.nonRetryable(
        `prompt file ${pf} does not exist: fix input.promptFile (relative paths are relative to the workspace)`,
        ErrorTypes.PromptFileNotFound,
      );
    input.promptFile = pf;
  }
  if (input.agent.script) input.agent.script = path.resolve(input.workspace, input.agent.script);
  if (input.agent.adapter === 'scripted' && input.agent.script && !fs.existsSync(input.agent.script))
    throw ApplicationFailure.nonRetryable(
      `scripted agent script ${input.agent.script} does not exist: fix input.agent.script`,
      ErrorTypes.AgentConfigError,
    );
  assertAgentAvailable(input);
  if (!input.gates) {
    const file = findConfigFile(input.workspace);
    if (file) {
      try {
        input.gates = loadGatesConfig(file);
      } catch (e) {
        if (e instanceof ConfigError || (e as Error).name === 'ConfigError')
          throw ApplicationFailure.nonRetryable(
            `invalid config ${(e as Error).message}: fix it (\`ralph config check\`)`,
            ErrorTypes.InvalidInput,
          );
        throw e;
      }
    }
  }
  // The workspace's config file sets the anti-laziness layer when the loop input doesn't.
  const rawAntiLaziness =
    (raw as { persistence?: unknown; antiLaziness?: unknown } | null)?.persistence ??
    (raw as { antiLaziness?: unknown } | null)?.antiLaziness;
  if (rawAntiLaziness === undefined && input.gates?.persistence) input.persistence = input.gates.persistence;
  const rawSandbox = (raw as { sandbox?: unknown } | null)?.sandbox;
  if (rawSandbox === undefined && input.gates?.sandbox) input.sandbox = input.gates.sandbox;
  const sandboxStatus = checkSandbox(input);
  const rawQuestions = (raw as { questions?: unknown } | null)?.questions;
  if (rawQuestions === undefined && input.gates?.questions) input.questions = input.gates.questions;
  const rawVerification = (raw as { verification?: unknown } | null)?.verification;
  if (rawVerification === undefined && input.gates?.verification) input.verification = input.gates.verification;
  // Resolve each gate's thresholds (profile + overrides) here, so the workflow only carries numbers.
  if (input.gates) {
    const profile = input.gates.profile;
    input.gates.gates = input.gates.gates.map((g) => ({ ...g, thresholds: thresholdsFor(profile, g) }));
  }
  const stateDir = path.resolve(input.workspace, input.stateDir ?? RALPH_DIR);
  fs.mkdirSync(loopDir(stateDir, loopId), { recursive: true });
  // Multi-host: a loop started without a host binds to the worker that validated it (its workspace is here).
  input.host ??= workerHost;
  if (input.host) input.checkpointRemoteUrl ??= await remoteUrl(input.workspace, input.checkpointRemote);
  writeRetentionPolicy(stateDir, loopId, input.persistence.checkpoints.keepFinishedDays);
  return { ...input, stateDir, sandboxStatus } as ResolvedLoopInput;
}

/**
 * The sandbox on this worker: `off` by configuration, `enforced` where it starts, `unavailable` where it cannot (a
 * loud warning in auto mode; SandboxUnavailable, naming what to install, in enforce mode).
 */
export function checkSandbox(input: LoopInput): SandboxStatus {
  if (input.sandbox.mode === 'off') return { state: 'off' };
  const status = probeSandbox();
  if (status.state !== 'enforced' && input.sandbox.mode === 'enforce')
    throw ApplicationFailure.nonRetryable(
      `sandbox.mode is enforce but the agent sandbox cannot start on this worker: ${status.reason}`,
      ErrorTypes.SandboxUnavailable,
    );
  return status;
}

/** Throws AgentNotFound when the agent's executable can't be found. */
export function assertAgentAvailable(input: LoopInput): string {
  const adapter = getAdapter(input.agent.adapter);
  const cmd = adapter.build({
    prompt: '',
    promptFile: '',
    workspace: input.workspace,
    spec: input.agent,
    loopId: 'validate',
    iteration: 1,
    artifactDir: '',
  });
  const envPath = input.agent.env.PATH ?? process.env.PATH;
  const found = resolveExecutable(cmd.file, input.workspace, envPath);
  if (!found)
    throw ApplicationFailure.nonRetryable(
      `agent executable "${cmd.file}" (adapter ${input.agent.adapter}) was not found on the worker's PATH: install it there or pass --agent-binary <path> (input.agent.binary)`,
      ErrorTypes.AgentNotFound,
    );
  return found;
}
