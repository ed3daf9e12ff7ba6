/**
 * The I/O of in-iteration correction for `ralph hook` (core/verification/in-iteration decides): which watched files a
 * tool call changed, their text before the call and after it, and the stash that keeps a shell command's files from
 * before it ran. Loaded by the hook only when a call touches a watched file (test, test/CI configuration, protected
 * path), so the other calls pay nothing for it.
 *
 * The text before the call: for Claude Code's file tools, the `originalFile` of the PostToolUse `tool_response`
 * (`type: "create"` for a new file), or the Edit undone on the file when there is none; for Bash, what the PreToolUse
 * hook stashed of the watched files the command was about to change (`<stash>/<tool_use_id>.json`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Detection } from '../core/detections';
import { lineDiff } from '../core/detectors/line-diff';
import type { TouchedPath } from '../core/risk';
import { blockReason, judgeToolChange, type ChangedFile } from '../core/verification/in-iteration';
import { isWatchedFile } from '../core/verification/watched';

/** One tool call, as the hook input gives it. */
export interface HookToolCall {
  tool: string;
  input: Record<string, unknown>;
  /** PostToolUse's `tool_response`. */
  response?: Record<string, unknown>;
  toolUseId?: string;
}

/** What the hook needs besides the call. */
export interface CorrectionContext {
  workspace: string;
  iteration: number;
  /** The loop's task (the manifest's): tests it asks to remove are no deletions. */
  task?: string;
  protectedPaths?: ReadonlySet<string>;
  /** Folder of the Bash stashes. */
  stashDir: string;
}

/** A change the hook blocks: its files, the findings, and the reason Claude reads. */
export interface Correction {
  files: string[];
  detections: Detection[];
  reason: string;
}

/** Largest file read for the judgement (the end-of-iteration pass reads no bigger ones either). */
const MAX_BYTES = 1024 * 1024;
const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** The watched, concrete (no glob, no variable), in-workspace paths among the touched ones. */
export function watchedPaths(touched: readonly TouchedPath[], protectedPaths?: ReadonlySet<string>): TouchedPath[] {
  return touched.filter(
    (t) =>
      !/[*?[{$`~]/.test(t.path) &&
      !t.path.startsWith('/') &&
      !t.path.startsWith('../') &&
      isWatchedFile(t.path.replace(/^(\.\/)+/, ''), protectedPaths),
  );
}

/** A file's text; undefined when it is absent, not a file, too big or binary. */
function readText(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > MAX_BYTES) return undefined;
    const b = fs.readFileSync(file);
    return b.subarray(0, 8000).includes(0) ? undefined : b.toString('utf8');
  } catch {
    return undefined;
  }
}

const stashFile = (dir: string, toolUseId: string): string =>
  path.join(dir, `${toolUseId.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);

/**
 * Before a Bash call (PreToolUse): keeps the text of the watched files it is about to change, for the PostToolUse
 * judgement. Returns how many files were stashed (0: nothing to keep, or no tool_use_id to pair the two calls).
 */
export function stashBeforeShell(
  call: HookToolCall,
  touched: readonly TouchedPath[],
  ctx: Pick<CorrectionContext, 'workspace' | 'stashDir' | 'protectedPaths'>,
): number {
  if (!call.toolUseId) return 0;
  const kept: Record<string, string> = {};
  const paths = [
    ...watchedPaths(touched, ctx.protectedPaths).map((t) => t.path),
    ...touched
      .filter((t) => t.action === 'delete')
      .flatMap((t) => watchedUnder(ctx.workspace, t.path, ctx.protectedPaths)),
  ];
  for (const p of paths) {
    const text = readText(path.resolve(ctx.workspace, p));
    if (text !== undefined) kept[p] = text;
  }
  const n = Object.keys(kept).length;
  if (!n) return 0;
  fs.mkdirSync(ctx.stashDir, { recursive: true });
  fs.writeFileSync(stashFile(ctx.stashDir, call.toolUseId), JSON.stringify(kept));
  return n;
}

/** Most files stashed from one deleted folder. */
const MAX_FOLDER_FILES = 200;

/** The watched files under a folder a command deletes (`rm -rf test`), workspace-relative; [] for anything else. */
function watchedUnder(workspace: string, rel: string, protectedPaths?: ReadonlySet<string>): string[] {
  if (/[*?[{$`~]/.test(rel) || rel.startsWith('/') || rel.startsWith('../')) return [];
  const root = path.resolve(workspace, rel);
  if (root !== workspace && !root.startsWith(workspace + path.sep)) return [];
  let entries: fs.Dirent[];
  try {
    if (!fs.statSync(root).isDirectory()) return [];
    entries = fs.readdirSync(root, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    if (!e.isFile()) continue;
    const p = path
      .relative(workspace, path.join(e.parentPath ?? e.path, e.name))
      .split(path.sep)
      .join('/');
    if (/(^|\/)(node_modules|\.git|\.ralph)\//.test(p) || !isWatchedFile(p, protectedPaths)) continue;
    out.push(p);
    if (out.length >= MAX_FOLDER_FILES) break;
  }
  return out;
}

/** Takes (reads and removes) a Bash call's stash; undefined when there is none. */
function takeStash(dir: string, toolUseId: string | undefined): Record<string, string> | undefined {
  if (!toolUseId) return undefined;
  const file = stashFile(dir, toolUseId);
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    fs.rmSync(file, { force: true });
    return v && typeof v === 'object' ? v : undefined;
  } catch {
    return undefined;
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The text of a file tool's target before the call; `unknown` when neither the response nor the edit tells. */
function beforeFileTool(call: HookToolCall, after: string | undefined): string | undefined | 'unknown' {
  const r = call.response ?? {};
  const original = str(r.originalFile);
  if (original !== undefined) return original;
  if (r.type === 'create') return undefined;
  const from = str(call.input.old_string);
  const to = str(call.input.new_string);
  if (call.tool === 'Edit' && after !== undefined && from !== undefined && to && call.input.replace_all !== true)
    return after.split(to).length === 2 ? after.replace(to, () => from) : 'unknown';
  return 'unknown';
}

/** The watched files a call changed, with their texts before and after it. */
function changedFiles(call: HookToolCall, watched: readonly TouchedPath[], ctx: CorrectionContext): ChangedFile[] {
  const abs = (p: string): string => path.resolve(ctx.workspace, p);
  if (FILE_TOOLS.has(call.tool)) {
    const p = watched[0]?.path;
    if (!p) return [];
    const after = readText(abs(p));
    const before = beforeFileTool(call, after);
    return before === 'unknown' ? [] : [{ path: p, before, after }];
  }
  const stash = takeStash(ctx.stashDir, call.toolUseId);
  const command = str(call.input.command) ?? '';
  // A move leaves the file elsewhere: without its old text, only the end of the iteration can tell a move from a loss.
  const moves = /(^|[\s;&|(])(git\s+)?mv\s/.test(command);
  if (stash) {
    // Files the stash lacks did not exist before the command (or were too big to judge): new files.
    const paths = [...new Set([...Object.keys(stash), ...watched.map((t) => t.path)])];
    return paths.map((p) => ({ path: p, before: stash[p], after: readText(abs(p)) }));
  }
  return watched
    .filter(
      (t) => t.action === 'delete' && !moves && readText(abs(t.path)) === undefined && !fs.existsSync(abs(t.path)),
    )
    .map((t) => ({ path: t.path, after: undefined, beforeUnknown: true }));
}

/**
 * After a call (PostToolUse): judges the watched files it changed with the end-of-iteration detectors. A Correction
 * when the change is one the loop would reject; undefined for everything else (honest edits, unknown texts).
 */
export function checkToolChange(
  call: HookToolCall,
  watched: readonly TouchedPath[],
  ctx: CorrectionContext,
): Correction | undefined {
  const touched = touchedThisIteration(ctx);
  // A file this iteration created had no tests at its start: judged from nothing, as the end of the iteration does.
  const files = changedFiles(call, watched, ctx)
    .map((f) => (touched.created.has(f.path) ? { path: f.path, after: f.after } : f))
    .filter((f) => f.beforeUnknown || f.before !== f.after);
  rememberTouched(ctx, files);
  if (!files.length) return undefined;
  const diff = files.filter((f) => !f.beforeUnknown).map((f) => lineDiff(f.path, f.before, f.after));
  const others = [...touched.changed].flatMap((p) => {
    const text = files.some((f) => f.path === p) ? undefined : readText(path.resolve(ctx.workspace, p));
    return text === undefined ? [] : [{ path: p, text }];
  });
  const detections = judgeToolChange(files, diff, { task: ctx.task, others });
  if (!detections.length) return undefined;
  const named = files.map((f) => f.path).filter((p) => detections.some((d) => mentions(d, p)));
  const paths = named.length ? named : files.map((f) => f.path);
  return { files: paths, detections, reason: blockReason(detections, ctx.iteration, paths) };
}

/** The list of watched files the iteration's calls changed (one path a line), next to the stashes. */
const touchedList = (ctx: CorrectionContext): string => path.join(ctx.stashDir, `iteration-${ctx.iteration}.touched`);

/** The watched files this iteration's earlier calls changed, and those of them it created. */
function touchedThisIteration(ctx: CorrectionContext): { changed: Set<string>; created: Set<string> } {
  const changed = new Set<string>();
  const created = new Set<string>();
  let text = '';
  try {
    text = fs.readFileSync(touchedList(ctx), 'utf8');
  } catch {
    // none yet
  }
  for (const line of text.split('\n')) {
    if (line.startsWith('+')) created.add(line.slice(1));
    else if (line.startsWith('=')) changed.add(line.slice(1));
  }
  return { changed, created };
}

/**
 * Adds a call's files to the iteration's list: `+path` when the call created it (it did not exist before), `=path`
 * when it exists after the call. A failure only loses the move and new-file judgement for later calls.
 */
function rememberTouched(ctx: CorrectionContext, files: readonly ChangedFile[]): void {
  const lines = files.flatMap((f) => [
    ...(f.before === undefined && !f.beforeUnknown && f.after !== undefined ? [`+${f.path}`] : []),
    ...(f.after !== undefined ? [`=${f.path}`] : []),
  ]);
  if (!lines.length) return;
  try {
    fs.mkdirSync(ctx.stashDir, { recursive: true });
    fs.appendFileSync(touchedList(ctx), lines.map((l) => `${l}\n`).join(''));
  } catch {
    // best effort
  }
}

const mentions = (d: Detection, p: string): boolean => d.details.includes(p) || d.evidence.some((e) => e.includes(p));
