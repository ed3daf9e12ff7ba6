/**
 * `ralph profile --agent <name> [--state-dir dir] [--json]`: an agent's behaviour summed over every loop under the
 * state dir (`<stateDir>/loops/<id>/profile.json`): no-files iterations, false completions, hallucinated files,
 * files changed per iteration, detections by type.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { RALPH_DIR } from '../../core/constants';
import type { AgentProfile } from '../../core/anti-laziness-types';
import { mergeProfiles } from '../../core/profile';
import { profileView } from '../../views/report';
import { CommandFailedError, runCommand } from '../run-command';

/** Options of `ralph profile`. */
export const ProfileOptions = z.object({
  agent: z.string({ error: 'required: name the agent, e.g. --agent claude-code' }).min(1),
  stateDir: z.string().min(1).default(RALPH_DIR),
  json: z.boolean().default(false),
});
/** Options of `ralph profile`. */
export type ProfileOptions = z.infer<typeof ProfileOptions>;

/** The profiles of `agent` under `<stateDir>/loops/*`, with the loop ids they came from; unreadable files skipped. */
export function loadProfiles(stateDir: string, agent: string): { loops: string[]; profiles: AgentProfile[] } {
  const root = path.join(stateDir, 'loops');
  let ids: string[];
  try {
    ids = fs.readdirSync(root).sort();
  } catch {
    return { loops: [], profiles: [] };
  }
  const loops: string[] = [];
  const profiles: AgentProfile[] = [];
  for (const id of ids) {
    let p: AgentProfile;
    try {
      p = JSON.parse(fs.readFileSync(path.join(root, id, 'profile.json'), 'utf8')) as AgentProfile;
    } catch {
      // No profile (the anti-laziness layer was off) or a half-written one: that loop has nothing to add.
      continue;
    }
    if (p && typeof p === 'object' && p.agent === agent && typeof p.iterations === 'number') {
      loops.push(id);
      profiles.push(p);
    }
  }
  return { loops, profiles };
}

/** Registers `ralph profile`. */
export function profileCommand(program: Command): Command {
  return program
    .command('profile')
    .description("an agent's behaviour over all loops of a state dir: no-files runs, false claims, detections")
    .option('--agent <name>', 'the agent adapter, e.g. claude-code')
    .option('--state-dir <dir>', `the loops' state dir (default ./${RALPH_DIR})`)
    .option('--json', 'print the merged profile as JSON')
    .action(
      runCommand(ProfileOptions, async (o, _args, ctx) => {
        const dir = path.resolve(o.stateDir);
        const { loops, profiles } = loadProfiles(dir, o.agent);
        if (!profiles.length)
          throw new CommandFailedError(
            `no profile of agent "${o.agent}" under ${path.join(dir, 'loops')}: run a loop with that agent (and the ` +
              'anti-laziness layer on), or point --state-dir at the workspace .ralph folder',
          );
        const merged = mergeProfiles(o.agent, profiles);
        if (o.json) return ctx.out.json({ ...merged, loops });
        for (const l of profileView(merged)) ctx.out.line(l);
        ctx.out.line(`  loops                ${loops.length}`);
      }),
    );
}
