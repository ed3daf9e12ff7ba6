/**
 * `ralph audit <loopId> [--type t,...] [--since 2h|ISO] [--json] [--state-dir dir]`: the loop's audit trail,
 * `<stateDir>/loops/<loopId>/hook-log.jsonl`: every agent run, check, gate, detector and hook invocation and every
 * human decision and signal, with time, duration, outcome and who decided. The loop folder is found as
 * `ralph interventions` finds it.
 */
import type { Command } from 'commander';
import path from 'node:path';
import { z } from 'zod';
import { HookLogTypes, readHookLog, type HookLogEntry, type HookLogType } from '../../state/hook-log';
import { locateLoop } from '../loop-folder';
import { formatDuration, runCommand, table, UsageError } from '../run-command';

/** Options of `ralph audit`. */
export const AuditOptions = z.object({
  type: z.string().optional(),
  since: z.string().optional(),
  json: z.boolean().default(false),
  stateDir: z.string().min(1).optional(),
});
/** Options of `ralph audit`. */
export type AuditOptions = z.infer<typeof AuditOptions>;

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `--since`: a duration back from `now` (`90s`, `15m`, `2h`, `3d`) or an ISO time; throws a UsageError. */
export function parseSince(since: string, now = Date.now()): number {
  const d = /^(\d+)([smhd])$/.exec(since.trim());
  if (d) return now - Number(d[1]) * UNITS[d[2]];
  const t = Date.parse(since);
  if (Number.isNaN(t))
    throw new UsageError(`--since "${since}": give a duration (90s, 15m, 2h, 3d) or an ISO time (2026-01-31T12:00Z)`);
  return t;
}

/** Parses `--type` (comma-separated kinds); throws a UsageError naming the valid ones. */
export function parseTypes(types: string): HookLogType[] {
  const list = types
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const bad = list.filter((t) => !(HookLogTypes as readonly string[]).includes(t));
  if (bad.length)
    throw new UsageError(`--type ${bad.join(',')}: unknown; use one or more of ${HookLogTypes.join(', ')}`);
  return list as HookLogType[];
}

/** The entries of a given kind, at or after `since` (ms). */
export function filterHookLog(entries: HookLogEntry[], f: { types?: HookLogType[]; since?: number }): HookLogEntry[] {
  return entries.filter(
    (e) => (!f.types?.length || f.types.includes(e.type)) && (f.since === undefined || Date.parse(e.at) >= f.since),
  );
}

/** The audit trail as a table. */
export function auditLines(entries: HookLogEntry[]): string[] {
  return table(
    ['at', 'iter', 'type', 'name', 'outcome', 'duration', 'by', 'detail'],
    entries.map((e) => [
      e.at,
      e.iteration,
      e.type,
      e.name,
      e.outcome,
      e.durationMs === undefined ? '' : formatDuration(e.durationMs),
      e.by,
      e.detail && e.detail.length > 100 ? `${e.detail.slice(0, 99)}…` : e.detail,
    ]),
  );
}

/** Registers `ralph audit` on the program. */
export function auditCommand(program: Command): Command {
  return program
    .command('audit <loopId>')
    .description("print a loop's audit trail: agent runs, checks, gates, detectors, hooks, human decisions")
    .option('--type <kinds>', `only these kinds, comma-separated: ${HookLogTypes.join(', ')}`)
    .option('--since <when>', 'only entries from this time on: a duration back (15m, 2h, 3d) or an ISO time')
    .option('--json', 'print the entries as a JSON array')
    .option('--state-dir <dir>', "the loop's state dir (default: the one the loop reports, else ./.ralph)")
    .action(
      runCommand(AuditOptions, async (o, [loopId], ctx) => {
        const types = o.type ? parseTypes(o.type) : undefined;
        const since = o.since ? parseSince(o.since) : undefined;
        const folder = await locateLoop(ctx, loopId, o.stateDir);
        const stateDir = path.dirname(path.dirname(folder.dir));
        const entries = filterHookLog(readHookLog(stateDir, loopId), { types, since });
        if (o.json) return ctx.out.json(entries);
        if (!entries.length) {
          ctx.out.line(
            `no audit entries${types || since ? ' match' : ''} in ${path.join(folder.dir, 'hook-log.jsonl')}`,
          );
          return;
        }
        for (const l of auditLines(entries)) ctx.out.line(l);
      }),
    );
}
