import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parse } from 'yaml';
import { DEFAULT_NAMESPACE, DEFAULT_TASK_QUEUE, SearchAttributes } from '../../../src/core/constants';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');

interface Service {
  image?: string;
  build?: unknown;
  depends_on?: string[] | Record<string, { condition?: string }>;
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: (string | number | { published?: string | number; target?: number })[];
  volumes?: (string | { source?: string; target?: string })[];
  command?: string | string[];
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

const composeText = fs.readFileSync(COMPOSE_FILE, 'utf8');
const compose = parse(composeText) as Compose;
const services = compose.services;

/** Applies compose interpolation with an empty environment: `${VAR:-default}` and `${VAR-default}` become the default. */
const withDefaults = (value: string): string =>
  value.replace(/\$\$|\$\{[A-Za-z_][A-Za-z0-9_]*:?-([^}]*)\}/g, (match, fallback?: string) =>
    match === '$$' ? '$' : (fallback ?? ''),
  );

const env = (service: Service): Record<string, string> => {
  const raw = service.environment ?? {};
  const entries: [string, string][] = Array.isArray(raw)
    ? raw.map((line) => {
        const i = line.indexOf('=');
        return [line.slice(0, i), line.slice(i + 1)];
      })
    : Object.entries(raw).map(([k, v]) => [k, String(v ?? '')]);
  return Object.fromEntries(entries.map(([k, v]) => [k, withDefaults(v)]));
};

const dependsOn = (service: Service): Record<string, string | undefined> => {
  const raw = service.depends_on ?? {};
  if (Array.isArray(raw)) return Object.fromEntries(raw.map((name) => [name, undefined]));
  return Object.fromEntries(Object.entries(raw).map(([name, spec]) => [name, spec?.condition]));
};

const imageName = (service: Service): string => withDefaults(service.image ?? '').split(':')[0];
const serviceWithImage = (image: string): [string, Service][] =>
  Object.entries(services).filter(([, s]) => imageName(s) === image);
const onlyServiceWithImage = (image: string): string => {
  const found = serviceWithImage(image).map(([name]) => name);
  if (found.length !== 1) throw new Error(`expected one service with image ${image}, found: ${found.join(', ')}`);
  return found[0];
};

const serverName = onlyServiceWithImage('temporalio/server');

/** The admin-tools services, split by what their script does. */
const scriptOf = (service: Service): string => {
  const command = [service.command ?? []].flat().join(' ');
  const match = /\/scripts\/([\w.-]+\.sh)/.exec(command);
  if (!match) throw new Error(`no /scripts/*.sh in command: ${command}`);
  const mount = (service.volumes ?? [])
    .map((v) => (typeof v === 'string' ? v.split(':') : [v.source ?? '', v.target ?? '']))
    .find(([, target]) => target === '/scripts');
  if (!mount) throw new Error('no volume mounted at /scripts');
  return path.resolve(ROOT, mount[0], match[1]);
};
const adminTools = serviceWithImage('temporalio/admin-tools');
const schemaSetup = adminTools.find(([, s]) => fs.readFileSync(scriptOf(s), 'utf8').includes('temporal-sql-tool'));
const namespaceSetup = adminTools.find(([, s]) =>
  fs.readFileSync(scriptOf(s), 'utf8').includes('temporal operator search-attribute create'),
);

const publishedPorts = (service: Service): number[] =>
  (service.ports ?? []).map((p) => {
    if (typeof p === 'object') return Number(withDefaults(String(p.published ?? p.target)));
    const parts = withDefaults(String(p)).split(':');
    // "host:container", "ip:host:container" or "container" alone (published on a random port: not what we want).
    return parts.length === 1 ? NaN : Number(parts[parts.length - 2]);
  });

describe('docker-compose.yml', () => {
  it('defines postgres, the schema and namespace setups, the server, the UI and the worker when parsed', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['postgresql', serverName, 'temporal-ui', 'ralph-worker']),
    );
    expect(imageName(services.postgresql)).toBe('postgres');
    expect(imageName(services['temporal-ui'])).toBe('temporalio/ui');
    expect(services['ralph-worker'].build).toBeDefined();
    expect(schemaSetup).toBeDefined();
    expect(namespaceSetup).toBeDefined();
    // The deprecated all-in-one image must not come back.
    expect(Object.values(services).map(imageName)).not.toContain('temporalio/auto-setup');
  });

  it('keeps postgres data on a named volume and reports postgres healthy only when it accepts connections', () => {
    const pg = services.postgresql;
    const dataMount = (pg.volumes ?? []).map(String).find((v) => v.endsWith(':/var/lib/postgresql/data'));
    expect(dataMount).toBeDefined();
    expect(Object.keys(compose.volumes ?? {})).toContain(dataMount!.split(':')[0]);
    expect(JSON.stringify((pg as { healthcheck?: unknown }).healthcheck)).toMatch(/pg_isready/);
  });

  it('starts the server only after postgres is healthy and the schema setup completed successfully', () => {
    const deps = dependsOn(services[serverName]);
    expect(deps.postgresql).toBe('service_healthy');
    expect(deps[schemaSetup![0]]).toBe('service_completed_successfully');
    expect(dependsOn(schemaSetup![1]).postgresql).toBe('service_healthy');
    // The schema setup targets both databases the server reads.
    const script = fs.readFileSync(scriptOf(schemaSetup![1]), 'utf8');
    expect(script).toMatch(/temporal\/versioned/);
    expect(script).toMatch(/visibility\/versioned/);
  });

  it('starts the UI, the namespace setup and the worker only when the server is healthy', () => {
    for (const name of ['temporal-ui', namespaceSetup![0], 'ralph-worker']) {
      expect(dependsOn(services[name])[serverName]).toBe('service_healthy');
    }
    // Workers start once the search attributes they upsert exist.
    expect(dependsOn(services['ralph-worker'])[namespaceSetup![0]]).toBe('service_completed_successfully');
  });

  it('publishes the frontend on 7233 and the UI on 8080 when run with defaults', () => {
    expect(publishedPorts(services[serverName])).toContain(7233);
    expect(publishedPorts(services['temporal-ui'])).toContain(8080);
    expect(env(services['temporal-ui']).TEMPORAL_ADDRESS).toBe(`${serverName}:7233`);
    // Workers only dial out: no published port, so `--scale ralph-worker=N` cannot collide.
    expect(services['ralph-worker'].ports ?? []).toHaveLength(0);
  });

  it('points the worker at the server service on the default namespace and task queue when no override is set', () => {
    const workerEnv = env(services['ralph-worker']);
    expect(workerEnv.TEMPORAL_ADDRESS).toBe(`${serverName}:7233`);
    expect(workerEnv.TEMPORAL_NAMESPACE).toBe(DEFAULT_NAMESPACE);
    expect(workerEnv.RALPH_TASK_QUEUE).toBe(DEFAULT_TASK_QUEUE);
    // The namespace setup creates the namespace the workers poll.
    expect(env(namespaceSetup![1]).NAMESPACE).toBe(workerEnv.TEMPORAL_NAMESPACE);
    expect(env(namespaceSetup![1]).TEMPORAL_ADDRESS).toBe(`${serverName}:7233`);
  });

  it('mounts a workspaces volume at /workspaces on the worker', () => {
    const mounts = (services['ralph-worker'].volumes ?? []).map(String).map(withDefaults);
    const workspaces = mounts.find((v) => v.split(':')[1] === '/workspaces');
    expect(workspaces).toBeDefined();
    expect(Object.keys(compose.volumes ?? {})).toContain(workspaces!.split(':')[0]);
  });

  it('registers every search attribute in SearchAttributes with its type when the namespace setup runs', () => {
    const registered = env(namespaceSetup![1])
      .RALPH_SEARCH_ATTRIBUTES.split(/\s+/)
      .filter(Boolean)
      .map((pair) => pair.split('='));
    const expected = Object.values(SearchAttributes).map((sa) => [sa.name, sa.type]);
    expect(registered.sort()).toEqual(expected.sort());
    const script = fs.readFileSync(scriptOf(namespaceSetup![1]), 'utf8');
    expect(script).toMatch(/for pair in \$RALPH_SEARCH_ATTRIBUTES/);
    expect(script).toMatch(/--name "\$name" --type "\$type"/);
  });

  it('gives every ${VAR} a default so the file runs with no .env', () => {
    const unescaped = composeText.replace(/\$\$/g, '');
    const braced = [...unescaped.matchAll(/\$\{([^}]*)\}/g)].map((m) => m[1]);
    expect(braced.length).toBeGreaterThan(0);
    for (const expr of braced) expect(expr).toMatch(/^[A-Za-z_][A-Za-z0-9_]*:-.+$/);
    // Bare $VAR cannot carry a default at all.
    expect(unescaped).not.toMatch(/\$[A-Za-z_]/);
  });

  it('pins every upstream image to a version and runs admin-tools at the server version', () => {
    for (const [name, service] of Object.entries(services)) {
      if (name === 'ralph-worker') continue;
      const tag = withDefaults(service.image ?? '').split(':')[1];
      expect(tag).toMatch(/^\d+(\.\d+)*$/);
    }
    const serverTag = withDefaults(services[serverName].image!).split(':')[1];
    for (const [, service] of adminTools) expect(withDefaults(service.image!).split(':')[1]).toBe(serverTag);
  });

  it('mounts an existing dynamic config file into the server when DYNAMIC_CONFIG_FILE_PATH is set', () => {
    const server = services[serverName];
    const file = env(server).DYNAMIC_CONFIG_FILE_PATH;
    expect(file).toMatch(/^config\/dynamicconfig\//);
    const mount = (server.volumes ?? [])
      .map(String)
      .map((v) => v.split(':'))
      .find(([, target]) => target === '/etc/temporal/config/dynamicconfig');
    expect(mount).toBeDefined();
    const hostFile = path.resolve(ROOT, mount![0], path.basename(file));
    expect(parse(fs.readFileSync(hostFile, 'utf8'))).toHaveProperty(['limit.maxIDLength']);
  });

  it('builds the worker from a node 20 Dockerfile whose CMD runs the worker as a non-root user', () => {
    const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const froms = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]);
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) expect(from).toMatch(/^node:20(-|$)/);
    expect(dockerfile).toMatch(/^RUN npm ci\b/m);
    expect(dockerfile).toMatch(/^RUN npm run build\b/m);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(dockerfile).toMatch(/install -y[^\n]*\bgit\b/);
    const users = [...dockerfile.matchAll(/^USER\s+(\S+)/gm)].map((m) => m[1]);
    expect(users.length).toBeGreaterThan(0);
    expect(users[users.length - 1]).not.toMatch(/^(root|0)$/);
    const cmd = /^CMD\s+(\[.*\])\s*$/m.exec(dockerfile);
    expect(cmd).not.toBeNull();
    const argv = JSON.parse(cmd![1]) as string[];
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(argv).toEqual(['node', pkg.bin.ralph, 'worker']);
    expect(fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n')).toEqual(
      expect.arrayContaining(['node_modules', 'dist', '.git']),
    );
  });

  // `config` validates the file against the compose specification and needs no Docker engine (CI has none). Docker's
  // compose plugin runs it when present, else Debian's docker-compose (npm test's pretest installs it as root); with
  // neither, the test fails and says what to install, never passes.
  const validator = composeValidator();
  const runConfig = (file: string): { status: number | null; stderr: string } => {
    if (!validator) throw new Error(NO_VALIDATOR);
    const r = spawnSync(validator[0], [...validator.slice(1), '-f', file, 'config', '-q'], {
      cwd: path.dirname(file),
      encoding: 'utf8',
    });
    return { status: r.status, stderr: r.stderr };
  };

  it('passes `docker compose config`', () => {
    // stderr rides along so a failure shows compose's own message.
    expect(runConfig(COMPOSE_FILE)).toEqual({ status: 0, stderr: expect.any(String) });
  });

  it('fails the same check when a service key is misspelt', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-compose-'));
    try {
      const broken = path.join(dir, 'docker-compose.yml');
      // The real file with one misspelt service key: the check must name it.
      fs.writeFileSync(broken, composeText.replace(/^( {4})image:/m, '$1imagee:'));
      const r = runConfig(broken);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/imagee/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

const NO_VALIDATOR =
  "neither `docker compose` nor `docker-compose` runs here: install Docker's compose plugin or " +
  '`sudo apt-get install -y docker-compose` (npm test installs it itself when run as root)';

/** The command that validates a compose file: Docker's compose plugin, else docker-compose; undefined with neither. */
function composeValidator(): string[] | undefined {
  if (spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' }).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0) return ['docker-compose'];
  return undefined;
}
