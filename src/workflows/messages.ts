/**
 * Signals and queries of the `ralphLoop` workflow. Names are what a human does or asks, and equal the constants'
 * names, so `temporal workflow signal --name approve` and `ralph approve` are the same thing.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { DecisionPayload } from '../core/loop-machine';
import type { LoopState } from '../core/loop-types';

/** Accept the work at the pending human gate. */
export const approve = defineSignal<[DecisionPayload?]>('approve');
/** Refuse at the pending gate: the loop continues, with `guidance` in the next prompt and `extraIterations` more. */
export const reject = defineSignal<[DecisionPayload?]>('reject');
/** End the loop: answers a pending gate, or cancels the running agent and stops. */
export const abort = defineSignal<[DecisionPayload?]>('abort');
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
