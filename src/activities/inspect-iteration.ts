import fs from 'node:fs';
import path from 'node:path';
import { structuredPatch } from 'diff';
import type { Detection } from '../core/detections';
import { detection } from '../core/detections';
import { detectNoFiles, validateEvidence } from '../core/detectors/evidence';
import { detectFeatureRemoval } from '../core/detectors/feature-removal';
import { normaliseError, shortHash } from '../core/detectors/stuck';
import { staticInventoryDiff } from '../core/detectors/test-extract';
import { parseUnifiedDiff } from '../core/detectors/unified-diff';
import { detectValidationBypass, isTestFile } from '../core/detectors/validation-bypass';
import type { ChangeSummary } from '../core/anti-laziness-types';
import { diffSnapshots } from '../core/snapshot-diff';
import type { AntiLazinessConfig } from '../config/anti-laziness-config';
import { iterationDir } from '../state/artifacts';
import { readAudit, type AuditEntry } from '../state/audit';
import { correctedInIteration, IN_ITERATION_BLOCK, type BlockedCall } from '../core/verification/in-iteration';
import {
  MAX_INSPECTED_BYTES,
  checkpointContents,
  checkpointFiles,
  createCheckpoint,
  diffCommits,
  readBlobs,
  type CommitChange,
} from './workspace/checkpoint';
import { pushCheckpoint } from './workspace/remote';
import { gitBlobId } from './workspace/tree-stat';
import { appendHookLog } from '../state/hook-log';

/** Input of {@link inspectIteration}. */
export interface InspectIterationInput {
  loopId: string;
  iteration: number;
  workspace: string;
  stateDir: string;
  /** Label of the iteration's pre-run checkpoint (runAgent created it). */
  pre: string;
  /** Its commit, when runAgent reported one (saves looking it up). */
  preCommit?: string | null;
  /** Label to record the post-run state under. */
  post: string;
  exitCode: number | null;
  claimed: boolean;
  /** Files the agent says it created or changed (from its output and its Evidence section). */
  claimedFiles: string[];
  /** End of the agent's answer (fingerprinted for stuck-loop detection). */
  finalTextTail: string;
  /** The prompt the agent got (feature removal spares files and symbols the task names). */
  promptPath?: string;
  detectors: AntiLazinessConfig['detectors'];
  /**
   * Host-bound loops: the remote URL the post-run checkpoint is pushed to (so `ralph move` can re-create the
   * workspace elsewhere). A failed push is reported in the result, never fatal.
   */
  pushTo?: string;
}

/** Result of {@link inspectIteration}: small (it goes into history); the diff itself is in `diffPath`. */
export interface InspectIterationResult {
  changes: ChangeSummary;
  /** Every finding, PASS ones included, evidence capped. */
  detections: Detection[];
  postCommit: string | null;
  /** Hash of this iteration's diff (absent when nothing changed), of the post-run state, of the answer. */
  diffSig?: string;
  stateSig: string;
  outputSig: string;
  /** Claimed files that don't exist or weren't changed. */
  hallucinated: number;
  /** Tests deleted by this iteration (`file: full name`). */
  deletedTests: string[];
  /** The unified diff of this iteration, under the iteration's artifacts. */
  diffPath: string;
  durationMs: number;
  /** The post checkpoint was pushed to `pushTo`; false: the push failed (`pushError` says why). */
  pushed?: boolean;
  pushError?: string;
}

/** Most changed files whose content is read for the content-based detectors. */
const MAX_CONTENT_FILES = 300;
const MAX_EVIDENCE = 20;

/**
 * The detection pass after an agent run: records the post-run checkpoint, diffs it against the pre-run one, writes
 * the unified diff, and runs the workspace detectors (no files written, hallucinated evidence, test inventory, feature
 * removal, validation bypass, risky tool calls from the hook audit log, and the changes the hook blocked that the agent
 * undid within the iteration: `corrected_in_iteration`). Pure rules in core decide; this gathers.
 * Idempotent: a retry re-creates the same post checkpoint and yields the same findings.
 */
export async function inspectIteration(input: InspectIterationInput): Promise<InspectIterationResult> {
  const t0 = Date.now();
  const run = await postRunDiff(input);
  const { d, git } = run;
  const changed = [...d.added, ...d.modified, ...d.deleted].sort();
  const changes: ChangeSummary = {
    added: d.added.length,
    modified: d.modified.length,
    deleted: d.deleted.length,
    files: [
      ...d.added.map((p) => `A ${p}`),
      ...d.modified.map((p) => `M ${p}`),
      ...d.deleted.map((p) => `D ${p}`),
    ].slice(0, 50),
  };

  const inspected = prioritise(changed).slice(0, MAX_CONTENT_FILES);
  const { before, after } = await contentsOf(input, git, inspected, run.beforeFiles, run.afterFiles);
  const diffText = inspected.map((p) => fileDiff(p, before[p], after[p])).join('');
  const dir = iterationDir(input.stateDir, input.loopId, input.iteration);
  fs.mkdirSync(dir, { recursive: true });
  const diffPath = path.join(dir, 'changes.diff');
  fs.writeFileSync(diffPath, diffText);
  const fileDiffs = parseUnifiedDiff(diffText);
  const { found, hallucinated, deletedTests } = await detectAll(input, {
    changes,
    changed,
    inspected,
    before,
    after,
    fileDiffs,
  });

  const post = await run.postP;
  const push = input.pushTo && git ? await pushPost(input, input.pushTo) : {};
  logFindings(input, found, t0);
  return {
    ...push,
    changes,
    detections: found.map(compact),
    postCommit: post.commit,
    // Work, not notes: a diff of documentation only (plans, notes, logs) is no attempt at the failing code.
    diffSig: workDiff(fileDiffs),
    stateSig: run.stateSig,
    outputSig: shortHash(normaliseError(input.finalTextTail)),
    hallucinated,
    deletedTests: deletedTests.slice(0, 50),
    diffPath,
    durationMs: Date.now() - t0,
  };
}

/** The post-run checkpoint (still being recorded: `postP`), and what changed since the pre-run one. */
interface PostRunDiff {
  postP: ReturnType<typeof createCheckpoint>;
  git: boolean;
  d: { added: string[]; modified: string[]; deleted: string[] };
  /** Blob ids of the changed files on each side. */
  beforeFiles: Record<string, string>;
  afterFiles: Record<string, string>;
  /** A signature of the whole post-run state. */
  stateSig: string;
}

/** Records the post-run checkpoint and diffs it against the pre-run one. */
async function postRunDiff(input: InspectIterationInput): Promise<PostRunDiff> {
  const at = (label: string) => ({
    workspace: input.workspace,
    stateDir: input.stateDir,
    loopId: input.loopId,
    label,
  });
  // Git: the diff against the pre-run checkpoint starts as soon as the post-run tree is written, while the commit
  // and its ref are still being recorded.
  const preCommitOf = async (): Promise<string> => input.preCommit ?? (await checkpointFiles(at(input.pre))).commit!;
  let diffP: Promise<CommitChange[]> | undefined;
  let treeWritten: (tree: string) => void = () => undefined;
  const treeP = new Promise<string>((resolve) => (treeWritten = resolve));
  const postP = createCheckpoint(at(input.post), {
    // The pre-run commit known: the diff comes with the tree, from the same process.
    diffFrom: input.preCommit ?? undefined,
    onTree: (tree, diff) => {
      diffP = diff ? Promise.resolve(diff) : preCommitOf().then((pre) => diffCommits(input.workspace, pre, tree));
      diffP.catch(() => undefined);
      treeWritten(tree);
    },
  });
  postP.catch(() => undefined);
  // Git: the detectors start from the tree, while the commit and its ref are still being recorded (awaited later).
  const postTree = await Promise.race([treeP, postP.then((p) => (p.kind === 'git' ? p.tree : undefined))]);
  const git = diffP !== undefined && postTree !== undefined;
  const beforeFiles: Record<string, string> = {};
  const afterFiles: Record<string, string> = {};
  const d: PostRunDiff['d'] = { added: [], modified: [], deleted: [] };
  if (git) {
    // One diff-tree between the two commits: no full file listing of either side.
    for (const c of await diffP!) {
      (c.status === 'A' ? d.added : c.status === 'D' ? d.deleted : d.modified).push(c.path);
      if (c.before) beforeFiles[c.path] = c.before;
      if (c.after) afterFiles[c.path] = c.after;
    }
    return { postP, git, d, beforeFiles, afterFiles, stateSig: postTree.slice(0, 16) };
  }
  const [pre, postFiles] = await Promise.all([checkpointFiles(at(input.pre)), checkpointFiles(at(input.post))]);
  Object.assign(d, diffSnapshots(pre, postFiles));
  Object.assign(beforeFiles, pre.files);
  Object.assign(afterFiles, postFiles.files);
  // Path → blob of every file: equal signatures mean equal workspaces.
  const stateSig = shortHash(JSON.stringify(Object.entries(postFiles.files).sort()));
  return { postP, git, d, beforeFiles, afterFiles, stateSig };
}

/** What the detectors read: the change summary, the files changed and inspected, their contents and diffs. */
interface DetectorInput {
  changes: ChangeSummary;
  changed: string[];
  inspected: string[];
  before: Record<string, string | undefined>;
  after: Record<string, string | undefined>;
  fileDiffs: ReturnType<typeof parseUnifiedDiff>;
}

/** Runs the workspace detectors the loop has on, and reads the risky tool calls of the hook audit log. */
async function detectAll(
  input: InspectIterationInput,
  x: DetectorInput,
): Promise<{ found: Detection[]; hallucinated: number; deletedTests: string[] }> {
  const found: Detection[] = [];
  const on = input.detectors;
  const total = x.changes.added + x.changes.modified + x.changes.deleted;
  if (on.noFiles) {
    const nf = detectNoFiles({ exitCode: input.exitCode, claimed: input.claimed, changes: x.changes });
    if (nf) found.push(nf);
  }
  let hallucinated = 0;
  if (on.evidence && input.claimedFiles.length) {
    const claimed = input.claimedFiles.map((p) => ({
      path: p,
      exists: fs.existsSync(path.resolve(input.workspace, p)),
    }));
    const ev = validateEvidence({ claimed, changedPaths: x.changed });
    if (ev) {
      hallucinated = ev.evidence.length;
      found.push(ev);
    }
  }
  let deletedTests: string[] = [];
  const task = input.promptPath && total ? await readTask(input.promptPath) : '';
  if (on.testInventory && x.changed.some(isTestFile)) {
    const inv = staticInventoryDiff(
      x.inspected.filter(isTestFile).map((p) => ({ path: p, before: x.before[p], after: x.after[p] })),
      task,
    );
    deletedTests = inv.deleted.map((t) => `${t.file}: ${t.name}`);
    found.push(inv.detection);
    if (inv.requested.length)
      found.push(
        detection(
          'test_removed_by_task',
          'info',
          `${inv.requested.length} test(s) removed along with what the task asks to remove.`,
          inv.requested.map((t) => `${t.file}: ${t.name}`),
        ),
      );
  }
  if (on.featureRemoval && total) {
    const fr = detectFeatureRemoval(x.fileDiffs, task);
    if (fr) found.push(fr);
  }
  if (on.validationBypass && total) found.push(...detectValidationBypass(x.fileDiffs));
  const audit = await readAudit(input.stateDir, input.loopId, input.iteration).catch(() => []);
  found.push(...riskyActions(audit));
  const corrected = correctedInIteration(blockedCalls(audit), found);
  if (corrected) found.push(corrected);
  return { found, hallucinated, deletedTests };
}

/** The tool calls the PostToolUse hook blocked (in-iteration correction), from the hook audit log. */
function blockedCalls(audit: readonly AuditEntry[]): BlockedCall[] {
  return audit
    .filter((a) => a.event === 'post-tool-use' && a.decision === 'block' && a.category === IN_ITERATION_BLOCK)
    .map((a) => ({
      tool: a.tool,
      files: (a.target ?? '').split(', ').filter(Boolean),
      types: [...new Set(a.reasons.map((r) => r.split(':')[0]))],
    }));
}

/** The iteration's risky tool calls (medium risk and above) from the hook audit log. */
function riskyActions(audit: readonly AuditEntry[]): Detection[] {
  const found: Detection[] = [];
  for (const a of audit) {
    if (a.event !== 'pre-tool-use' || a.risk === 'none' || a.risk === 'low') continue;
    found.push(
      detection(
        'risky_action',
        a.risk === 'critical' || a.risk === 'high' ? 'warning' : 'info',
        `risky tool call (${a.risk}, ${a.category}): ${a.tool}${a.target ? ` ${a.target}` : ''} → ${a.decision}` +
          (a.checkpoint ? `; checkpoint ${a.checkpoint}` : ''),
        a.reasons,
      ),
    );
  }
  return found;
}

/** Pushes the post-run checkpoint to the loop's remote (host-bound loops); a failed push is reported, never fatal. */
async function pushPost(input: InspectIterationInput, url: string): Promise<{ pushed: boolean; pushError?: string }> {
  try {
    await pushCheckpoint({
      workspace: input.workspace,
      stateDir: input.stateDir,
      loopId: input.loopId,
      label: input.post,
      url,
    });
    return { pushed: true };
  } catch (e) {
    return { pushed: false, pushError: (e as Error).message.slice(0, 300) };
  }
}

/** One audit-trail entry per finding (or one `none`), keyed so a retried pass does not log twice. */
function logFindings(input: InspectIterationInput, found: Detection[], t0: number): void {
  const ms = Date.now() - t0;
  appendHookLog(
    input.stateDir,
    (found.length ? found : [detection('none', 'info', 'no findings')]).map((d) => ({
      at: new Date(t0).toISOString(),
      loopId: input.loopId,
      iteration: input.iteration,
      type: 'detector' as const,
      name: d.type,
      outcome: d.type === 'none' ? 'PASS' : d.verdict,
      durationMs: ms,
      detail: d.details.slice(0, 300),
      key: `detector:${input.iteration}:${d.type}:${input.post}`,
    })),
  );
}

/** The task part of the prompt (before the loop's own sections): what feature removal and test removal may spare. */
async function readTask(promptPath: string): Promise<string> {
  const text = await fs.promises.readFile(promptPath, 'utf8').catch(() => '');
  const end = text.indexOf('\n## Loop\n');
  return end > 0 ? text.slice(0, end) : text;
}

const DOC_FILE = /\.(md|markdown|mdx|txt|rst|adoc|log)$/i;

/** Hash of the diff of everything but documentation; undefined when only documentation (or nothing) changed. */
function workDiff(fileDiffs: ReturnType<typeof parseUnifiedDiff>): string | undefined {
  const work = fileDiffs.filter((f) => !DOC_FILE.test(f.path));
  if (!work.length) return undefined;
  return shortHash(work.map((f) => `${f.path}\n-${f.removed.join('\n-')}\n+${f.added.join('\n+')}`).join('\n'));
}

/** Test files and source files first: if there are more changed files than we read, those matter most. */
function prioritise(paths: string[]): string[] {
  const rank = (p: string): number =>
    isTestFile(p) ? 0 : /\.(ts|tsx|js|jsx|mjs|cjs|py|go|json|ya?ml)$/.test(p) ? 1 : 2;
  return [...paths].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

type Contents = Record<string, string | undefined>;

/**
 * Before/after text of the inspected files. Git: one `cat-file --batch` for both sides. Plain folders: the pre-run
 * archive for the before side, the workspace itself (just archived as the post checkpoint) for the after side.
 */
async function contentsOf(
  input: InspectIterationInput,
  git: boolean,
  paths: string[],
  beforeFiles: Record<string, string>,
  afterFiles: Record<string, string>,
): Promise<{ before: Contents; after: Contents }> {
  const before: Contents = {};
  const after: Contents = {};
  if (!paths.length) return { before, after };
  if (git) {
    const blobs = await blobTexts(input.workspace, paths, beforeFiles, afterFiles);
    for (const p of paths) {
      before[p] = beforeFiles[p] ? blobs.get(beforeFiles[p]) : undefined;
      after[p] = afterFiles[p] ? blobs.get(afterFiles[p]) : undefined;
    }
    return { before, after };
  }
  const at = { workspace: input.workspace, stateDir: input.stateDir, loopId: input.loopId, label: input.pre };
  Object.assign(before, await checkpointContents(at, { kind: 'dir', commit: null, files: beforeFiles }, paths));
  await Promise.all(
    paths.map(async (p) => {
      if (afterFiles[p] === undefined) return;
      const b = await fs.promises.readFile(path.join(input.workspace, p)).catch(() => undefined);
      after[p] =
        b && b.length <= MAX_INSPECTED_BYTES && !b.subarray(0, 8000).includes(0) ? b.toString('utf8') : undefined;
    }),
  );
  return { before, after };
}

/**
 * Texts the detection pass read lately, by blob id (undefined: binary or too large). The before side of an iteration
 * is mostly the after side of the previous one, so it is read once. Bounded by {@link BLOB_CACHE_CHARS}.
 */
const blobCache = new Map<string, string | undefined>();
let blobCacheChars = 0;
const BLOB_CACHE_CHARS = 16 * 1024 * 1024;

function remember(id: string, text: string | undefined): void {
  if (blobCache.has(id)) return;
  blobCache.set(id, text);
  blobCacheChars += text?.length ?? 0;
  for (const [old, t] of blobCache) {
    if (blobCacheChars <= BLOB_CACHE_CHARS) break;
    blobCache.delete(old);
    blobCacheChars -= t?.length ?? 0;
  }
}

/**
 * The texts of the changed files' blobs on both sides, starting as few processes as possible: blobs read before come
 * from the cache, an after-side file whose content on disk hashes to its blob id is read from disk (the post-run
 * checkpoint was just taken from it), and only the rest from one `git cat-file --batch`.
 */
async function blobTexts(
  workspace: string,
  paths: string[],
  beforeFiles: Record<string, string>,
  afterFiles: Record<string, string>,
): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  const ids = paths.flatMap((p) => [beforeFiles[p], afterFiles[p]]).filter((id): id is string => !!id);
  for (const id of ids) if (blobCache.has(id)) out.set(id, blobCache.get(id));
  await Promise.all(
    paths.map(async (p) => {
      const id = afterFiles[p];
      if (!id || out.has(id)) return;
      const file = path.join(workspace, p);
      const st = await fs.promises.lstat(file).catch(() => undefined);
      if (!st?.isFile() || st.size > MAX_INSPECTED_BYTES) return;
      const b = await fs.promises.readFile(file).catch(() => undefined);
      if (b && gitBlobId(b, id) === id) out.set(id, b.subarray(0, 8000).includes(0) ? undefined : b.toString('utf8'));
    }),
  );
  const missing = ids.filter((id) => !out.has(id));
  if (missing.length) for (const [id, text] of await readBlobs(workspace, missing)) out.set(id, text);
  for (const [id, text] of out) remember(id, text);
  return out;
}

/** One file's change in git's unified format (what parseUnifiedDiff and humans read). */
function fileDiff(p: string, before: string | undefined, after: string | undefined): string {
  if (before === after) return '';
  const a = before === undefined ? '/dev/null' : `a/${p}`;
  const b = after === undefined ? '/dev/null' : `b/${p}`;
  const patch = structuredPatch(a, b, before ?? '', after ?? '', '', '', { context: 3 });
  let out = `diff --git a/${p} b/${p}\n--- ${a}\n+++ ${b}\n`;
  for (const h of patch.hunks)
    out += `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.join('\n')}\n`;
  return out;
}

const compact = (d: Detection): Detection => ({
  ...d,
  details: d.details.length > 1000 ? d.details.slice(0, 1000) + '…' : d.details,
  evidence:
    d.evidence.length > MAX_EVIDENCE
      ? [...d.evidence.slice(0, MAX_EVIDENCE), `… ${d.evidence.length - MAX_EVIDENCE} more`]
      : d.evidence,
});
