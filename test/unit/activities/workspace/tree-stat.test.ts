import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_ENTRIES, RACY_MS, sameWorkTree, statWorkTree } from '../../../../src/activities/workspace/tree-stat';

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-tree-stat-'));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('statWorkTree / sameWorkTree', () => {
  it('lists every entry but .git and the skipped folders, and marks files written just now as racy', async () => {
    const dir = tmp();
    fs.mkdirSync(path.join(dir, '.git/objects'), { recursive: true });
    fs.mkdirSync(path.join(dir, '.ralph/loops'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src/old.ts'), 'old');
    await sleep(3 * RACY_MS);
    fs.writeFileSync(path.join(dir, 'new.ts'), 'new');
    const s = statWorkTree(dir, [path.join(dir, '.ralph')])!;
    expect([...s.entries.keys()].sort()).toEqual(['new.ts', 'src', 'src/old.ts']);
    expect(s.racy).toEqual(['new.ts']);
  });

  it('accepts a racy file only when its content has the recorded blob id', () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'a.txt'), 'hello\n');
    const then = statWorkTree(dir, [])!;
    const now = statWorkTree(dir, [])!;
    expect(then.racy).toEqual(['a.txt']);
    // git hash-object of "hello\n".
    const blob = 'ce013625030ba8dba906f756967f9e9ca394464a';
    expect(sameWorkTree(dir, then, now, new Map([['a.txt', blob]]))).toBe(true);
    expect(sameWorkTree(dir, then, now, new Map())).toBe(false);
    expect(sameWorkTree(dir, then, now, new Map([['a.txt', '0'.repeat(40)]]))).toBe(false);
  });

  it('leaves a tree larger than MAX_ENTRIES to git', () => {
    const dir = tmp();
    for (let i = 0; i <= MAX_ENTRIES; i++) fs.writeFileSync(path.join(dir, `f${i}`), '');
    expect(statWorkTree(dir, [])).toBeUndefined();
    // Remembered: not listed again, even once it is small.
    for (let i = 0; i <= MAX_ENTRIES; i++) fs.rmSync(path.join(dir, `f${i}`));
    expect(statWorkTree(dir, [])).toBeUndefined();
  });
});
