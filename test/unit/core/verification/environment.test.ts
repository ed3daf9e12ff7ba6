import {
  describeEnvironmentChanges,
  environmentReason,
  isBuildOutput,
  newIgnoredPaths,
} from '../../../../src/core/verification/environment';
import { classifyWork } from '../../../../src/core/verification/classify';

describe('environmentReason: the allow-list of work', () => {
  it.each([
    ['.npmrc', 'added', 'dotfile'],
    ['.yarnrc.yml', 'added', 'dotfile'],
    ['src/.babelrc', 'added', 'dotfile'],
    ['.config/pip/pip.conf', 'added', 'dotfile'],
    ['pytest.toml', 'added', 'tool_config'],
    ['tests/pytest.toml', 'added', 'tool_config'],
    ['bunfig.toml', 'added', 'tool_config'],
    ['setup.ini', 'modified', 'tool_config'],
    ['babel.config.js', 'added', 'tool_config'],
    ['deno.json', 'added', 'tool_config'],
    ['renovate.json', 'modified', 'tool_config'],
    ['sitecustomize.py', 'added', 'startup_file'],
    ['src/evil.pth', 'added', 'startup_file'],
    ['pkg/go.mod', 'added', 'nested_module'],
    ['go.work', 'added', 'nested_module'],
    ['src/node_modules/expect/index.js', 'added', 'dependency_folder'],
    ['vendor/github.com/stretchr/testify/assert/assertions.go', 'modified', 'dependency_folder'],
  ] as const)('%s (%s) is environment: %s', (p, change, reason) => {
    expect(environmentReason(p, change)).toBe(reason);
  });

  it.each([
    ['src/index.ts', 'modified'],
    ['src/config.ts', 'modified'],
    ['lib/parser.py', 'added'],
    ['README.md', 'modified'],
    ['docs/guide.md', 'added'],
    ['api.txt', 'modified'],
    ['src/data/countries.json', 'added'],
    ['locales/en.yaml', 'modified'],
    ['package-lock.json', 'modified'],
    ['requirements.txt', 'modified'],
    ['go.mod', 'modified'],
    ['go.sum', 'modified'],
    ['Cargo.toml', 'modified'],
    ['bin/cli', 'added'],
    ['main.go', 'added'],
  ] as const)('%s (%s) is work', (p, change) => {
    expect(environmentReason(p, change)).toBeUndefined();
  });
});

describe('new ignored paths', () => {
  it('counts a new ignored or excluded file, not build outputs, caches or dependency folders', () => {
    const baseline = ['node_modules', '.env.local'];
    const now = [
      '.env.local',
      '.npmrc',
      'coverage',
      'dist',
      'node_modules',
      '.pytest_cache',
      'src/__pycache__',
      'app.log',
      'secret-runner.cfg',
      'pkg.egg-info',
    ];
    expect(newIgnoredPaths(baseline, now)).toEqual(['.npmrc', 'secret-runner.cfg']);
    expect(newIgnoredPaths(undefined, now)).toEqual([]);
    expect(isBuildOutput('build/out.js')).toBe(true);
    expect(isBuildOutput('.npmrc')).toBe(false);
  });
});

describe('classifyWork with the allow-list', () => {
  const set = { protected: [{ path: 'package.json', kind: 'sections' as const }], allowed: [] };
  const rules = { protect: [], allow: [], task: 'fix the parser' };

  it('leaves environment out of the tree without calling it protected, keeps work and new tests', () => {
    const plan = classifyWork({
      baseline: { 'package.json': 'p1', 'src/a.ts': 'a1', '.npmrc': 'n1' },
      current: {
        'package.json': 'p2',
        'src/a.ts': 'a2',
        '.npmrc': 'n2',
        'pytest.toml': 't',
        'src/a.test.ts': 'x',
        'README.md': 'r',
      },
      set,
      rules,
      sections: { 'package.json': [] },
      environmentSections: { 'package.json': ['scripts.pretest'] },
    });
    expect(plan.protectedChanges).toEqual([]);
    expect(plan.environmentChanges).toEqual([
      { path: '.npmrc', change: 'modified', reason: 'dotfile' },
      { path: 'package.json', change: 'modified', reason: 'script_entry', sections: ['scripts.pretest'] },
      { path: 'pytest.toml', change: 'added', reason: 'tool_config' },
    ]);
    expect(plan).toMatchObject({
      restore: ['.npmrc'],
      merge: ['package.json'],
      remove: ['pytest.toml'],
      newTests: ['src/a.test.ts'],
    });
    expect(describeEnvironmentChanges(plan.environmentChanges)).toEqual([
      'M .npmrc (dotfile)',
      'M package.json: scripts.pretest (new package script)',
      'A pytest.toml (tool configuration)',
    ]);
  });

  it('keeps an environment file the task asks to change', () => {
    const plan = classifyWork({
      baseline: {},
      current: { '.npmrc': 'n' },
      set: { protected: [], allowed: [] },
      rules: { protect: [], allow: [], task: 'Add an .npmrc with save-exact=true.' },
      sections: {},
    });
    expect(plan.environmentChanges).toEqual([]);
    expect(plan.remove).toEqual([]);
  });
});
