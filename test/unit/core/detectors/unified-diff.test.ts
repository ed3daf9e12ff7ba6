import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseUnifiedDiff, type FileDiff } from '../../../../src/core/detectors/unified-diff';

// Real output of `git diff` (and `git diff --cached -M` for structure.diff) captured once in a temp repo.
const fixture = (name: string): string => readFileSync(join(__dirname, '../../../fixtures/diffs', name), 'utf8');
const byPath = (files: FileDiff[]): Record<string, FileDiff> => Object.fromEntries(files.map((f) => [f.path, f]));

describe('parseUnifiedDiff', () => {
  const structure = byPath(parseUnifiedDiff(fixture('structure.diff')));

  it.each<[string, string, Omit<FileDiff, 'path'>]>([
    [
      'keeps removed lines that look like ---/+++ headers, and drops the tab after a name with a space',
      'docs dir/notes.md',
      { added: ['++ plus'], removed: ['---', '-- not a header'], addedLineNumbers: [2] },
    ],
    [
      'skips `\\ No newline at end of file` markers',
      'nonl.txt',
      { added: ['new last'], removed: ['last'], addedLineNumbers: [2] },
    ],
    ['reads a new file', 'src/new.ts', { added: ['export const fresh = true;'], removed: [], addedLineNumbers: [1] }],
    [
      'names a renamed file by its new path',
      'src/renamed.ts',
      { added: ['export const b = 3;'], removed: ['export const b = 2;'], addedLineNumbers: [2] },
    ],
    [
      'names a deleted file by its old path',
      'types/shim.d.ts',
      {
        added: [],
        removed: ["declare module 'legacy-lib' {", '  const value: any;', '  export default value;', '}'],
        addedLineNumbers: [],
      },
    ],
    ['lists a binary file with no lines', 'logo.bin', { added: [], removed: [], addedLineNumbers: [] }],
  ])('%s (%s)', (_what, path, expected) => {
    expect(structure[path]).toEqual({ path, ...expected });
  });

  it('reads every file of the diff, in order', () => {
    expect(Object.keys(structure)).toEqual([
      'docs dir/notes.md',
      'logo.bin',
      'nonl.txt',
      'src/new.ts',
      'src/renamed.ts',
      'types/shim.d.ts',
    ]);
  });

  it('unquotes C-quoted paths (UTF-8 octal escapes, escaped quotes)', () => {
    expect(parseUnifiedDiff(fixture('quoted-paths.diff')).map((f) => [f.path, f.added])).toEqual([
      ['café.ts', ['export const x = 1;']],
      ['quo"te.txt', ['a']],
    ]);
  });

  it('numbers added lines in the new file across hunks and context lines', () => {
    const [login, test, shim] = parseUnifiedDiff(fixture('cheat-tests.diff'));
    expect(login.addedLineNumbers).toEqual([1, 2, 3, 4, 8, 9]);
    expect(login.removed).toEqual(['export function validate(email: string): boolean {', '  return /@/.test(email);']);
    expect(test.addedLineNumbers).toEqual([2, 3, 5, 6, 7]);
    expect(test.removed).toHaveLength(6);
    expect(shim.path).toBe('types/shim.d.ts');
  });

  it('numbers lines of several hunks in one file, CRLF output included', () => {
    const text = [
      'diff --git a/a.ts b/a.ts',
      '--- a/a.ts',
      '+++ b/a.ts',
      '@@ -1,2 +1,2 @@ head',
      '-one',
      '+uno',
      ' two',
      '@@ -10 +10,2 @@ fn',
      ' ten',
      '+eleven',
      '',
    ].join('\r\n');
    expect(parseUnifiedDiff(text)).toEqual([
      { path: 'a.ts', added: ['uno', 'eleven'], removed: ['one'], addedLineNumbers: [1, 11] },
    ]);
  });

  it.each([
    ['empty output', ''],
    ['a mode change only', 'diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n'],
  ])('returns files without lines for %s', (_what, text) => {
    expect(parseUnifiedDiff(text).every((f) => !f.added.length && !f.removed.length)).toBe(true);
  });
});
