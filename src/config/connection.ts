import fs from 'node:fs';
import { z } from 'zod';
import { DEFAULT_ADDRESS, DEFAULT_NAMESPACE, DEFAULT_TASK_QUEUE } from '../core/constants';

/** How to reach a Temporal server: flags win over env (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, ...), env over defaults. */
export const ConnectionConfig = z.object({
  address: z.string().min(1).default(DEFAULT_ADDRESS),
  namespace: z.string().min(1).default(DEFAULT_NAMESPACE),
  taskQueue: z.string().min(1).default(DEFAULT_TASK_QUEUE),
  /** Temporal Cloud API key (implies TLS). */
  apiKey: z.string().min(1).optional(),
  /** Use TLS with the system CAs (true), or with these client cert/key files (mTLS). */
  tls: z.boolean().default(false),
  tlsCertPath: z.string().optional(),
  tlsKeyPath: z.string().optional(),
  tlsCaPath: z.string().optional(),
  tlsServerName: z.string().optional(),
});
/** How to reach a Temporal server. */
export type ConnectionConfig = z.infer<typeof ConnectionConfig>;

/** Reads connection settings from flags and the environment, once, at process start. */
export function connectionConfigFrom(
  flags: Partial<Record<keyof ConnectionConfig, string | boolean | undefined>>,
  env: NodeJS.ProcessEnv = process.env,
): ConnectionConfig {
  const pick = (flag: unknown, ...names: string[]): string | undefined =>
    (typeof flag === 'string' && flag) || names.map((n) => env[n]).find((v) => v !== undefined && v !== '');
  return ConnectionConfig.parse({
    address: pick(flags.address, 'TEMPORAL_ADDRESS'),
    namespace: pick(flags.namespace, 'TEMPORAL_NAMESPACE'),
    taskQueue: pick(flags.taskQueue, 'RALPH_TASK_QUEUE'),
    apiKey: pick(flags.apiKey, 'TEMPORAL_API_KEY'),
    tls: flags.tls === true || env.TEMPORAL_TLS === 'true' || undefined,
    tlsCertPath: pick(flags.tlsCertPath, 'TEMPORAL_TLS_CLIENT_CERT_PATH'),
    tlsKeyPath: pick(flags.tlsKeyPath, 'TEMPORAL_TLS_CLIENT_KEY_PATH'),
    tlsCaPath: pick(flags.tlsCaPath, 'TEMPORAL_TLS_SERVER_CA_CERT_PATH'),
    tlsServerName: pick(flags.tlsServerName, 'TEMPORAL_TLS_SERVER_NAME'),
  });
}

/** TLS options in the shape both the client's Connection and the worker's NativeConnection take. */
export function tlsOptions(
  c: ConnectionConfig,
):
  | boolean
  | { clientCertPair?: { crt: Buffer; key: Buffer }; serverRootCACertificate?: Buffer; serverNameOverride?: string }
  | undefined {
  const mtls = c.tlsCertPath && c.tlsKeyPath;
  if (!mtls && !c.tlsCaPath && !c.tlsServerName) return c.tls || c.apiKey ? true : undefined;
  return {
    clientCertPair: mtls ? { crt: fs.readFileSync(c.tlsCertPath!), key: fs.readFileSync(c.tlsKeyPath!) } : undefined,
    serverRootCACertificate: c.tlsCaPath ? fs.readFileSync(c.tlsCaPath) : undefined,
    serverNameOverride: c.tlsServerName,
  };
}
