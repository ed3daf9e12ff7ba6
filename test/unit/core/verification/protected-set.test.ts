import {
  computeProtectedSet,
  conventionKind,
  dataFilesOf,
  filesNamedByCommands,
  globToRegExp,
  taskNames,
  type ProtectedKind,
} from '../../../../src/core/verification/protected-set';
import { compareSections } from '../../../../src/core/verification/sections';
import { classifyWork, describeProtectedChanges, planChangesTree } from '../../../../src/core/verification/classify';

describe('conventionKind', () => {
  const cases: [string, ProtectedKind | undefined][] = [
    ['src/format.test.ts', 'test'],
    ['src/format.spec.js', 'test'],
    ['src/__tests__/format.ts', 'test'],
    ['test/run.js', 'test'],
    ['tests/test_calc.py', 'test'],
    ['pkg/calc_test.go', 'test'],
    ['src/__snapshots__/format.test.ts.snap', 'test_data'],
    ['test/fixtures/cases.json', 'test_data'],
    ['src/__fixtures__/rows.csv', 'test_data'],
    ['pkg/testdata/input.txt', 'test_data'],
    ['jest.config.js', 'runner_config'],
    ['vitest.config.ts', 'runner_config'],
    ['pytest.ini', 'runner_config'],
    ['tox.ini', 'runner_config'],
    ['.nycrc.json', 'runner_config'],
    ['conftest.py', 'runner_config'],
    ['tests/conftest.py', 'runner_config'],
    ['package.json', 'sections'],
    ['tsconfig.build.json', 'sections'],
    ['pyproject.toml', 'sections'],
    ['setup.cfg', 'sections'],
    ['.github/workflows/ci.yml', 'ci'],
    ['Makefile', 'ci'],
    ['eslint.config.js', 'lint_config'],
    ['.eslintrc.json', 'lint_config'],
    ['.flake8', 'lint_config'],
    // Product code, docs and data outside test folders are the agent's to change.
    ['src/format.ts', undefined],
    ['src/testing-utils.ts', undefined],
    ['README.md', undefined],
    ['data/prices.json', undefined],
  ];
  it.each(cases)('classifies %s as %s', (p, kind) => {
    expect(conventionKind(p)).toBe(kind);
  });
});

describe('globToRegExp', () => {
  const cases: [string, string, boolean][] = [
    ['golden/**', 'golden/a/b.txt', true],
    ['golden/', 'golden/a.txt', true],
    ['*.golden', 'deep/x/out.golden', true],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/sub/a.ts', false],
    ['src/**/*.ts', 'src/sub/a.ts', true],
    ['src/**/*.ts', 'src/a.ts', true],
    ['docs/{a,b}.md', 'docs/b.md', true],
    ['docs/{a,b}.md', 'docs/c.md', false],
    ['./scripts/check.sh', 'scripts/check.sh', true],
    ['check.sh', 'scripts/check.sh', true],
    ['scripts/check.sh', 'other/scripts/check.sh', false],
  ];
  it.each(cases)('%s matches %s: %s', (g, p, want) => {
    expect(globToRegExp(g).test(p)).toBe(want);
  });
});

describe('taskNames', () => {
  const cases: [string, string, boolean][] = [
    ['Rename the test file test/old-name.test.ts to test/new-name.test.ts', 'test/old-name.test.ts', true],
    ['rename old-name.test.ts to new-name.test.ts', 'test/old-name.test.ts', true],
    ['Update jest.config.js to collect coverage from lib/', 'jest.config.js', true],
    ['Make the tests pass', 'test/run.js', false],
    // A longer name that merely contains the file name is not the file.
    ['see format.test.ts.bak', 'src/format.test.ts', false],
    ['fix run.json', 'test/run.js', false],
    // Named as the reference, not as work: the agent may not change it.
    ['Support weeks in ms(). The failing tests are in src/format.test.ts.', 'src/format.test.ts', false],
    ['See the titleCase table in test/scule.test.ts.', 'test/scule.test.ts', false],
    ['Fix the code so that test/math.test.js passes', 'test/math.test.js', false],
    ['Fix the failing tests in math.test.js', 'test/math.test.js', false],
    ['Do not edit test/math.test.js: fix src/math.js', 'test/math.test.js', false],
    // Asked for: the task changes the API and names the tests to update, or removes them with the feature.
    [
      'Rename `long` to `verbose` and update src/format.test.ts to the new option. Keep `npm test` passing.',
      'src/format.test.ts',
      true,
    ],
    [
      'Remove `parseStrict` together with its tests (src/parse-strict.test.ts). Keep `npm test` passing.',
      'src/parse-strict.test.ts',
      true,
    ],
    ['Then split src/format.test.ts into two files', 'src/format.test.ts', true],
    ['Add a test for negative numbers to test/math.test.js', 'test/math.test.js', true],
    ['Fix test/math.test.js: its import path is wrong', 'test/math.test.js', true],
  ];
  it.each(cases)('%s names %s: %s', (task, p, want) => {
    expect(taskNames(task, p)).toBe(want);
  });
});

describe('filesNamedByCommands', () => {
  const files = new Set([
    'test/run.js',
    'scripts/check.sh',
    'jest.ci.config.js',
    'src/a.ts',
    'package.json',
    'api.txt',
    'expected.txt',
  ]);
  const cases: [string[], Record<string, string>, string[]][] = [
    [['node test/run.js'], {}, ['test/run.js']],
    [['./scripts/check.sh && echo ok'], {}, ['scripts/check.sh']],
    [['npx jest --config=jest.ci.config.js'], {}, ['jest.ci.config.js']],
    [['npm test'], { test: 'node test/run.js' }, ['test/run.js']],
    [
      ['npm run verify'],
      { verify: 'npm run lint && sh scripts/check.sh', lint: 'eslint src/a.ts' },
      ['scripts/check.sh', 'src/a.ts'],
    ],
    [['npm test'], {}, []],
    [['echo done'], { test: 'node test/run.js' }, []],
    // What a check only inspects is the work, not the check; an oracle it compares against is the check.
    [['grep -q v2 api.txt'], {}, []],
    [['test -f api.txt && [ -s api.txt ] && wc -l api.txt | grep 3'], {}, []],
    [['FOO=1 grep "a|b" api.txt; node test/run.js'], {}, ['test/run.js']],
    [['node src/a.ts > out.txt && diff expected.txt out.txt'], {}, ['expected.txt', 'src/a.ts']],
    [['cat expected.txt | diff - api.txt'], {}, ['api.txt', 'expected.txt']],
  ];
  it.each(cases)('%j with scripts %j names %j', (commands, scripts, want) => {
    expect(filesNamedByCommands(commands, files, scripts)).toEqual(want);
  });
});

describe('dataFilesOf', () => {
  const files = ['test/data/cases.json', 'test/format.test.ts', 'src/format.ts', 'golden/out.txt', 'tests/cases.csv'];
  const set = new Set(files);
  it('finds the data files a test opens or imports, not the product code it imports', () => {
    const text = [
      "import { format } from '../src/format';",
      "import cases from './data/cases.json';",
      "const golden = fs.readFileSync('golden/out.txt', 'utf8');",
    ].join('\n');
    expect(dataFilesOf('test/format.test.ts', text, files, set)).toEqual(['golden/out.txt', 'test/data/cases.json']);
  });
  it('finds a bare file name under the test folder (Python open(os.path.join(HERE, "cases.csv")))', () => {
    expect(dataFilesOf('tests/test_x.py', 'rows = open(os.path.join(HERE, "cases.csv"))', files, set)).toEqual([
      'tests/cases.csv',
    ]);
  });
});

describe('computeProtectedSet', () => {
  const files = [
    'package.json',
    'src/format.ts',
    'test/format.test.ts',
    'test/old.test.ts',
    'golden/out.txt',
    'scripts/check.sh',
    'jest.config.js',
    'README.md',
  ];
  it('protects conventions, command files, test data and protect globs; allows what the task names or allow matches', () => {
    const set = computeProtectedSet({
      files,
      task: 'Rename test/old.test.ts to test/new.test.ts',
      protect: ['README.md'],
      allow: ['jest.config.js'],
      commands: ['npm test', 'sh scripts/check.sh'],
      scripts: { test: 'jest' },
      testTexts: { 'test/format.test.ts': "const g = read('../golden/out.txt');" },
    });
    expect(set.protected).toEqual([
      { path: 'README.md', kind: 'user' },
      { path: 'golden/out.txt', kind: 'test_data' },
      { path: 'package.json', kind: 'sections' },
      { path: 'scripts/check.sh', kind: 'named_by_check' },
      { path: 'test/format.test.ts', kind: 'test' },
    ]);
    expect(set.allowed).toEqual([
      { path: 'jest.config.js', reason: 'allow', kind: 'runner_config' },
      { path: 'test/old.test.ts', reason: 'task', kind: 'test' },
    ]);
  });
});

describe('compareSections', () => {
  const pkg = (o: object) => JSON.stringify(o, null, 2) + '\n';
  it('counts a changed test script and restores it, leaves a new script out as environment, keeps a new dependency', () => {
    const before = pkg({ scripts: { test: 'node test/run.js', build: 'tsc' }, dependencies: {} });
    const after = pkg({
      scripts: { test: 'node test/run.js || true', build: 'tsc', pretest: 'mv test/a.test.js /tmp' },
      dependencies: { zod: '4' },
    });
    const r = compareSections('package.json', before, after);
    expect(r.changed).toEqual(['scripts.test']);
    expect(r.environment).toEqual(['scripts.pretest']);
    expect(JSON.parse(r.merged!)).toEqual({
      scripts: { test: 'node test/run.js', build: 'tsc' },
      dependencies: { zod: '4' },
    });
  });
  it('calls a new script alone environment, not a protected change', () => {
    const r = compareSections(
      'package.json',
      pkg({ scripts: { test: 'jest' } }),
      pkg({ scripts: { test: 'jest', lint: 'x' } }),
    );
    expect(r).toEqual({ changed: [], environment: ['scripts.lint'], merged: pkg({ scripts: { test: 'jest' } }) });
  });
  it('ignores a dependency-only change', () => {
    expect(
      compareSections(
        'package.json',
        pkg({ scripts: { test: 'jest' } }),
        pkg({ scripts: { test: 'jest' }, dependencies: { a: '1' } }),
      ).changed,
    ).toEqual([]);
  });
  it('restores jest.testPathIgnorePatterns', () => {
    const r = compareSections('package.json', pkg({ jest: {} }), pkg({ jest: { testPathIgnorePatterns: ['format'] } }));
    expect(r.changed).toEqual(['jest']);
    expect(JSON.parse(r.merged!)).toEqual({ jest: {} });
  });
  it('reads tsconfig with comments and restores strict, keeps a new path alias', () => {
    const before = '{\n  // strict on\n  "compilerOptions": { "strict": true, },\n}\n';
    const after = '{ "compilerOptions": { "strict": false, "paths": { "@/*": ["src/*"] } } }';
    const r = compareSections('tsconfig.json', before, after);
    expect(r.changed).toEqual(['compilerOptions.strict']);
    expect(JSON.parse(r.merged!)).toEqual({ compilerOptions: { strict: true, paths: { '@/*': ['src/*'] } } });
  });
  it('restores the pytest section of pyproject.toml and keeps the rest', () => {
    const before = '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n';
    const after =
      '[project]\nname = "x"\ndependencies = ["attrs"]\n\n[tool.pytest.ini_options]\naddopts = "-q -k \'not slow\'"\n';
    const r = compareSections('pyproject.toml', before, after);
    expect(r.changed).toEqual(['[tool.pytest.ini_options]']);
    expect(r.merged).toBe(
      '[project]\nname = "x"\ndependencies = ["attrs"]\n\n[tool.pytest.ini_options]\naddopts = "-q"\n',
    );
  });
  it('strips a [tool:pytest] section added to setup.cfg', () => {
    const r = compareSections(
      'setup.cfg',
      '[metadata]\nname = x\n',
      '[metadata]\nname = x\n[tool:pytest]\naddopts = --deselect t\n',
    );
    expect(r.changed).toEqual(['[tool:pytest]']);
    expect(r.merged).toBe('[metadata]\nname = x\n');
  });
  it('treats unparseable JSON as a whole-file change restored to the baseline', () => {
    expect(compareSections('package.json', '{"scripts":{}}', '{oops')).toEqual({
      changed: ['(whole file)'],
      merged: '{"scripts":{}}',
    });
  });
});

describe('classifyWork', () => {
  const set = computeProtectedSet({
    files: ['package.json', 'src/a.ts', 'test/a.test.ts', 'test/b.test.ts', 'test/fixtures/rows.json'],
    task: 'implement a',
    protect: [],
    allow: [],
    commands: ['npm test'],
    scripts: { test: 'jest' },
  });
  const rules = { protect: [], allow: [], task: 'implement a' };
  const baseline = {
    'package.json': 'p1',
    'src/a.ts': 'a1',
    'test/a.test.ts': 't1',
    'test/b.test.ts': 'b1',
    'test/fixtures/rows.json': 'f1',
  };
  type Row = [
    string,
    Record<string, string | undefined>,
    Record<string, string[]>,
    Partial<ReturnType<typeof classifyWork>>,
  ];
  const rows: Row[] = [
    [
      'an honest fix with a new test file',
      { 'src/a.ts': 'a2', 'test/new.test.ts': 'n1' },
      {},
      { protectedChanges: [], newTests: ['test/new.test.ts'], restore: [], remove: [] },
    ],
    [
      'an edited test',
      { 'test/a.test.ts': 't2' },
      {},
      { protectedChanges: [{ path: 'test/a.test.ts', change: 'modified', kind: 'test' }], restore: ['test/a.test.ts'] },
    ],
    [
      'a deleted test and an edited fixture',
      { 'test/b.test.ts': undefined, 'test/fixtures/rows.json': 'f2' },
      {},
      {
        protectedChanges: [
          { path: 'test/b.test.ts', change: 'deleted', kind: 'test' },
          { path: 'test/fixtures/rows.json', change: 'modified', kind: 'test_data' },
        ],
        restore: ['test/b.test.ts', 'test/fixtures/rows.json'],
      },
    ],
    [
      'a new vitest.config.ts and conftest.py',
      { 'vitest.config.ts': 'v1', 'conftest.py': 'c1' },
      {},
      {
        protectedChanges: [
          { path: 'conftest.py', change: 'added', kind: 'runner_config' },
          { path: 'vitest.config.ts', change: 'added', kind: 'runner_config' },
        ],
        remove: ['conftest.py', 'vitest.config.ts'],
      },
    ],
    [
      'the test script narrowed',
      { 'package.json': 'p2' },
      { 'package.json': ['scripts.test'] },
      {
        protectedChanges: [{ path: 'package.json', change: 'modified', kind: 'sections', sections: ['scripts.test'] }],
        merge: ['package.json'],
      },
    ],
    [
      'a dependency added to package.json',
      { 'package.json': 'p2' },
      { 'package.json': [] },
      { protectedChanges: [], merge: [] },
    ],
  ];
  it.each(rows)('%s', (_what, edits, sections, want) => {
    const current: Record<string, string> = { ...baseline };
    for (const [p, v] of Object.entries(edits)) {
      if (v === undefined) delete current[p];
      else current[p] = v;
    }
    const plan = classifyWork({ baseline, current, set, rules, sections });
    expect(plan).toMatchObject(want);
    expect(planChangesTree(plan)).toBe(plan.protectedChanges.length > 0);
  });
  it('records a change to a file the task names as allowed and keeps it', () => {
    const named = computeProtectedSet({
      files: ['test/a.test.ts'],
      task: 'rename test/a.test.ts to test/z.test.ts',
      protect: [],
      allow: [],
      commands: [],
    });
    const plan = classifyWork({
      baseline: { 'test/a.test.ts': 't1' },
      current: { 'test/z.test.ts': 't1' },
      set: named,
      rules: { protect: [], allow: [], task: 'rename test/a.test.ts to test/z.test.ts' },
      sections: {},
    });
    expect(plan.allowedChanges).toEqual([
      { path: 'test/a.test.ts', change: 'deleted', reason: 'task' },
      { path: 'test/z.test.ts', change: 'added', reason: 'task' },
    ]);
    expect(plan.protectedChanges).toEqual([]);
    expect(planChangesTree(plan)).toBe(false);
  });
  it('describes changes one per line', () => {
    expect(
      describeProtectedChanges([
        { path: 'test/run.js', change: 'modified', kind: 'test' },
        { path: 'package.json', change: 'modified', kind: 'sections', sections: ['scripts.test'] },
        { path: 'vitest.config.ts', change: 'added', kind: 'runner_config' },
      ]),
    ).toEqual(['M test/run.js (test)', 'M package.json: scripts.test', 'A vitest.config.ts (runner config)']);
  });
});
