/**
 * `ralph start`'s input: its options as commander hands them over, turned (with an optional config file) into a loop
 * or project input. Flags win over the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { InvalidInputError } from '../../client';
import { formatIssues, parseLoopInput, type LoopInputRaw } from '../../config/loop-input';
import { parseProjectInput, type ProjectInputRaw } from '../../config/project-input';
import { shellWords } from '../../core/shell-words';
import { intOption, UsageError } from '../run-command';

/** Options of `ralph start`, as commander hands them over. */
export const StartOptions = z.object({
  prompt: z.string().optional(),
  promptFile: z.string().optional(),
  workspace: z.string().optional(),
  agent: z.string().optional(),
  agentBinary: z.string().optional(),
  model: z.string().optional(),
  agentArg: z.array(z.string()).optional(),
  command: z.array(z.string()).optional(),
  script: z.string().optional(),
  check: z.string().optional(),
  promise: z.string().optional(),
  checkOn: z.string().optional(),
  maxIterations: intOption().optional(),
  maxQuestions: intOption().optional(),
  iterationTimeout: intOption().optional(),
  heartbeatTimeout: intOption().optional(),
  continueAsNewEvery: intOption().optional(),
  antiLaziness: z.boolean().optional(),
  hookPolicy: z.string().optional(),
  bestOutput: z.string().optional(),
  verification: z.boolean().optional(),
  protect: z.array(z.string()).optional(),
  allowEdit: z.array(z.string()).optional(),
  onProtectedEdit: z.string().optional(),
  config: z.string().optional(),
  prd: z.string().min(1).optional(),
  iterationsPerAttempt: intOption().positive().optional(),
  autoUnblock: z.boolean().optional(),
  id: z.string().min(1).optional(),
  host: z.string().min(1).optional(),
  hostWait: intOption().positive().optional(),
  follow: z.boolean().default(false),
  json: z.boolean().default(false),
});

/** Options of `ralph start`. */
export type StartOptions = z.infer<typeof StartOptions>;

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Which flag sets each LoopInput field, so an error names what to type. */
export const FLAG_OF: Record<string, string> = {
  prompt: '--prompt / --prompt-file',
  promptFile: '--prompt-file',
  workspace: '--workspace',
  agent: '--agent',
  'agent.adapter': '--agent',
  'agent.binary': '--agent-binary',
  'agent.model': '--model',
  'agent.args': '--agent-arg',
  'agent.command': '--command',
  'agent.script': '--script',
  completion: '--check / --promise',
  'completion.command': '--check',
  'completion.promise': '--promise',
  'completion.checkOn': '--check-on',
  maxIterations: '--max-iterations',
  'questions.max': '--max-questions',
  iterationTimeoutSeconds: '--iteration-timeout',
  heartbeatTimeoutSeconds: '--heartbeat-timeout',
  continueAsNewEvery: '--continue-as-new-every',
  host: '--host',
  hostWaitSeconds: '--host-wait',
  'persistence.enabled': '--no-anti-laziness',
  'persistence.hooks.policy': '--hook-policy',
  'persistence.bestOutput.restore': '--best-output',
  'verification.enabled': '--no-verification',
  'verification.protect': '--protect',
  'verification.allow': '--allow-edit',
  'verification.onProtectedEdit': '--on-protected-edit',
  prdFile: '--prd',
  preamble: '--prompt',
  iterationsPerAttempt: '--iterations-per-attempt',
  autoUnblock: '--auto-unblock',
};

/**
 * Builds the loop input: the config file's object (if any), then every flag given on top. Paths typed on the command
 * line are relative to the current directory; a relative workspace in a config file is relative to that file.
 * Throws {@link InvalidInputError} naming each bad field (and its flag) before anything is sent.
 */
export function buildLoopInput(o: StartOptions, cwd: string): LoopInputRaw {
  if (o.prompt !== undefined && o.promptFile !== undefined)
    throw new UsageError('use --prompt or --prompt-file, not both');
  const base = o.config ? loadConfigFile(path.resolve(cwd, o.config)) : {};
  const baseDir = o.config ? path.dirname(path.resolve(cwd, o.config)) : cwd;
  const input: Record<string, unknown> = { ...base };
  if (o.prompt !== undefined) {
    input.prompt = o.prompt;
    delete input.promptFile;
  }
  if (o.promptFile !== undefined) {
    input.promptFile = path.resolve(cwd, o.promptFile);
    delete input.prompt;
  }
  input.workspace = o.workspace
    ? path.resolve(cwd, o.workspace)
    : typeof base.workspace === 'string'
      ? path.resolve(baseDir, base.workspace)
      : cwd;

  input.agent = agentFrom(o, base, cwd);
  input.completion = completionFrom(o, base);

  if (o.maxIterations !== undefined) input.maxIterations = o.maxIterations;
  if (o.maxQuestions !== undefined)
    input.questions = { ...(base.questions as Record<string, unknown> | undefined), max: o.maxQuestions };
  if (o.iterationTimeout !== undefined) input.iterationTimeoutSeconds = o.iterationTimeout;
  if (o.heartbeatTimeout !== undefined) input.heartbeatTimeoutSeconds = o.heartbeatTimeout;
  if (o.continueAsNewEvery !== undefined) input.continueAsNewEvery = o.continueAsNewEvery;
  if (o.host !== undefined) input.host = o.host;
  if (o.hostWait !== undefined) input.hostWaitSeconds = o.hostWait;
  const persistence = antiLazinessFrom(o, base);
  if (persistence) input.persistence = persistence;
  const verification = verificationFrom(o, base);
  if (verification) input.verification = verification;

  parseLoopInput(input, problemsWithFlags);
  return input as LoopInputRaw;
}

/** Every zod issue of an input, each followed by the flag that sets its field. */
export function problemsWithFlags(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const key = issue.path.map(String).join('.');
      const flag = FLAG_OF[key] ?? FLAG_OF[String(issue.path[0])];
      return formatIssues(new z.ZodError([issue])) + (flag ? ` (${flag})` : '');
    })
    .join('; ');
}

/** The agent spec: the config file's, then the agent flags on top. */
export function agentFrom(o: StartOptions, base: Record<string, unknown>, cwd: string): Record<string, unknown> {
  const agent: Record<string, unknown> = { ...asObject(base.agent) };
  agent.adapter = o.agent ?? agent.adapter ?? (o.script ? 'scripted' : o.command ? 'command' : 'claude-code');
  if (o.agentBinary !== undefined) agent.binary = o.agentBinary;
  if (o.model !== undefined) agent.model = o.model;
  if (o.agentArg !== undefined) agent.args = o.agentArg;
  if (o.command !== undefined) agent.command = o.command.length === 1 ? shellWords(o.command[0]) : o.command;
  if (o.script !== undefined) agent.script = path.resolve(cwd, o.script);
  return agent;
}

/** The completion criteria: the config file's, then --check, --promise and --check-on on top. */
export function completionFrom(o: StartOptions, base: Record<string, unknown>): Record<string, unknown> {
  const completion: Record<string, unknown> = { ...asObject(base.completion) };
  if (o.check !== undefined) completion.command = o.check;
  if (o.promise !== undefined) completion.promise = o.promise;
  if (o.checkOn !== undefined) completion.checkOn = o.checkOn;
  return completion;
}

/** The anti-laziness settings when a flag touches them (else undefined: the config file's, or the defaults). */
export function antiLazinessFrom(o: StartOptions, base: Record<string, unknown>): Record<string, unknown> | undefined {
  if (o.antiLaziness !== false && o.hookPolicy === undefined && o.bestOutput === undefined) return undefined;
  const p: Record<string, unknown> = { ...asObject(base.persistence) };
  if (o.antiLaziness === false) p.enabled = false;
  if (o.hookPolicy !== undefined) p.hooks = { ...asObject(p.hooks), policy: o.hookPolicy };
  if (o.bestOutput !== undefined) p.bestOutput = { ...asObject(p.bestOutput), restore: o.bestOutput };
  return p;
}

/** The verification settings when a flag touches them (else undefined: the config file's, or the defaults). */
export function verificationFrom(o: StartOptions, base: Record<string, unknown>): Record<string, unknown> | undefined {
  if (o.verification !== false && !o.protect && !o.allowEdit && o.onProtectedEdit === undefined) return undefined;
  const v: Record<string, unknown> = { ...asObject(base.verification) };
  if (o.verification === false) v.enabled = false;
  if (o.protect) v.protect = [...((v.protect as string[] | undefined) ?? []), ...o.protect];
  if (o.allowEdit) v.allow = [...((v.allow as string[] | undefined) ?? []), ...o.allowEdit];
  if (o.onProtectedEdit !== undefined) v.onProtectedEdit = o.onProtectedEdit;
  return v;
}

/** Loop flags that mean nothing to a project, and why (each attempt's timeout is adaptive, its prompt is the task). */
export const LOOP_ONLY_FLAGS: [keyof StartOptions, string, string][] = [
  ['promptFile', '--prompt-file', 'each task is its own prompt (use --prompt for text put before every task)'],
  ['maxIterations', '--max-iterations', 'use --iterations-per-attempt'],
  ['iterationTimeout', '--iteration-timeout', "a task's timeout adapts to its complexity (set `timeouts` in --config)"],
  ['continueAsNewEvery', '--continue-as-new-every', 'set continueAsNewEvery (attempts) in --config'],
];

/**
 * Builds a project's input from --prd, the shared agent/check/workspace flags and a ProjectInput --config file (flags
 * win). The PRD must exist here: it is checked before anything is sent. Throws {@link InvalidInputError} naming each
 * bad field (and its flag).
 */
export function buildProjectInput(o: StartOptions, cwd: string): ProjectInputRaw {
  for (const [key, flag, instead] of LOOP_ONLY_FLAGS)
    if (o[key] !== undefined) throw new UsageError(`${flag} does not apply to a project (--prd): ${instead}`);
  const prdFile = path.resolve(cwd, o.prd ?? '');
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(prdFile);
  } catch {
    stat = undefined;
  }
  if (!stat?.isFile())
    throw new UsageError(
      `PRD file ${stat ? 'is a directory' : 'not found'}: ${prdFile}: --prd takes a prd.json or Markdown checklist`,
    );
  const base = o.config ? loadConfigFile(path.resolve(cwd, o.config), 'ProjectInput') : {};
  const baseDir = o.config ? path.dirname(path.resolve(cwd, o.config)) : cwd;
  const input: Record<string, unknown> = { ...base, prdFile };
  input.workspace = o.workspace
    ? path.resolve(cwd, o.workspace)
    : typeof base.workspace === 'string'
      ? path.resolve(baseDir, base.workspace)
      : cwd;
  input.agent = agentFrom(o, base, cwd);
  input.completion = completionFrom(o, base);
  if (o.prompt !== undefined) input.preamble = o.prompt;
  if (o.iterationsPerAttempt !== undefined) input.iterationsPerAttempt = o.iterationsPerAttempt;
  if (o.autoUnblock !== undefined) input.autoUnblock = o.autoUnblock;
  if (o.heartbeatTimeout !== undefined) input.heartbeatTimeoutSeconds = o.heartbeatTimeout;
  const persistence = antiLazinessFrom(o, base);
  if (persistence) input.persistence = persistence;

  parseProjectInput(input, problemsWithFlags);
  return input as ProjectInputRaw;
}

export function asObject(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export function loadConfigFile(
  file: string,
  what: 'LoopInput' | 'ProjectInput' = 'LoopInput',
): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`config file not found: ${file}`);
    throw e;
  }
  let value: unknown;
  try {
    value = /\.ya?ml$/i.test(file) ? YAML.parse(text) : JSON.parse(text);
  } catch (e) {
    throw new InvalidInputError(
      `config file ${file} is not valid ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${(e as Error).message}`,
    );
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new InvalidInputError(
      `config file ${file} must hold one ${what} object (${what === 'LoopInput' ? 'prompt' : 'timeouts'}, workspace, agent, completion, ...)`,
    );
  return value as Record<string, unknown>;
}
