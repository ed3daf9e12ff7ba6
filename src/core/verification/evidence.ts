/**
 * What a human gate shows besides its text, so the human can judge at a glance: the diff of the files the agent was
 * not to change, per file and hunk, and the excerpt of the original check's failure. Bounded (the gate lives in
 * workflow state and history); the whole diff stays in its artifact file, named by `path`.
 */
import type { FailureExcerpt } from './failure-excerpt';

/** One hunk of a file's diff: its ranges and its lines, each starting with ` `, `+`, `-` or `\` (as in `diff`). */
export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** One file's diff. */
export interface FileDiff {
  path: string;
  change: 'added' | 'modified' | 'deleted';
  /** Lines added and removed in the whole file (also when hunks were cut). */
  added: number;
  removed: number;
  hunks: DiffHunk[];
  /** The file could not be read as text (binary, or too large): no hunks. */
  binary?: boolean;
  /** Hunks or lines were left out to keep the evidence small. */
  truncated?: boolean;
}

/** The diff a gate shows: the first files, and where the whole diff is. */
export interface DiffEvidence {
  files: FileDiff[];
  /** Files left out (beyond the limit). */
  omittedFiles?: number;
  /** The whole unified diff, on the worker's host. */
  path?: string;
}

/** The evidence of a human gate. */
export interface GateEvidence {
  /** The diff of the protected files (baseline → the agent's work). */
  diff?: DiffEvidence;
  /** The original check's failure, excerpted around its first errors; `path`: the log it was read from. */
  failure?: FailureExcerpt & { path?: string };
}

/** Limits of a gate's diff: files, diff lines in all, characters per line. */
export interface DiffLimits {
  maxFiles: number;
  maxLines: number;
  maxLineChars: number;
}

/** The default limits: 20 files, 400 lines, 240 characters a line (about 100 KB at most in history). */
export const DIFF_LIMITS: DiffLimits = { maxFiles: 20, maxLines: 400, maxLineChars: 240 };

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Counts a hunk list's added and removed lines. */
export function countChanges(hunks: readonly DiffHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of hunks)
    for (const l of h.lines) {
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
  return { added, removed };
}

/**
 * Cuts files to the limits: the first `maxFiles` files, then hunks in order until `maxLines` diff lines are shown
 * (a hunk that does not fit is cut at its line, and the file marked `truncated`), each line clipped.
 */
export function boundDiff(files: readonly FileDiff[], limits: DiffLimits = DIFF_LIMITS, path?: string): DiffEvidence {
  let room = limits.maxLines;
  const out: FileDiff[] = files.slice(0, limits.maxFiles).map((f) => {
    const hunks: DiffHunk[] = [];
    let truncated = f.truncated ?? false;
    for (const h of f.hunks) {
      if (room <= 0) {
        truncated = true;
        break;
      }
      const lines = h.lines.slice(0, room).map((l) => clip(l, limits.maxLineChars));
      if (lines.length < h.lines.length) truncated = true;
      room -= lines.length;
      hunks.push({ ...h, lines });
    }
    return { ...f, hunks, ...(truncated ? { truncated } : {}) };
  });
  return {
    files: out,
    ...(files.length > limits.maxFiles ? { omittedFiles: files.length - limits.maxFiles } : {}),
    ...(path ? { path } : {}),
  };
}
