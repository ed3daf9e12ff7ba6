/**
 * Every signal, query and update of the `ralphLoop` and `ralphProject` workflows, defined once: the workflows set
 * their handlers on these definitions, and the client and console send them (never a name string). Names are what a
 * human does or asks, and equal the constants' names, so `temporal workflow signal --name approve` and
 * `ralph approve` are the same thing.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { DecisionPayload } from '../core/loop-machine';
import type { LoopState } from '../core/loop-types';
import type { ChildGateNotice } from '../core/child-gates';
import type { ProjectState, UnblockRequest } from '../core/project-machine';
import { ROUTE_SIGNAL, type RoutePayload } from '../core/routing/signal';

// ralphLoop

/** Accept the work at the pending human gate. */
export const approve = defineSignal<[DecisionPayload?]>('approve');
/** Refuse at the pending gate: the loop continues, with `guidance` in the next prompt and `extraIterations` more. */
export const reject = defineSignal<[DecisionPayload?]>('reject');
/** End the loop: answers a pending gate, or cancels the running agent and stops. */
export const abort = defineSignal<[DecisionPayload?]>('abort');
/**
 * Answer the agent's question at a pending `question` gate (`{ text, by?, requestId?, gateId? }`): the loop goes on
 * with the answer in the next prompt, under "Answer from <by>". `approve`/`reject`/`abort` work at that gate too.
 */
export const answer = defineSignal<[DecisionPayload?]>('answer');
/** Stop before the next iteration until `resume`. */
export const pause = defineSignal<[DecisionPayload?]>('pause');
/** Continue after `pause`. */
export const resume = defineSignal<[DecisionPayload?]>('resume');
/**
 * Move a host-bound loop to another host (`{ host, workspace?, by? }`): at the next safe point the workspace is
 * re-created on the new host from the last checkpoint pushed to its git remote, and the loop continues there.
 */
export const move = defineSignal<[{ host: string; workspace?: string; by?: string; requestId?: string }?]>('move');
/** The loop's full current state. */
export const status = defineQuery<LoopState>('status');
/** Force an agent profile (or `base`) from the next iteration (`ralph route <id> --agent <name>`). */
export const route = defineSignal<[RoutePayload?]>(ROUTE_SIGNAL);

/** The loop's human signals by name, for callers that take the name from a command or a form. */
export const loopSignals = { approve, reject, abort, pause, resume, answer, move } as const;

// ralphProject

/** Payload of the project's `finish` and `abort` signals. */
export interface ProjectStopPayload {
  by?: string;
  reason?: string;
}
/** What the project's updates answer: the tasks they changed and the project's note. */
export interface ProjectUpdateAnswer {
  tasks: string[];
  note: string;
}
/** The project's task table (status, attempts, block reasons, timeouts used). */
export const tasks = defineQuery<ProjectState>('tasks');
/** Unblocks named tasks, or every blocked task of a complexity (`filter`), optionally with a new timeout. */
export const unblock = defineUpdate<ProjectUpdateAnswer, [UnblockRequest]>('unblock');
/** Gives every blocked task `maxAttempts` (default 1) more attempts. */
export const retryBlocked = defineUpdate<ProjectUpdateAnswer, [{ maxAttempts?: number; reason?: string; by?: string }]>(
  'retryBlocked',
);
/** Ends a project that waits for an operator (only blocked tasks left) with what it has. */
export const finish = defineSignal<[ProjectStopPayload?]>('finish');
/** Stops the project (cancels the running child loop). */
export const abortProject = defineSignal<[ProjectStopPayload?]>('abort');
/**
 * Sent by a project's child loop when a human gate opens (`gate` set) and when it closes (no `gate`), so the project's
 * Temporal UI details show what the project waits for (patch `child-gate-notice-v1` in the child).
 */
export const childGate = defineSignal<[ChildGateNotice]>('childGate');
