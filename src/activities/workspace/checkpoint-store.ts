/**
 * Checkpoints of plain-folder workspaces: one JSON manifest per checkpoint (path → git blob id, modes, symlinks) and
 * one content-addressed store of file contents per loop (`<checkpoints>/.store/objects/<2>/<38>`), so a file is
 * stored once however many checkpoints hold it. A stat cache (size, mtime, ctime, inode → blob id) spares re-reading
 * unchanged files, as git's index does: a checkpoint reads only the files changed since the previous one.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeJsonAtomic } from '../../state/artifacts';
import { blobHash, mapLimit, walkDir } from './snapshot';
import { CheckpointContentMissingError } from '../errors';

/** A plain folder's checkpoint as stored on disk (`<checkpoints>/<label>.json`). */
export interface StoreManifest {
  label: string;
  createdAt: string;
  /** Workspace-relative posix path → git blob id of its content (of its target, for a symlink). */
  files: Record<string, string>;
  /** `cas`: contents are in the loop's store. Absent: a `<label>.tar.gz` next to the manifest (older checkpoints). */
  store?: 'cas';
  /** Permission bits of the files whose mode is not 0644. */
  modes?: Record<string, number>;
  /** Symlinks: path → target. */
  links?: Record<string, string>;
}

/** What a scan of a plain folder found. */
export interface DirScan {
  files: Record<string, string>;
  modes: Record<string, number>;
  links: Record<string, string>;
}

/** The loop's content store inside its checkpoints folder. */
export const storeDir = (checkpointsDir: string): string => path.join(checkpointsDir, '.store');

/** Where the store keeps the content of a blob. */
export const objectPath = (checkpointsDir: string, blob: string): string =>
  path.join(storeDir(checkpointsDir), 'objects', blob.slice(0, 2), blob.slice(2));

const statCachePath = (checkpointsDir: string): string => path.join(storeDir(checkpointsDir), 'stat-cache.json');

/**
 * A cached hash is trusted only for a file last modified this long before it was hashed: a write in the same
 * timestamp tick as the hash (coarse-grained file systems tick in 1-2 s) could otherwise go unnoticed, as git's
 * "racily clean" entries would.
 */
const RACY_MS = 2000;

interface StatEntry {
  /** size:mtimeMs:ctimeMs:ino when hashed. */
  key: string;
  blob: string;
  /** When it was hashed (ms). */
  at: number;
}

function readStatCache(checkpointsDir: string): Map<string, StatEntry> {
  try {
    const o = JSON.parse(fs.readFileSync(statCachePath(checkpointsDir), 'utf8')) as Record<string, StatEntry>;
    return new Map(Object.entries(o));
  } catch {
    return new Map();
  }
}

/**
 * Lists a plain folder's files with their blob ids, modes and symlink targets, re-reading only files whose stat data
 * changed since the last scan that updated the cache. With `store`, new content is written to the store (read once,
 * hashed, written under its hash: what the store holds always matches its name) and the stat cache is updated.
 */
export async function scanDir(
  workspace: string,
  skipAbs: string[],
  checkpointsDir: string,
  o: { store: boolean },
): Promise<DirScan> {
  const paths = await walkDir(workspace, skipAbs);
  const cache = readStatCache(checkpointsDir);
  const next: Record<string, StatEntry> = {};
  const now = Date.now();
  const scan: DirScan = { files: {}, modes: {}, links: {} };
  const blobs = await mapLimit(paths, 16, async (p): Promise<string | undefined> => {
    const abs = path.join(workspace, p);
    const st = await fs.promises.lstat(abs).catch(() => undefined);
    if (!st) return undefined; // deleted while we walked
    if (st.isSymbolicLink()) {
      const target = await fs.promises.readlink(abs);
      scan.links[p] = target;
      return blobHash(target);
    }
    const mode = st.mode & 0o777;
    if (mode !== 0o644) scan.modes[p] = mode;
    const key = `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
    const c = cache.get(p);
    const trusted =
      c &&
      c.key === key &&
      st.mtimeMs < c.at - RACY_MS &&
      (!o.store || fs.existsSync(objectPath(checkpointsDir, c.blob)));
    if (trusted) {
      next[p] = c;
      return c.blob;
    }
    const content = await fs.promises.readFile(abs);
    const blob = blobHash(content);
    if (o.store) await putObject(checkpointsDir, blob, content);
    next[p] = { key, blob, at: now };
    return blob;
  });
  paths.forEach((p, i) => {
    if (blobs[i] !== undefined) scan.files[p] = blobs[i];
  });
  if (o.store) writeJsonAtomic(statCachePath(checkpointsDir), next);
  return scan;
}

/** Writes content to the store under its blob id, unless it is there already (temp file, then rename: atomic). */
async function putObject(checkpointsDir: string, blob: string, content: Buffer): Promise<void> {
  const dest = objectPath(checkpointsDir, blob);
  if (fs.existsSync(dest)) return;
  await fs.promises.mkdir(path.dirname(dest), { recursive: true });
  const tmp = `${dest}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  await fs.promises.writeFile(tmp, content);
  await fs.promises.rename(tmp, dest);
}

/**
 * Records a plain folder as checkpoint `label`: new content into the store, then the manifest (atomically) at
 * `manifestPath`. Returns the manifest and its path.
 */
export async function storeSnapshot(
  workspace: string,
  skipAbs: string[],
  checkpointsDir: string,
  label: string,
  manifestPath: string,
): Promise<{ path: string; manifest: StoreManifest }> {
  const scan = await scanDir(workspace, skipAbs, checkpointsDir, { store: true });
  const manifest: StoreManifest = {
    label,
    createdAt: new Date().toISOString(),
    files: scan.files,
    store: 'cas',
    ...(Object.keys(scan.modes).length ? { modes: scan.modes } : {}),
    ...(Object.keys(scan.links).length ? { links: scan.links } : {}),
  };
  writeJsonAtomic(manifestPath, manifest);
  return { path: manifestPath, manifest };
}

/**
 * Writes files back from the store as the manifest holds them (content, mode, symlink target). Each file is written
 * to a temp file next to it and renamed over it, so a reader never sees half a file; it gets a new mtime, so build
 * tools see that it changed.
 */
export async function restoreFromStore(
  workspace: string,
  checkpointsDir: string,
  manifest: StoreManifest,
  paths: string[],
): Promise<void> {
  await mapLimit(paths, 16, async (p) => {
    const abs = path.join(workspace, p);
    await fs.promises.mkdir(path.dirname(abs), { recursive: true });
    const link = manifest.links?.[p];
    if (link !== undefined) {
      await fs.promises.rm(abs, { force: true });
      await fs.promises.symlink(link, abs);
      return;
    }
    const blob = manifest.files[p];
    const content = await fs.promises.readFile(objectPath(checkpointsDir, blob)).catch(() => {
      throw new CheckpointContentMissingError(p, blob, storeDir(checkpointsDir));
    });
    const mode = manifest.modes?.[p] ?? 0o644;
    const tmp = `${abs}.ralph-${process.pid}.tmp`;
    await fs.promises.writeFile(tmp, content, { mode });
    await fs.promises.chmod(tmp, mode);
    await fs.promises.rename(tmp, abs);
  });
}

/** Content of a stored blob, or undefined when the store does not have it. */
export async function readObject(checkpointsDir: string, blob: string): Promise<Buffer | undefined> {
  return fs.promises.readFile(objectPath(checkpointsDir, blob)).catch(() => undefined);
}

/** Deletes the store's objects no manifest in `keep` refers to, and the stat cache; returns how many were deleted. */
export async function collectGarbage(checkpointsDir: string, keep: StoreManifest[]): Promise<number> {
  const live = new Set(keep.flatMap((m) => Object.values(m.files)));
  const objects = path.join(storeDir(checkpointsDir), 'objects');
  let deleted = 0;
  for (const d of await fs.promises.readdir(objects).catch(() => [] as string[])) {
    for (const f of await fs.promises.readdir(path.join(objects, d)).catch(() => [] as string[])) {
      if (live.has(d + f)) continue;
      await fs.promises.rm(path.join(objects, d, f), { force: true });
      deleted++;
    }
    await fs.promises.rmdir(path.join(objects, d)).catch(() => undefined);
  }
  await fs.promises.rm(statCachePath(checkpointsDir), { force: true });
  return deleted;
}
export { CheckpointContentMissingError };
