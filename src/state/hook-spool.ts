/**
 * The hook spool: inside the agent sandbox, the loop's state folder is read-only to the agent and to the hooks it
 * runs (`ralph hook`), so a sandboxed run's hooks append their audit and hook-log entries to a spool file in the
 * run's own temp folder (RALPH_HOOK_SPOOL) and the worker moves them into the loop's logs after the run. The spool is
 * written by the agent's process tree: its entries are evidence for humans, never part of a verdict.
 */
import fs from 'node:fs';
import { appendAudit, type AuditEntry } from './audit';
import { appendHookLog, type HookLogEntry } from './hook-log';

/** One spooled line. */
type SpoolLine = { kind: 'audit'; entry: AuditEntry } | { kind: 'hook-log'; entry: HookLogEntry };

/** Appends a line to the spool (the hook's side). */
export function spoolHookEntry(spool: string, line: SpoolLine): void {
  fs.appendFileSync(spool, JSON.stringify(line) + '\n');
}

/** Moves a run's spooled entries into the loop's audit and hook logs (the worker's side); returns how many. */
export async function drainHookSpool(spool: string, stateDir: string, loopId: string): Promise<number> {
  let text: string;
  try {
    text = fs.readFileSync(spool, 'utf8');
  } catch {
    return 0;
  }
  let n = 0;
  const hookLog: HookLogEntry[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    let line: SpoolLine;
    try {
      line = JSON.parse(raw) as SpoolLine;
    } catch {
      continue;
    }
    // The spool is the agent's to write: an entry is kept only for this loop, whatever it says.
    if (!line || typeof line !== 'object' || !line.entry || line.entry.loopId !== loopId) continue;
    if (line.kind === 'audit') await appendAudit(stateDir, loopId, line.entry);
    else if (line.kind === 'hook-log') hookLog.push(line.entry);
    else continue;
    n++;
  }
  appendHookLog(stateDir, hookLog);
  fs.rmSync(spool, { force: true });
  return n;
}
