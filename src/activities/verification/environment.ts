/**
 * What the verification tree needs to know of the workspace beyond its checkpoints: the paths git ignores (a file no
 * checkpoint holds may still be read by a tool), and fingerprints of its dependency folders (node_modules, .venv...),
 * both recorded with the verification baseline and compared when the agent claims completion. The tree links the
 * dependency folders as they are, so a changed one (jest's bin replaced by a stub, `toBe` loosened inside `expect`)
 * would pass its change on to the original checks. A fingerprint is a hash of every entry's path, type, size, mtime
 * and ctime (a file's ctime cannot be set back), plus the content of the package manager's own record
 * (`node_modules/.package-lock.json`, rewritten by installs that change nothing). Caches tools write while a check
 * runs (`.cache`, `.vite`, `__pycache__`) are left out: the tree's checks run with `PYTHONPYCACHEPREFIX` set
 * elsewhere, so stale bytecode there is never read.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import type { DependencyFingerprint } from '../../state/manifest';
import { git } from '../workspace/snapshot';
import { isBuildOutput } from '../../core/verification/environment';
export type { DependencyFingerprint };

/** How a dependency folder differs from its baseline. */
export interface DependencyChange {
  path: string;
  change: 'modified' | 'added' | 'deleted';
  /** Entries at the baseline and now. */
  before?: number;
  after?: number;
}

/** Names of the folders package managers install into (found at the top level and one level down). */
export const DEPENDENCY_DIRS = new Set(['node_modules', '.venv', 'venv', '.tox', 'bower_components', '__pypackages__']);
/** Entries inside them that tools write while checks run (caches, bytecode): not part of the fingerprint. */
const VOLATILE = new Set(['.cache', '.vite', '.vitest', '__pycache__', '.pytest_cache']);
/** Files whose content is hashed instead of their stat (a no-op install rewrites them). */
const BY_CONTENT = new Set(['.package-lock.json']);
/** Most entries walked per folder; beyond, the fingerprint covers the first ones and says so in its count. */
const MAX_ENTRIES = 500_000;

/** The dependency folders of a workspace: at its top and one level down (monorepo packages), not under `.git`. */
export function dependencyFolders(workspace: string): string[] {
  const out: string[] = [];
  const visit = (rel: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(workspace, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (DEPENDENCY_DIRS.has(e.name) && (e.isDirectory() || e.isSymbolicLink())) out.push(r);
      else if (e.isDirectory() && depth < 1 && !e.name.startsWith('.')) visit(r, depth + 1);
    }
  };
  visit('', 0);
  return out.sort();
}

/** Fingerprints every dependency folder of the workspace (a symlinked folder is followed once, at its top). */
export function fingerprintDependencies(workspace: string): DependencyFingerprint[] {
  return dependencyFolders(workspace).map((rel) => fingerprintFolder(workspace, rel));
}

function fingerprintFolder(workspace: string, rel: string): DependencyFingerprint {
  const hash = crypto.createHash('sha256');
  let root: string;
  try {
    root = fs.realpathSync(path.join(workspace, rel));
  } catch {
    return { path: rel, entries: 0, sha256: 'unreadable' };
  }
  let entries = 0;
  const stack = [''];
  while (stack.length && entries < MAX_ENTRIES) {
    const dir = stack.pop() as string;
    let names: string[];
    try {
      names = fs.readdirSync(path.join(root, dir)).sort();
    } catch {
      hash.update(`!${dir}\n`);
      continue;
    }
    for (const name of names) {
      if (VOLATILE.has(name)) continue;
      const r = dir ? `${dir}/${name}` : name;
      const abs = path.join(root, r);
      let st: fs.Stats;
      try {
        st = fs.lstatSync(abs);
      } catch {
        continue;
      }
      entries++;
      if (st.isDirectory()) {
        hash.update(`d ${r}\n`);
        stack.push(r);
      } else if (st.isSymbolicLink()) hash.update(`l ${r} ${safeReadlink(abs)}\n`);
      else if (BY_CONTENT.has(name) && !dir) hash.update(`c ${r} ${contentHash(abs)}\n`);
      else hash.update(`f ${r} ${st.mode} ${st.size} ${st.mtimeMs} ${st.ctimeMs}\n`);
    }
  }
  return { path: rel, entries, sha256: hash.digest('hex') };
}

/** The dependency folders that differ from the baseline's fingerprints. */
export function compareDependencies(
  baseline: readonly DependencyFingerprint[],
  now: readonly DependencyFingerprint[],
): DependencyChange[] {
  const was = new Map(baseline.map((f) => [f.path, f]));
  const is = new Map(now.map((f) => [f.path, f]));
  const out: DependencyChange[] = [];
  for (const [p, f] of is) {
    const b = was.get(p);
    if (!b) out.push({ path: p, change: 'added', after: f.entries });
    else if (b.sha256 !== f.sha256) out.push({ path: p, change: 'modified', before: b.entries, after: f.entries });
  }
  for (const [p, b] of was) if (!is.has(p)) out.push({ path: p, change: 'deleted', before: b.entries });
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

function safeReadlink(p: string): string {
  try {
    return fs.readlinkSync(p);
  } catch {
    return '?';
  }
}

function contentHash(p: string): string {
  try {
    return crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
  } catch {
    return '?';
  }
}

/**
 * The paths git ignores or excludes in a git workspace (untracked, `--directory`: an ignored folder is one entry, so
 * node_modules costs nothing), without the state folder. Empty when git cannot list them.
 */
export async function ignoredPaths(workspace: string): Promise<string[]> {
  try {
    const out = await git(workspace, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']);
    return out
      .split('\0')
      .filter((p) => p && !p.startsWith('.ralph/'))
      .map((p) => p.replace(/\/$/, ''))
      .sort();
  } catch {
    return [];
  }
}

/**
 * A signature of each ignored path that is neither a build output nor a dependency folder (the user's own ignored
 * files: a local `.env`, an ignored config): stat data for a file, a walk for a folder. The verification runs in the
 * workspace, where those files are present: one the agent changed since the baseline is left out instead.
 */
export function ignoredSignatures(workspace: string, ignored: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of ignored) {
    if (isBuildOutput(p) || DEPENDENCY_DIRS.has(path.basename(p))) continue;
    let st: fs.Stats;
    try {
      st = fs.lstatSync(path.join(workspace, p));
    } catch {
      continue;
    }
    out[p] = st.isDirectory()
      ? `d ${fingerprintFolder(workspace, p).sha256}`
      : `f ${st.mode} ${st.size} ${st.mtimeMs} ${st.ctimeMs}`;
  }
  return out;
}

/** The ignored paths whose signature differs from the baseline's (changed or gone). */
export function changedIgnored(workspace: string, baseline: Record<string, string>): string[] {
  const now = ignoredSignatures(workspace, Object.keys(baseline));
  return Object.keys(baseline)
    .filter((p) => now[p] !== baseline[p] && fs.existsSync(path.join(workspace, p)))
    .sort();
}
