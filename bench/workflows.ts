/** Workflows of the benchmark worker: the product's, plus floor workflows of back-to-back no-op activities. */
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';

export * from '../src/workflows';

interface NoopActivities {
  noop(): Promise<void>;
}
const { noop } = proxyActivities<NoopActivities>({ startToCloseTimeout: '10 seconds' });
const { noop: noopNoEager } = proxyActivities<NoopActivities>({
  startToCloseTimeout: '10 seconds',
  allowEagerDispatch: false,
});
const { noop: noopLocal } = proxyLocalActivities<NoopActivities>({ startToCloseTimeout: '10 seconds' });

/** Runs `n` fns one after another; returns each round-trip in ms (workflow clock). */
async function timed(n: number, fn: () => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = Date.now();
    await fn();
    out.push(Date.now() - t);
  }
  return out;
}

/** Runs `n` no-op activities one after another; returns each round-trip in ms (workflow clock). */
export async function noopActivityLoop(n: number): Promise<number[]> {
  return timed(n, noop);
}

/** {@link noopActivityLoop} with eager activity dispatch turned off: every activity goes through matching. */
export async function noopActivityLoopNoEager(n: number): Promise<number[]> {
  return timed(n, noopNoEager);
}

/** Runs `n` no-op local activities one after another: one workflow task round trip each, no activity dispatch. */
export async function noopLocalActivityLoop(n: number): Promise<number[]> {
  return timed(n, noopLocal);
}
