/** Workflows of the benchmark worker: the product's, plus a floor workflow of back-to-back no-op activities. */
import { proxyActivities } from '@temporalio/workflow';

export * from '../src/workflows';

const { noop } = proxyActivities<{ noop(): Promise<void> }>({ startToCloseTimeout: '10 seconds' });

/** Runs `n` no-op activities one after another; returns each round-trip in ms (workflow clock). */
export async function noopActivityLoop(n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = Date.now();
    await noop();
    out.push(Date.now() - t);
  }
  return out;
}
