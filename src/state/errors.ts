/** The error classes of this layer, one place (the architecture test holds it). */

/** Thrown (and caught inside this module) when a profile file cannot be used. */
/** Why a profile could not be used. */
export type ProfileProblem = 'invalid_name' | 'not_found' | 'too_large' | 'parse_error' | 'invalid';

export class ProfileError extends Error {
  override readonly name = 'ProfileError';
  constructor(
    readonly reason: ProfileProblem,
    message: string,
  ) {
    super(message);
  }
}
