/**
 * The project's query, updates and signals. Updates validate first: a refused `unblock` / `retryBlocked` changes
 * nothing, is not in history, and the caller sees why. They take effect at the next task selection.
 */
import { CancellationScope, setHandler } from '@temporalio/workflow';
import type { ChildGateNotice } from '../../core/child-gates';
import type { ProjectMachine } from '../../core/project-machine';
import { abortProject, childGate, finish, retryBlocked, tasks, unblock } from '../messages';

/** Operator requests the project acts on at its next safe point, and the running child's scope. */
export interface ProjectRequests {
  finish?: { by?: string; reason?: string };
  abort?: { by?: string; reason?: string };
  /** The running attempt's scope: `abort` cancels it (the child loop is cancelled, its agent killed). */
  childScope?: CancellationScope;
  /** The running child loop's open human gate, as the child told (shown in the Temporal UI's details). */
  childGate?: ChildGateNotice;
}

/**
 * Registers the project's handlers; returns the requests they fill in. `onChildGate` is called when the running child
 * loop's gate opens or closes.
 */
export function setProjectHandlers(
  m: ProjectMachine,
  now: () => string,
  onChildGate: () => void = () => undefined,
): ProjectRequests {
  const req: ProjectRequests = {};
  setHandler(childGate, (n) => {
    // Only the running attempt's child counts (a late notice of an earlier attempt is ignored).
    const t = m.state.current ? m.state.tasks.find((x) => x.id === m.state.current) : undefined;
    const running = t?.attempts[t.attempts.length - 1];
    if (!n || !running || running.outcome || running.loopId !== n.loopId) return;
    req.childGate = n.gate ? n : undefined;
    onChildGate();
  });
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
