/**
 * The routing circuit breaker: when loading or running routed agents fails `breakerFailures` times within
 * `breakerWindowSeconds`, automatic routing is turned off for `breakerCooldownSeconds` (the base agent runs), then
 * comes back by itself. Pure: the caller passes the time (workflow time in a workflow), and the workflow holds the
 * cooldown as a durable timer.
 */
import type { RoutingRules } from './classifier';

/** State of the breaker; JSON-friendly (it is carried across continue-as-new). */
export interface BreakerState {
  /** Epoch ms of recent failures inside the window. */
  failures: number[];
  /** While set and in the future, routing is off. */
  openUntil?: number;
  /** How many times it opened (for status). */
  opened: number;
}

type BreakerRules = Pick<RoutingRules, 'breakerFailures' | 'breakerWindowSeconds' | 'breakerCooldownSeconds'>;

/** A closed breaker with no failures. */
export const closedBreaker = (): BreakerState => ({ failures: [], opened: 0 });

/** Whether routing is off at `now`. */
export const breakerOpen = (s: BreakerState, now: number): boolean => s.openUntil !== undefined && now < s.openUntil;

/**
 * Records a failure at `now`. Returns the new state and `opened: true` when this failure opened the breaker (the
 * caller logs a critical event and starts the cooldown timer). Failures while open are ignored: routing is off.
 */
export function recordFailure(
  s: BreakerState,
  now: number,
  rules: BreakerRules,
): { state: BreakerState; opened: boolean } {
  if (breakerOpen(s, now)) return { state: s, opened: false };
  const failures = [...s.failures.filter((t) => now - t < rules.breakerWindowSeconds * 1000), now];
  if (failures.length >= rules.breakerFailures)
    return {
      state: { failures: [], openUntil: now + rules.breakerCooldownSeconds * 1000, opened: s.opened + 1 },
      opened: true,
    };
  return { state: { ...s, failures, openUntil: undefined }, opened: false };
}

/** Closes the breaker once its cooldown is over (a no-op before then); `closed: true` when it just closed. */
export function closeIfCooled(s: BreakerState, now: number): { state: BreakerState; closed: boolean } {
  if (s.openUntil === undefined || now < s.openUntil) return { state: s, closed: false };
  return { state: { failures: [], opened: s.opened }, closed: true };
}
