/**
 * Workspace snapshots as data, and the pure diff between two of them. Lives in core so workflows can compare the
 * snapshots that the `snapshotWorkspace` activity returns (e.g. "did the agent delete a test file?").
 */

/** How a snapshot was taken: from git's view of the work tree, or by walking a plain folder. */
export const SnapshotKind = { git: 'git', dir: 'dir' } as const;
export type SnapshotKind = (typeof SnapshotKind)[keyof typeof SnapshotKind];

/**
 * The files of a workspace at one moment: relative posix path → content hash. The hash is git's blob id (sha1 of
 * `blob <size>\0<content>`) in both kinds, so snapshots of a git and a plain workspace compare alike.
 */
export interface WorkspaceSnapshot {
  kind: SnapshotKind;
  /** HEAD's commit for git workspaces; null before the first commit and for plain folders. */
  head: string | null;
  files: Record<string, string>;
}

/** Paths that differ between two snapshots, each list sorted. */
export interface SnapshotDiff {
  added: string[];
  modified: string[];
  deleted: string[];
}

/** Compares two snapshots' files: what `after` added, changed and removed relative to `before`. */
export function diffSnapshots(
  before: Pick<WorkspaceSnapshot, 'files'>,
  after: Pick<WorkspaceSnapshot, 'files'>,
): SnapshotDiff {
  const added: string[] = [];
  const modified: string[] = [];
  const deleted: string[] = [];
  const has = (o: Record<string, string>, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
  for (const [p, h] of Object.entries(after.files)) {
    if (!has(before.files, p)) added.push(p);
    else if (before.files[p] !== h) modified.push(p);
  }
  for (const p of Object.keys(before.files)) if (!has(after.files, p)) deleted.push(p);
  return { added: added.sort(), modified: modified.sort(), deleted: deleted.sort() };
}

/** True when the diff has no change at all. */
export const isEmptyDiff = (d: SnapshotDiff): boolean => !d.added.length && !d.modified.length && !d.deleted.length;
