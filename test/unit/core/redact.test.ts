import { REDACTED, redactText, redactValue } from '../../../src/core/redact';

describe('redactText', () => {
  it.each([
    [
      'a registered secret anywhere in the text',
      'token is hunter2-very-secret.',
      ['hunter2-very-secret'],
      'token is [REDACTED].',
    ],
    ['an Anthropic-style key', 'key sk-ant-api03-abcdefghijklmnopqrstuv end', [], `key ${REDACTED} end`],
    ['a GitHub token', 'ghp_abcdefghijklmnopqrstuvwxyz0123 x', [], `${REDACTED} x`],
    [
      'a bearer token, keeping the scheme',
      'Authorization: Bearer abc.def-ghi_jkl123',
      [],
      `Authorization: Bearer ${REDACTED}`,
    ],
    ['an env-style secret assignment', 'OPENAI_API_KEY=abcd1234 other', [], `OPENAI_API_KEY=${REDACTED} other`],
    ['a JSON secret field', '{"apiKey":"zzzz9999"}', [], `{"apiKey":"${REDACTED}"}`],
  ])('redacts %s', (_what, input, secrets, expected) => {
    expect(redactText(input, secrets)).toBe(expected);
  });

  it('leaves ordinary text and short "secrets" alone', () => {
    expect(redactText('iteration 3 passed: 12 tests, 85% coverage', ['dev', '1'])).toBe(
      'iteration 3 passed: 12 tests, 85% coverage',
    );
  });

  it('replaces a secret containing another whole', () => {
    expect(redactText('x abcdef-123456 y', ['abcdef', 'abcdef-123456'])).toBe(`x ${REDACTED} y`);
  });
});

describe('redactValue', () => {
  it('redacts every string of a nested value and keeps the keys', () => {
    expect(redactValue({ a: ['my-secret-value'], b: { c: 'ok', n: 3 } }, ['my-secret-value'])).toEqual({
      a: [REDACTED],
      b: { c: 'ok', n: 3 },
    });
  });
});
