/**
 * `ralph move <loopId> --host <id> [--workspace <dir>] [--by <name>] [--json]`: moves a host-bound loop to another
 * host. At the loop's next safe point (or right away when its host's worker is gone and an activity waits for it),
 * the workspace is re-created on the new host from the last checkpoint pushed to its git remote, and the loop goes on
 * there. Needs workers running with `--host` and a workspace with a git remote both hosts can reach.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { hostIdProblem } from '../../core/hosts';
import { CommandFailedError, UsageError, runCommand } from '../run-command';
import { SignalIgnoredError, defaultBy, sendSignal } from '../signal-helpers';

/** Options of `ralph move`. */
export const MoveOptions = z.object({
  host: z.string().min(1, 'name the host to move to (--host <id>)'),
  workspace: z.string().min(1).optional(),
  by: z.string().min(1).optional(),
  json: z.boolean().default(false),
});

/** Registers `ralph move` on the program. */
export function moveCommand(program: Command): Command {
  return program
    .command('move <loopId>')
    .description(
      "move a host-bound loop to another host: its workspace is re-created there from the last checkpoint pushed to the workspace's git remote",
    )
    .requiredOption('--host <id>', 'the host to move to (its workers run `ralph worker --host <id>`)')
    .option('--workspace <dir>', 'absolute path of the workspace on the new host (default: the same path as now)')
    .option('--by <name>', 'who moves it (default: $USER)')
    .option('--json', 'print {loopId, host, applied, note} as JSON')
    .action(
      runCommand(MoveOptions, async (o, [loopId], ctx) => {
        const problem = hostIdProblem(o.host);
        if (problem) throw new UsageError(`--host: ${problem}`);
        if (o.workspace !== undefined && !o.workspace.startsWith('/'))
          throw new UsageError(`--workspace must be an absolute path on host ${o.host}, got "${o.workspace}"`);
        const client = await ctx.client();
        const by = o.by ?? defaultBy();
        const { event } = await sendSignal(client, loopId, 'move', { host: o.host, workspace: o.workspace, by });
        if (event && !event.applied) throw new SignalIgnoredError(loopId, 'move', event.note);
        const note = event
          ? event.note
          : 'sent; no worker has processed it yet (it applies when one does): check with `ralph status`';
        if (o.json) ctx.out.json({ loopId, host: o.host, applied: event?.applied ?? false, note });
        else ctx.out.line(`move of loop ${loopId} to host ${o.host}: ${note}`);
        if (!event) throw new CommandFailedError(`move of loop ${loopId} not confirmed yet`);
      }),
    );
}
