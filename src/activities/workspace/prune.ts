/**
 * Pruning of finished loops' checkpoints: git refs under `refs/ralph/<loopId>/`, plain-folder manifests, archives and
 * stored content, and the loop's persistent git index. The best iteration's checkpoint and the final state are kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LoopState } from '../../core/loop-types';
import { postLabel } from '../../core/anti-laziness';
import { loopDir, writeJsonAtomic } from '../../state/artifacts';
import { checkpointsDir, ensureCheckpointsDir, listCheckpoints } from './checkpoint';
import { collectGarbage, type StoreManifest } from './checkpoint-store';
import { git, gitPrefix } from './snapshot';

/** Days a finished loop keeps all its checkpoints when neither the loop nor the caller says otherwise. */
export const DEFAULT_KEEP_FINISHED_DAYS = 7;

/** Input of {@link pruneCheckpoints}. */
export interface PruneCheckpointsInput {
  /** The state folder whose `loops/*` are looked at. */
  stateDir: string;
  /** Only this loop (default: every loop in the state folder). */
  loopId?: string;
  /**
   * Prune loops that finished at least this many days ago (0: every finished loop). Default: each loop's own
   * `persistence.checkpoints.keepFinishedDays` (recorded when it started), else {@link DEFAULT_KEEP_FINISHED_DAYS}.
   */
  keepFinishedDays?: number;
  /** Report what would be deleted without deleting anything. */
  dryRun?: boolean;
  /** The current time (ISO), for tests; default now. */
  now?: string;
}

/** What was (or, in a dry run, would be) pruned of one loop. */
export interface PrunedLoop {
  loopId: string;
  workspace: string;
  /** Checkpoint labels kept. */
  kept: string[];
  /** Checkpoint labels deleted. */
  deleted: string[];
  /** Stored plain-folder contents deleted. */
  objects: number;
}

/** Result of {@link pruneCheckpoints}. */
export interface PruneCheckpointsResult {
  pruned: PrunedLoop[];
  /** Loops left alone, with why (still running, not old enough, already pruned...). */
  skipped: { loopId: string; reason: string }[];
}

/** The retention a loop asked for when it started (`<loopDir>/retention.json`). */
interface RetentionPolicy {
  keepFinishedDays: number;
}

const policyFile = (stateDir: string, loopId: string): string => path.join(loopDir(stateDir, loopId), 'retention.json');
const prunedFile = (stateDir: string, loopId: string): string =>
  path.join(checkpointsDir(stateDir, loopId), '.pruned.json');

/** Records how long a loop's checkpoints outlive it (read by later prunes). */
export function writeRetentionPolicy(stateDir: string, loopId: string, keepFinishedDays: number): void {
  writeJsonAtomic(policyFile(stateDir, loopId), { keepFinishedDays } satisfies RetentionPolicy);
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/**
 * Labels a finished loop keeps: its best iteration's checkpoint, `final` (the state best output replaced), and the
 * last iteration's post-run checkpoint (the final state when best output restored nothing).
 */
export function keptLabels(state: LoopState): string[] {
  const keep = new Set<string>(['final']);
  const best = state.persistence?.best?.checkpoint;
  if (best) keep.add(best);
  if (state.iteration > 0) keep.add(postLabel(state.iteration));
  return [...keep];
}

/**
 * Prunes the checkpoints of finished loops (state.json has a result) that ended at least `keepFinishedDays` ago:
 * every checkpoint but the kept ones ({@link keptLabels}) is deleted (git refs; plain-folder manifests, archives and
 * unreferenced stored content) and the loop's persistent git index is removed. Running loops are never touched.
 * Idempotent: a pruned loop is marked and skipped afterwards.
 */
export async function pruneCheckpoints(input: PruneCheckpointsInput): Promise<PruneCheckpointsResult> {
  const now = input.now ? Date.parse(input.now) : Date.now();
  const loopsRoot = path.join(input.stateDir, 'loops');
  const names = input.loopId
    ? [path.basename(loopDir(input.stateDir, input.loopId))]
    : await fs.promises.readdir(loopsRoot).catch(() => [] as string[]);
  const result: PruneCheckpointsResult = { pruned: [], skipped: [] };
  for (const name of names.sort()) {
    const state = readJson<LoopState>(path.join(loopsRoot, name, 'state.json'));
    if (!state?.loopId) {
      result.skipped.push({ loopId: input.loopId ?? name, reason: 'no state.json' });
      continue;
    }
    const { loopId } = state;
    if (!state.result) {
      result.skipped.push({ loopId, reason: 'still running' });
      continue;
    }
    if (fs.existsSync(prunedFile(input.stateDir, loopId))) {
      result.skipped.push({ loopId, reason: 'already pruned' });
      continue;
    }
    const days =
      input.keepFinishedDays ??
      readJson<RetentionPolicy>(policyFile(input.stateDir, loopId))?.keepFinishedDays ??
      DEFAULT_KEEP_FINISHED_DAYS;
    const ageDays = (now - Date.parse(state.updatedAt)) / 86_400_000;
    if (!(ageDays >= days)) {
      result.skipped.push({ loopId, reason: `finished ${ageDays.toFixed(1)} days ago, kept for ${days}` });
      continue;
    }
    result.pruned.push(await pruneLoop(input.stateDir, state, !!input.dryRun));
  }
  return result;
}

async function pruneLoop(stateDir: string, state: LoopState, dryRun: boolean): Promise<PrunedLoop> {
  const { loopId, workspace } = state;
  const keep = new Set(keptLabels(state));
  const dir = checkpointsDir(stateDir, loopId);
  const out: PrunedLoop = { loopId, workspace, kept: [], deleted: [], objects: 0 };
  const isGit = fs.existsSync(workspace) && (await gitPrefix(workspace)) !== null;
  if (isGit) {
    const { checkpoints } = await listCheckpoints({ workspace, loopId, stateDir });
    const gone = checkpoints.filter((c) => !keep.has(c.label));
    out.kept = checkpoints.filter((c) => keep.has(c.label)).map((c) => c.label);
    out.deleted = gone.map((c) => c.label);
    if (!dryRun && gone.length)
      await git(workspace, ['update-ref', '--stdin'], { input: gone.map((c) => `delete ${c.ref}\n`).join('') });
  } else {
    const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
    const kept: StoreManifest[] = [];
    for (const n of names.filter((f) => f.endsWith('.json') && !f.startsWith('.'))) {
      const m = readJson<StoreManifest>(path.join(dir, n));
      if (!m?.label) continue;
      if (keep.has(m.label)) {
        kept.push(m);
        out.kept.push(m.label);
        continue;
      }
      out.deleted.push(m.label);
      if (dryRun) continue;
      await fs.promises.rm(path.join(dir, n), { force: true });
      await fs.promises.rm(path.join(dir, n.replace(/\.json$/, '.tar.gz')), { force: true });
    }
    if (!dryRun) out.objects = await collectGarbage(dir, kept);
  }
  out.kept.sort();
  out.deleted.sort();
  if (!dryRun) {
    await ensureCheckpointsDir(dir);
    for (const f of ['.git-index', '.git-index.json']) await fs.promises.rm(path.join(dir, f), { force: true });
    writeJsonAtomic(prunedFile(stateDir, loopId), { at: new Date().toISOString(), kept: out.kept });
  }
  return out;
}
