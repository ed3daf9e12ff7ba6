/**
 * Reading a loop's own git index file, so that the detection pass can diff a checkpoint against the previous one
 * without starting `git diff-tree`: right after `git write-tree`, the index holds exactly the new tree's files (path,
 * mode, blob id), and the entries read after the previous checkpoint hold that checkpoint's. Only the plain formats
 * are read (versions 2 and 3, SHA-1, no split or sparse index, no conflicts, no intent-to-add entries); for anything
 * else the reader answers undefined and the caller asks git.
 */
import type { CommitChange } from './checkpoint';

/** Path (from the top of the work tree) → `<mode> <blob id>`, as in a tree. */
export type IndexEntries = Map<string, string>;

/** Bytes of a SHA-1 id. */
const SHA1_BYTES = 20;
/** Fixed part of an entry before its name: ten 32-bit stat and mode fields, the id, 16-bit flags. */
const FIXED = 40 + SHA1_BYTES + 2;

/** The entries of a SHA-1 index file of version 2 or 3, or undefined when it is anything else (git is asked then). */
export function parseIndex(buf: Buffer): IndexEntries | undefined {
  if (buf.length < 12 + SHA1_BYTES || buf.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = buf.readUInt32BE(4);
  if (version !== 2 && version !== 3) return undefined;
  const count = buf.readUInt32BE(8);
  const end = buf.length - SHA1_BYTES;
  const out: IndexEntries = new Map();
  let off = 12;
  for (let i = 0; i < count; i++) {
    if (off + FIXED > end) return undefined;
    const mode = buf.readUInt32BE(off + 24);
    // A directory entry belongs to a sparse index: its files are not listed.
    if ((mode & 0o170000) === 0o040000) return undefined;
    const flags = buf.readUInt16BE(off + 40 + SHA1_BYTES);
    let name = off + FIXED;
    if (flags & 0x4000) {
      if (version < 3) return undefined;
      // Intent-to-add entries (git add -N) are not in the tree write-tree writes.
      if (buf.readUInt16BE(name) & 0x2000) return undefined;
      name += 2;
    }
    // A conflicted entry (stage 1-3): write-tree refuses, and so do we.
    if ((flags >> 12) & 3) return undefined;
    const len = flags & 0xfff;
    const nameEnd = len < 0xfff ? name + len : buf.indexOf(0, name);
    if (nameEnd < 0 || nameEnd >= end || buf[nameEnd] !== 0) return undefined;
    out.set(
      buf.toString('utf8', name, nameEnd),
      `${mode.toString(8)} ${buf.toString('hex', off + 40, off + 40 + SHA1_BYTES)}`,
    );
    // Each entry is padded with 1 to 8 NULs to a multiple of 8 bytes.
    off += (nameEnd - off + 8) & ~7;
  }
  // Extensions: a split index ("link") keeps entries in another file; an "sdir" marks a sparse index.
  while (off + 8 <= end) {
    const sig = buf.toString('latin1', off, off + 4);
    if (sig === 'link' || sig === 'sdir') return undefined;
    off += 8 + buf.readUInt32BE(off + 4);
  }
  return out;
}

/**
 * What `git diff-tree -r --no-renames --relative` prints between the trees of two indexes, for a workspace at `prefix`
 * inside its work tree ('' at the top, 'sub/dir/' below it): paths relative to the workspace, submodules and
 * `skip(path)` (the state folder) left out, in git's path order.
 */
export function diffIndexEntries(
  before: IndexEntries,
  after: IndexEntries,
  prefix: string,
  skip: (path: string) => boolean,
): CommitChange[] {
  const changes: CommitChange[] = [];
  const consider = (p: string): string | undefined => {
    if (!p.startsWith(prefix)) return undefined;
    const rel = p.slice(prefix.length);
    return skip(rel) ? undefined : rel;
  };
  const gitlink = (e: string | undefined): boolean => e !== undefined && e.startsWith('160000 ');
  const id = (e: string): string => e.slice(e.indexOf(' ') + 1);
  for (const [p, a] of after) {
    const b = before.get(p);
    if (b === a) continue;
    const rel = consider(p);
    if (rel === undefined || gitlink(a) || gitlink(b)) continue;
    changes.push(
      b === undefined
        ? { path: rel, status: 'A', after: id(a) }
        : { path: rel, status: 'M', before: id(b), after: id(a) },
    );
  }
  for (const [p, b] of before) {
    if (after.has(p)) continue;
    const rel = consider(p);
    if (rel === undefined || gitlink(b)) continue;
    changes.push({ path: rel, status: 'D', before: id(b) });
  }
  // Byte order of the paths, as git lists them.
  return changes.sort((x, y) => Buffer.compare(Buffer.from(x.path), Buffer.from(y.path)));
}
