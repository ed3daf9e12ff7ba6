/**
 * `--follow`: prints a loop's or a project's progress until it ends (or, for a project, waits for an operator), from
 * the polls of client/watch.ts.
 */
import type { Client } from '@temporalio/client';
import { endedLoopResult, endedProjectResult, pollLoop, pollProject, projectChildGates } from '../client';
import { childGateLines } from '../core/child-gates';
import { TERMINAL_STATUSES, type HumanGate, type LoopResult, type LoopState } from '../core/loop-types';
import type { ProjectState } from '../core/project-machine';
import { unsandboxedLine } from '../core/sandbox';
import { gateLines, shellQuote } from './signal-helpers';
import { blockedLines } from './views/blocked';
import {
  attemptLine,
  feedbackExcerpt,
  positionLine,
  projectResultLine,
  recordLine,
  resultLine,
  type ProjectFollowResult,
} from './views/loop';

export type { ProjectFollowResult };

/** Options of {@link followLoop}. */
export interface FollowOptions {
  /** Where progress lines go. */
  print: (line: string) => void;
  /** Poll interval (default 1 s). */
  intervalMs?: number;
  /** Prefix of every line (the demo names its loops). */
  label?: string;
  /** Connection flags to repeat in the commands shown at a gate. */
  connectionFlags?: string;
  /** Task queue named in the hint printed while no worker answers. */
  taskQueue?: string;
  /** ANSI colours in a gate's evidence (diff, failure excerpt). */
  color?: boolean;
  /** Called once per gate that opens, after it is printed (the demo answers gates here). */
  onGate?: (gate: HumanGate, state: LoopState) => Promise<void> | void;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Polls a loop until it ends, printing what changes; returns its result. A workflow that failed before recording a
 * result (e.g. invalid input found by the worker) yields a `failed` result with the failure's message.
 */
export async function followLoop(client: Client, loopId: string, o: FollowOptions): Promise<LoopResult> {
  const t0 = Date.now();
  const interval = o.intervalMs ?? 1000;
  const prefix = o.label ? `${o.label} ` : '';
  const stamp = (): string => {
    const s = Math.floor((Date.now() - t0) / 1000);
    return `[${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}]`;
  };
  const say = (text: string): void => o.print(`${stamp()} ${prefix}${text}`);
  const indent = ' '.repeat(stamp().length + 1 + prefix.length);
  let lastPosition = '';
  let lastRecord = 0;
  let lastGate = '';
  let lastSandbox = '';
  const seenSignals = new Set<string>();
  let noStateSince = Date.now();
  let hinted = false;

  const show = async (s: LoopState): Promise<void> => {
    // An unsandboxed agent is said once, and again whenever that changes.
    const sandbox = s.sandbox && s.sandbox.state !== 'enforced' ? unsandboxedLine(s.sandbox) : '';
    if (sandbox !== lastSandbox) {
      if (sandbox) say(sandbox);
      else if (lastSandbox) say('sandboxed: the agent runs in the sandbox again');
      lastSandbox = sandbox;
    }
    for (const r of s.records.filter((x) => x.n > lastRecord)) {
      say(recordLine(r));
      if (r.n === s.iteration && r.outcome !== 'completed')
        feedbackExcerpt(s.pendingFeedback).forEach((l, i) =>
          o.print(`${indent}  ${i === 0 ? 'feedback:' : '         '} ${l}`),
        );
      lastRecord = r.n;
    }
    for (const ev of s.signals) {
      const key = JSON.stringify(ev);
      if (seenSignals.has(key)) continue;
      seenSignals.add(key);
      say(`signal ${ev.name}${ev.by ? ` by ${ev.by}` : ''}: ${ev.applied ? 'applied' : 'IGNORED'} (${ev.note})`);
    }
    const position = positionLine(s, { checking: false });
    if (position !== lastPosition && !TERMINAL_STATUSES.includes(s.status)) {
      say(position);
      lastPosition = position;
    }
    if (s.pendingGate && s.pendingGate.id !== lastGate) {
      lastGate = s.pendingGate.id;
      for (const l of gateLines(loopId, s.pendingGate, o.connectionFlags, o.color)) o.print(`${indent}${l}`);
      await o.onGate?.(s.pendingGate, s);
    }
  };

  for (;;) {
    const { closed, state } = await pollLoop(client, loopId);
    if (state) {
      noStateSince = Date.now();
      await show(state);
      if (state.result) {
        say(resultLine(state.result));
        return state.result;
      }
    } else if (!closed && !hinted && Date.now() - noStateSince > 10_000) {
      hinted = true;
      say(
        `no worker has picked the loop up yet: start one with \`ralph worker\`${o.taskQueue ? ` (task queue ${o.taskQueue})` : ''}`,
      );
    }
    if (closed) {
      const result = await endedLoopResult(client, loopId, closed);
      say(resultLine(result));
      return result;
    }
    await sleep(interval);
  }
}

/** Options of {@link followProject}. */
export interface FollowProjectOptions {
  /** Where progress lines go. */
  print: (line: string) => void;
  /** Poll interval (default 1 s). */
  intervalMs?: number;
  /** Connection flags to repeat in the commands shown for blocked tasks. */
  connectionFlags?: string;
  /** Task queue named in the hint printed while no worker answers. */
  taskQueue?: string;
}

/**
 * Polls a project's task table, printing a line per attempt end and per child loop's human gate (with the command
 * that answers it), until the project ends or waits for an operator (then the blocked tasks and the commands that
 * unblock them); returns where it stands.
 */
export async function followProject(
  client: Client,
  projectId: string,
  o: FollowProjectOptions,
): Promise<ProjectFollowResult> {
  const t0 = Date.now();
  const stamp = (): string => {
    const s = Math.floor((Date.now() - t0) / 1000);
    return `[${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}]`;
  };
  const say = (text: string): void => o.print(`${stamp()} ${text}`);
  const seen = new Set<string>();
  let last: ProjectState | undefined;
  let noStateSince = Date.now();
  let hinted = false;
  const summary = (s: ProjectState | undefined, status: ProjectFollowResult['status'], reason: string) => ({
    projectId,
    status,
    reason,
    done: s?.tasks.filter((t) => t.status === 'done').map((t) => t.id) ?? [],
    blocked:
      s?.tasks
        .filter((t) => t.status === 'blocked')
        .map((t) => ({ id: t.id, reason: t.blockReason, details: t.blockDetails })) ?? [],
    attempts: s?.attemptsRun ?? 0,
  });

  for (;;) {
    const { closed, state } = await pollProject(client, projectId);
    if (state) {
      noStateSince = Date.now();
      last = state;
      for (const t of state.tasks)
        for (const a of t.attempts) {
          const key = `${t.id}#${a.n}`;
          if (!a.outcome || seen.has(key)) continue;
          seen.add(key);
          // Only the task's latest attempt can have blocked it.
          const latest = a.n === t.attempts.length;
          say(attemptLine(latest ? t : { ...t, status: 'pending' }, a));
        }
      // A child loop's human gate (a question, say) pauses the project: said once per gate, with its command.
      for (const g of await projectChildGates(client, state)) {
        const key = `${g.loopId}#${g.gate.id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const [first, ...rest] = childGateLines(g, shellQuote, o.connectionFlags);
        say(first);
        for (const l of rest) o.print(`  ${l}`);
      }
      if (state.status === 'waiting_operator') {
        const r = summary(state, 'waiting_operator', 'only blocked tasks are left: the project waits for an operator');
        say(`project waits for an operator: ${r.done.length} done, ${r.blocked.length} blocked`);
        for (const l of blockedLines(state, { suggest: true, connectionFlags: o.connectionFlags })) o.print(`  ${l}`);
        const tail = o.connectionFlags ? ` ${o.connectionFlags}` : '';
        o.print(`  or retry every blocked task once: ralph retry-blocked ${shellQuote(projectId)}${tail}`);
        return r;
      }
    } else if (!closed && !hinted && Date.now() - noStateSince > 10_000) {
      hinted = true;
      say(
        `no worker has picked the project up yet: start one with \`ralph worker\`${o.taskQueue ? ` (task queue ${o.taskQueue})` : ''}`,
      );
    }
    if (closed) {
      const end = await endedProjectResult(client, projectId);
      const r: ProjectFollowResult =
        'result' in end
          ? { ...end.result, reason: `workflow ${closed.toLowerCase()}` }
          : summary(
              last,
              closed === 'TERMINATED' || closed === 'CANCELED' ? 'aborted' : 'failed',
              `workflow ${closed.toLowerCase()}: ${end.failure}`,
            );
      say(projectResultLine(r));
      return r;
    }
    await sleep(o.intervalMs ?? 1000);
  }
}
