/**
 * A project's child loops at a human gate: a child's gate (a question, say) pauses the whole project until someone
 * answers the child, so every view of the project shows it, with the command that answers it. Pure: the client reads
 * the children's states, the views format them.
 */
import type { HumanGate } from './loop-types';
import type { ProjectState } from './project-machine';

/** A running attempt of the project: its task and child loop. */
export interface RunningChild {
  taskId: string;
  title: string;
  attempt: number;
  loopId: string;
}

/** A running child loop's pending human gate. */
export interface ChildGate extends RunningChild {
  gate: HumanGate;
}

/**
 * What a child loop tells its project when a human gate opens (`gate`: what the project's Temporal UI details need)
 * and when it closes (no `gate`).
 */
export interface ChildGateNotice {
  loopId: string;
  gate?: Pick<HumanGate, 'id' | 'reason' | 'title' | 'options'> & { question?: { text: string; source: string } };
}

/** The notice a child sends for its open gate `g` (the question's text clipped to 2000 characters). */
export function childGateNotice(loopId: string, g: HumanGate): ChildGateNotice {
  const { id, reason, title, options, question } = g;
  return {
    loopId,
    gate: {
      id,
      reason,
      title,
      options,
      ...(question ? { question: { text: question.text.slice(0, 2000), source: question.source } } : {}),
    },
  };
}

/** The project's running child loops: the last attempt of each running task, while it has no outcome. */
export function runningChildren(s: ProjectState): RunningChild[] {
  if (s.status === 'done' || s.status === 'aborted') return [];
  const out: RunningChild[] = [];
  for (const t of s.tasks) {
    const a = t.attempts[t.attempts.length - 1];
    if (t.status === 'running' && a && !a.outcome)
      out.push({ taskId: t.id, title: t.title, attempt: a.n, loopId: a.loopId });
  }
  return out;
}

const firstLine = (s: string, n = 200): string => {
  const l = s.trim().split('\n')[0] ?? '';
  return l.length > n ? `${l.slice(0, n - 1)}…` : l;
};

/** What the gate asks, in one line: a question's text (first line), else the gate's title. */
export function childGateAsk(g: HumanGate): string {
  return g.question ? firstLine(g.question.text) : firstLine(g.title);
}

/**
 * The commands that answer a child's gate, one per option it offers (`quote` quotes the loop id for a shell, `tail`
 * is appended: connection flags).
 */
export function childGateCommands(
  loopId: string,
  g: Pick<HumanGate, 'options'>,
  quote: (s: string) => string = (s) => s,
  tail = '',
): string[] {
  const id = quote(loopId);
  const t = tail ? ` ${tail}` : '';
  const byOption: Record<string, string> = {
    answer: `ralph answer ${id} "your answer"${t}`,
    approve: `ralph approve ${id}${t}`,
    reject: `ralph reject ${id} --guidance "what to do differently"${t}`,
    abort: `ralph abort ${id}${t}`,
  };
  return g.options.map((o) => byOption[o] ?? `ralph ${o} ${id}${t}`);
}

/** The gate as plain lines: the task, its loop, the gate's reason and what it asks, then the commands (indented). */
export function childGateLines(c: ChildGate, quote?: (s: string) => string, tail = ''): string[] {
  const g = c.gate;
  const kind = g.question ? (g.question.source === 'pdare' ? 'PDARE asks' : 'the agent asks') : g.reason;
  return [
    `task ${c.taskId} (attempt ${c.attempt}) waits for a human at gate ${g.id} of loop ${c.loopId} (${g.reason})`,
    `  ${kind}: ${childGateAsk(g)}`,
    ...(g.question?.options.length ? g.question.options.map((o) => `    - ${firstLine(o, 120)}`) : []),
    '  the project goes on once it is answered:',
    ...childGateCommands(c.loopId, g, quote, tail).map((l) => `    ${l}`),
  ];
}
