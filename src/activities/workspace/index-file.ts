/**
 * Reading a loop's own git index file, so that the detection pass can diff a checkpoint against the previous one
 * without starting `git diff-tree`: right after `git write-tree`, the index holds exactly the new tree's files (path,
 * mode, blob id), and the index as it was after the previous checkpoint holds that checkpoint's. Both are sorted by
 * path, so one merge walk over the raw bytes finds the differences; only the entries that differ are decoded (a
 * 10,000-file index is walked in about a millisecond or two). Only the plain formats are read (versions 2 and 3, SHA-1, no
 * split or sparse index, no conflicts, no intent-to-add entries); for anything else the reader answers undefined and
 * the caller asks git.
 */
/** One file that differs between two checkpoint commits, with its blob ids on each side. */
export interface CommitChange {
  path: string;
  status: 'A' | 'M' | 'D';
  before?: string;
  after?: string;
}

/** An index file's bytes and where each entry and its name are. */
export interface IndexView {
  buf: Buffer;
  /** Per entry: its offset, and the start and end of its name. */
  entries: Int32Array;
  count: number;
}

/** Bytes of a SHA-1 id. */
const SHA1_BYTES = 20;
/** Fixed part of an entry before its name: ten 32-bit stat and mode fields, the id, 16-bit flags. */
const FIXED = 40 + SHA1_BYTES + 2;

/** A view of a SHA-1 index file of version 2 or 3, or undefined when it is anything else (git is asked then). */
export function readIndex(buf: Buffer): IndexView | undefined {
  if (buf.length < 12 + SHA1_BYTES || buf.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = buf.readUInt32BE(4);
  if (version !== 2 && version !== 3) return undefined;
  const count = buf.readUInt32BE(8);
  const end = buf.length - SHA1_BYTES;
  if (count > end / FIXED) return undefined;
  const entries = new Int32Array(count * 3);
  let off = 12;
  for (let i = 0; i < count; i++) {
    if (off + FIXED > end) return undefined;
    // A directory entry belongs to a sparse index: its files are not listed.
    if ((buf.readUInt32BE(off + 24) & 0o170000) === 0o040000) return undefined;
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
    entries[i * 3] = off;
    entries[i * 3 + 1] = name;
    entries[i * 3 + 2] = nameEnd;
    // Each entry is padded with 1 to 8 NULs to a multiple of 8 bytes.
    off += (nameEnd - off + 8) & ~7;
  }
  // Extensions: a split index ("link") keeps entries in another file; an "sdir" marks a sparse index.
  while (off + 8 <= end) {
    const sig = buf.toString('latin1', off, off + 4);
    if (sig === 'link' || sig === 'sdir') return undefined;
    off += 8 + buf.readUInt32BE(off + 4);
  }
  return { buf, entries, count };
}

/** Entry `i` of an index, decoded: path, mode (octal, as in a tree) and blob id. */
export function indexEntry(v: IndexView, i: number): { path: string; mode: string; id: string } {
  const off = v.entries[i * 3];
  return {
    path: v.buf.toString('utf8', v.entries[i * 3 + 1], v.entries[i * 3 + 2]),
    mode: v.buf.readUInt32BE(off + 24).toString(8),
    id: v.buf.toString('hex', off + 40, off + 40 + SHA1_BYTES),
  };
}

/**
 * Git's order of index entries: their names' bytes (a name before any longer name it starts). Plain loops over the
 * bytes: for names this short they beat a native `Buffer.compare` call per entry several times over.
 */
function compareNames(a: IndexView, i: number, b: IndexView, j: number): number {
  const x = a.buf;
  const y = b.buf;
  let p = a.entries[i * 3 + 1];
  let q = b.entries[j * 3 + 1];
  const pe = a.entries[i * 3 + 2];
  const qe = b.entries[j * 3 + 2];
  for (; p < pe && q < qe; p++, q++) if (x[p] !== y[q]) return x[p] - y[q];
  return pe - p - (qe - q);
}

/** Same mode and same blob id. */
function sameContent(a: IndexView, i: number, b: IndexView, j: number): boolean {
  const x = a.buf;
  const y = b.buf;
  const oa = a.entries[i * 3];
  const ob = b.entries[j * 3];
  for (let k = 24; k < 28; k++) if (x[oa + k] !== y[ob + k]) return false;
  for (let k = 40; k < 40 + SHA1_BYTES; k++) if (x[oa + k] !== y[ob + k]) return false;
  return true;
}

/**
 * What `git diff-tree -r --no-renames --relative` prints between the trees of two indexes, for a workspace at `prefix`
 * inside its work tree ('' at the top, 'sub/dir/' below it): paths relative to the workspace, submodules and
 * `skip(path)` (the state folder) left out, in git's path order.
 */
export function diffIndexes(
  before: IndexView,
  after: IndexView,
  prefix: string,
  skip: (path: string) => boolean,
): CommitChange[] {
  const changes: CommitChange[] = [];
  const GITLINK = '160000';
  const emit = (b: ReturnType<typeof indexEntry> | undefined, a: ReturnType<typeof indexEntry> | undefined): void => {
    const p = (a ?? b)!.path;
    if (!p.startsWith(prefix) || a?.mode === GITLINK || b?.mode === GITLINK) return;
    const rel = p.slice(prefix.length);
    if (skip(rel)) return;
    changes.push(
      !b
        ? { path: rel, status: 'A', after: a!.id }
        : !a
          ? { path: rel, status: 'D', before: b.id }
          : { path: rel, status: 'M', before: b.id, after: a.id },
    );
  };
  let i = 0;
  let j = 0;
  while (i < before.count || j < after.count) {
    const c = i >= before.count ? 1 : j >= after.count ? -1 : compareNames(before, i, after, j);
    if (c === 0) {
      if (!sameContent(before, i, after, j)) emit(indexEntry(before, i), indexEntry(after, j));
      i++;
      j++;
    } else if (c < 0) emit(indexEntry(before, i++), undefined);
    else emit(undefined, indexEntry(after, j++));
  }
  return changes;
}
