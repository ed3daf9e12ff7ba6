import { touchedPaths, type TouchedPath } from '../../../../src/core/risk';
import {
  protectedHits,
  protectedHookMessage,
  type ProtectedPathRules,
} from '../../../../src/core/verification/hook-rules';

const WS = '/home/dev/ws';
const bash = (command: string) => ({ tool: 'Bash', input: { command } });

describe('touchedPaths', () => {
  const rows: [string, { tool: string; input: Record<string, unknown> }, TouchedPath[]][] = [
    [
      'a Write',
      { tool: 'Write', input: { file_path: `${WS}/test/run.js`, content: '' } },
      [{ path: 'test/run.js', action: 'write' }],
    ],
    ['an Edit', { tool: 'Edit', input: { file_path: 'src/a.ts' } }, [{ path: 'src/a.ts', action: 'write' }]],
    ['rm -rf', bash('rm -rf test && echo done'), [{ path: 'test', action: 'delete' }]],
    ['git rm', bash('git rm -q test/a.test.ts'), [{ path: 'test/a.test.ts', action: 'delete' }]],
    ['a redirection', bash(`echo 'console.log(1)' > ${WS}/test/run.js`), [{ path: 'test/run.js', action: 'write' }]],
    ['sed -i', bash("sed -i 's/toBe(3)/toBe(4)/' test/a.test.ts"), [{ path: 'test/a.test.ts', action: 'write' }]],
    [
      'mv',
      bash('mv test/a.test.ts /tmp/'),
      [
        { path: 'test/a.test.ts', action: 'delete' },
        { path: '/tmp/', action: 'write' },
      ],
    ],
    ['inside sh -c', bash("sh -c 'rm test/a.test.ts'"), [{ path: 'test/a.test.ts', action: 'delete' }]],
    ['git checkout -- paths', bash('git checkout -- test/a.test.ts'), [{ path: 'test/a.test.ts', action: 'write' }]],
    ['a read', bash('cat test/a.test.ts | grep it'), []],
    ['stderr to /dev/null', bash('npm test 2>/dev/null'), []],
  ];
  it.each(rows)('%s', (_what, call, want) => {
    expect(touchedPaths(call, { cwd: WS })).toEqual(want);
  });
});

describe('protectedHits', () => {
  const rules: ProtectedPathRules = {
    protected: [
      { path: 'package.json', kind: 'sections' },
      { path: 'test/a.test.ts', kind: 'test' },
      { path: 'test/run.js', kind: 'named_by_check' },
      { path: 'test/fixtures/rows.json', kind: 'test_data' },
    ],
    allowed: [{ path: 'test/legacy.test.ts', reason: 'task', kind: 'test' }],
    rules: { protect: ['golden/**'], allow: [], task: 'rename test/legacy.test.ts' },
  };
  const w = (p: string): TouchedPath => ({ path: p, action: 'write' });
  const d = (p: string): TouchedPath => ({ path: p, action: 'delete' });
  const rows: [string, TouchedPath, string[]][] = [
    ['a write of a protected test', w('test/a.test.ts'), ['test/a.test.ts']],
    ['a write of test data', w('./test/fixtures/rows.json'), ['test/fixtures/rows.json']],
    ['rm -rf of the test folder', d('test'), ['test/a.test.ts', 'test/fixtures/rows.json', 'test/run.js']],
    ['rm of a glob', d('test/*.ts'), ['test/a.test.ts']],
    ['a new vitest.config.ts', w('vitest.config.ts'), ['vitest.config.ts']],
    ['a new conftest.py', w('tests/conftest.py'), ['tests/conftest.py']],
    ['a new file under a protect glob', w('golden/out.txt'), ['golden/out.txt']],
    ['package.json (settings judged by the hook)', w('package.json'), ['package.json']],
    [
      "the loop's manifest",
      w('.ralph/loops/L/verification/manifest.json'),
      ['.ralph/loops/L/verification/manifest.json'],
    ],
    // Not protected.
    ['a new test file', w('test/new.test.ts'), []],
    ['a file the task names', w('test/legacy.test.ts'), []],
    ['product code', w('src/a.ts'), []],
    ['a path outside the workspace', w('/tmp/x.test.ts'), []],
    ['rm of an unprotected folder', d('dist'), []],
  ];
  it.each(rows)('%s', (_what, t, want) => {
    expect(
      protectedHits(rules, t)
        .map((h) => h.path)
        .sort(),
    ).toEqual(want);
  });

  it("says plainly that the checks are not the agent's to change, and how the policy answers", () => {
    const hits = protectedHits(rules, w('test/a.test.ts'));
    expect(protectedHookMessage('pre-tool-use', hits, 'deny')).toMatch(
      /^⛔ Blocked by ralph: test\/a\.test\.ts \(test\) is protected: the tests, their data and the test, lint and CI configuration are not yours to change\./,
    );
    expect(protectedHookMessage('pre-tool-use', hits, 'warn')).toMatch(/^⚠️ test\/a\.test\.ts/);
    expect(protectedHookMessage('post-tool-use', hits, 'warn')).toMatch(/^⚠️ You changed test\/a\.test\.ts/);
  });
});
