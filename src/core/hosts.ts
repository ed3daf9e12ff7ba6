/**
 * Workspace-affine task queues: a loop's workspace lives on one host, and every activity that touches it runs on that
 * host's own queue (`<taskQueue>@<hostId>`), polled only by the workers of that host. Workflow tasks stay on the
 * shared queue. Pure: names, validation and the binding record shown by `ralph status`.
 */

/** A host id: letters, digits, `.`, `_`, `-`, at most 63 characters, starting with a letter or digit. */
export const HOST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** Why `id` is not a usable host id, or undefined when it is. */
export function hostIdProblem(id: unknown): string | undefined {
  if (typeof id !== 'string' || id.length === 0) return 'a host id must be a non-empty string';
  if (!HOST_ID_PATTERN.test(id))
    return `host id "${id}" must be 1-63 letters, digits, ".", "_" or "-", starting with a letter or digit`;
  return undefined;
}

/** The task queue of host `hostId`'s workspace activities, next to the shared queue `taskQueue`. */
export function hostTaskQueue(taskQueue: string, hostId: string): string {
  return `${taskQueue}@${hostId}`;
}

/** One move of a loop to another host (`ralph move`). */
export interface HostMove {
  from: string;
  to: string;
  at: string;
  by?: string;
  workspace: string;
  /** The checkpoint the new workspace was re-created from (`HEAD`: the remote's default branch). */
  restoredFrom: string;
}

/** Where a loop's workspace lives, and whether its host's worker is answering. */
export interface HostBinding {
  /** The host whose queue runs the loop's workspace activities. */
  id: string;
  /** `input`: started with `--host`; `worker`: the host of the worker that validated it; `move`: `ralph move`. */
  boundBy: 'input' | 'worker' | 'move';
  since: string;
  /**
   * Set while an activity waits for the host's worker longer than `hostWaitSeconds` (no worker polls the host's
   * queue): the loop waits, it never moves by itself.
   */
  waiting?: { activity: string; since: string; waits: number };
  /** The last post-run checkpoint pushed to the workspace's remote (what `ralph move` re-creates the workspace from). */
  lastPushed?: string;
  /** The workspace has a remote to push checkpoints to, so `ralph move` can re-create it on another host. */
  movable: boolean;
  moves?: HostMove[];
  /** A `ralph move` waiting for the next safe point (between iterations, or while the host is unreachable). */
  pendingMove?: MoveRequest;
}

/** A pending `ralph move` request. */
export interface MoveRequest {
  host: string;
  /** The workspace path on the new host; default: the same path as on the old host. */
  workspace?: string;
  by?: string;
  requestedAt: string;
}

/** One line for `ralph status` about the loop's host. */
export function describeBinding(b: HostBinding | undefined): string | undefined {
  if (!b) return undefined;
  const parts = [`host ${b.id} (bound by ${b.boundBy} at ${b.since})`];
  if (b.waiting)
    parts.push(
      `WAITING for a worker of host ${b.id} since ${b.waiting.since} (${b.waiting.activity}, ${b.waiting.waits} wait${b.waiting.waits === 1 ? '' : 's'}): restart it, or \`ralph move\` the loop`,
    );
  if (b.lastPushed) parts.push(`last pushed checkpoint ${b.lastPushed}`);
  if (b.moves?.length) parts.push(`moved ${b.moves.map((m) => `${m.from}→${m.to}`).join(', ')}`);
  return parts.join('; ');
}
