/**
 * Moving a host-bound loop (`ralph move <id> --host B`): at a safe point, the workspace is re-created on host B from
 * the last post-run checkpoint pushed to its git remote (or the remote's default branch when none was pushed), the
 * loop's activities are re-bound to B's queue, and the loop goes on there. An iteration interrupted by the move is
 * redone on B from that checkpoint; nothing recorded is lost. A move that fails is recorded and the loop stays.
 */
import { log } from '@temporalio/workflow';
import type { ResolvedLoopInput } from '../../config/loop-input';
import { loopActivities } from './activities';
import { nowIso, type LoopContext } from './context';
import { describeActivityFailure } from './failures';
import { persist } from './persist';
import { hostHooks } from './start';

/** Applies the pending move, if any. */
export async function moveHost(ctx: LoopContext): Promise<void> {
  const { m } = ctx;
  const h = m.state.host;
  const req = h?.pendingMove;
  if (!h || !req) return;
  h.pendingMove = undefined;
  const url = ctx.input.checkpointRemoteUrl;
  const workspace = req.workspace ?? ctx.input.workspace;
  const moved = relocatedInput(ctx.input, req.host, workspace);
  const acts = loopActivities(moved, hostHooks(m, ctx.live), { persistActivity: ctx.persistActivity });
  m.setPhase('moving', nowIso());
  try {
    if (!url) throw new Error('the workspace has no git remote');
    log.info(`moving loop ${m.state.loopId} from host ${h.id} to ${req.host} (${workspace})`);
    const r = await acts.relocateWorkspace({ loopId: m.state.loopId, workspace, url, label: h.lastPushed });
    m.recordMove(
      { from: h.id, to: req.host, at: nowIso(), by: req.by, workspace: r.workspace, restoredFrom: r.restoredFrom },
      nowIso(),
    );
    ctx.input = moved;
    ctx.acts = acts;
    ctx.stateDir = moved.stateDir;
    m.state.stateDir = moved.stateDir;
    log.info(`loop ${m.state.loopId} now on host ${req.host}, restored from ${r.restoredFrom}`);
  } catch (e) {
    const why = describeActivityFailure(e).message;
    log.warn(`move to host ${req.host} failed: ${why}`);
    m.state.signals.push({ name: 'move', at: nowIso(), by: req.by, applied: false, note: `move failed: ${why}` });
  }
  m.setPhase('agent', nowIso());
  await persist(ctx);
}

/**
 * The input of a loop moved to `host` with its workspace at `workspace`: paths inside the old workspace (state folder,
 * agent script, prompt file) are rebased onto the new one; paths outside it are kept as they are.
 */
export function relocatedInput(input: ResolvedLoopInput, host: string, workspace: string): ResolvedLoopInput {
  const from = input.workspace.replace(/\/+$/, '');
  const to = workspace.replace(/\/+$/, '');
  const rebase = (p: string | undefined): string | undefined =>
    p === undefined ? undefined : p === from ? to : p.startsWith(`${from}/`) ? to + p.slice(from.length) : p;
  return {
    ...input,
    host,
    workspace: to,
    stateDir: rebase(input.stateDir) ?? `${to}/.ralph`,
    promptFile: rebase(input.promptFile),
    agent: { ...input.agent, script: rebase(input.agent.script) },
  };
}
