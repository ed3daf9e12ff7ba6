import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import execa from 'execa';
import {
  checkpointFiles,
  createCheckpoint,
  listCheckpoints,
  rollbackToCheckpoint,
} from '../../../../src/activities/workspace/checkpoint';
import { pruneCheckpoints, writeRetentionPolicy } from '../../../../src/activities/workspace/prune';
import { persistState } from '../../../../src/activities/persist-state';
import { LoopMachine } from '../../../../src/core/loop-machine';
import type { LoopState } from '../../../../src/core/loop-types';
import { emptyAntiLazinessState } from '../../../../src/core/anti-laziness';

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-prune-'));
const write = (dir: string, rel: string, text: string): void => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
};
const gitIn =
  (dir: string) =>
  (...a: string[]): string =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: dir, encoding: 'utf8' });

const DAY = 86_400_000;

/** A loop of 3 iterations (pre/post checkpoints each, iteration 2 the best) in `dir`, finished `finishedAt`. */
async function finishedLoop(dir: string, loopId: string, finishedAt: string, finished = true): Promise<LoopState> {
  const stateDir = path.join(dir, '.ralph');
  for (let n = 1; n <= 3; n++) {
    await createCheckpoint({ workspace: dir, stateDir, loopId, label: `iter-00${n}-pre` });
    write(dir, 'src/a.ts', `a${n}\n`);
    await createCheckpoint({ workspace: dir, stateDir, loopId, label: `iter-00${n}-post` });
  }
  const state = {
    loopId,
    workspace: dir,
    stateDir,
    iteration: 3,
    updatedAt: finishedAt,
    persistence: { best: { iteration: 2, checkpoint: 'iter-002-post' } },
    ...(finished ? { result: { loopId, status: 'accepted' } } : {}),
  } as unknown as LoopState;
  write(stateDir, `loops/${loopId}/state.json`, JSON.stringify(state));
  return state;
}

function gitRepo(): string {
  const dir = tmp();
  gitIn(dir)('init', '-q', '-b', 'main');
  write(dir, 'src/a.ts', 'a0\n');
  gitIn(dir)('add', '.');
  gitIn(dir)('commit', '-qm', 'init');
  return dir;
}

const labels = async (dir: string, loopId: string): Promise<string[]> =>
  (await listCheckpoints({ workspace: dir, loopId })).checkpoints.map((c) => c.label).sort();

describe('pruneCheckpoints', () => {
  it("deletes an old finished loop's git refs but best and final, and leaves running and recent loops alone", async () => {
    const dir = gitRepo();
    const now = new Date().toISOString();
    await finishedLoop(dir, 'old', new Date(Date.now() - 10 * DAY).toISOString());
    await finishedLoop(dir, 'recent', new Date(Date.now() - 1 * DAY).toISOString());
    await finishedLoop(dir, 'running', new Date(Date.now() - 30 * DAY).toISOString(), false);
    const stateDir = path.join(dir, '.ralph');
    const head = gitIn(dir)('rev-parse', 'HEAD');

    const r = await pruneCheckpoints({ stateDir, now });
    expect(r.pruned).toEqual([
      {
        loopId: 'old',
        workspace: dir,
        kept: ['iter-002-post', 'iter-003-post'],
        deleted: ['iter-001-post', 'iter-001-pre', 'iter-002-pre', 'iter-003-pre'],
        objects: 0,
      },
    ]);
    expect(r.skipped).toEqual([
      { loopId: 'recent', reason: 'finished 1.0 days ago, kept for 7' },
      { loopId: 'running', reason: 'still running' },
    ]);
    expect(await labels(dir, 'old')).toEqual(['iter-002-post', 'iter-003-post']);
    expect(await labels(dir, 'recent')).toHaveLength(6);
    expect(await labels(dir, 'running')).toHaveLength(6);
    expect(fs.existsSync(path.join(stateDir, 'loops/old/checkpoints/.git-index'))).toBe(false);
    // The best checkpoint still restores; the user's branch is untouched.
    await rollbackToCheckpoint({ workspace: dir, stateDir, loopId: 'old', label: 'iter-002-post' });
    expect(fs.readFileSync(path.join(dir, 'src/a.ts'), 'utf8')).toBe('a2\n');
    expect(gitIn(dir)('rev-parse', 'HEAD')).toBe(head);
    // Idempotent.
    expect((await pruneCheckpoints({ stateDir, now })).skipped[0]).toEqual({ loopId: 'old', reason: 'already pruned' });
  });

  it("honours each loop's own retention, and the caller's over it", async () => {
    const dir = gitRepo();
    const stateDir = path.join(dir, '.ralph');
    await finishedLoop(dir, 'short', new Date(Date.now() - 2 * DAY).toISOString());
    writeRetentionPolicy(stateDir, 'short', 1);
    await finishedLoop(dir, 'long', new Date(Date.now() - 2 * DAY).toISOString());
    writeRetentionPolicy(stateDir, 'long', 30);
    expect((await pruneCheckpoints({ stateDir, dryRun: true })).pruned.map((p) => p.loopId)).toEqual(['short']);
    expect(await labels(dir, 'short')).toHaveLength(6); // dry run
    expect((await pruneCheckpoints({ stateDir, keepFinishedDays: 0 })).pruned.map((p) => p.loopId)).toEqual([
      'long',
      'short',
    ]);
  });

  it("deletes a plain folder's manifests and the stored content only they used", async () => {
    const dir = tmp();
    write(dir, 'src/a.ts', 'a0\n');
    write(dir, 'src/big.ts', 'shared\n');
    const stateDir = path.join(dir, '.ralph');
    await finishedLoop(dir, 'l', new Date(Date.now() - 10 * DAY).toISOString());
    const objects = path.join(stateDir, 'loops/l/checkpoints/.store/objects');
    const count = (): number => fs.readdirSync(objects).flatMap((d) => fs.readdirSync(path.join(objects, d))).length;
    expect(count()).toBe(5); // a0..a3, shared
    const r = await pruneCheckpoints({ stateDir });
    expect(r.pruned[0]).toMatchObject({ kept: ['iter-002-post', 'iter-003-post'], objects: 2 });
    expect(count()).toBe(3); // a2, a3, shared
    expect(await labels(dir, 'l')).toEqual(['iter-002-post', 'iter-003-post']);
    await rollbackToCheckpoint({ workspace: dir, stateDir, loopId: 'l', label: 'iter-002-post' });
    expect(fs.readFileSync(path.join(dir, 'src/a.ts'), 'utf8')).toBe('a2\n');
    await expect(checkpointFiles({ workspace: dir, stateDir, loopId: 'l', label: 'iter-001-pre' })).rejects.toThrow(
      /no checkpoint 'iter-001-pre'/,
    );
  });

  it("runs at a loop's end (persistState of the final state) for loops whose retention is over", async () => {
    const dir = gitRepo();
    const stateDir = path.join(dir, '.ralph');
    await finishedLoop(dir, 'earlier', new Date(Date.now() - 10 * DAY).toISOString());
    await finishedLoop(dir, 'now', new Date().toISOString());
    writeRetentionPolicy(stateDir, 'now', 0);
    const m = new LoopMachine(
      {
        loopId: 'now',
        maxIterations: 5,
        agent: 'scripted',
        workspace: dir,
        stateDir,
        defaultExtraIterations: 3,
        labels: {},
      },
      new Date().toISOString(),
    );
    m.state.iteration = 3;
    m.state.persistence = {
      ...emptyAntiLazinessState('scripted'),
      best: { iteration: 2, checkpoint: 'iter-002-post' },
    } as LoopState['persistence'];
    m.finish({ status: 'accepted', reason: 'done' }, '', new Date().toISOString());
    await persistState({ state: m.state });
    expect(await labels(dir, 'earlier')).toEqual(['iter-002-post', 'iter-003-post']);
    expect(await labels(dir, 'now')).toEqual(['iter-002-post', 'iter-003-post']);
  });

  it('is run by `ralph checkpoints prune` (dry run, JSON, then for real), and a bad option is one clear line', async () => {
    const dir = gitRepo();
    const stateDir = path.join(dir, '.ralph');
    await finishedLoop(dir, 'old', new Date(Date.now() - 3 * DAY).toISOString());
    const cli = (...a: string[]) =>
      execa(process.execPath, [path.resolve(__dirname, '../../../../dist/src/cli/index.js'), ...a], {
        reject: false,
        cwd: dir,
      });
    const dry = await cli('checkpoints', 'prune', '--older-than-days', '2', '--dry-run', '--json');
    expect(dry.exitCode).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ pruned: [{ loopId: 'old', deleted: expect.any(Array) }] });
    expect(await labels(dir, 'old')).toHaveLength(6);
    const kept = await cli('checkpoints', 'prune', '--state-dir', stateDir);
    expect(kept.stdout).toBe('old: left alone (finished 3.0 days ago, kept for 7)');
    const real = await cli('checkpoints', 'prune', '--older-than-days', '2');
    expect(real.stdout).toBe('old: deleted 4 checkpoint(s), kept iter-002-post, iter-003-post');
    expect(await labels(dir, 'old')).toEqual(['iter-002-post', 'iter-003-post']);
    const bad = await cli('checkpoints', 'prune', '--older-than-days', 'soon');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^ralph: .*older-than-days/);
  });
});
