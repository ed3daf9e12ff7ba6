import { resolveEnvRefs } from '../../../src/core/env-refs';

describe('resolveEnvRefs', () => {
  it('replaces whole ${NAME} values from the given environment and keeps other values as written', () => {
    expect(
      resolveEnvRefs(
        { ANTHROPIC_API_KEY: '${MY_KEY}', BASE: 'http://x/${NOT_A_REF}', PLAIN: 'v' },
        { MY_KEY: 'sk-1', NOT_A_REF: 'no' },
      ),
    ).toEqual({ ANTHROPIC_API_KEY: 'sk-1', BASE: 'http://x/${NOT_A_REF}', PLAIN: 'v' });
  });

  it('names the key, the variable and the fix when the variable is unset', () => {
    expect(() => resolveEnvRefs({ GEMINI_API_KEY: '${GEMINI_KEY_PROD}' }, {})).toThrow(
      "agent.env.GEMINI_API_KEY refers to ${GEMINI_KEY_PROD}, which the worker's environment does not set: set GEMINI_KEY_PROD there",
    );
  });
});
