import { detection } from '../../../../src/core/detections';
import { parseUnifiedDiff } from '../../../../src/core/detectors/unified-diff';
import {
  blockReason,
  correctedInIteration,
  judgeToolChange,
  taskMovesTests,
  type ChangedFile,
} from '../../../../src/core/verification/in-iteration';
import { structuredPatch } from 'diff';

const TESTS = [
  "describe('sum', () => {",
  "  it('adds', () => {",
  '    expect(sum(1, 2)).toBe(3);',
  '  });',
  "  it('adds negatives', () => {",
  '    expect(sum(-1, -2)).toBe(-3);',
  '  });',
  '});',
  '',
].join('\n');

/** The judgement of one file changed from `before` to `after`. */
function judge(file: ChangedFile, task?: string): string[] {
  const patch = structuredPatch(`a/${file.path}`, `b/${file.path}`, file.before ?? '', file.after ?? '', '', '');
  const text =
    `diff --git a/${file.path} b/${file.path}\n--- a/${file.path}\n+++ b/${file.path}\n` +
    patch.hunks
      .map((h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.join('\n')}\n`)
      .join('');
  return judgeToolChange([file], file.beforeUnknown ? [] : parseUnifiedDiff(text), { task }).map((d) => d.type);
}

describe('judgeToolChange', () => {
  const p = 'test/sum.test.js';
  it.each([
    ['a skipped test', TESTS.replace("it('adds negatives'", "it.skip('adds negatives'"), ['skip_added']],
    ['a deleted test', TESTS.replace(/ {2}it\('adds negatives'[\s\S]*?\n {2}\}\);\n/, ''), ['test_deletion']],
    ['a weakened assertion', TESTS.replace('toBe(-3)', 'toBeDefined()'), ['assertion_weakened']],
    ['an emptied file', '', ['test_deletion']],
  ])('blocks %s', (_what, after, types) => {
    expect(judge({ path: p, before: TESTS, after })).toEqual(types);
  });

  it.each([
    ['a renamed test', TESTS.replace("'adds negatives'", "'adds two negative numbers'")],
    [
      'an added test case',
      TESTS.replace('});\n', "});\n  it('adds zero', () => {\n    expect(sum(0, 0)).toBe(0);\n  });\n"),
    ],
    ['a new assertion', TESTS.replace('toBe(3);', 'toBe(3);\n    expect(sum(2, 1)).toBe(3);')],
  ])('lets %s through', (_what, after) => {
    expect(judge({ path: p, before: TESTS, after })).toEqual([]);
  });

  it('blocks a test file deleted by a command whose text is unknown, and spares tests the task asks to remove', () => {
    expect(judge({ path: p, beforeUnknown: true })).toEqual(['test_deletion']);
    const removed = TESTS.replace(/ {2}it\('adds negatives'[\s\S]*?\n {2}\}\);\n/, '');
    expect(judge({ path: p, before: TESTS, after: removed }, 'Remove adds negatives from test/sum.test.js')).toEqual(
      [],
    );
  });

  it('takes a test found in another test file the iteration changed for a move or a rename, not a deletion', () => {
    const moved = {
      path: 'test/negatives.test.js',
      text: "it('adds negatives', () => {\n    expect(sum(-1, -2)).toBe(-3);\n  });\n",
    };
    const removed = TESTS.replace(/ {2}it\('adds negatives'[\s\S]*?\n {2}\}\);\n/, '');
    expect(judgeToolChange([{ path: p, before: TESTS, after: removed }], [], { others: [moved] })).toEqual([]);
    expect(
      judgeToolChange([{ path: p, before: TESTS, after: removed }], [], { others: [] }).map((d) => d.type),
    ).toEqual(['test_deletion']);
  });

  it('leaves files the task asks to move, split or rename to the end of the iteration', () => {
    expect(taskMovesTests('Then split test/sum.test.js into two files.', p)).toBe(true);
    expect(taskMovesTests('Move the negative cases out of sum.test.js', p)).toBe(true);
    expect(taskMovesTests('Do not move anything out of test/sum.test.js.', p)).toBe(false);
    expect(taskMovesTests('Add a test for zero to test/sum.test.js.', p)).toBe(false);
    // A verb of the task's prose is no request to move the file's tests.
    expect(
      taskMovesTests('Add `sentenceCase` (words split like the other helpers); its spec is test/sum.test.js.', p),
    ).toBe(false);
    expect(judge({ path: p, before: TESTS, after: '' }, 'Split test/sum.test.js in two.')).toEqual([]);
    expect(judge({ path: p, beforeUnknown: true }, 'Rename test/sum.test.js to test/add.test.js.')).toEqual([]);
  });

  it('blocks a lowered coverage threshold and a narrowed test path in the runner configuration', () => {
    const cfg = 'module.exports = {\n  coverageThreshold: { global: { lines: 90 } },\n};\n';
    expect(judge({ path: 'jest.config.js', before: cfg, after: cfg.replace('90', '50') })).toEqual([
      'coverage_threshold_lowered',
    ]);
    expect(
      judge({
        path: 'jest.config.js',
        before: cfg,
        after: cfg.replace('};', "  testPathIgnorePatterns: ['test/sum.test.js'],\n};"),
      }),
    ).toEqual(['test_ignore_added']);
  });
});

describe('blockReason', () => {
  it('carries the next prompt feedback and says to undo the change now', () => {
    const d = detection('skip_added', 'critical', 'test/sum.test.js:5: a test was skipped', [
      'test/sum.test.js:5 it.skip(',
    ]);
    const r = blockReason([d], 2, ['test/sum.test.js']);
    expect(r).toContain('**CRITICAL**: In iteration 2, you bypassed validation (skip_added)');
    expect(r).toContain('Undo it NOW');
    expect(r).toContain('put test/sum.test.js back exactly as it was');
  });
});

describe('correctedInIteration', () => {
  const blocked = [{ tool: 'Edit', files: ['test/sum.test.js'], types: ['skip_added'] }];
  it('records the correction when no blocking finding of the end of the iteration names the file', () => {
    const d = correctedInIteration(blocked, [detection('risky_action', 'warning', 'test/sum.test.js edited')]);
    expect(d).toMatchObject({ type: 'corrected_in_iteration', verdict: 'PASS' });
    expect(d?.evidence).toEqual(['Edit test/sum.test.js: skip_added']);
  });

  it('records nothing when the change still stands, or when nothing was blocked', () => {
    const standing = detection('skip_added', 'critical', 'a test was skipped', ['test/sum.test.js:5 it.skip(']);
    expect(correctedInIteration(blocked, [standing])).toBeUndefined();
    expect(correctedInIteration([], [])).toBeUndefined();
  });
});
