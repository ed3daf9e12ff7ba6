import { detectUsageLimit } from '../../core/claims';
import type { AgentAdapterImpl, AgentInvocation } from './types';
import { MissingAgentCommandError } from '../errors';

/** Placeholders the `command` adapter fills in every argv element. */
export const COMMAND_PLACEHOLDERS = ['prompt', 'promptFile', 'workspace', 'iteration'] as const;

/**
 * Fills `{prompt}`, `{promptFile}`, `{workspace}` and `{iteration}` in one argv element, in a single pass: text a
 * placeholder brings in (a prompt that mentions `{workspace}`) is never expanded again.
 */
export function expandCommandArg(arg: string, inv: AgentInvocation): string {
  const values: Record<(typeof COMMAND_PLACEHOLDERS)[number], string> = {
    prompt: inv.prompt,
    promptFile: inv.promptFile,
    workspace: inv.workspace,
    iteration: String(inv.iteration),
  };
  return arg.replace(/\{(prompt|promptFile|workspace|iteration)\}/g, (_, key: keyof typeof values) => values[key]);
}

/**
 * Any agent CLI, from an argv template (`agent.command`): its first element is the executable (unless
 * `agent.binary` is set), `agent.args` follow the template verbatim. The answer is stdout as printed.
 */
export const commandAdapter: AgentAdapterImpl = {
  name: 'command',
  // No default: the executable is the template's first element.
  defaultBinary: '',
  build(inv) {
    const template = inv.spec.command;
    if (!template?.length) throw new MissingAgentCommandError();
    const [first, ...rest] = template.map((arg) => expandCommandArg(arg, inv));
    return { file: inv.spec.binary ?? first, args: [...rest, ...inv.spec.args] };
  },
  parse(out) {
    return {
      finalText: out.stdout,
      usageLimit: detectUsageLimit(out.stdout + '\n' + out.stderr, out.now),
    };
  },
};
export { MissingAgentCommandError };
