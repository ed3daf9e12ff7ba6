import type { AgentAdapter } from '../../config/loop-input';
import { aiderAdapter } from './aider';
import { claudeCodeAdapter } from './claude-code';
import { codexAdapter } from './codex';
import { commandAdapter } from './command';
import { geminiAdapter } from './gemini';
import { scriptedAdapter } from './scripted';
import type { AgentAdapterImpl } from './types';
import { UnknownAgentAdapterError } from '../errors';

export * from './types';
export { aiderAdapter, claudeCodeAdapter, codexAdapter, commandAdapter, geminiAdapter, scriptedAdapter };

/** Every agent adapter, by the name `agent.adapter` uses (the type makes a missing one a compile error). */
export const agentAdapters: Readonly<Record<AgentAdapter, AgentAdapterImpl>> = {
  'claude-code': claudeCodeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
  aider: aiderAdapter,
  command: commandAdapter,
  scripted: scriptedAdapter,
};

/** Returns the adapter that builds and parses runs of the named agent CLI. */
export function getAdapter(name: AgentAdapter): AgentAdapterImpl {
  // Own properties only: a name such as "toString" must not resolve to Object.prototype.
  if (!Object.prototype.hasOwnProperty.call(agentAdapters, name))
    throw new UnknownAgentAdapterError(String(name), Object.keys(agentAdapters));
  return agentAdapters[name];
}
export { UnknownAgentAdapterError };
