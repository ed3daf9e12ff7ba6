import { applyUpdate, parsePatch, patchOfCommand, patchTouched } from '../../../src/core/apply-patch';
import { classifyToolCall, patchCalls, touchedPaths } from '../../../src/core/risk';

const PATCH = [
  '*** Begin Patch',
  '*** Update File: src/sum.js',
  '@@ module.exports',
  '-module.exports = (a, b) => (a < 0 && b < 0 ? a - b : a + b);',
  '+module.exports = (a, b) => a + b;',
  '*** Add File: NOTES.md',
  '+# Notes',
  '+sum handles negatives',
  '*** Delete File: old.txt',
  '*** Update File: lib/a.js',
  '*** Move to: lib/b.js',
  '@@',
  ' const x = 1;',
  '-const y = 2;',
  '+const y = 3;',
  '*** End Patch',
  '',
].join('\n');

const TESTS = [
  "const sum = require('../src/sum');",
  '',
  "describe('sum', () => {",
  "  it('adds', () => {",
  '    expect(sum(1, 2)).toBe(3);',
  '  });',
  '});',
  '',
].join('\n');

describe('parsePatch', () => {
  it('reads added, updated, moved and deleted files with their hunks', () => {
    expect(parsePatch(PATCH)).toEqual([
      {
        kind: 'update',
        path: 'src/sum.js',
        hunks: [
          {
            old: ['module.exports = (a, b) => (a < 0 && b < 0 ? a - b : a + b);'],
            new: ['module.exports = (a, b) => a + b;'],
          },
        ],
      },
      { kind: 'add', path: 'NOTES.md', content: '# Notes\nsum handles negatives\n' },
      { kind: 'delete', path: 'old.txt' },
      {
        kind: 'update',
        path: 'lib/a.js',
        moveTo: 'lib/b.js',
        hunks: [{ old: ['const x = 1;', 'const y = 2;'], new: ['const x = 1;', 'const y = 3;'] }],
      },
    ]);
    expect(patchTouched(PATCH)).toEqual([
      { path: 'src/sum.js', action: 'write' },
      { path: 'NOTES.md', action: 'write' },
      { path: 'old.txt', action: 'delete' },
      { path: 'lib/a.js', action: 'delete' },
      { path: 'lib/b.js', action: 'write' },
    ]);
  });

  it('reads nothing from a text without a patch', () => {
    expect(parsePatch('echo hello')).toEqual([]);
    expect(patchOfCommand('cat a.txt > b.txt')).toBeUndefined();
  });
});

describe('applyUpdate', () => {
  const [update] = parsePatch(
    "*** Begin Patch\n*** Update File: t.js\n@@\n   });\n+  it('adds zero', () => {\n+    expect(sum(0, 0)).toBe(0);\n+  });\n });\n*** End Patch\n",
  );
  const hunks = update.kind === 'update' ? update.hunks : [];

  it('applies a hunk where its context is, and undoes it on the result', () => {
    const after = applyUpdate(TESTS, hunks);
    expect(after).toBe(
      TESTS.replace('  });\n});', "  });\n  it('adds zero', () => {\n    expect(sum(0, 0)).toBe(0);\n  });\n});"),
    );
    expect(applyUpdate(after!, hunks, true)).toBe(TESTS);
  });

  it('refuses a hunk whose lines are not in the file, as codex does', () => {
    expect(applyUpdate('nothing like it\n', hunks)).toBeUndefined();
  });

  it('matches lines that differ only in trailing white space', () => {
    expect(applyUpdate('a  \nb\n', [{ old: ['a', 'b'], new: ['a', 'c'] }])).toBe('a\nc\n');
  });
});

describe('patchOfCommand', () => {
  it('finds the patch of a heredoc or a quoted argument', () => {
    expect(patchOfCommand(`apply_patch <<'PATCH'\n${PATCH}PATCH`)).toBe(PATCH.replace(/\n$/, ''));
    expect(patchOfCommand(`cd /ws && apply_patch <<EOF\n${PATCH}EOF\n`)).toBe(PATCH.replace(/\n$/, ''));
    expect(patchOfCommand(`apply_patch '${PATCH}'`)).toBe(PATCH);
  });
});

describe('risk of a Codex patch', () => {
  const cwd = '/ws';
  // As codex 0.169 sends them to a hook: its apply_patch tool, and the shell tool running apply_patch with a heredoc.
  const tool = (patch: string) => ({ tool: 'apply_patch', input: { command: patch } });
  const shell = (patch: string) => ({ tool: 'Bash', input: { command: `apply_patch <<'PATCH'\n${patch}PATCH` } });
  const deleteTest =
    "*** Begin Patch\n*** Update File: /ws/test/sum.test.js\n@@\n-  it('adds', () => {\n-    expect(sum(1, 2)).toBe(3);\n-  });\n*** End Patch\n";

  it.each([
    ['the apply_patch tool', tool],
    ['a shell heredoc', shell],
  ])('judges the edits of %s as the file tool calls they amount to', (_what, call) => {
    expect(touchedPaths(call(deleteTest), { cwd })).toEqual([{ path: 'test/sum.test.js', action: 'write' }]);
    expect(classifyToolCall(call(deleteTest), { cwd })).toMatchObject({
      risk: 'critical',
      category: 'test_edit',
      target: 'test/sum.test.js',
    });
    expect(classifyToolCall(call(PATCH), { cwd })).toMatchObject({ risk: 'medium' });
  });

  it('turns a patch into a Write, a MultiEdit, an rm and a mv', () => {
    expect(patchCalls(tool(PATCH)).map((c) => c.tool)).toEqual(['MultiEdit', 'Write', 'Bash', 'Bash', 'MultiEdit']);
    expect(patchCalls({ tool: 'Bash', input: { command: 'ls' } })).toEqual([]);
  });
});
