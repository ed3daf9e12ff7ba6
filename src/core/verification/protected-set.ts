/**
 * The protected set of a loop: the files that decide whether the work passes (tests, the data they read, runner,
 * coverage, lint and CI configuration, the test-related fields of package.json/pyproject.toml/setup.cfg/tsconfig, the
 * files the completion and gate commands name), computed once at loop start from the workspace's file list. Pure: the
 * activity passes the file list and the few file contents the rules need.
 */
import { isTestFile } from '../detectors/validation-bypass';

/** Why a file is protected. */
export const ProtectedKinds = [
  'test',
  'test_data',
  'runner_config',
  'ci',
  'lint_config',
  'named_by_check',
  'user',
  'sections',
  'loop_state',
  'dependencies',
] as const;
/** One of {@link ProtectedKinds}. */
export type ProtectedKind = (typeof ProtectedKinds)[number];

/** A protected file: its whole content, or (kind `sections`) only its test-related fields or sections. */
export interface ProtectedEntry {
  path: string;
  kind: ProtectedKind;
}

/** A file the rules would protect but the loop lets the agent change, and why. */
export interface AllowedEntry {
  path: string;
  /** `task`: the task text names it; `allow`: a `verification.allow` glob matches it. */
  reason: 'task' | 'allow';
  kind: ProtectedKind;
}

/** What the loop's protected set is built from. */
export interface ProtectedSetInput {
  /** Every file of the workspace at loop start (workspace-relative posix paths). */
  files: string[];
  /** The task text (a file it names explicitly is allowed). */
  task: string;
  /** `verification.protect`: globs protected on top of the conventions. */
  protect: string[];
  /** `verification.allow`: globs the task may change. */
  allow: string[];
  /** The completion command and the gate commands (the files they name are protected). */
  commands: string[];
  /** package.json `scripts` (the files the scripts that the commands run name are protected too). */
  scripts?: Record<string, string>;
  /** Text of (some of) the test files: the data files they read are protected. */
  testTexts?: Record<string, string>;
}

/** The loop's protected set: sorted by path, each path once. */
export interface ProtectedSet {
  protected: ProtectedEntry[];
  allowed: AllowedEntry[];
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Turns a glob into a regular expression over workspace-relative posix paths: `*` and `?` stay within a path
 * component, `**` crosses them, `{a,b}` alternates. A glob without `/` matches at any depth (like .gitignore); a glob
 * naming a folder matches every file under it. `anchor` makes every glob match from the root.
 */
export function globToRegExp(glob: string, anchor = false): RegExp {
  let g = glob.trim().replace(/^(\.\/)+/, '');
  const anchored = anchor || g.replace(/\/+$/, '').includes('/');
  g = g.replace(/^\/+/, '').replace(/\/+$/, '');
  let re = '';
  for (let i = 0; i < g.length; i++) {
    const c = g[i];
    if (c === '*' && g[i + 1] === '*') {
      i++;
      if (g[i + 1] === '/') {
        i++;
        re += '(?:.*/)?';
      } else re += '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{' && g.indexOf('}', i) > i) {
      const end = g.indexOf('}', i);
      re += `(?:${g
        .slice(i + 1, end)
        .split(',')
        .map(escapeRe)
        .join('|')})`;
      i = end;
    } else re += escapeRe(c);
  }
  return new RegExp(`${anchored ? '^' : '(?:^|/)'}${re}(?:/.*)?$`);
}

/** Whether a path matches any of the globs. */
export const matchesAny = (p: string, globs: readonly string[]): boolean => globs.some((g) => globToRegExp(g).test(p));

const base = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

const RUNNER_CONFIG =
  /^(?:(?:jest|vitest|vite|karma|playwright|cypress|ava|wdio|mocha|nyc|c8|babel\.jest)\.config\.[cm]?[jt]s(?:on)?|vitest\.workspace\.[cm]?[jt]s(?:on)?|jest\.setup\.[cm]?[jt]s|setupTests\.[cm]?[jt]sx?|\.mocharc[^/]*|\.nycrc[^/]*|\.c8rc[^/]*|codecov\.ya?ml|\.codecov\.ya?ml|\.coveragerc|pytest\.ini|\.pytest\.ini|tox\.ini|noxfile\.py|conftest\.py|\.ava\.config\.[cm]?js)$/;
const LINT_CONFIG =
  /^(?:\.eslintrc[^/]*|eslint\.config\.[cm]?[jt]s|\.eslintignore|\.prettierrc[^/]*|prettier\.config\.[cm]?[jt]s|\.prettierignore|\.flake8|\.pylintrc|pylintrc|ruff\.toml|\.ruff\.toml|mypy\.ini|\.mypy\.ini|\.golangci\.ya?ml|biome\.jsonc?|\.stylelintrc[^/]*|\.markdownlint[^/]*)$/;
const CI_FILE =
  /(?:^|\/)(?:Makefile|GNUmakefile|makefile|Jenkinsfile|\.gitlab-ci\.ya?ml|azure-pipelines[^/]*\.ya?ml|\.travis\.ya?ml|bitbucket-pipelines\.ya?ml|lefthook\.ya?ml|\.pre-commit-config\.ya?ml)$|(?:^|\/)(?:\.github\/workflows|\.circleci|\.ci|\.husky)\//;
const TEST_DATA = /(?:^|\/)(?:__fixtures__|fixtures|testdata|test-data|test_data|__snapshots__|__mocks__|snapshots)\//;
const SNAPSHOT = /\.(?:snap|ambr)$/;

/** Files of which only some fields or sections are protected (see {@link protectedSectionsOf}). */
export const isSectionFile = (p: string): boolean =>
  /^(?:package\.json|pyproject\.toml|setup\.cfg|tsconfig[^/]*\.json)$/.test(base(p));

/**
 * The protection a file gets by convention, or undefined: `test` (test files by jest/vitest/mocha, pytest and go test
 * conventions, snapshots), `test_data` (`fixtures/`, `__fixtures__/`, `testdata/`, `__snapshots__/`, `__mocks__/`),
 * `runner_config` (jest/vitest/mocha/karma/playwright/pytest/tox/coverage configuration, `conftest.py`, test setup
 * files), `lint_config`, `ci` (CI pipelines, Makefiles, git hooks) and `sections` (package.json, pyproject.toml,
 * setup.cfg and tsconfig*.json: only their test, lint and strictness fields).
 */
export function conventionKind(p: string): ProtectedKind | undefined {
  const b = base(p);
  if (RUNNER_CONFIG.test(b)) return 'runner_config';
  if (isSectionFile(p)) return 'sections';
  if (isTestFile(p) || SNAPSHOT.test(b)) return TEST_DATA.test(p) && !isCodeFile(p) ? 'test_data' : 'test';
  if (TEST_DATA.test(p)) return 'test_data';
  if (LINT_CONFIG.test(b)) return 'lint_config';
  if (CI_FILE.test(p)) return 'ci';
  return undefined;
}

/** Kinds whose NEW files the verification removes: configuration that could narrow the original run. */
export const isConfigKind = (k: ProtectedKind | undefined): boolean =>
  k === 'runner_config' || k === 'ci' || k === 'lint_config';

const CODE_EXT = /\.(?:[cm]?[jt]sx?|py|pyi|go|rs|java|kt|kts|rb|php|c|h|cc|cpp|hpp|cs|swift|scala|vue|svelte)$/;
/** Whether a path is source code (product code, unless it is a test). */
export const isCodeFile = (p: string): boolean => CODE_EXT.test(p);

/** Verbs by which a task asks for a file to be changed (a mention alone, "the failing tests are in X", is not one). */
const CHANGE_VERB =
  /\b(?:renam\w*|mov(?:e|es|ed|ing)|split\w*|merg\w*|updat\w*|edit\w*|rewrit\w*|refactor\w*|replac\w*|remov\w*|delet\w*|add|adds|added|adding|extend\w*|adjust\w*|modif\w*|chang\w*|fix\w*)\b/;
/** "fix" next to passing/failing asks for the code to be fixed, not the test. */
const WEAK_VERB = /\bfix\w*\b/;
const PASS_FAIL = /\b(?:pass\w*|fail\w*)\b/;
const NEGATION = /\b(?:do not|don't|dont|never|must not|mustn't|should not|shouldn't|without|not)\b/;

/**
 * Whether the task text asks for a file to be changed: it names the file (its full path, or its file name with its
 * extension as a whole word, case-insensitive) in a sentence with a change verb (rename, move, split, update, edit,
 * remove, add...) and no negation. Naming a test as the reference ("the failing tests are in X", "make X pass") does
 * not make it editable: that is exactly where an agent would tamper.
 */
export function taskNames(task: string, p: string): boolean {
  const b = base(p).toLowerCase();
  const byName = b.includes('.') && b.length >= 4;
  const nameRe = new RegExp(`(?:^|[^\\w./-])${escapeRe(b)}(?![\\w-]|\\.\\w)`);
  // Sentences end at . ! ? followed by white space (not the dots inside file names), or at line ends.
  for (const sentence of task.toLowerCase().split(/[.!?](?=\s|$)|\n/)) {
    if (!sentence.includes(p.toLowerCase()) && !(byName && nameRe.test(sentence))) continue;
    if (NEGATION.test(sentence)) continue;
    const verbs = sentence.match(new RegExp(CHANGE_VERB.source, 'g')) ?? [];
    const strong = verbs.some((v) => !WEAK_VERB.test(v));
    if (strong || (verbs.length > 0 && !PASS_FAIL.test(sentence))) return true;
  }
  return false;
}

/** Splits a shell command line into words (quotes removed, operators dropped). */
export function shellWords(cmd: string): string[] {
  const words: string[] = [];
  for (const m of cmd.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'"|&;<>()]+)/g)) {
    const w = m[1] ?? m[2] ?? m[3];
    if (w) words.push(w);
  }
  return words;
}

/** Scripts of package.json a command runs (`npm test`, `npm run x`, `yarn x`, `pnpm x`), with their pre/post scripts. */
export function scriptsRun(cmd: string, scripts: Record<string, string>): string[] {
  const out: string[] = [];
  const w = shellWords(cmd);
  for (let i = 0; i < w.length; i++) {
    const tool = base(w[i]);
    if (!['npm', 'yarn', 'pnpm', 'bun'].includes(tool)) continue;
    let j = i + 1;
    while (j < w.length && w[j].startsWith('-')) j++;
    let name = w[j];
    if (name === 'run' || name === 'run-script') {
      j++;
      while (j < w.length && w[j].startsWith('-')) j++;
      name = w[j];
    } else if (name === 't' || name === 'tst') name = 'test';
    if (name && scripts[name] !== undefined) out.push(`pre${name}`, name, `post${name}`);
  }
  return out.filter((s) => scripts[s] !== undefined);
}

/**
 * Programs that only INSPECT the files they are given: a file a check greps, tests for or counts is what the task
 * changes, not part of the check (`grep -q v2 api.txt`). Interpreters, runners and comparisons (`diff expected out`,
 * `cat expected | ...`) keep their files protected.
 */
const INSPECTORS = new Set([
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'test',
  '[',
  '[[',
  'wc',
  'jq',
  'yq',
  'head',
  'tail',
  'stat',
  'ls',
  'file',
  'du',
  'find',
]);

/** The words of each simple command of a command line (split at `|`, `&&`, `||`, `;`, outside quotes). */
function simpleCommands(cmd: string): string[][] {
  const parts: string[] = [];
  let cur = '';
  let quote = '';
  for (let i = 0; i < cmd.length; i++) {
    const c = cmd[i];
    if (quote) {
      if (c === quote) quote = '';
      cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      cur += c;
    } else if (c === '|' || c === ';' || (c === '&' && cmd[i + 1] === '&')) {
      parts.push(cur);
      cur = '';
      if (cmd[i + 1] === c) i++;
    } else cur += c;
  }
  parts.push(cur);
  return parts.map(shellWords).filter((w) => w.length > 0);
}

/** A simple command's program, past `VAR=value` assignments and `sudo`/`env`/`command`/`!`. */
function programOf(words: string[]): string {
  let i = 0;
  while (i < words.length && (/^\w+=/.test(words[i]) || ['sudo', 'env', 'command', '!', 'exec'].includes(words[i])))
    i++;
  return (words[i] ?? '').split('/').pop() ?? '';
}

/**
 * Files of the workspace that the commands name (`node test/run.js`, `./check.sh`, `--config jest.ci.config.js`), and
 * those named by the package.json scripts the commands run (two levels: a script may run another). Files only an
 * inspecting program reads (`grep -q v2 api.txt`, `test -f out.txt`; see {@link INSPECTORS}) are not included: they
 * are the work the check looks at, and a task that changes them must be able to pass unattended.
 */
export function filesNamedByCommands(
  commands: string[],
  files: ReadonlySet<string>,
  scripts: Record<string, string> = {},
): string[] {
  const found = new Set<string>();
  const seen = new Set<string>();
  const visit = (cmd: string, depth: number): void => {
    for (const words of simpleCommands(cmd)) {
      if (INSPECTORS.has(programOf(words))) continue;
      for (const raw of words) {
        for (const w of [raw, ...(raw.includes('=') ? [raw.slice(raw.indexOf('=') + 1)] : [])]) {
          const p = w.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
          if (files.has(p)) found.add(p);
        }
      }
    }
    if (depth >= 2) return;
    for (const s of scriptsRun(cmd, scripts)) {
      if (seen.has(s)) continue;
      seen.add(s);
      visit(scripts[s], depth + 1);
    }
  };
  for (const c of commands) visit(c, 0);
  return [...found].sort();
}

const dirOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** Normalises `a/./b/../c` to `a/c`; undefined when it climbs above the root. */
function normalise(p: string): string | undefined {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (!out.length) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

/**
 * Data files a test reads: string literals of its text that resolve (against the test's folder, its parent or the
 * root; a bare file name anywhere under the test's parent folder) to a workspace file that is not source code.
 */
export function dataFilesOf(
  testPath: string,
  text: string,
  files: readonly string[],
  fileSet: ReadonlySet<string>,
): string[] {
  const found = new Set<string>();
  const dir = dirOf(testPath);
  const parent = dirOf(dir);
  for (const m of text.matchAll(/'([^'\n]{2,200})'|"([^"\n]{2,200})"|`([^`$\n]{2,200})`/g)) {
    const lit = (m[1] ?? m[2] ?? m[3]).trim();
    if (!/\.\w{1,8}$/.test(lit) || /\s/.test(lit) || isCodeFile(lit)) continue;
    for (const from of [dir, parent, '']) {
      const p = normalise(from ? `${from}/${lit}` : lit);
      if (p !== undefined && fileSet.has(p)) found.add(p);
    }
    if (!lit.includes('/')) {
      const under = parent ? `${parent}/` : '';
      for (const f of files) if (base(f) === lit && f.startsWith(under)) found.add(f);
    }
  }
  return [...found].filter((f) => !isCodeFile(f)).sort();
}

/**
 * Computes the protected set: every file protected by convention ({@link conventionKind}), the data files the tests
 * read, the files the commands name and the `protect` globs; minus the files the task names and the `allow` globs,
 * which are listed as allowed instead (with the reason).
 */
export function computeProtectedSet(input: ProtectedSetInput): ProtectedSet {
  const fileSet = new Set(input.files);
  const kinds = new Map<string, ProtectedKind>();
  const add = (p: string, k: ProtectedKind): void => {
    if (!kinds.has(p)) kinds.set(p, k);
  };
  for (const f of input.files) {
    if (matchesAny(f, input.protect)) add(f, isSectionFile(f) ? 'sections' : 'user');
  }
  for (const f of filesNamedByCommands(input.commands, fileSet, input.scripts))
    add(f, isSectionFile(f) ? 'sections' : 'named_by_check');
  for (const f of input.files) {
    const k = conventionKind(f);
    if (k) add(f, k);
  }
  for (const [t, text] of Object.entries(input.testTexts ?? {}))
    for (const f of dataFilesOf(t, text, input.files, fileSet)) add(f, 'test_data');

  const out: ProtectedSet = { protected: [], allowed: [] };
  for (const [p, kind] of [...kinds].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const reason = allowReason(p, input);
    if (reason) out.allowed.push({ path: p, reason, kind });
    else out.protected.push({ path: p, kind });
  }
  return out;
}

/** Why the loop lets the agent change a path it would otherwise protect, or undefined. */
export function allowReason(p: string, r: { task: string; allow: string[] }): 'task' | 'allow' | undefined {
  if (matchesAny(p, r.allow)) return 'allow';
  if (taskNames(r.task, p)) return 'task';
  return undefined;
}
