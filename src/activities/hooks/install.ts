/**
 * How an agent run gets ralph's tool-call hooks: the shell command that runs them, the environment that tells them
 * which loop and iteration they belong to, and Claude Code's settings that register them.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AgentInvocation } from '../agents/types';
import { HOOK_TOOL_MATCHER } from '../../core/risk';

export { HOOK_TOOL_MATCHER };

/**
 * Path of the compiled hook entry point (`dist/src/cli/commands/hook.js`). It answers exactly like `ralph hook
 * <event>` but loads only the hook's own modules: ~0.2 s per tool call instead of ~1.1 s for the whole CLI, which
 * loads the Temporal client (measured on node 20), and a hook runs twice per tool call.
 */
export function hookEntryPath(): string {
  const sibling = path.resolve(__dirname, '../../cli/commands/hook.js');
  if (fs.existsSync(sibling)) return sibling;
  // Running from TypeScript sources (jest): use the built copy.
  return path.resolve(__dirname, '../../../dist/src/cli/commands/hook.js');
}

/** Quotes a word for a POSIX shell (left bare when it is made of safe characters only). */
export const shellQuote = (s: string): string =>
  /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;

/** The hook command without its event, for a shell: `'<node>' '<dist/src/cli/commands/hook.js>'`; append the event. */
export function hookShellCommand(): string {
  return `${shellQuote(process.execPath)} ${shellQuote(hookEntryPath())}`;
}

/**
 * Environment of an agent run with hooks enabled: which loop, iteration, workspace and state folder the hook logs
 * and checkpoints for (absolute paths: the agent may change directory), the policy, and the command itself
 * (RALPH_HOOK_COMMAND, for agents that run hooks themselves, like the scripted agent). Empty when hooks are off.
 */
export function hookEnv(inv: AgentInvocation): Record<string, string> {
  if (!inv.hooks?.enabled) return {};
  const workspace = path.resolve(inv.workspace);
  return {
    RALPH_HOOK_COMMAND: hookShellCommand(),
    RALPH_HOOK_POLICY: inv.hooks.policy,
    RALPH_LOOP_ID: inv.loopId,
    RALPH_ITERATION: String(inv.iteration),
    RALPH_WORKSPACE: workspace,
    RALPH_STATE_DIR: path.resolve(inv.stateDir ?? path.join(workspace, '.ralph')),
  };
}

/** Claude Code settings registering the hooks: `ralph hook pre-tool-use` and `post-tool-use` on the watched tools. */
export function claudeHookSettings(command: string = hookShellCommand()): {
  hooks: Record<string, { matcher: string; hooks: { type: 'command'; command: string }[] }[]>;
} {
  const entry = (event: string) => [
    { matcher: HOOK_TOOL_MATCHER, hooks: [{ type: 'command' as const, command: `${command} ${event}` }] },
  ];
  return { hooks: { PreToolUse: entry('pre-tool-use'), PostToolUse: entry('post-tool-use') } };
}
