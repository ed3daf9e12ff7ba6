/**
 * `ralph status` shows a loop's flags (`ralph flag`: accepted work that was bad after all), one line per flag with
 * when, by whom and why, and `--json` has them as `flags`; the console's loop page lists them. Real dev server, the
 * built CLI as subprocesses.
 */
import fs from 'node:fs';
import path from 'node:path';
import execa from 'execa';
import { loopPage } from '../../src/console/pages';
import type { LoopState } from '../../src/core/loop-types';
import { loopFlags } from '../../src/state/flags';
import { Harness, checkFileExists, scriptedLoop, tempWorkspace } from '../helpers/env';

const CLI = path.resolve(__dirname, '../../dist/src/cli/index.js');

let h: Harness;
beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

async function ralph(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await execa(process.execPath, [CLI, ...args, '--address', h.env.address], {
    reject: false,
    timeout: 60_000,
    env: { TEMPORAL_ADDRESS: '', TEMPORAL_NAMESPACE: '' },
  });
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

describe('ralph status shows the flags', () => {
  it('an accepted loop flagged twice: status lines, --json flags, the console loop page; none before', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      { default: [{ write: 'done.txt', content: 'ok' }] },
    );
    const id = await h.startLoop(scriptedLoop(ws));
    expect(await h.result(id)).toMatchObject({ status: 'accepted' });

    const before = await ralph(['status', id]);
    expect(before.code).toBe(0);
    expect(before.stdout).not.toContain('flagged');
    expect((JSON.parse((await ralph(['status', id, '--json'])).stdout) as { flags?: unknown }).flags).toEqual([]);

    for (const [by, reason] of [
      ['qa', 'the fix broke subtraction'],
      ['bob', 'no test for\nnegative numbers'],
    ]) {
      const f = await ralph(['flag', id, '--reason', reason, '--by', by]);
      expect({ code: f.code, stderr: f.stderr }).toEqual({ code: 0, stderr: '' });
    }

    const st = await ralph(['status', id]);
    expect(st.code).toBe(0);
    const lines = st.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('flagged 2 times'));
    expect(lines[at]).toBe('flagged 2 times (`ralph stats` counts the loop as a false negative):');
    expect(lines[at + 1]).toMatch(/^ {2}\d{4}-\d{2}-\d{2}T[\d:.]+Z by qa: the fix broke subtraction$/);
    expect(lines[at + 2]).toMatch(/^ {2}\d{4}-\d{2}-\d{2}T[\d:.]+Z by bob: no test for negative numbers$/);

    const json = JSON.parse((await ralph(['status', id, '--json'])).stdout) as LoopState & {
      flags: { loopId: string; by: string; reason: string; at: string }[];
    };
    expect(json.status).toBe('accepted');
    expect(json.flags).toEqual([
      { loopId: id, by: 'qa', reason: 'the fix broke subtraction', at: expect.stringMatching(/^\d{4}-/) },
      { loopId: id, by: 'bob', reason: 'no test for\nnegative numbers', at: expect.stringMatching(/^\d{4}-/) },
    ]);

    // The console's loop page, from the same reads as its server.
    const state = await h.status(id);
    const page = loopPage(state, 'COMPLETED', {}, loopFlags(state));
    expect(page).toContain('id="flags"');
    expect(page).toContain('Flagged (2)');
    expect(page).toContain('by qa: the fix broke subtraction');
  }, 120_000);
});
