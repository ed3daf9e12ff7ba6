/**
 * npm run bench:snapshot — snapshotWorkspace on a 10k-file git repo (50 files modified, 20 untracked) against plain
 * `git status --porcelain` on the same repo, 20 runs each: p50/p95 of both and the ratio. Also times createCheckpoint
 * and a no-op rollbackToCheckpoint. Figures go to bench/results/snapshot.json.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import execa from 'execa';
import { createCheckpoint, rollbackToCheckpoint } from '../src/activities/workspace/checkpoint';
import { snapshotWorkspace } from '../src/activities/workspace/snapshot';
import { percentile, writeResult } from './stats';

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

/** Times `fn` `runs` times (after one warm-up run) and returns the durations in ms. */
async function time(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    out.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return out;
}

const summary = (ms: number[]): { p50: number; p95: number } => ({
  p50: +percentile(ms, 50).toFixed(1),
  p95: +percentile(ms, 95).toFixed(1),
});

/**
 * Generates a git repo of `files` source files in `dir` (100 folders of 100 files, ~1 KB each: a mid-sized source
 * tree) plus a .gitignore, all committed with a fixed identity. Also used by bench/detection.ts.
 */
export function generateRepo(dir: string, files = FILES): void {
  const git = (...a: string[]): string =>
    execFileSync('git', ['-c', 'user.email=b@b', '-c', 'user.name=b', '-c', 'commit.gpgsign=false', ...a], {
      cwd: dir,
      encoding: 'utf8',
    });
  git('init', '-q');
  for (let i = 0; i < files; i++) {
    const rel = path.join(`pkg${String(Math.floor(i / 100)).padStart(3, '0')}`, `file${i}.ts`);
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), `export const v${i} = ${i};\n${'// filler line\n'.repeat(60)}`);
  }
  fs.writeFileSync(path.join(dir, '.gitignore'), 'dist/\n');
  git('add', '-A');
  git('commit', '-qm', 'init');
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-bench-snapshot-'));
  const git = (...a: string[]): string =>
    execFileSync('git', ['-c', 'user.email=b@b', '-c', 'user.name=b', ...a], { cwd: dir, encoding: 'utf8' });
  generateRepo(dir);
  // 50 modified files (one per folder of 100), fewer in a small repo (BENCH_FILES, the CI smoke test).
  const modified = Math.min(50, Math.ceil(FILES / 100));
  for (let i = 0; i < modified; i++) {
    const f = path.join(dir, `pkg${String(i).padStart(3, '0')}`, `file${i * 100}.ts`);
    fs.appendFileSync(f, `// modified ${i}\n`);
  }
  for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(dir, `untracked${i}.ts`), `new ${i}\n`);

  const snap = await snapshotWorkspace({ workspace: dir });
  const snapshotMs = await time(RUNS, () => snapshotWorkspace({ workspace: dir }));
  const statusMs = await time(RUNS, () => execa('git', ['status', '--porcelain'], { cwd: dir }));
  const input = { workspace: dir, stateDir: path.join(dir, '.ralph'), loopId: 'bench', label: 'cp' };
  const checkpointMs = await time(5, () => createCheckpoint(input));
  const rollbackMs = await time(5, () => rollbackToCheckpoint(input));

  const s = summary(snapshotMs);
  const g = summary(statusMs);
  const result = {
    files: Object.keys(snap.files).length,
    modified,
    untracked: 20,
    runs: RUNS,
    snapshotWorkspaceMs: s,
    gitStatusMs: g,
    ratio: { p50: +(s.p50 / g.p50).toFixed(2), p95: +(s.p95 / g.p95).toFixed(2) },
    createCheckpointMs: summary(checkpointMs),
    noopRollbackMs: summary(rollbackMs),
    node: process.version,
    git: git('--version').trim(),
    cpus: os.cpus().length,
  };
  console.log(`snapshotWorkspace on ${result.files} files: p50 ${s.p50} ms, p95 ${s.p95} ms`);
  console.log(`git status --porcelain:        p50 ${g.p50} ms, p95 ${g.p95} ms`);
  console.log(`ratio snapshot/status:         p50 ${result.ratio.p50}x, p95 ${result.ratio.p95}x`);
  console.log(
    `createCheckpoint: p50 ${result.createCheckpointMs.p50} ms; no-op rollback: p50 ${result.noopRollbackMs.p50} ms`,
  );
  console.log(`written ${writeResult('snapshot', result)}`);
  fs.rmSync(dir, { recursive: true, force: true });
}

// Run only as a script: bench/detection.ts imports generateRepo from here.
if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
