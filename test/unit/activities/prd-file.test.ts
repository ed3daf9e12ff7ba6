import fs from 'node:fs';
import path from 'node:path';
import { loadPrd, writeTaskDone } from '../../../src/activities/prd-file';
import { PrdError, parsePrdJson } from '../../../src/config/prd';
import { useTmpDirs } from '../../helpers/fake-agents';

const FIXTURES = path.resolve(__dirname, '../../fixtures/prd');
const tmpDir = useTmpDirs();

/** A temp folder holding a copy of one fixture (under `as`); returns the copy's path. */
function copyFixture(name: string, as = name): string {
  const file = path.join(tmpDir('ralph-prd-'), as);
  fs.copyFileSync(path.join(FIXTURES, name), file);
  return file;
}

const read = (file: string): string => fs.readFileSync(file, 'utf8');

/** The lines of `after` that differ from `before`. */
function changedLines(before: string, after: string): Array<[number, string]> {
  const a = before.split('\n');
  return after.split('\n').flatMap((l, i): Array<[number, string]> => (l === a[i] ? [] : [[i + 1, l]]));
}

afterEach(() => jest.restoreAllMocks());

describe('loadPrd', () => {
  it('loads both formats by extension and returns the text it parsed', async () => {
    const json = copyFixture('prd.json');
    const md = copyFixture('PRD.md', 'TODO.markdown');
    const j = await loadPrd(json);
    expect(j.text).toBe(read(json));
    expect(j.prd).toMatchObject({ kind: 'json', project: 'TaskBoard' });
    expect(j.prd.tasks).toHaveLength(4);
    const m = await loadPrd(md);
    expect(m.prd).toMatchObject({ kind: 'markdown', project: 'TaskBoard: task priority' });
    expect(m.prd.tasks).toHaveLength(5);
  });

  it('names the file in every error: missing, a folder, unknown format, invalid content', async () => {
    const dir = tmpDir('ralph-prd-');
    fs.writeFileSync(path.join(dir, 'prd.yaml'), 'userStories: []\n');
    fs.writeFileSync(path.join(dir, 'bad.json'), '{\n  "userStories": [\n    { "id": 1 }\n  ]\n}\n');
    fs.mkdirSync(path.join(dir, 'folder.md'));
    const cases: Array<[string, string]> = [
      ['missing.json', ": can't read it (ENOENT): check the path"],
      ['folder.md', ": can't read it (EISDIR): it is a folder, not a file"],
      ['prd.yaml', `: unknown PRD format ".yaml": use a .json file (Ralph's userStories[]) or a .md checklist`],
      ['bad.json', ':3: userStories[0].title: missing: expected a string'],
    ];
    for (const [name, message] of cases) {
      const err = await loadPrd(path.join(dir, name)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PrdError);
      expect((err as PrdError).message).toBe(path.join(dir, name) + message);
    }
  });
});

describe('writeTaskDone', () => {
  it('sets `passes` in prd.json, keeping unknown keys and every other line', async () => {
    const file = copyFixture('prd.json');
    const before = read(file);
    await writeTaskDone(file, 'US-003', true);
    const after = read(file);
    expect(changedLines(before, after)).toEqual([[47, '      "passes": true,']]);
    const raw = JSON.parse(after);
    expect(raw.createdAt).toBe('2025-01-14');
    expect(raw.userStories[2]).toMatchObject({ notes: '', validationScenario: { port: 5173 }, passes: true });
    expect(parsePrdJson(after).tasks.map((t) => t.done)).toEqual([true, false, true, false]);
  });

  it('flips only the task line of a Markdown PRD, and back', async () => {
    const file = copyFixture('PRD.md');
    const before = read(file);
    await writeTaskDone(file, 'T2', true);
    expect(changedLines(before, read(file))).toEqual([
      [13, '- [x] **T2**: Expose priority in the tasks API (depends: T1)'],
    ]);
    await writeTaskDone(file, 'T2', false);
    expect(read(file)).toBe(before);
  });

  it('re-reads the file, so edits the human made after it was loaded are kept', async () => {
    const file = copyFixture('PRD.md');
    const { prd } = await loadPrd(file);
    // The human adds a task at the top: every line moves down by two.
    fs.writeFileSync(file, read(file).replace('## Backend\n', '## Backend\n\n- [ ] **T0**: Set up the database\n'));
    await writeTaskDone(file, 'T2', true);
    const text = read(file);
    expect(text).toContain('- [ ] **T0**: Set up the database\n');
    expect(text).toContain('- [x] **T2**: Expose priority');
    expect(prd.tasks.find((t) => t.id === 'T2')!.source).toEqual({ kind: 'markdown', line: 13 });
    expect(text.split('\n')[14]).toMatch(/^- \[x\] \*\*T2\*\*/);
  });

  it('is idempotent: a second identical write leaves the file untouched, mtime included', async () => {
    const file = copyFixture('prd.json');
    await writeTaskDone(file, 'US-002', true);
    const once = read(file);
    const old = new Date('2020-01-01T00:00:00Z');
    fs.utimesSync(file, old, old);
    await writeTaskDone(file, 'US-002', true);
    expect(read(file)).toBe(once);
    expect(fs.statSync(file).mtime).toEqual(old);
  });

  it('writes atomically: no temp file is left, permissions are kept, a symlink stays a symlink', async () => {
    const file = copyFixture('PRD.md');
    const dir = path.dirname(file);
    fs.chmodSync(file, 0o640);
    const link = path.join(dir, 'current.md');
    fs.symlinkSync('PRD.md', link);
    await writeTaskDone(link, 'T3', true);
    await writeTaskDone(file, 'write-release-notes', true);
    expect(fs.readdirSync(dir).sort()).toEqual(['PRD.md', 'current.md']);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
    expect(read(file)).toMatch(/- \[x\] \*\*T3\*\*[^]*- \[x\] Write release notes/);
  });

  it('records concurrent writes of different tasks without losing one', async () => {
    const file = copyFixture('PRD.md');
    await Promise.all(['T2', 'T3', 'T4', 'write-release-notes'].map((id) => writeTaskDone(file, id, true)));
    expect((await loadPrd(file)).prd.tasks.map((t) => t.done)).toEqual([true, true, true, true, true]);
  });

  it('starts over when the human saves the file between its read and the rename', async () => {
    const file = copyFixture('PRD.md');
    const realRead = fs.promises.readFile.bind(fs.promises);
    let reads = 0;
    jest.spyOn(fs.promises, 'readFile').mockImplementation((async (p: string, o: BufferEncoding) => {
      // Read 1 loads the file; read 2 is the check before the rename: the human saves just before it.
      if (++reads === 2) fs.writeFileSync(file, read(file) + '- [ ] Added by the human\n');
      return realRead(p, o);
    }) as typeof fs.promises.readFile);
    await writeTaskDone(file, 'T2', true);
    const text = read(file);
    expect(text).toContain('- [x] **T2**');
    expect(text.endsWith('- [ ] Added by the human\n')).toBe(true);
    expect(reads).toBe(4);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['PRD.md']);
  });

  it('gives up, leaving the human’s version, when the file keeps changing', async () => {
    const file = copyFixture('PRD.md');
    const realRead = fs.promises.readFile.bind(fs.promises);
    let reads = 0;
    jest.spyOn(fs.promises, 'readFile').mockImplementation((async (p: string, o: BufferEncoding) => {
      if (++reads % 2 === 0) fs.appendFileSync(file, `- [ ] Human edit ${reads}\n`);
      return realRead(p, o);
    }) as typeof fs.promises.readFile);
    await expect(writeTaskDone(file, 'T2', true)).rejects.toThrow(
      `${file}: it kept changing while "T2" was being recorded (3 tries): try again`,
    );
    expect(read(file)).toContain('- [ ] **T2**');
    expect(read(file)).toContain('- [ ] Human edit 6\n');
    expect(fs.readdirSync(path.dirname(file))).toEqual(['PRD.md']);
  });

  it('names the file and the known ids for an unknown task, and the file for a broken one', async () => {
    const file = copyFixture('prd.json');
    await expect(writeTaskDone(file, 'US-009', true)).rejects.toThrow(
      `${file}: no task "US-009" (the PRD has US-001, US-002, US-003, US-004)`,
    );
    fs.writeFileSync(file, '{ "userStories": [ }');
    await expect(writeTaskDone(file, 'US-001', true)).rejects.toThrow(
      `${file}: invalid JSON at line 1 column 20: expected a value, found "}"`,
    );
    await expect(writeTaskDone(path.join(path.dirname(file), 'gone.md'), 'T1', true)).rejects.toThrow(
      "gone.md: can't read it (ENOENT)",
    );
  });
});
