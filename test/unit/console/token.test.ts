import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveConsoleToken } from '../../../src/console/token';
import { isLoopback } from '../../../src/console/server';

const home = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-home-'));

describe('resolveConsoleToken', () => {
  it('generates a token at first start, keeps it 0600, and reuses it', () => {
    const env = { RALPH_HOME: home() };
    const first = resolveConsoleToken({ host: '127.0.0.1' }, env);
    expect(first.source).toBe('generated');
    expect(first.token).toMatch(/^[0-9a-f]{48}$/);
    expect(fs.statSync(first.file!).mode & 0o777).toBe(0o600);
    expect(resolveConsoleToken({ host: '127.0.0.1' }, env)).toMatchObject({ source: 'file', token: first.token });
  });

  it('takes --token over RALPH_CONSOLE_TOKEN over the file', () => {
    const env = { RALPH_HOME: home(), RALPH_CONSOLE_TOKEN: 'from-env-0123456789' };
    expect(resolveConsoleToken({ host: '127.0.0.1', flag: 'from-flag-0123456789' }, env)).toMatchObject({
      source: 'flag',
      token: 'from-flag-0123456789',
    });
    expect(resolveConsoleToken({ host: '127.0.0.1' }, env)).toMatchObject({ source: 'env' });
  });

  it('refuses a non-loopback bind without a configured token, and a short token', () => {
    expect(() => resolveConsoleToken({ host: '0.0.0.0' }, { RALPH_HOME: home() })).toThrow(
      /refusing to bind 0\.0\.0\.0 .* set --token or RALPH_CONSOLE_TOKEN/,
    );
    expect(resolveConsoleToken({ host: '0.0.0.0', flag: 'long-enough-token-123' }, {})).toMatchObject({
      source: 'flag',
    });
    expect(() => resolveConsoleToken({ host: '127.0.0.1', flag: 'short' }, {})).toThrow(/too short/);
  });
});

describe('isLoopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['0.0.0.0', false],
    ['192.168.1.10', false],
    ['::', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopback(host)).toBe(expected);
  });
});
