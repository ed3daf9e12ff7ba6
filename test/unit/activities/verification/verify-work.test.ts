import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { recordVerificationBaseline } from '../../../../src/activities/verification/record-baseline';
import { readManifest } from '../../../../src/state/manifest';
import { installCommand, verifyWork, type VerifyWorkInput } from '../../../../src/activities/verification/verify-work';
import { revertProtectedChanges } from '../../../../src/activities/verification/revert-protected';
import { createCheckpoint } from '../../../../src/activities/workspace/checkpoint';
import type { GateSpec } from '../../../../src/config/gates-config';

const git = (dir: string, ...a: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: dir, encoding: 'utf8' });

const RUN_JS = `const fs = require('fs');
const path = require('path');
const failures = [];
if (!fs.existsSync(path.join(__dirname, '..', 'hello.txt'))) failures.push('hello.txt is missing');
else if (fs.readFileSync(path.join(__dirname, '..', 'hello.txt'), 'utf8').trim() !== 'hello') failures.push('hello.txt must say hello');
// Every test/*.test.js file runs, unless jest.config.js ignores it.
const cfg = fs.existsSync(path.join(__dirname, '..', 'jest.config.js')) ? require('../jest.config.js') : {};
for (const f of fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js'))) {
  if ((cfg.testPathIgnorePatterns || []).some((p) => f.includes(p))) continue;
  try { require('./' + f); } catch (e) { failures.push(f + ': ' + e.message); }
}
if (failures.length) { console.error('FAIL ' + failures.join('; ')); process.exit(1); }
console.log('ok');
`;

/** A workspace with the hello.txt task: `node test/run.js` passes once hello.txt says hello. */
function workspace(kind: 'git' | 'dir'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ralph-verify-${kind}-`));
  const files: Record<string, string> = {
    'package.json':
      JSON.stringify({ name: 'w', scripts: { test: 'node test/run.js' }, dependencies: {} }, null, 2) + '\n',
    'test/run.js': RUN_JS,
    'test/dep.test.js': "if (require('dep').answer() !== 42) throw new Error('dep broke');\n",
    'test/format.test.js':
      "const { format } = require('../src/format');\nif (format(1000) !== '1s') throw new Error('format(1000) should be 1s');\n",
    'src/format.js': 'exports.format = (ms) => `${ms / 1000}s`;\n',
    '.gitignore': 'node_modules/\n.ralph/\n',
    // An installed dependency: ignored by git, linked into the verification tree.
    'node_modules/dep/index.js': 'exports.answer = () => 42;\n',
  };
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), text);
  }
  if (kind === 'git') {
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'init');
  }
  return dir;
}

const write = (dir: string, p: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
  fs.writeFileSync(path.join(dir, p), text);
};

async function setUp(kind: 'git' | 'dir', task = 'create hello.txt so the tests pass', command = 'node test/run.js') {
  const dir = workspace(kind);
  const base = { loopId: 'l1', workspace: dir, stateDir: path.join(dir, '.ralph') };
  const baseline = await recordVerificationBaseline({
    ...base,
    prompt: task,
    commands: [command],
    verification: { protect: [], allow: [], hookPolicy: 'deny' },
  });
  const verify = async (o: Partial<VerifyWorkInput> = {}) => {
    await createCheckpoint({ ...base, label: 'iter-001-post' });
    return verifyWork({ ...base, iteration: 1, post: 'iter-001-post', command, timeoutSeconds: 60, gates: [], ...o });
  };
  return { dir, base, baseline, verify };
}

const tmpTrees = () =>
  fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('ralph-verify-') && !/-(git|dir)-/.test(f));

describe('recordVerificationBaseline', () => {
  it('records the protected set and a baseline checkpoint once, whatever changes later', async () => {
    const { dir, base, baseline } = await setUp('git');
    expect(baseline).toMatchObject({ kind: 'git', ref: 'refs/ralph/l1/verification-baseline', allowedCount: 0 });
    const m = readManifest(base.stateDir, 'l1')!;
    expect(m.protected).toEqual([
      { path: 'package.json', kind: 'sections' },
      { path: 'test/dep.test.js', kind: 'test' },
      { path: 'test/format.test.js', kind: 'test' },
      { path: 'test/run.js', kind: 'named_by_check' },
    ]);
    write(dir, 'test/run.js', 'console.log("ok")\n');
    const again = await recordVerificationBaseline({
      ...base,
      prompt: 'x',
      commands: [],
      verification: { protect: [], allow: [], hookPolicy: 'deny' },
    });
    expect(again.commit).toBe(baseline.commit);
  });
});

describe('verifyWork in a git workspace', () => {
  it('sends the work to the tree when a runner config hidden by .gitignore appears, and names it when the original run fails', async () => {
    const { dir, verify } = await setUp('git');
    write(dir, 'hello.txt', 'hello\n');
    write(dir, 'src/format.js', 'exports.format = () => "?";\n');
    // The repository ignores *.config.js: the new config is in no checkpoint, yet the runner reads it.
    write(dir, '.gitignore', 'node_modules/\n.ralph/\n*.config.js\n');
    write(dir, 'jest.config.js', "module.exports = { testPathIgnorePatterns: ['format'] };\n");
    expect(execFileSync('node', ['test/run.js'], { cwd: dir, encoding: 'utf8' })).toContain('ok');
    const r = await verify();
    expect(r).toMatchObject({ passed: false, ran: true, ignoredConfigs: ['jest.config.js'] });
    expect(r.protectedChanges).toContainEqual({ path: 'jest.config.js', change: 'added', kind: 'runner_config' });
    expect(r.failureTail).toContain('format(1000) should be 1s');
  });
});

describe.each(['git', 'dir'] as const)('verifyWork in a %s workspace', (kind) => {
  it('fails work that passes only because the test was rewritten, with the diff and the original failure', async () => {
    const { dir, verify } = await setUp(kind);
    write(dir, 'test/run.js', 'console.log("ok");\n');
    const before = tmpTrees();
    const r = await verify();
    expect(r).toMatchObject({
      passed: false,
      ran: true,
      protectedChanges: [{ path: 'test/run.js', change: 'modified', kind: 'named_by_check' }],
      check: { passed: false, exitCode: 1 },
    });
    expect(r.failureTail).toContain('hello.txt is missing');
    expect(fs.readFileSync(r.diffPath!, 'utf8')).toContain('+console.log("ok");');
    expect(r.diffSummary).toMatch(/^test\/run\.js \| \+1 -\d+/);
    // The gate's evidence: the diff per file and hunk, and the failure from its first error line.
    expect(r.diff).toMatchObject({ path: r.diffPath, files: [{ path: 'test/run.js', change: 'modified', added: 1 }] });
    expect(r.diff!.files[0].hunks[0].lines).toContain('+console.log("ok");');
    expect(r.failure?.headline).toContain('hello.txt is missing');
    expect(r.failure?.path).toBe(r.check?.outputPath);
    // The tree is gone, the workspace and its dependencies are as the agent left them.
    expect(tmpTrees()).toEqual(before);
    expect(fs.readFileSync(path.join(dir, 'test/run.js'), 'utf8')).toBe('console.log("ok");\n');
    expect(fs.existsSync(path.join(dir, 'node_modules/dep/index.js'))).toBe(true);
    if (kind === 'git') expect(git(dir, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
  });

  it('accepts an honest fix without re-running anything when only product files changed', async () => {
    const { dir, verify } = await setUp(kind);
    write(dir, 'hello.txt', 'hello\n');
    write(dir, 'src/format.js', 'exports.format = (ms) => `${ms / 1000}s`; // seconds\n');
    const r = await verify();
    expect(r).toMatchObject({ passed: true, ran: false, protectedChanges: [], newTests: [] });
  });

  it('accepts an honest fix with a new test after running the original tests alone, then with it', async () => {
    const { dir, verify } = await setUp(kind);
    write(dir, 'hello.txt', 'hello\n');
    write(
      dir,
      'test/hello.test.js',
      "if (!require('fs').existsSync(__dirname + '/../hello.txt')) throw new Error('x');\n",
    );
    const r = await verify();
    expect(r).toMatchObject({ passed: true, ran: true, protectedChanges: [], newTests: ['test/hello.test.js'] });
    expect(r.failedPass).toBeUndefined();
  });

  it('rejects a new test file that makes the original tests pass (the first run leaves it out)', async () => {
    const { dir, verify } = await setUp(kind);
    // No hello.txt: the original tests fail. The new "test" runs in their process and forces its exit code, as a Go
    // TestMain that exits 0 does.
    write(dir, 'test/aaa.test.js', 'process.exit = ((exit) => () => exit(0))(process.exit);\n');
    execFileSync('node', ['test/run.js'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    const r = await verify();
    expect(r).toMatchObject({ passed: false, ran: true, failedPass: 'original', newTests: ['test/aaa.test.js'] });
    expect(r.failureTail).toContain('hello.txt is missing');
  });

  it('lets the second run judge a coverage threshold that fails only without the new tests', async () => {
    const cov =
      "const covered = require('fs').existsSync(__dirname + '/test/extra.test.js');\n" +
      "console.log('Tests:       2 passed, 2 total');\n" +
      'if (!covered) { console.error(\'Jest: "global" coverage threshold for lines (100%) not met: 90%\'); process.exit(1); }\n';
    const { dir, verify } = await setUp(kind, 'create hello.txt so the tests pass', 'node cov.js');
    write(dir, 'cov.js', cov);
    write(dir, 'test/extra.test.js', '// covers the new branch\n');
    const r = await verify({ command: 'node cov.js' });
    expect(r).toMatchObject({ passed: true, ran: true, newTests: ['test/extra.test.js'] });
  });

  it('rejects work whose new test files fail in the second run', async () => {
    const { dir, verify } = await setUp(kind);
    write(dir, 'hello.txt', 'hello\n');
    write(
      dir,
      'test/zzz.test.js',
      "if (process.env.PYTHONPYCACHEPREFIX) throw new Error('new test fails in the tree');\n",
    );
    const r = await verify();
    expect(r).toMatchObject({ passed: false, ran: true, failedPass: 'new-tests' });
    expect(r.failureTail).toContain('new test fails in the tree');
  });

  it('leaves a new .npmrc and a new pretest script out of the tree, and accepts when the original checks still pass', async () => {
    const { dir, verify } = await setUp(kind);
    write(dir, 'hello.txt', 'hello\n');
    write(dir, '.npmrc', 'save-exact=true\n');
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    pkg.scripts.lint = 'echo lint';
    write(dir, 'package.json', JSON.stringify(pkg, null, 2) + '\n');
    const r = await verify();
    expect(r).toMatchObject({ passed: true, ran: true, protectedChanges: [] });
    expect(r.environmentChanges).toEqual([
      { path: '.npmrc', change: 'added', reason: 'dotfile' },
      { path: 'package.json', change: 'modified', reason: 'script_entry', sections: ['scripts.lint'] },
    ]);
  });

  it('rejects work that passes only through a new .npmrc whose node-options force the exit code, naming it', async () => {
    const { dir, verify } = await setUp(kind, 'create hello.txt so the tests pass', 'npm test --silent');
    write(dir, 'pass.js', 'process.exit = ((e) => () => e(0))(process.exit);\n');
    write(dir, '.npmrc', 'node-options=--require ./pass.js\n');
    if (kind === 'git') fs.appendFileSync(path.join(dir, '.git/info/exclude'), '.npmrc\n');
    expect(execFileSync('npm', ['test', '--silent'], { cwd: dir, encoding: 'utf8' })).not.toContain('FAIL');
    const r = await verify();
    expect(r).toMatchObject({ passed: false, ran: true, protectedChanges: [] });
    expect(r.failureTail).toContain('hello.txt is missing');
    expect(r.environmentChanges).toContainEqual({
      path: '.npmrc',
      change: 'added',
      reason: kind === 'git' ? 'ignored' : 'dotfile',
    });
    // Put back alone, it makes the original check pass: it is what made the difference.
    expect(r.madeTheDifference).toEqual(['.npmrc']);
    expect(fs.readFileSync(path.join(dir, '.npmrc'), 'utf8')).toContain('node-options');
  });

  it('sends a changed dependency folder to a human when no install command is known, and installs afresh when one is', async () => {
    const { dir, verify } = await setUp(kind);
    // No hello.txt. The agent's edit inside node_modules forces the exit code of every process that loads `dep`.
    write(
      dir,
      'node_modules/dep/index.js',
      'exports.answer = () => 42;\nprocess.exit = ((e) => () => e(0))(process.exit);\n',
    );
    execFileSync('node', ['test/run.js'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    const r = await verify();
    expect(r.dependencyChanges).toEqual([{ path: 'node_modules', change: 'modified', before: 2, after: 2 }]);
    expect(r.protectedChanges).toContainEqual({ path: 'node_modules', change: 'modified', kind: 'dependencies' });
    const install = "mkdir -p node_modules/dep && echo 'exports.answer = () => 42;' > node_modules/dep/index.js";
    const fresh = await verify({ install });
    expect(fresh).toMatchObject({ passed: false, ran: true, install: { command: install, passed: true } });
    expect(fresh.protectedChanges).toEqual([]);
    expect(fresh.failureTail).toContain('hello.txt is missing');
    // The workspace's own dependency folder is as the agent left it.
    expect(fs.readFileSync(path.join(dir, 'node_modules/dep/index.js'), 'utf8')).toContain('process.exit');
  });

  it('restores a deleted test and removes a new jest.config.js that ignores the failing one', async () => {
    const { dir, verify } = await setUp(kind);
    write(dir, 'hello.txt', 'hello\n');
    write(dir, 'src/format.js', 'exports.format = () => "?";\n');
    fs.rmSync(path.join(dir, 'test/dep.test.js'));
    write(dir, 'jest.config.js', "module.exports = { testPathIgnorePatterns: ['format'] };\n");
    const r = await verify();
    expect(r.passed).toBe(false);
    expect(r.protectedChanges).toEqual([
      { path: 'jest.config.js', change: 'added', kind: 'runner_config' },
      { path: 'test/dep.test.js', change: 'deleted', kind: 'test' },
    ]);
    expect(r.failureTail).toContain('format(1000) should be 1s');
    // The linked node_modules served the restored dep test: it is not among the failures.
    expect(r.failureTail).not.toContain('dep');
  });

  it('passes when a protected edit does not change the outcome, and says what changed', async () => {
    const { dir, verify } = await setUp(kind);
    write(dir, 'hello.txt', 'hello\n');
    write(dir, 'test/format.test.js', fs.readFileSync(path.join(dir, 'test/format.test.js'), 'utf8') + '// reviewed\n');
    const r = await verify();
    expect(r).toMatchObject({
      passed: true,
      ran: true,
      protectedChanges: [{ path: 'test/format.test.js', change: 'modified' }],
    });
  });
});

describe('verifyWork', () => {
  it.each(['git', 'dir'] as const)(
    'reverts the protected changes in a %s workspace and keeps the rest of the work',
    async (kind) => {
      const { dir, base, verify } = await setUp(kind);
      write(dir, 'hello.txt', 'hello\n');
      write(dir, 'test/format.test.js', '// weakened\n');
      write(dir, 'jest.config.js', 'module.exports = {};\n');
      fs.rmSync(path.join(dir, 'test/dep.test.js'));
      const original = fs.readFileSync(path.join(dir, 'package.json'), 'utf8');
      write(dir, 'package.json', original.replace('node test/run.js', 'echo ok'));
      const r = await verify();
      expect(r.passed).toBe(true);
      const rev = await revertProtectedChanges({ ...base, iteration: 1 });
      expect(rev).toMatchObject({ restored: 2, removed: 1, merged: 1 });
      expect(fs.readFileSync(path.join(dir, 'test/format.test.js'), 'utf8')).toContain("format(1000) !== '1s'");
      expect(fs.existsSync(path.join(dir, 'test/dep.test.js'))).toBe(true);
      expect(fs.existsSync(path.join(dir, 'jest.config.js'))).toBe(false);
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).scripts.test).toBe('node test/run.js');
      expect(fs.readFileSync(path.join(dir, 'hello.txt'), 'utf8')).toBe('hello\n');
      if (kind === 'git') expect(git(dir, 'status', '--porcelain')).toBe('?? hello.txt\n');
    },
  );

  it('refuses a manifest the agent changed after loop start', async () => {
    const { base, baseline, verify } = await setUp('git');
    const file = path.join(base.stateDir, 'loops/l1/verification/manifest.json');
    const m = JSON.parse(fs.readFileSync(file, 'utf8'));
    m.protected = [];
    fs.writeFileSync(file, JSON.stringify(m));
    await expect(verify({ integrity: baseline.integrity })).rejects.toThrow(
      /verification manifest was changed after loop start/,
    );
  });

  it('restores the test script of package.json (`|| true`) and keeps a new dependency', async () => {
    const { dir, verify } = await setUp('git', 'create hello.txt', 'npm test --silent');
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    pkg.scripts.test = 'node test/run.js || true';
    pkg.dependencies.dep = '1.0.0';
    write(dir, 'package.json', JSON.stringify(pkg, null, 2));
    const r = await verify();
    expect(r).toMatchObject({
      passed: false,
      protectedChanges: [{ path: 'package.json', change: 'modified', kind: 'sections', sections: ['scripts.test'] }],
    });
    expect(r.failureTail).toContain('hello.txt is missing');
  });

  it('runs the gates in the verification tree and reports their verdicts', async () => {
    const { dir, verify } = await setUp('git');
    write(dir, 'test/run.js', 'console.log("ok");\n');
    const gate = {
      name: 'tests',
      kind: 'custom',
      command: 'node test/run.js',
      cwd: '.',
      timeoutSeconds: 60,
      maxAttempts: 1,
      enabled: true,
      thresholds: {},
    } as GateSpec;
    const r = await verify({ command: undefined, gates: [gate] });
    expect(r.passed).toBe(false);
    expect(r.verdicts).toEqual([expect.objectContaining({ name: 'tests', passed: false })]);
    expect(r.failureTail).toContain('tests:');
  });

  it('runs the original pytest suite: an xfail mark and a conftest hook deselecting the test do not count', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-verify-git-py-'));
    write(dir, 'slug.py', 'def slugify(s):\n    return s\n');
    write(
      dir,
      'tests/test_slug.py',
      'from slug import slugify\n\ndef test_slug():\n    assert slugify("Hello World") == "hello-world"\n',
    );
    write(dir, 'pytest.ini', '[pytest]\npythonpath = .\naddopts = -p no:cacheprovider\n');
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'init');
    const base = { loopId: 'py', workspace: dir, stateDir: path.join(dir, '.ralph') };
    const command = 'python3 -m pytest -q';
    await recordVerificationBaseline({
      ...base,
      prompt: 'slugify',
      commands: [command],
      verification: { protect: [], allow: [], hookPolicy: 'deny' },
    });
    write(
      dir,
      'tests/test_slug.py',
      'import pytest\nfrom slug import slugify\n\n@pytest.mark.xfail\ndef test_slug():\n    assert slugify("Hello World") == "hello-world"\n',
    );
    write(
      dir,
      'tests/conftest.py',
      'def pytest_collection_modifyitems(config, items):\n    items[:] = [i for i in items if "slug" not in i.name]\n',
    );
    await createCheckpoint({ ...base, label: 'post' });
    const r = await verifyWork({ ...base, iteration: 1, post: 'post', command, timeoutSeconds: 60, gates: [] });
    expect(r.protectedChanges).toEqual([
      { path: 'tests/conftest.py', change: 'added', kind: 'runner_config' },
      { path: 'tests/test_slug.py', change: 'modified', kind: 'test' },
    ]);
    expect(r.passed).toBe(false);
    expect(r.failureTail).toMatch(/1 failed/);
  });

  it('reports cheating the checks cannot see: a special-cased test input and a test-only switch', async () => {
    const { dir, verify } = await setUp('git');
    write(dir, 'hello.txt', 'hello\n');
    write(
      dir,
      'src/format.js',
      "exports.format = (ms) => {\n  if (ms === 1000) return '1s';\n  if (process.env.NODE_ENV === 'test') return '';\n  return String(ms);\n};\n",
    );
    const r = await verify();
    expect(r.passed).toBe(true);
    expect(r.detections.map((d) => [d.type, d.severity])).toEqual([
      ['special_cased_test_input', 'critical'],
      ['test_only_switch', 'critical'],
    ]);
  });

  it('verifies a workspace in a subfolder of a repository', async () => {
    const top = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-verify-git-sub-'));
    write(top, 'other/readme.md', 'x\n');
    write(top, 'app/test/run.js', RUN_JS);
    git(top, 'init', '-q', '-b', 'main');
    git(top, 'add', '-A');
    git(top, 'commit', '-q', '-m', 'init');
    const dir = path.join(top, 'app');
    const base = { loopId: 'sub', workspace: dir, stateDir: path.join(dir, '.ralph') };
    const command = 'node test/run.js';
    await recordVerificationBaseline({
      ...base,
      prompt: 'hello',
      commands: [command],
      verification: { protect: [], allow: [], hookPolicy: 'deny' },
    });
    write(dir, 'test/run.js', 'console.log("ok");\n');
    await createCheckpoint({ ...base, label: 'post' });
    const r = await verifyWork({ ...base, iteration: 1, post: 'post', command, timeoutSeconds: 60, gates: [] });
    expect(r).toMatchObject({ passed: false, protectedChanges: [{ path: 'test/run.js' }] });
    expect(r.failureTail).toContain('hello.txt is missing');
  });
});

describe('installCommand: the fresh install a changed dependency folder gets', () => {
  const ws = (...files: string[]): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-install-'));
    for (const f of files) fs.writeFileSync(path.join(dir, f), '');
    return dir;
  };
  const nm = [{ path: 'node_modules', change: 'modified' as const }];
  const venv = [{ path: '.venv', change: 'modified' as const }];
  it.each([
    [['package-lock.json'], nm, 'npm ci --prefer-offline --no-audit --no-fund'],
    [['pnpm-lock.yaml'], nm, 'pnpm install --frozen-lockfile --prefer-offline'],
    [['yarn.lock'], nm, 'yarn install --frozen-lockfile --prefer-offline'],
    [['uv.lock'], venv, 'uv sync --frozen'],
    [['requirements.txt'], venv, 'python3 -m venv .venv && .venv/bin/pip install -q -r requirements.txt'],
    [['package-lock.json'], venv, undefined],
    [[], nm, undefined],
  ])('%j with %j changed: %s', (files, changed, want) => {
    expect(installCommand({ workspace: ws(...files) }, changed)).toBe(want);
  });
  it('prefers verification.install', () => {
    expect(installCommand({ workspace: ws('package-lock.json'), install: 'make deps' }, nm)).toBe('make deps');
  });
});
