/**
 * The PRD task file on disk: loading it, and writing a task's progress back so the file stays the human's source of
 * truth. Parsing and the text edit itself are pure, in src/config/prd.ts.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PrdError, UnknownPrdTaskError, markTaskDone, parsePrd, prdKindOf, type Prd } from '../config/prd';

/** Times {@link writeTaskDone} starts over when the file changes under it before giving up. */
const WRITE_ATTEMPTS = 3;

/**
 * Reads and validates a PRD: `.json` is a Ralph prd.json, `.md`/`.markdown` a Markdown checklist. Throws a
 * {@link PrdError} naming the file for a missing file, an unknown extension or invalid content.
 */
export async function loadPrd(file: string): Promise<{ prd: Prd; text: string }> {
  const text = await readPrd(file);
  return { prd: parsePrd(text, file), text };
}

/**
 * Records a task as done (or not done) in its PRD file: `passes` in prd.json, the box in Markdown. Re-reads the file
 * first, since the human may have edited it since it was loaded, changes only that value, and replaces the file
 * atomically (a temp file in the same folder, then rename). Idempotent: when the file already says so it is not
 * touched. Through a symlink, the file it points to is replaced and the link kept.
 */
export async function writeTaskDone(file: string, taskId: string, done: boolean): Promise<void> {
  const key = await fs.realpath(file).catch(() => path.resolve(file));
  // One write at a time per file in this process: two activities recording different tasks must not both read the
  // same text and the second rename drop the first one's change.
  const before = writing.get(key) ?? Promise.resolve();
  const mine = before.then(() => recordTask(file, taskId, done));
  const tail = mine.catch(() => undefined);
  writing.set(key, tail);
  try {
    await mine;
  } finally {
    if (writing.get(key) === tail) writing.delete(key);
  }
}

/** The last pending write of each file (by real path), so writes of one file run one after another. */
const writing = new Map<string, Promise<unknown>>();

async function recordTask(file: string, taskId: string, done: boolean): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const text = await readPrd(file);
    const prd = parsePrd(text, file);
    if (!prd.tasks.some((t) => t.id === taskId)) {
      throw new UnknownPrdTaskError(
        taskId,
        prd.tasks.map((t) => t.id),
        file,
      );
    }
    const next = markTaskDone(text, prd, taskId, done);
    // Already recorded: leave the file (and its mtime, which editors and watchers notice) alone.
    if (next === text) return;
    if (await replaceIfUnchanged(await fs.realpath(file), text, next)) return;
    if (attempt === WRITE_ATTEMPTS)
      throw new PrdError(file, [
        { message: `it kept changing while "${taskId}" was being recorded (${attempt} tries): try again` },
      ]);
  }
}

/** Reads the PRD text; errors name `file` as the caller gave it. */
async function readPrd(file: string): Promise<string> {
  if (!prdKindOf(file))
    throw new PrdError(file, [
      {
        message: `unknown PRD format "${path.extname(file) || '(no extension)'}": use a .json file (Ralph's userStories[]) or a .md checklist`,
      },
    ]);
  try {
    return await fs.readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const fix = code === 'ENOENT' ? ': check the path' : code === 'EISDIR' ? ': it is a folder, not a file' : '';
    throw new PrdError(file, [{ message: `can't read it (${code ?? (e as Error).message})${fix}` }], { cause: e });
  }
}

/**
 * Writes `next` to a temp file beside `target` and renames it over `target`, unless `target` no longer holds
 * `expected` (the human saved it meanwhile): then nothing is replaced and the caller starts over from their version.
 * The temp file is fsynced before the rename, unlike writeJsonAtomic's state mirrors: this file is the human's source
 * of truth, with no workflow history to rebuild it from, so a power loss must leave the old text or the new, never an
 * empty file.
 */
async function replaceIfUnchanged(target: string, expected: string, next: string): Promise<boolean> {
  const tmp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const { mode } = await fs.stat(target);
  try {
    const fh = await fs.open(tmp, 'wx', mode & 0o777);
    try {
      await fh.writeFile(next, 'utf8');
      await fh.chmod(mode & 0o7777); // open()'s mode is filtered by the umask: keep the human's permissions exactly
      await fh.sync();
    } finally {
      await fh.close();
    }
    if ((await fs.readFile(target, 'utf8')) !== expected) return false;
    await fs.rename(tmp, target);
    return true;
  } finally {
    await fs.rm(tmp, { force: true });
  }
}
