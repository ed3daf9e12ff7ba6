/**
 * The project's query, updates and signals. Updates validate first: a refused `unblock` / `retryBlocked` changes
 * nothing, is not in history, and the caller sees why. They take effect at the next task selection.
 */
import { CancellationScope, setHandler } from '@temporalio/workflow';
import type { ProjectMachine } from '../../core/project-machine';
import { abortProject, finish, retryBlocked, tasks, unblock } from '../messages';

/** Operator requests the project acts on at its next safe point, and the running child's scope. */
export interface ProjectRequests {
  finish?: { by?: string; reason?: string };
  abort?: { by?: string; reason?: string };
  /** The running attempt's scope: `abort` cancels it (the child loop is cancelled, its agent killed). */
  childScope?: CancellationScope;
}

/** Registers the project's handlers; returns the requests they fill in. */
export function setProjectHandlers(m: ProjectMachine, now: () => string): ProjectRequests {
  const req: ProjectRequests = {};
  setHandler(tasks, () => m.state);
  setHandler(
    unblock,
    (r) => {
      const out = m.unblock(r, now());
      return { tasks: out.tasks, note: out.note };
    },
    {
      validator: (r) => {
        const problem = m.validateUnblock(r ?? {});
        if (problem) throw new Error(problem);
      },
    },
  );
  setHandler(
    retryBlocked,
    (r) => {
      const out = m.retryBlocked(r ?? {}, now());
      return { tasks: out.tasks, note: out.note };
    },
    {
      validator: (r) => {
        if (!m.state.tasks.some((t) => t.status === 'blocked')) throw new Error('no task is blocked');
        const n = r?.maxAttempts;
        if (n !== undefined && !(Number.isInteger(n) && n > 0))
          throw new Error(`max attempts must be a positive integer, got ${n}`);
      },
    },
  );
  setHandler(finish, (p) => {
    req.finish = p ?? {};
  });
  setHandler(abortProject, (p) => {
    req.abort = p ?? {};
    req.childScope?.cancel();
  });
  return req;
}
