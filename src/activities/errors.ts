/** How activities report the errors of the layers below them to Temporal. */
import { ApplicationFailure } from '@temporalio/common';
import { ErrorTypes } from '../core/constants';

/**
 * Runs `fn`; an invalid input it reports (config's InvalidInputError) becomes the non-retryable `InvalidInput`
 * failure the workflow ends with, with the same message. Other errors pass unchanged.
 */
export function asActivityFailure<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    // Compared by name: `instanceof` breaks across module registries.
    if ((e as Error).name === 'InvalidInputError')
      throw ApplicationFailure.nonRetryable((e as Error).message, ErrorTypes.InvalidInput);
    throw e;
  }
}
