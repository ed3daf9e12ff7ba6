import fs from 'node:fs';
import path from 'node:path';
import { detectUsageLimit } from '../../core/claims';
import { hookEnv } from '../hooks/install';
import type { AgentAdapterImpl, AgentUsage } from './types';

/** Path of the compiled scripted-agent program (built by `npm run build`). */
export function scriptedAgentPath(): string {
  const sibling = path.resolve(__dirname, '../../scripted-agent/index.js');
  if (fs.existsSync(sibling)) return sibling;
  // Running from TypeScript sources (jest): use the built copy.
  return path.resolve(__dirname, '../../../dist/src/scripted-agent/index.js');
}

/** Marker line the scripted agent prints to report token usage. */
export const USAGE_MARKER = 'RALPH_USAGE ';

/** Our own deterministic agent: a real subprocess following a JSON script (see src/scripted-agent). */
export const scriptedAdapter: AgentAdapterImpl = {
  name: 'scripted',
  defaultBinary: process.execPath,
  build(inv) {
    const script = path.resolve(inv.workspace, inv.spec.script ?? '');
    // With hooks enabled, `hook` steps run RALPH_HOOK_COMMAND like Claude Code runs its hooks.
    const env = hookEnv(inv);
    return {
      file: inv.spec.binary ?? process.execPath,
      args: [
        scriptedAgentPath(),
        '--script',
        script,
        '--iteration',
        String(inv.iteration),
        '--prompt-file',
        inv.promptFile,
        '--loop-id',
        inv.loopId,
        ...inv.spec.args,
      ],
      ...(Object.keys(env).length ? { env } : {}),
    };
  },
  parse(out) {
    let usage: AgentUsage | undefined;
    const lines = out.stdout.split(/\r?\n/);
    for (const line of lines) {
      if (line.startsWith(USAGE_MARKER)) {
        try {
          usage = JSON.parse(line.slice(USAGE_MARKER.length)) as AgentUsage;
        } catch {
          // a malformed usage line is ignored: usage is informative only
        }
      }
    }
    const finalText = lines.filter((l) => !l.startsWith(USAGE_MARKER)).join('\n');
    return { finalText, usage, usageLimit: detectUsageLimit(out.stdout + '\n' + out.stderr, out.now) };
  },
};
