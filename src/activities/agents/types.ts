import type { AgentAdapter, AgentSpec } from '../../config/loop-input';

/** Everything an adapter needs to build one agent run. */
export interface AgentInvocation {
  /** The full prompt for this iteration. */
  prompt: string;
  /** The same prompt, written to a file (for CLIs that read prompts from files). */
  promptFile: string;
  /** The workspace the agent works in (its cwd). */
  workspace: string;
  spec: AgentSpec;
  loopId: string;
  /** 1-based iteration number. */
  iteration: number;
  /** Directory for this iteration's artifacts. */
  artifactDir: string;
  /** The loop's state folder (audit log, checkpoints of plain folders); `<workspace>/.ralph` when not given. */
  stateDir?: string;
  /** Ralph's tool-call hooks, for adapters whose agent supports them (claude-code, codex, gemini, scripted). */
  hooks?: AgentHooks;
  /** The run is inside ralph's sandbox (codex then turns its own off: one bubblewrap cannot nest in the other). */
  sandboxed?: boolean;
}

/**
 * Ralph's tool-call hooks: before each risky tool call (test edits, `rm -rf`, force pushes...) the call is logged to
 * the loop's audit log, the agent is warned (or, with policy `deny`, a critical call is blocked) and a rollback
 * checkpoint is taken. See `ralph hook --help`.
 */
export interface AgentHooks {
  enabled: boolean;
  policy: 'warn' | 'deny';
}

/** The process to spawn for one agent run. */
export interface AgentCommand {
  file: string;
  args: string[];
  env?: Record<string, string>;
  /** Text written to the agent's stdin (then closed); stdin is closed empty otherwise. */
  input?: string;
}

/** Token usage and cost, as the agent reports them. */
export interface AgentUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  costUsd?: number;
}

/** What an adapter reads out of a finished run. */
export interface ParsedAgentOutput {
  /** The agent's final answer as text (used for claims and feedback). */
  finalText: string;
  usage?: AgentUsage;
  /** Set when the agent refused to work because of a rate/usage limit. */
  usageLimit?: { message: string; resetAt?: number };
  /** Files the agent's structured output says it edited/created (tool calls). */
  filesTouched?: string[];
  sessionId?: string;
  /** The agent's own output says the run failed (e.g. claude's `is_error`). */
  isError?: boolean;
  /** The HTTP status of the API call that failed the run, when the CLI reports it (claude, gemini). */
  apiStatus?: number;
}

/** Raw output of a finished run, given to {@link AgentAdapterImpl.parse}. */
export interface RawAgentOutput {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  /** Epoch ms when the run ended (to resolve relative reset times). */
  now: number;
}

/** One agent CLI: how to call it and how to read what it printed. */
export interface AgentAdapterImpl {
  name: AgentAdapter;
  /** Executable used when the spec names no `binary`. */
  defaultBinary: string;
  build(inv: AgentInvocation): AgentCommand;
  parse(out: RawAgentOutput): ParsedAgentOutput;
}
