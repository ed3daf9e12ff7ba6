import { ErrorTypes, NON_RETRYABLE_ERROR_TYPES } from '../../../src/core/constants';
import { asLoopFailure, describeActivityFailure } from '../../../src/workflows/loop/failures';

/** An ActivityFailure as the workflow sees it: the activity's ApplicationFailure is its cause. */
const activityFailure = (type: string, message: string, details?: unknown[]) => ({
  name: 'ActivityFailure',
  message: 'Activity task failed',
  cause: { name: 'ApplicationFailure', type, message, ...(details ? { details } : {}) },
});

describe('asLoopFailure', () => {
  it.each(NON_RETRYABLE_ERROR_TYPES)('ends the loop on a %s with the activity message', (type) => {
    const f = asLoopFailure(activityFailure(type, `bad ${type}`));
    expect(f).toMatchObject({ type, message: `bad ${type}`, nonRetryable: true });
  });

  it('leaves an agent timeout and an overloaded API to the loop as outcomes', () => {
    expect(asLoopFailure(activityFailure(ErrorTypes.AgentTimeout, 'agent timed out after 4s'))).toBeUndefined();
    expect(asLoopFailure(activityFailure(ErrorTypes.AgentOverloaded, 'overloaded'))).toBeUndefined();
    expect(asLoopFailure(new Error('plain'))).toBeUndefined();
  });
});

describe('describeActivityFailure', () => {
  it('reads an agent timeout as a timed-out run with its partial result', () => {
    const partial = { exitCode: 137 };
    expect(
      describeActivityFailure(activityFailure(ErrorTypes.AgentTimeout, 'agent timed out after 4s', [partial])),
    ).toEqual({
      message: 'agent timed out after 4s',
      timedOut: true,
      result: partial,
    });
  });
});
