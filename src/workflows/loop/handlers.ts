/**
 * The loop's signal and query handlers. Set before anything else runs, so a signal sent right after start is never
 * lost. Handlers are synchronous and never throw: the machine records a signal that makes no sense as ignored.
 */
import { log, setHandler } from '@temporalio/workflow';
import type { LoopMachine, SignalName } from '../../core/loop-machine';
import * as messages from '../messages';
import { nowIso, type LiveHandles } from './context';

/** Registers approve/reject/abort/answer/pause/resume/move and the status query; `abort` also cancels a running agent. */
export function setLoopHandlers(m: LoopMachine): LiveHandles {
  const live: LiveHandles = { routing: { early: [] } };
  const onSignal = (name: SignalName) => (payload?: unknown) => {
    const r = m.applySignal(name, payload, nowIso());
    if (r.applied) log.info(`signal ${name}: ${r.note}`);
    else log.warn(`signal ${name} ${r.note}`);
    if (name === 'abort' && r.applied && m.abortRequested) live.agentScope?.cancel();
  };
  setHandler(messages.approve, onSignal('approve'));
  setHandler(messages.reject, onSignal('reject'));
  setHandler(messages.abort, onSignal('abort'));
  setHandler(messages.answer, onSignal('answer'));
  setHandler(messages.pause, onSignal('pause'));
  setHandler(messages.resume, onSignal('resume'));
  setHandler(messages.move, (payload) => {
    const r = m.requestMove(payload, nowIso());
    if (r.applied) log.info(`signal move: ${r.note}`);
    else log.warn(`signal move ${r.note}`);
  });
  setHandler(messages.status, () => m.state);
  return live;
}
