/**
 * The loop's audit log of risky agent tool calls: `<stateDir>/loops/<loopId>/audit.jsonl`, one JSON object per line,
 * appended by the `ralph hook` command that Claude Code (or the scripted agent) runs around each tool call.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RiskLevel } from '../core/risk';
import { loopDir } from './artifacts';

/** One line of the audit log: a tool call, how risky it was, what the hook answered and the checkpoint it took. */
export interface AuditEntry {
  /** ISO time the hook ran. */
  at: string;
  loopId: string;
  /** 1-based iteration of the loop the call happened in. */
  iteration: number;
  event: 'pre-tool-use' | 'post-tool-use';
  /** Claude Code's tool name (`Bash`, `Write`, `Edit`...). */
  tool: string;
  /** The file or the shell command the risk is about. */
  target?: string;
  risk: RiskLevel;
  category: string;
  reasons: string[];
  /** `block`: PostToolUse's answer to a change the loop rejects (in-iteration correction). */
  decision: 'allow' | 'warn' | 'deny' | 'block';
  /** Label of the rollback checkpoint taken before the call (`iter-001-risk-1`). */
  checkpoint?: string;
  /** Why the checkpoint could not be taken (the call went ahead anyway). */
  checkpointError?: string;
  /** Claude Code's id of the tool call: pairs a pre-tool-use line with its post-tool-use line. */
  toolUseId?: string;
  sessionId?: string;
}

/** Path of a loop's audit log. */
export const auditFile = (stateDir: string, loopId: string): string =>
  path.join(loopDir(stateDir, loopId), 'audit.jsonl');

/** Longest target kept in a line: a whole here-doc in a Bash command does not belong in the log. */
const MAX_TARGET = 500;

/**
 * Appends one entry as one line. The file is opened with O_APPEND and the line written with a single write, so hooks
 * of parallel tool calls never interleave or overwrite each other's lines.
 */
export async function appendAudit(stateDir: string, loopId: string, entry: AuditEntry): Promise<void> {
  const file = auditFile(stateDir, loopId);
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const target =
    entry.target && entry.target.length > MAX_TARGET ? `${entry.target.slice(0, MAX_TARGET - 1)}…` : entry.target;
  const line = Buffer.from(JSON.stringify({ ...entry, target }) + '\n');
  const fh = await fs.promises.open(file, 'a');
  try {
    await fh.write(line, 0, line.length);
  } finally {
    await fh.close();
  }
}

const isEntry = (v: unknown): v is AuditEntry => {
  const e = v as Partial<AuditEntry> | null;
  return (
    !!e &&
    typeof e === 'object' &&
    typeof e.at === 'string' &&
    typeof e.iteration === 'number' &&
    typeof e.tool === 'string' &&
    typeof e.risk === 'string' &&
    typeof e.decision === 'string' &&
    Array.isArray(e.reasons)
  );
};

/**
 * Reads a loop's audit log, oldest first, optionally only one iteration's entries. A missing log is empty; lines that
 * are not whole entries (a hook killed mid-write, a hand edit) are skipped.
 */
export async function readAudit(stateDir: string, loopId: string, iteration?: number): Promise<AuditEntry[]> {
  let text: string;
  try {
    text = await fs.promises.readFile(auditFile(stateDir, loopId), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const out: AuditEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (isEntry(v) && (iteration === undefined || v.iteration === iteration)) out.push(v);
  }
  return out;
}

/** Label of the n-th risk checkpoint of an iteration: `iter-<NNN>-risk-<k>`. */
export const riskCheckpointLabel = (iteration: number, k: number): string =>
  `iter-${String(iteration).padStart(3, '0')}-risk-${k}`;

/**
 * Reserves the next risk-checkpoint label of an iteration (k = 1, 2, ...): each label is claimed by creating
 * `<loopDir>/risk-checkpoints/<label>` exclusively, so the hooks of parallel tool calls never share (and overwrite)
 * a checkpoint.
 */
export async function reserveRiskCheckpoint(stateDir: string, loopId: string, iteration: number): Promise<string> {
  const dir = path.join(loopDir(stateDir, loopId), 'risk-checkpoints');
  await fs.promises.mkdir(dir, { recursive: true });
  for (let k = 1; ; k++) {
    const label = riskCheckpointLabel(iteration, k);
    try {
      await (await fs.promises.open(path.join(dir, label), 'wx')).close();
      return label;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
