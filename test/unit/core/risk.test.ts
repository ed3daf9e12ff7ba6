import { classifyToolCall, hookResponse, riskAtLeast, type RiskLevel } from '../../../src/core/risk';

const WS = '/home/dev/ws';
const bash = (command: string) => ({ tool: 'Bash', input: { command } });
const write = (file_path: string, content = 'x') => ({ tool: 'Write', input: { file_path, content } });
const edit = (file_path: string, old_string = 'a', new_string = 'b') => ({
  tool: 'Edit',
  input: { file_path, old_string, new_string },
});

// [what, call, risk, category]
const cases: [string, { tool: string; input: Record<string, unknown> }, RiskLevel, string][] = [
  // File tools: tests, test config, CI.
  ['an edit of a test file', edit(`${WS}/test/unit/calc.test.ts`), 'high', 'test_edit'],
  ['a write of a spec file', write('src/calc.spec.ts', "it('adds', () => {})"), 'high', 'test_edit'],
  ['a write of a pytest file', write(`${WS}/tests/test_calc.py`, 'def test_add(): pass'), 'high', 'test_edit'],
  ['emptying a test file', write(`${WS}/test/calc.test.ts`, '\n'), 'critical', 'test_edit'],
  [
    'an edit that removes a test',
    edit('test/calc.test.ts', "it('adds', () => {\n  expect(add(1, 2)).toBe(3);\n});\n", ''),
    'critical',
    'test_edit',
  ],
  [
    'a MultiEdit that removes a test in one of its edits',
    {
      tool: 'MultiEdit',
      input: {
        file_path: 'test/a.test.ts',
        edits: [
          { old_string: 'toBe(3)', new_string: 'toBe(4)' },
          { old_string: "test('x', () => {})", new_string: '' },
        ],
      },
    },
    'critical',
    'test_edit',
  ],
  [
    'a NotebookEdit of a test notebook',
    { tool: 'NotebookEdit', input: { notebook_path: 'tests/nb.ipynb' } },
    'high',
    'test_edit',
  ],
  ['an edit of a GitHub workflow', edit(`${WS}/.github/workflows/ci.yml`), 'high', 'ci_config_edit'],
  ['an edit of the Makefile', edit('Makefile'), 'high', 'ci_config_edit'],
  ['an edit of jest.config.js', edit('jest.config.js'), 'high', 'test_config_edit'],
  ['a write of package.json', write('package.json', '{}'), 'high', 'test_config_edit'],
  [
    'an edit of the test script in package.json',
    edit('package.json', '"test": "jest"', '"test": "jest || true"'),
    'high',
    'test_config_edit',
  ],
  [
    'an edit of package.json that only adds a dependency',
    edit('package.json', '"zod": "^4.0.0"', '"zod": "^4.0.0",\n    "yaml": "^2.9.1"'),
    'medium',
    'config_edit',
  ],
  ['an edit of a shell script', edit('scripts/release.sh'), 'medium', 'script_edit'],
  // Negatives: ordinary source edits and reads.
  ['an edit of a source file', edit(`${WS}/src/calc.ts`), 'none', 'file_edit'],
  ['a write of a README', write('README.md'), 'none', 'file_edit'],
  ['a source file named like a test word', edit('src/testing-utils.ts'), 'none', 'file_edit'],
  ['reading a test file', { tool: 'Read', input: { file_path: `${WS}/test/calc.test.ts` } }, 'none', 'other'],
  ['grepping the tests', { tool: 'Grep', input: { pattern: 'it\\(', path: 'test' } }, 'none', 'other'],
  // Bash: deletions.
  ['rm -rf test', bash('rm -rf test'), 'critical', 'destructive_command'],
  ['rm -r of a nested test folder', bash('rm -r src/__tests__/'), 'critical', 'destructive_command'],
  ['rm of one test file', bash('rm test/unit/calc.test.ts'), 'critical', 'destructive_command'],
  ['rm of a test glob', bash('rm -f src/*.spec.js'), 'critical', 'destructive_command'],
  [
    'rm of an absolute test path in the workspace',
    bash(`rm -f ${WS}/test/a.test.ts`),
    'critical',
    'destructive_command',
  ],
  ['rm -rf /', bash('sudo rm -rf /'), 'critical', 'destructive_command'],
  ['rm -rf .', bash('rm -rf .'), 'critical', 'destructive_command'],
  ['rm -rf *', bash('rm -rf *'), 'critical', 'destructive_command'],
  ['rm -fr ~', bash('rm -fr ~'), 'critical', 'destructive_command'],
  ['rm --recursive of the source tree', bash('rm --recursive --force src'), 'high', 'destructive_command'],
  ['rm -rf node_modules (regenerable: logged, not warned)', bash('rm -rf node_modules'), 'medium', 'file_deletion'],
  ['rm -rf of build outputs', bash('rm -rf dist coverage .cache'), 'medium', 'file_deletion'],
  ['rm -rf of build outputs and the tests', bash('rm -rf dist test'), 'critical', 'destructive_command'],
  ['rm of one source file', bash('rm src/old.ts'), 'medium', 'file_deletion'],
  ['rm of the jest config', bash('rm jest.config.js'), 'high', 'destructive_command'],
  ['find -delete of test files', bash("find . -name '*.test.ts' -delete"), 'critical', 'destructive_command'],
  ['find -exec rm in the test folder', bash('find test -type f -exec rm {} +'), 'critical', 'destructive_command'],
  ['find -delete of logs', bash("find . -name '*.log' -delete"), 'high', 'destructive_command'],
  ['xargs rm fed with test paths', bash('git ls-files test | xargs rm -f'), 'critical', 'destructive_command'],
  // Bash: git.
  ['git rm of a test', bash('git rm test/calc.test.ts'), 'critical', 'destructive_command'],
  ['git rm of a source file', bash('git rm -q src/old.ts'), 'high', 'destructive_command'],
  ['git push --force', bash('git push --force origin main'), 'critical', 'destructive_command'],
  ['git push -f', bash('git push -f'), 'critical', 'destructive_command'],
  ['git push --force-with-lease', bash('git push --force-with-lease origin HEAD'), 'critical', 'destructive_command'],
  ['git push of a +refspec', bash('git push origin +main'), 'critical', 'destructive_command'],
  ['a plain git push', bash('git push -u origin feature'), 'low', 'git_push'],
  ['git reset --hard', bash('git reset --hard HEAD~1'), 'high', 'destructive_command'],
  ['git clean -fd', bash('git clean -fd'), 'high', 'destructive_command'],
  ['git clean -xdf after -C', bash('git -C /repo clean -xdf'), 'high', 'destructive_command'],
  ['git checkout -- .', bash('git checkout -- .'), 'high', 'destructive_command'],
  ['git stash drop', bash('git stash drop'), 'high', 'destructive_command'],
  ['git commit --no-verify', bash('git commit --no-verify -m wip'), 'medium', 'check_bypass'],
  ['git checkout -b (a new branch)', bash('git checkout -b fix-calc'), 'none', 'command'],
  ['git reset (soft)', bash('git reset HEAD~1'), 'none', 'command'],
  ['git clean -n (dry run)', bash('git clean -nd'), 'none', 'command'],
  ['git status', bash('git status && git diff'), 'none', 'command'],
  // Bash: writes to tests through the shell.
  ['a redirect over a test file', bash("echo '' > test/calc.test.ts"), 'high', 'test_edit'],
  [
    'a here-doc into the jest config',
    bash("cat > jest.config.js <<'EOF'\nmodule.exports = {};\nEOF"),
    'high',
    'test_config_edit',
  ],
  ['sed -i on a test file', bash("sed -i 's/toBe(3)/toBeDefined()/' test/calc.test.ts"), 'high', 'test_edit'],
  ['sed -i -e on a CI file', bash("sed -i -e 's/npm test/true/' .github/workflows/ci.yml"), 'high', 'ci_config_edit'],
  ['cp over a test file', bash('cp /tmp/empty.ts test/calc.test.ts'), 'high', 'test_edit'],
  ['mv of a test out of the test tree', bash('mv test/calc.test.ts /tmp/'), 'high', 'test_edit'],
  // Negatives and routine commands.
  ['npm test', bash('npm test'), 'none', 'command'],
  ['running one test file', bash('npx jest test/calc.test.ts 2>&1 | tail -n 50'), 'none', 'command'],
  ['reading tests with cat and grep', bash('cat test/calc.test.ts | grep -n expect'), 'none', 'command'],
  ['a redirect to /dev/null', bash('npm run build > /dev/null 2>&1'), 'none', 'command'],
  ['a redirect into a log file', bash('npm test > test-output.log'), 'none', 'command'],
  ['"rm -rf test" only inside an echoed string', bash('echo "rm -rf test"'), 'none', 'command'],
  ['"rm -rf test" only in a comment', bash('ls # then rm -rf test'), 'none', 'command'],
  ['a here-doc body that mentions rm -rf', bash('cat > notes.md <<EOF\nrm -rf test\nEOF\nls'), 'none', 'command'],
  ['looking rm up', bash('command -v rm && type rm'), 'none', 'command'],
  ['rm without operands', bash('rm -rf'), 'none', 'command'],
  ['xargs rm fed by an unknown command', bash('cat list.txt | xargs rm -rf'), 'high', 'destructive_command'],
  ['grep for "git push -f"', bash("grep -rn 'git push -f' docs"), 'none', 'command'],
  // Compound commands: the worst part decides.
  ['cd then rm -rf tests', bash('cd /home/dev/ws && rm -rf tests'), 'critical', 'destructive_command'],
  ['tests then a force push', bash('npm test; git push -f origin main'), 'critical', 'destructive_command'],
  [
    'a pipeline ending in git reset --hard',
    bash('git log --oneline | head -1 || git reset --hard'),
    'high',
    'destructive_command',
  ],
  ['rm inside $(...)', bash('echo $(rm -rf test)'), 'critical', 'destructive_command'],
  ['rm inside sh -c', bash("sh -c 'rm -rf spec'"), 'critical', 'destructive_command'],
  ['rm in the background', bash('sleep 1 & rm -rf __tests__'), 'critical', 'destructive_command'],
];

describe('classifyToolCall', () => {
  it.each(cases)('classifies %s', (_what, call, risk, category) => {
    const a = classifyToolCall(call, { cwd: WS });
    expect({ risk: a.risk, category: a.category }).toEqual({ risk, category });
    if (risk === 'none') expect(a.reasons).toEqual([]);
    else expect(a.reasons.length).toBeGreaterThan(0);
  });

  it('reports file targets relative to the workspace', () => {
    expect(classifyToolCall(edit(`${WS}/test/a.test.ts`), { cwd: WS })).toEqual({
      risk: 'high',
      category: 'test_edit',
      reasons: ['test/a.test.ts is a test file'],
      target: 'test/a.test.ts',
    });
  });

  it('names the offending part of a compound command as the target and keeps every reason, worst first', () => {
    const a = classifyToolCall(bash('rm -rf dist && git reset --hard && rm test/a.test.ts'), { cwd: WS });
    expect(a.risk).toBe('critical');
    expect(a.target).toBe('rm test/a.test.ts');
    expect(a.reasons).toEqual([
      'rm deletes tests (test/a.test.ts)',
      'git reset --hard discards uncommitted changes',
      'rm deletes regenerable folders (dist)',
    ]);
  });

  it('never throws on inputs of the wrong shape', () => {
    for (const input of [{}, { command: 42 }, { file_path: null }, { edits: 'x', file_path: 'test/a.test.ts' }])
      for (const tool of ['Bash', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Unknown'])
        expect(() => classifyToolCall({ tool, input })).not.toThrow();
    expect(classifyToolCall(bash('rm -rf "unterminated')).risk).toBe('high');
  });
});

describe('riskAtLeast', () => {
  it('orders the levels none < low < medium < high < critical', () => {
    expect(riskAtLeast('critical', 'high')).toBe(true);
    expect(riskAtLeast('high', 'high')).toBe(true);
    expect(riskAtLeast('medium', 'high')).toBe(false);
    expect(riskAtLeast('none', 'low')).toBe(false);
  });
});

describe('hookResponse', () => {
  const testEdit = classifyToolCall(edit('test/x.test.ts'));
  const rmTests = classifyToolCall(bash('rm -rf test'));

  it('warns before a test edit with the exact message', () => {
    expect(hookResponse('pre-tool-use', testEdit, 'deny')).toEqual({
      decision: 'warn',
      message:
        '⚠️ You are about to modify test file test/x.test.ts. Verify this is a fix, not a deletion or weakening.',
    });
  });

  it('denies a critical call only when the policy is deny', () => {
    const denied = hookResponse('pre-tool-use', rmTests, 'deny');
    expect(denied.decision).toBe('deny');
    expect(denied.message).toContain('`rm -rf test`');
    expect(denied.message).toContain('rm deletes tests (test)');
    const warned = hookResponse('pre-tool-use', rmTests, 'warn');
    expect(warned.decision).toBe('warn');
    expect(warned.message).toMatch(/^⚠️ You are about to run a destructive command: `rm -rf test`\..* Critical risk/);
  });

  it('only warns after the call, whatever the policy', () => {
    const after = hookResponse('post-tool-use', rmTests, 'deny');
    expect(after.decision).toBe('warn');
    expect(after.message).toContain('You ran a destructive command');
    expect(hookResponse('post-tool-use', testEdit, 'warn').message).toContain('You modified test file test/x.test.ts');
  });

  it('allows calls below high risk without a message', () => {
    for (const call of [bash('rm -rf node_modules'), bash('git push'), edit('src/a.ts'), bash('npm test')])
      expect(hookResponse('pre-tool-use', classifyToolCall(call), 'deny')).toEqual({ decision: 'allow' });
  });
});
