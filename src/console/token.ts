/**
 * The console's access token: `--token` or RALPH_CONSOLE_TOKEN when configured, else the token generated at first
 * start and kept in `$RALPH_HOME/console-token` (0600). Binding a non-loopback address needs a configured token.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ralphHome } from '../client/secrets-codec';
import { isLoopback } from './server';
import { ConsoleConfigError } from './errors';

/** Where the token came from. */
export type TokenSource = 'flag' | 'env' | 'file' | 'generated';

/** Shortest token accepted from the operator. */
export const MIN_TOKEN_LENGTH = 16;

/** Resolves the token (see the module comment); refuses a non-loopback `host` without a configured one. */
export function resolveConsoleToken(
  o: { flag?: string; host: string },
  env: NodeJS.ProcessEnv = process.env,
): { token: string; source: TokenSource; file?: string } {
  const configured = o.flag
    ? { token: o.flag, source: 'flag' as const }
    : env.RALPH_CONSOLE_TOKEN
      ? { token: env.RALPH_CONSOLE_TOKEN, source: 'env' as const }
      : undefined;
  if (configured) {
    if (configured.token.length < MIN_TOKEN_LENGTH)
      throw new ConsoleConfigError(
        `the console token (${configured.source === 'flag' ? '--token' : 'RALPH_CONSOLE_TOKEN'}) is too short: ` +
          `use at least ${MIN_TOKEN_LENGTH} characters, e.g. \`openssl rand -hex 24\``,
      );
    return configured;
  }
  if (!isLoopback(o.host))
    throw new ConsoleConfigError(
      `refusing to bind ${o.host} (reachable from other machines) without a token you chose: ` +
        'set --token or RALPH_CONSOLE_TOKEN (at least 16 characters), or bind 127.0.0.1',
    );
  const file = path.join(ralphHome(env), 'console-token');
  try {
    const token = fs.readFileSync(file, 'utf8').trim();
    if (token.length >= MIN_TOKEN_LENGTH) return { token, source: 'file', file };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const token = randomBytes(24).toString('hex');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, token + '\n', { mode: 0o600 });
  return { token, source: 'generated', file };
}
export { ConsoleConfigError };
