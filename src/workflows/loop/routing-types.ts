/**
 * Types shared by the routing phase (./routing.ts) and the loop's context and prompt plan, in their own file so the
 * phases don't import each other in a cycle.
 */
import type { LoopInput } from '../../config/loop-input';
import type { ProfileKeywords } from '../../core/routing/classifier';
import type { LoadedProfile } from '../../core/routing/profile';
import type { RoutingState, RoutingTracker } from '../../core/routing/tracker';

/** What continue-as-new carries of routing. */
export interface RoutingCarry {
  state: RoutingState;
  profiles: ProfileKeywords[];
  taskText?: string;
}

/** The loop's routing: the tracker once routing is active, and `route` requests that came before it was. */
export interface RoutingHandle {
  tracker?: RoutingTracker;
  early: unknown[];
  taskText?: string;
}

/** What a routed iteration changes about the agent run. */
export interface RoutedRun {
  /** The profile that runs, or undefined for the base agent. */
  profile?: LoadedProfile;
  agent: LoopInput['agent'];
  sections: string[];
  timeoutSeconds: number;
}
