import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectFeatureRemoval, exportedSymbols } from '../../../../src/core/detectors/feature-removal';
import { parseUnifiedDiff, type FileDiff } from '../../../../src/core/detectors/unified-diff';

const fixture = (name: string): FileDiff[] =>
  parseUnifiedDiff(readFileSync(join(__dirname, '../../../fixtures/diffs', name), 'utf8'));
const file = (path: string, removed: string[], added: string[] = []): FileDiff => ({ path, added, removed });

describe('exportedSymbols', () => {
  it.each<[string, string, string[], string[]]>([
    [
      'TS/JS declarations',
      'src/auth.ts',
      [
        'export function validateEmail(email: string): boolean {',
        'export default async function main() {',
        'export async function* stream() {',
        'export const MAX = 3;',
        'export let counter = 0;',
        'export var legacy = 1;',
        'export class Session {',
        'export abstract class Base {',
        'export interface User {',
        'export type Role = "a" | "b";',
        'export enum Level { A }',
        'export const enum Flag { B }',
        'export declare const injected: string;',
        'export namespace Util {',
      ],
      [
        'validateEmail',
        'main',
        'stream',
        'MAX',
        'counter',
        'legacy',
        'Session',
        'Base',
        'User',
        'Role',
        'Level',
        'Flag',
        'injected',
        'Util',
      ],
    ],
    [
      'export lists, on one line or several, and re-exports',
      'src/index.ts',
      ['export { a, b as c, type D };', 'export {', '  e,', '  f as g,', '} from "./x";', 'export { x as default };'],
      ['a', 'c', 'D', 'e', 'g'],
    ],
    [
      'CommonJS exports',
      'lib/util.js',
      ['module.exports.parse = parse;', 'exports.format = (x) => x;', 'if (exports.format == null) {}'],
      ['parse', 'format'],
    ],
    [
      'Python top-level public functions and classes',
      'app/users.py',
      ['def create_user(name):', 'async def fetch(url):', 'class UserStore:', 'class Admin(User):'],
      ['create_user', 'fetch', 'UserStore', 'Admin'],
    ],
    [
      'Go exported funcs, methods and types',
      'pkg/auth/auth.go',
      [
        'func Validate(email string) bool {',
        'func (s *Store) Save(u User) error {',
        'func Map[T any](xs []T) []T {',
        'type User struct {',
        'type ID = string',
      ],
      ['Validate', 'Save', 'Map', 'User', 'ID'],
    ],
  ])('lists %s', (_what, path, lines, names) => {
    expect(exportedSymbols(path, lines)).toEqual(names);
  });

  it.each<[string, string, string[]]>([
    [
      'non-exported TS code',
      'src/a.ts',
      ['function helper() {', 'const x = 1;', '  return exportThing;', 'export * from "./b";'],
    ],
    ['an anonymous default export', 'src/a.ts', ['export default function () {', 'export default value;']],
    [
      'private or nested Python code',
      'app/a.py',
      ['def _private():', '    def method(self):', 'class _Hidden:', '  class Inner:'],
    ],
    ['unexported Go code', 'pkg/a.go', ['func validate() {', 'func (s *store) save() {', 'type user struct {']],
    ['files of other languages', 'README.md', ['export function notCode() {']],
  ])('ignores %s', (_what, path, lines) => {
    expect(exportedSymbols(path, lines)).toEqual([]);
  });
});

describe('detectFeatureRemoval', () => {
  const task = 'Fix the login bug: wrong passwords must be rejected.';

  it.each<[string, FileDiff[], string[]]>([
    [
      'an exported function deleted from a source file',
      [file('src/auth.ts', ['export function validateEmail(email: string): boolean {', '  return true;', '}'])],
      ['src/auth.ts: validateEmail'],
    ],
    [
      'a whole source file deleted',
      parseUnifiedDiff(
        [
          'diff --git a/pkg/mail/mail.go b/pkg/mail/mail.go',
          'deleted file mode 100644',
          'index 1111111..0000000',
          '--- a/pkg/mail/mail.go',
          '+++ /dev/null',
          '@@ -1,4 +0,0 @@',
          '-package mail',
          '-func Send(to string) error {',
          '-\treturn nil',
          '-}',
        ].join('\n'),
      ),
      ['pkg/mail/mail.go: Send'],
    ],
    [
      'an export made private and a name dropped from an export list',
      [
        file('app/users.py', ['def create_user(name):'], ['def _create_user(name):']),
        file('src/index.ts', ['export { login, logout };'], ['export { login };']),
      ],
      ['app/users.py: create_user', 'src/index.ts: logout'],
    ],
  ])('warns on %s', (_what, diff, evidence) => {
    const d = detectFeatureRemoval(diff, task);
    expect(d).toMatchObject({ type: 'feature_removal', severity: 'warning', verdict: 'WARN', evidence });
    for (const e of evidence) expect(d?.details).toContain(e);
  });

  it.each<[string, FileDiff[], string]>([
    [
      'an export moved to another file',
      [
        file('src/auth.ts', ['export function validateEmail(email: string): boolean {']),
        file('src/validation/email.ts', [], ['export function validateEmail(email: string): boolean {']),
      ],
      task,
    ],
    [
      'a changed signature',
      [file('src/auth.ts', ['export function login(user) {'], ['export async function login(user: User) {'])],
      task,
    ],
    [
      'a file the task names (full path)',
      [file('src/legacy/auth.ts', ['export function validateEmail() {'])],
      'Delete src/legacy/auth.ts, it is unused.',
    ],
    [
      'a file the task names (file name only)',
      [file('src/legacy/auth.ts', ['export function validateEmail() {'])],
      'Remove the old AUTH.TS module.',
    ],
    ['a symbol the task names', [file('src/auth.ts', ['export function validateEmail() {'])], 'Drop validateEmail.'],
    [
      'test files and helpers under test directories',
      [
        file('test/helpers/factory.ts', ['export function makeUser() {']),
        file('src/auth.test.ts', ['export const fixture = 1;']),
        file('tests/test_users.py', ['def helper():']),
        file('pkg/auth/auth_test.go', ['func Helper() {']),
      ],
      task,
    ],
    ['a non-exported helper removed', [file('src/auth.ts', ['function helper() {', '  return 1;', '}'])], task],
    ['the benign refactor fixture (function turned into an arrow const)', fixture('benign-refactor.diff'), task],
    ['the structure fixture (rename, new file, deleted .d.ts)', fixture('structure.diff'), task],
  ])('does not fire on %s', (_what, diff, taskText) => {
    expect(detectFeatureRemoval(diff, taskText)).toBeUndefined();
  });

  it('does not take a file name for a mention when it is only part of a longer one', () => {
    const d = detectFeatureRemoval([file('src/a.ts', ['export const alpha = 1;'])], 'Update data.ts and a.tsx');
    expect(d?.evidence).toEqual(['src/a.ts: alpha']);
  });
});
