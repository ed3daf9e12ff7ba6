/**
 * Liveness heartbeats: every activity with a heartbeat timeout heartbeats on a timer for as long as it runs in this
 * worker, whatever it is doing (building a verification tree, hashing a checkpoint, waiting for a process). Its
 * heartbeat timeout then means one thing: how soon a dead worker (kill -9, lost host) is noticed and the activity
 * retried elsewhere. Progress details an activity reports ({@link beat}) are re-sent by the timer, never replaced.
 * A stuck process is not hidden by this: the activity's startToClose timeout and our own deadlines cover that.
 */
import type { Context } from '@temporalio/activity';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';

/** The last details each running activity reported. */
const lastDetails = new WeakMap<Context, unknown>();

/** Heartbeats `details` (progress an activity wants shown) and keeps them for the liveness timer. */
export function beat(ctx: Context, details?: unknown): void {
  lastDetails.set(ctx, details);
  ctx.heartbeat(details);
}

/** How often the liveness timer beats for a heartbeat timeout: three times per timeout, at least every 5 s. */
export const livenessEveryMs = (heartbeatTimeoutMs: number): number =>
  Math.max(100, Math.min(5000, Math.floor(heartbeatTimeoutMs / 3)));

/**
 * The worker interceptor that runs the liveness timer around every activity with a heartbeat timeout (local
 * activities have none: they live and die with the workflow task).
 */
export const livenessInterceptor: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    async execute(input, next) {
      const timeout = ctx.info.heartbeatTimeoutMs;
      if (!timeout || ctx.info.isLocal) return next(input);
      const timer = setInterval(() => ctx.heartbeat(lastDetails.get(ctx)), livenessEveryMs(timeout));
      try {
        return await next(input);
      } finally {
        clearInterval(timer);
      }
    },
  },
});
