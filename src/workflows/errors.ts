/** The error classes of this layer, one place (the architecture test holds it). */

/** Thrown inside an iteration when a `ralph move` is pending while an activity waits for a dead host. */
export class HostMoveRequested extends Error {
  override readonly name = 'HostMoveRequested';
  constructor(readonly activity: string) {
    super(`a move was requested while ${activity} waited for the loop's host`);
  }
}
