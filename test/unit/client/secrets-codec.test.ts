import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import { SecretsCodec, secretsKey } from '../../../src/client/secrets-codec';

const payload = (v: unknown) => defaultPayloadConverter.toPayload(v);
const text = (p: { data?: Uint8Array | null }) => Buffer.from(p.data!).toString('utf8');

describe('SecretsCodec', () => {
  const codec = new SecretsCodec(secretsKey({ RALPH_SECRETS_KEY: 'test-key' }));

  it('encrypts agent.env values only, and decodes them back', async () => {
    const input = { prompt: 'p', agent: { adapter: 'scripted', env: { OPENAI_API_KEY: 'sk-live-123456' } } };
    const [enc] = await codec.encode([payload([input])]);
    expect(text(enc)).not.toContain('sk-live-123456');
    expect(text(enc)).toContain('"adapter":"scripted"');
    expect(text(enc)).toContain('$ralphSecret');
    const [dec] = await codec.decode([enc]);
    expect(defaultPayloadConverter.fromPayload(dec)).toEqual([input]);
  });

  it('passes payloads without agent env through unchanged (old histories replay)', async () => {
    const p = payload({ status: 'running', agent: 'scripted' });
    expect((await codec.encode([p]))[0]).toBe(p);
    expect((await codec.decode([p]))[0]).toBe(p);
  });

  it('refuses with a clear error when the key differs', async () => {
    const [enc] = await codec.encode([payload({ agent: { env: { K: 'value-123' } } })]);
    const other = new SecretsCodec(secretsKey({ RALPH_SECRETS_KEY: 'other' }));
    await expect(other.decode([enc])).rejects.toThrow(/same RALPH_SECRETS_KEY/);
  });

  it('creates one key file, 0600, under RALPH_HOME and reuses it', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-home-'));
    const k1 = secretsKey({ RALPH_HOME: home });
    expect(secretsKey({ RALPH_HOME: home }).equals(k1)).toBe(true);
    expect(fs.statSync(path.join(home, 'secrets.key')).mode & 0o777).toBe(0o600);
  });
});
