/**
 * A checkpoint's commit object written from the worker, byte for byte what `git commit-tree` writes (a zlib-deflated
 * loose object under `objects/`), which saves starting a git process on every checkpoint. Only for repositories whose
 * objects and refs are plain files in the SHA-1 format and that share no permissions with a group; for anything else
 * the functions here answer undefined and git writes the commit.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Where a repository keeps what a commit needs: its git folder (HEAD) and its common folder (objects, refs). */
export interface RepoDirs {
  gitDir: string;
  commonDir: string;
}

/** Per common folder: whether this module may write its objects (see {@link repoAllowsLooseWrites}). */
const writable = new Map<string, boolean>();

/**
 * Whether commits may be written here without git: a `config` we can read that names no object format but SHA-1 (and no
 * compatibility format), no ref storage but files, no shared repository; and no environment that moves objects
 * elsewhere.
 */
export async function repoAllowsLooseWrites(dirs: RepoDirs): Promise<boolean> {
  if (process.env.GIT_OBJECT_DIRECTORY) return false;
  let ok = writable.get(dirs.commonDir);
  if (ok === undefined) {
    const config = await fs.promises.readFile(path.join(dirs.commonDir, 'config'), 'utf8').catch(() => undefined);
    const value = (key: string): string | undefined =>
      config === undefined ? undefined : new RegExp(`^\\s*${key}\\s*=\\s*"?([^"\\s]+)`, 'im').exec(config)?.[1];
    const format = value('objectformat');
    const refs = value('refstorage');
    const shared = value('sharedrepository');
    ok =
      config !== undefined &&
      (format === undefined || format.toLowerCase() === 'sha1') &&
      value('compatobjectformat') === undefined &&
      (refs === undefined || refs.toLowerCase() === 'files') &&
      (shared === undefined || ['false', 'umask', '0'].includes(shared.toLowerCase()));
    writable.set(dirs.commonDir, ok);
  }
  return ok;
}

const SHA1 = /^[0-9a-f]{40}$/;

/**
 * The commit HEAD names: its id; null on a branch with no commit yet; undefined when HEAD can't be read as plain files
 * (git is asked then).
 */
export async function resolveHead(dirs: RepoDirs): Promise<string | null | undefined> {
  const head = await fs.promises.readFile(path.join(dirs.gitDir, 'HEAD'), 'utf8').catch(() => undefined);
  if (head === undefined) return undefined;
  const text = head.trim();
  if (SHA1.test(text)) return text;
  const ref = /^ref: (refs\/\S+)$/.exec(text)?.[1];
  if (!ref || ref.split('/').some((part) => part === '..' || part === '')) return undefined;
  const loose = await fs.promises.readFile(path.join(dirs.commonDir, ref), 'utf8').catch(() => undefined);
  if (loose !== undefined) return SHA1.test(loose.trim()) ? loose.trim() : undefined;
  const packed = await fs.promises.readFile(path.join(dirs.commonDir, 'packed-refs'), 'utf8').catch(() => undefined);
  for (const line of packed?.split('\n') ?? []) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const [id, name] = line.split(' ');
    if (name === ref) return SHA1.test(id) ? id : undefined;
  }
  // Neither loose nor packed: the branch has no commit yet.
  return null;
}

/** Who a checkpoint commit is by. */
export interface Identity {
  name: string;
  email: string;
}

/** The text of a commit object, as `git commit-tree -m <message>` makes it (the message gets a final newline). */
export function commitText(tree: string, parent: string | null, message: string, who: Identity, when: Date): string {
  const minutes = -when.getTimezoneOffset();
  const tz =
    (minutes < 0 ? '-' : '+') +
    String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0') +
    String(Math.abs(minutes) % 60).padStart(2, '0');
  const ident = `${who.name} <${who.email}> ${Math.floor(when.getTime() / 1000)} ${tz}`;
  return (
    `tree ${tree}\n` +
    (parent ? `parent ${parent}\n` : '') +
    `author ${ident}\ncommitter ${ident}\n\n${message.endsWith('\n') ? message : `${message}\n`}`
  );
}

/**
 * Writes a loose object (`<type> <size>\0<body>`, deflated) under `objects/` as git does: to a temporary file in the
 * object's folder, read-only, then renamed into place; an object already there is left alone. Returns its id.
 */
export async function writeLooseObject(commonDir: string, type: 'commit', body: string): Promise<string> {
  const content = Buffer.from(body, 'utf8');
  const raw = Buffer.concat([Buffer.from(`${type} ${content.length}\0`, 'latin1'), content]);
  const id = createHash('sha1').update(raw).digest('hex');
  const dir = path.join(commonDir, 'objects', id.slice(0, 2));
  const file = path.join(dir, id.slice(2));
  if (fs.existsSync(file)) return id;
  const data = zlib.deflateSync(raw);
  const tmp = path.join(dir, `tmp_obj_ralph_${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2)}`);
  // A `git gc` running meanwhile (git starts one in the background after a commit) removes empty object folders:
  // the folder may vanish between creating it and writing into it, so it is created again, as git itself does.
  // Synchronous: three small file operations, cheaper than as many thread-pool round trips.
  for (let attempt = 1; ; attempt++) {
    fs.mkdirSync(dir, { recursive: true });
    try {
      fs.writeFileSync(tmp, data, { mode: 0o444 });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 5) throw e;
    }
  }
  fs.renameSync(tmp, file);
  return id;
}
