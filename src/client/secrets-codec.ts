/**
 * Keeps agent secrets out of Temporal history: a payload codec that encrypts the values of every `agent.env` object
 * in a JSON payload (AES-256-GCM) on the way to the server and decrypts them on the way back. The rest of the payload
 * stays plain JSON, so the Temporal Web UI still shows loop inputs; only the env values read `{"$ralphSecret": ...}`.
 * Client (CLI, console) and worker use the same key: `RALPH_SECRETS_KEY`, else a key file created on first use
 * (`$RALPH_HOME/secrets.key`, default `~/.config/ralph/secrets.key`, mode 0600). Payloads without encrypted values
 * decode unchanged, so histories recorded before the codec still replay.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { SecretsKeyMismatchError } from './errors';

export { SecretsKeyMismatchError };

/** Marker key of an encrypted value inside a payload. */
export const SECRET_MARKER = '$ralphSecret';

/** Folder of ralph's per-user files (console token, secrets key): `$RALPH_HOME`, else `~/.config/ralph`. */
export function ralphHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.RALPH_HOME || path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'ralph');
}

/** The 32-byte key: sha256 of `RALPH_SECRETS_KEY`, else of the key file's content (created once, 0600). */
export function secretsKey(env: NodeJS.ProcessEnv = process.env): Buffer {
  if (env.RALPH_SECRETS_KEY) return createHash('sha256').update(env.RALPH_SECRETS_KEY).digest();
  const file = path.join(ralphHome(env), 'secrets.key');
  try {
    return createHash('sha256').update(fs.readFileSync(file, 'utf8').trim()).digest();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    // 'wx': two processes starting at once must not each write a different key.
    fs.writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return createHash('sha256').update(fs.readFileSync(file, 'utf8').trim()).digest();
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Applies `f` to every value of every `agent.env` object in a JSON value; returns whether anything changed. */
function mapAgentEnv(v: unknown, f: (value: unknown) => unknown): boolean {
  let changed = false;
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) return x.forEach(walk);
    if (!isObject(x)) return;
    for (const [k, child] of Object.entries(x)) {
      if (k === 'agent' && isObject(child) && isObject(child.env)) {
        for (const [name, value] of Object.entries(child.env)) {
          const next = f(value);
          if (next !== value) {
            child.env[name] = next;
            changed = true;
          }
        }
      }
      walk(child);
    }
  };
  walk(v);
  return changed;
}

/** The codec; one per process is enough (it holds only the key). */
export class SecretsCodec implements PayloadCodec {
  constructor(private readonly key: Buffer = secretsKey()) {}

  /** Encrypts `agent.env` values of JSON payloads. */
  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) =>
      this.transform(p, (v) => (typeof v === 'string' ? { [SECRET_MARKER]: this.encrypt(v) } : v), [
        '"agent"',
        '"env"',
      ]),
    );
  }

  /** Decrypts the values {@link encode} encrypted; anything else passes unchanged. */
  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) =>
      this.transform(
        p,
        (v) => (isObject(v) && typeof v[SECRET_MARKER] === 'string' ? this.decrypt(v[SECRET_MARKER]) : v),
        [`"${SECRET_MARKER}"`],
      ),
    );
  }

  /**
   * Applies `f` to the `agent.env` values of a JSON payload. Cheap pre-check first: only a payload whose text
   * contains every string of `needles` is parsed (most payloads, loop states and results included, have no agent env
   * to encrypt and no encrypted value to decrypt, and parsing each costs the worker a JSON round trip).
   */
  private transform(p: Payload, f: (v: unknown) => unknown, needles: string[]): Payload {
    const encoding = p.metadata?.encoding ? Buffer.from(p.metadata.encoding).toString() : '';
    if (encoding !== 'json/plain' || !p.data) return p;
    // A view of the bytes, not a copy: the search needs no string.
    const bytes = Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength);
    if (!needles.every((n) => bytes.includes(n))) return p;
    const value = JSON.parse(bytes.toString('utf8')) as unknown;
    if (!mapAgentEnv(value, f)) return p;
    return { ...p, data: Buffer.from(JSON.stringify(value)) };
  }

  private encrypt(plain: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return `v1:${Buffer.concat([iv, c.getAuthTag(), body]).toString('base64')}`;
  }

  private decrypt(sealed: string): string {
    const raw = Buffer.from(sealed.replace(/^v1:/, ''), 'base64');
    try {
      const d = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      d.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
    } catch {
      throw new SecretsKeyMismatchError();
    }
  }
}

let shared: SecretsCodec | undefined;
/** The process's codec (key read once, at first use). */
export function secretsCodec(): SecretsCodec {
  shared ??= new SecretsCodec();
  return shared;
}
