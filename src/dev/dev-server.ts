/**
 * A local Temporal dev server for `ralph dev` and `ralph demo`: the `temporal` binary found by scripts/temporal-bin.js
 * (`temporal server start-dev` with SQLite persistence and the loop's search attributes), or, when no binary is
 * installed, the SDK's own download through @temporalio/testing (needs internet once).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ConnectionConfig } from '../config/connection';
import { connectClient } from '../client';
import { DEFAULT_NAMESPACE, DEV_SERVER_DYNAMIC_CONFIG_ARGS, devServerSearchAttributeArgs } from '../core/constants';
import { DevServerError } from './errors';

/** Options of {@link startDevServer}. */
export interface DevServerOptions {
  /** SQLite file that keeps the server's state across restarts; its folder is created. */
  dbFile: string;
  /** Frontend gRPC port; 0 or undefined picks a free one. */
  port?: number;
  /** Web UI port; 0 or undefined picks a free one. */
  uiPort?: number;
  /** Address to bind (default 127.0.0.1). */
  ip?: string;
  /** Progress messages. */
  log?: (msg: string) => void;
  /** How long to wait for the frontend to answer (default 30 s). */
  readyTimeoutMs?: number;
}

/** A running dev server. */
export interface DevServer {
  /** Frontend address (`host:port`) for clients and workers. */
  address: string;
  /** The Web UI. */
  uiUrl: string;
  /** Where the `temporal` binary came from, or `sdk-download`. */
  source: string;
  /** Stops the server: SIGTERM, then SIGKILL after 5 s. */
  stop(): Promise<void>;
}

interface Located {
  path?: string;
  source: string;
  version?: string;
  tried: string[];
}

/** The nearest folder upward from here whose package.json is ralph-on-temporal's (src/ under jest, dist/src/ built). */
export function packageRoot(from = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      try {
        if ((JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: string }).name === 'ralph-on-temporal') return dir;
      } catch {
        // not ours: keep looking
      }
    }
    if (path.dirname(dir) === dir)
      throw new DevServerError(`can't find the ralph-on-temporal package root above ${from}`);
  }
}

/** Finds the `temporal` binary without installing anything. */
export function locateTemporalBinary(): Located {
  const { locateTemporal } = require(path.join(packageRoot(), 'scripts/temporal-bin.js')) as {
    locateTemporal: (o: { install?: boolean; quiet?: boolean }) => Located;
  };
  return locateTemporal({ install: false, quiet: true });
}

/** A TCP port nobody listens on right now. */
export function freePort(ip = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, ip, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** True when something accepts TCP connections at ip:port. */
export function portAnswers(ip: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: ip, port });
    const done = (ok: boolean): void => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Starts a dev server and waits until its frontend answers. */
export async function startDevServer(o: DevServerOptions): Promise<DevServer> {
  const ip = o.ip ?? '127.0.0.1';
  const log = o.log ?? (() => undefined);
  const port = o.port || (await freePort(ip));
  const uiPort = o.uiPort || (await freePort(ip));
  for (const [what, p] of [
    ['port', port],
    ['Web UI port', uiPort],
  ] as const)
    if (await portAnswers(ip, p))
      throw new DevServerError(
        `${what} ${p} on ${ip} is already in use: is a Temporal server already running there? Then run \`ralph worker\` against it, or choose another port`,
      );
  fs.mkdirSync(path.dirname(path.resolve(o.dbFile)), { recursive: true });
  const located = locateTemporalBinary();
  if (!located.path) {
    log(
      `no temporal binary installed (${located.tried.join('; ')}); using the Temporal SDK's download (needs internet)`,
    );
    return startWithSdk({ ...o, ip, port, uiPort });
  }
  log(`starting ${located.path}${located.version ? ` (${located.version.split('\n')[0]})` : ''}`);
  const args = [
    'server',
    'start-dev',
    '--db-filename',
    path.resolve(o.dbFile),
    '--ip',
    ip,
    '--port',
    String(port),
    '--ui-port',
    String(uiPort),
    '--namespace',
    DEFAULT_NAMESPACE,
    '--log-level',
    'warn',
    ...devServerSearchAttributeArgs(),
    ...DEV_SERVER_DYNAMIC_CONFIG_ARGS,
  ];
  // Own process group: Ctrl-C in the terminal reaches only us, so we stop the worker before the server.
  const child = spawn(located.path, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitedP = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
    child.once('error', (e) => {
      exited = { code: null, signal: null };
      output += `\n${e.message}`;
      resolve();
    });
  });
  // Never leave an orphaned server behind when this process exits without calling stop().
  const onExit = (): void => killGroup(child, 'SIGKILL');
  process.once('exit', onExit);
  const stop = async (): Promise<void> => {
    process.removeListener('exit', onExit);
    if (exited) return;
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
    await exitedP;
    clearTimeout(timer);
  };
  const address = `${ip}:${port}`;
  const tail = (): string =>
    output
      .trim()
      .split('\n')
      .slice(-8)
      .map((l) => `  ${l}`)
      .join('\n');
  try {
    await waitUntilReady(address, ip, port, o.readyTimeoutMs ?? 30_000, () => exited);
  } catch (e) {
    await stop();
    const why = exited ? `exited (${exited.signal ?? `code ${exited.code}`})` : 'did not answer in time';
    throw new DevServerError(
      `the Temporal dev server at ${address} ${why}; its last output:\n${tail() || '  (none)'}`,
      e,
    );
  }
  return { address, uiUrl: `http://${ip}:${uiPort}`, source: located.source, stop };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

async function waitUntilReady(
  address: string,
  ip: string,
  port: number,
  timeoutMs: number,
  exited: () => unknown,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  // Cheap TCP probes first, then one real round trip that also proves the namespace exists.
  while (!(await portAnswers(ip, port))) {
    if (exited()) throw new Error('server exited');
    if (Date.now() > end) throw new Error('timeout');
    await sleep(100);
  }
  let last: unknown;
  while (Date.now() < end) {
    if (exited()) throw new Error('server exited');
    try {
      const client = await connectClient(ConnectionConfig.parse({ address }));
      try {
        await client.workflowService.describeNamespace({ namespace: DEFAULT_NAMESPACE });
        return;
      } finally {
        await client.connection.close();
      }
    } catch (e) {
      last = e;
      await sleep(250);
    }
  }
  throw last ?? new Error('timeout');
}

async function startWithSdk(o: DevServerOptions & { ip: string; port: number; uiPort: number }): Promise<DevServer> {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const { ALL_SEARCH_ATTRIBUTE_KEYS } = await import('../workflows/search-attributes');
  try {
    const env = await TestWorkflowEnvironment.createLocal({
      server: {
        dbFilename: path.resolve(o.dbFile),
        ip: o.ip,
        port: o.port,
        ui: true,
        uiPort: o.uiPort,
        searchAttributes: ALL_SEARCH_ATTRIBUTE_KEYS,
        extraArgs: DEV_SERVER_DYNAMIC_CONFIG_ARGS,
        log: { format: 'pretty', level: 'warn' },
      },
    });
    return {
      address: env.address,
      uiUrl: `http://${o.ip}:${o.uiPort}`,
      source: 'sdk-download',
      stop: () => env.teardown(),
    };
  } catch (e) {
    throw new DevServerError(
      `could not start a Temporal dev server through the SDK's download (${(e as Error).message}): ` +
        'install the binary once with `npm run temporal:ensure`, or set TEMPORAL_CLI_PATH',
      e,
    );
  }
}
export { DevServerError };
