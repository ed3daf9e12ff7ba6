/**
 * inspectIteration on its own, on real git workspaces: the post-run checkpoint, the iteration's diff, and the findings
 * of the workspace detectors for an honest change, a claim with nothing written, a deleted test and a skipped one.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspectIteration, type InspectIterationInput } from '../../../src/activities/inspect-iteration';
import { createCheckpoint } from '../../../src/activities/workspace/checkpoint';
import { AntiLazinessConfig } from '../../../src/config/anti-laziness-config';

const TEST_FILE = [
  "const assert = require('node:assert');",
  "const { test } = require('node:test');",
  "const { sum } = require('../src/sum');",
  "test('adds two numbers', () => assert.strictEqual(sum(1, 2), 3));",
  "test('adds negatives', () => assert.strictEqual(sum(-1, -2), -3));",
  '',
].join('\n');

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A git workspace with a product file and its test, and its pre-run checkpoint `iter-001-pre`. */
async function workspace(): Promise<InspectIterationInput> {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-inspect-'));
  dirs.push(ws);
  fs.mkdirSync(path.join(ws, 'src'));
  fs.mkdirSync(path.join(ws, 'test'));
  fs.writeFileSync(path.join(ws, 'src', 'sum.js'), 'exports.sum = (a, b) => a - b;\n');
  fs.writeFileSync(path.join(ws, 'test', 'sum.test.js'), TEST_FILE);
  fs.writeFileSync(path.join(ws, '.gitignore'), '.ralph/\n');
  const git = (...a: string[]) => execFileSync('git', a, { cwd: ws, stdio: 'pipe' });
  git('init', '-q');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '-A');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'base');
  const stateDir = path.join(ws, '.ralph');
  const pre = await createCheckpoint({ workspace: ws, stateDir, loopId: 'l1', label: 'iter-001-pre' });
  return {
    loopId: 'l1',
    iteration: 1,
    workspace: ws,
    stateDir,
    pre: 'iter-001-pre',
    preCommit: pre.commit,
    post: 'iter-001-post',
    exitCode: 0,
    claimed: false,
    claimedFiles: [],
    finalTextTail: 'done',
    detectors: AntiLazinessConfig.parse({}).detectors,
  };
}

const flagged = (r: Awaited<ReturnType<typeof inspectIteration>>): string[] =>
  r.detections.filter((d) => d.verdict !== 'PASS').map((d) => d.type);

describe('inspectIteration', () => {
  it('records an honest fix: its diff, the post checkpoint, no finding; the same answer when run again', async () => {
    const input = await workspace();
    fs.writeFileSync(path.join(input.workspace, 'src', 'sum.js'), 'exports.sum = (a, b) => a + b;\n');
    const r = await inspectIteration({ ...input, claimed: true, claimedFiles: ['src/sum.js'] });
    expect(flagged(r)).toEqual([]);
    expect(r.changes).toMatchObject({ added: 0, deleted: 0, modified: 1, files: ['M src/sum.js'] });
    expect(r.postCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(r.hallucinated).toBe(0);
    expect(fs.readFileSync(r.diffPath, 'utf8')).toContain('+exports.sum = (a, b) => a + b;');
    const again = await inspectIteration({ ...input, claimed: true, claimedFiles: ['src/sum.js'] });
    expect({ diffSig: again.diffSig, stateSig: again.stateSig, postCommit: again.postCommit }).toEqual({
      diffSig: r.diffSig,
      stateSig: r.stateSig,
      postCommit: r.postCommit,
    });
  });

  it('finds a claim of done with nothing written, and a claimed file that does not exist', async () => {
    const input = await workspace();
    const r = await inspectIteration({ ...input, claimed: true, claimedFiles: ['src/new-feature.js'] });
    expect(flagged(r)).toEqual(expect.arrayContaining(['no_files_written']));
    expect(r.hallucinated).toBe(1);
    expect(r.diffSig).toBeUndefined();
  });

  it('names a deleted test and a skipped one', async () => {
    const input = await workspace();
    const file = path.join(input.workspace, 'test', 'sum.test.js');
    fs.writeFileSync(
      file,
      TEST_FILE.replace(/^test\('adds negatives'.*\n/m, '').replace("test('adds two", "test.skip('adds two"),
    );
    const r = await inspectIteration(input);
    expect(r.deletedTests).toEqual([expect.stringContaining('adds negatives')]);
    expect(flagged(r)).toEqual(expect.arrayContaining(['skip_added']));
  });
});
