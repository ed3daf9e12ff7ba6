/**
 * Why an agent run failed, read from what the real CLIs print: the infrastructure kinds (bad credentials, a usage
 * limit, an overloaded API, a missing executable) are not the agent's fault and must not count as a lazy or stuck
 * iteration; everything else is a real task failure. Pure: fed with the adapters' parsed output and exit code.
 */
import { ErrorTypes } from './constants';

/** The kinds of agent failure, `task` being the agent's own (the others are infrastructure). */
export const AgentFailureKinds = {
  auth: 'auth',
  usageLimit: 'usage_limit',
  overloaded: 'overloaded',
  binaryMissing: 'binary_missing',
  task: 'task',
} as const;
/** A kind from {@link AgentFailureKinds}. */
export type AgentFailureKind = (typeof AgentFailureKinds)[keyof typeof AgentFailureKinds];

/** Tells whether a failure kind is infrastructure (not the agent's work), so detectors must skip the iteration. */
export function isInfraFailure(kind: AgentFailureKind | undefined): boolean {
  return kind !== undefined && kind !== AgentFailureKinds.task;
}

/**
 * Failure type of the retryable ApplicationFailure thrown when the model API is overloaded (HTTP 529/503): Temporal's
 * retry policy runs the agent again with backoff, and the attempt is not an iteration.
 */
export const AGENT_OVERLOADED_TYPE = ErrorTypes.AgentOverloaded;

/** What {@link classifyAgentFailure} reads. */
export interface AgentRunOutcome {
  /** The adapter name (`claude-code`, `codex`, `gemini`, `aider`...), to name the right fix. */
  adapter: string;
  exitCode: number | null;
  /** The agent's answer (or error text) as the adapter parsed it. */
  finalText: string;
  stderr: string;
  /** The agent's structured output says the run failed. */
  isError?: boolean;
  /** The adapter found a usage limit. */
  usageLimit?: { message: string; resetAt?: number };
  /** An HTTP status the CLI reports for the failed API call (claude's `api_error_status`). */
  apiStatus?: number;
}

/** A classified failure: its kind, one line saying what happened and, for `auth`, how to fix it. */
export interface AgentFailure {
  kind: AgentFailureKind;
  message: string;
}

/** Credential failures as the CLIs word them (claude, codex, gemini, aider/litellm). */
const AUTH_PATTERNS: RegExp[] = [
  /not logged in/i,
  /please run \/login/i,
  /invalid api key/i,
  /incorrect api key/i,
  /api key not valid/i,
  /API_KEY_INVALID/,
  /authentication_(?:error|failed)/i,
  /\b401 unauthorized\b/i,
  /invalid_api_key/i,
  /missing environment variable: `?\w+`?/i,
  /invalid auth method selected/i,
  /GEMINI_API_KEY environment variable not found/i,
  /must specify the \w+ environment variable/i,
  /AuthenticationError/,
  /OAuth token has expired/i,
];

/** Overload answers: HTTP 529/503, "Overloaded", "at capacity", UNAVAILABLE. */
const OVERLOADED_PATTERNS: RegExp[] = [
  /\b529\b.*overloaded|overloaded_error/i,
  /server_is_overloaded|servers are currently overloaded/i,
  /model is overloaded/i,
  /selected model is at capacity/i,
  /\b503\b.*(?:service unavailable|UNAVAILABLE)|"status":\s*"UNAVAILABLE"/i,
];

/** The executable could not be run: the shell's or the OS's words for it. */
const BINARY_MISSING = /command not found|no such file or directory|ENOENT/i;

/** How to fix bad credentials, per adapter. */
const AUTH_FIX: Record<string, string> = {
  'claude-code':
    'set ANTHROPIC_API_KEY (agent.env or the worker environment) or run `claude /login` as the worker user',
  codex:
    'set CODEX_API_KEY or OPENAI_API_KEY (or the env_key of your custom model_provider) in agent.env or the worker environment, or run `codex login` as the worker user',
  gemini:
    'set GEMINI_API_KEY (agent.env or the worker environment) with security.auth.selectedType "gemini-api-key" in ~/.gemini/settings.json, or run `gemini` once to log in',
  aider:
    "set the model provider's API key (e.g. ANTHROPIC_API_KEY or OPENAI_API_KEY) in agent.env or the worker environment",
};

const firstLine = (text: string, re: RegExp[]): string | undefined =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => re.some((r) => r.test(l)));

const clip = (s: string): string => (s.length > 200 ? s.slice(0, 200) + '…' : s);

/**
 * Classifies a finished run: undefined when it succeeded, else its kind and a one-line message. Only a failed run
 * (non-zero exit, or the CLI's own error flag) is read for auth and overload answers, so an agent that merely talks
 * about API keys is not an auth failure. A usage limit the adapter found wins; `task` covers everything else.
 */
export function classifyAgentFailure(o: AgentRunOutcome): AgentFailure | undefined {
  if (o.usageLimit) return { kind: AgentFailureKinds.usageLimit, message: clip(o.usageLimit.message) };
  const failed = o.isError === true || (o.exitCode !== 0 && o.exitCode !== null);
  if (!failed) return undefined;
  const text = `${o.finalText}\n${o.stderr}`;
  const auth =
    o.apiStatus === 401 || o.apiStatus === 403
      ? (firstLine(text, AUTH_PATTERNS) ?? `HTTP ${o.apiStatus}`)
      : firstLine(text, AUTH_PATTERNS);
  if (auth) {
    const missing = /missing environment variable: `?(\w+)`?|must specify the (\w+) environment variable/i.exec(text);
    const variable = missing?.[1] ?? missing?.[2];
    const fix = variable
      ? `set ${variable} in agent.env or the worker environment`
      : (AUTH_FIX[o.adapter] ??
        "set the agent CLI's API key in agent.env or the worker environment, or log it in as the worker user");
    return { kind: AgentFailureKinds.auth, message: `${o.adapter} could not authenticate (${clip(auth)}): ${fix}` };
  }
  const overloaded =
    o.apiStatus === 529 || o.apiStatus === 503
      ? (firstLine(text, OVERLOADED_PATTERNS) ?? `HTTP ${o.apiStatus}`)
      : firstLine(text, OVERLOADED_PATTERNS);
  if (overloaded) return { kind: AgentFailureKinds.overloaded, message: `model API overloaded: ${clip(overloaded)}` };
  if (o.exitCode === 127 && BINARY_MISSING.test(o.stderr))
    return {
      kind: AgentFailureKinds.binaryMissing,
      message: `the agent executable could not be run (${clip(firstLine(o.stderr, [BINARY_MISSING]) ?? 'exit 127')}): install it or pass --agent-binary <path>`,
    };
  return { kind: AgentFailureKinds.task, message: clip(firstLine(text, [/\S/]) ?? `exit code ${o.exitCode}`) };
}
