import fs from 'node:fs';
import path from 'node:path';
import { defaultTimeoutsConfig } from '../../../src/config/timeouts-config';
import { ProjectMachine } from '../../../src/core/project-machine';
import {
  PrdError,
  StalePrdError,
  UnknownPrdTaskError,
  markTaskDone,
  parsePrd,
  parsePrdJson,
  parsePrdMarkdown,
  slugOf,
  type Prd,
  type PrdTask,
} from '../../../src/config/prd';

const fixture = (name: string): string => fs.readFileSync(path.resolve(__dirname, '../../fixtures/prd', name), 'utf8');
const JSON_PRD = fixture('prd.json');
const MD_PRD = fixture('PRD.md');

/** The lines of `after` that differ from `before` (same number of lines expected). */
function changedLines(before: string, after: string): Array<[number, string]> {
  const a = before.split('\n');
  const b = after.split('\n');
  expect(b).toHaveLength(a.length);
  return b.flatMap((l, i): Array<[number, string]> => (l === a[i] ? [] : [[i + 1, l]]));
}

/** A hand-built PRD: `spec` is `id[:priority][!done][<dep,dep]` per task, e.g. `'B:1<A'`. */
function prdOf(...spec: string[]): Prd {
  const tasks = spec.map((s, index): PrdTask => {
    const m = /^([^:!<]+)(?::(\d+))?(!)?(?:<(.*))?$/.exec(s)!;
    return {
      id: m[1],
      title: m[1],
      description: '',
      acceptanceCriteria: [],
      priority: m[2] ? Number(m[2]) : index + 1,
      done: m[3] === '!',
      dependsOn: m[4] ? m[4].split(',') : [],
      source: { kind: 'json', index },
    };
  });
  return { kind: 'json', tasks };
}

const ids = (tasks: PrdTask[]): string[] => tasks.map((t) => t.id);

describe('parsePrdJson', () => {
  it('reads a Ralph prd.json: stories, defaults, dependencies and the top-level fields', () => {
    const prd = parsePrdJson(JSON_PRD);
    expect(prd).toMatchObject({
      kind: 'json',
      project: 'TaskBoard',
      branchName: 'ralph/task-priority',
      description: expect.stringMatching(/^Task Priority System/),
    });
    expect(prd.tasks.map((t) => [t.id, t.priority, t.done, t.dependsOn])).toEqual([
      ['US-001', 1, true, []],
      ['US-002', 2, false, ['US-001']],
      ['US-003', 3, false, ['US-001']],
      ['US-004', 4, false, ['US-002', 'US-003']],
    ]);
    expect(prd.tasks[1]).toEqual({
      id: 'US-002',
      title: 'Display priority indicator on task cards',
      description: 'As a user, I want to see task priority at a glance.',
      acceptanceCriteria: [
        'Each task card shows a colored priority badge (red=high, yellow=medium, gray=low)',
        'Priority visible without hovering or clicking',
        'Typecheck passes',
        'Verify in browser using dev-browser skill',
      ],
      priority: 2,
      done: false,
      dependsOn: ['US-001'],
      source: { kind: 'json', index: 1 },
    });
  });

  it('accepts the common variants: projectName, numeric ids, `dependencies`, no priority/passes/description', () => {
    const prd = parsePrdJson(
      JSON.stringify({
        projectName: 'X',
        userStories: [
          { id: 1, title: 'a' },
          { id: 2, title: 'b', dependencies: [1], priority: 1 },
        ],
      }),
    );
    expect(prd.project).toBe('X');
    expect(prd.tasks).toMatchObject([
      { id: '1', priority: 1, done: false, description: '', acceptanceCriteria: [], dependsOn: [] },
      { id: '2', priority: 1, dependsOn: ['1'] },
    ]);
  });

  it('strips a byte-order mark', () => {
    expect(parsePrdJson('\uFEFF' + JSON_PRD).tasks).toHaveLength(4);
  });

  const story = (s: Record<string, unknown>): Record<string, unknown> => ({ id: 'US-001', title: 't', ...s });
  const file = (stories: unknown[], extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ project: 'p', ...extra, userStories: stories }, null, 2);

  it.each([
    [
      '{\n  "userStories": [\n    { "id": "US-001", }\n  ]\n}',
      'prd.json: invalid JSON at line 3 column 23: expected a property name in double quotes, found "}" (a trailing comma?)',
    ],
    [
      '{\n  "project": "p"\n  "userStories": []\n}',
      `prd.json: invalid JSON at line 3 column 3: expected ',' or '}', found "\\""`,
    ],
    [
      "{ 'project': 'p' }",
      'prd.json: invalid JSON at line 1 column 3: expected a property name in double quotes, found "\'" (JSON strings use double quotes)',
    ],
    [
      '{\n  // the stories\n  "userStories": []\n}',
      'invalid JSON at line 2 column 3: expected a property name in double quotes, found a comment (JSON has no comments)',
    ],
    ['{ "project": "p', 'invalid JSON at line 1 column 14: unterminated string'],
    ['{ "userStories": [] } x', 'invalid JSON at line 1 column 23: expected the end of the file after the JSON value'],
    ['', 'prd.json: invalid JSON at line 1 column 1: expected a value, found the end of the file'],
    ['[]', 'prd.json:1: expected an object, got an array'],
    [file([]), 'prd.json:3: userStories: must list at least one story'],
    [JSON.stringify({ project: 'p' }), 'prd.json:1: userStories: missing: expected an array'],
    [
      file([story({}), story({ id: 'US-002' }), story({ id: 'US-003', priority: 'high' })]),
      'prd.json:15: userStories[2].priority: expected a number, got "high"',
    ],
    [file([story({ title: undefined })]), 'prd.json:4: userStories[0].title: missing: expected a string'],
    [file([story({ title: '' })]), 'prd.json:6: userStories[0].title: must not be empty'],
    [file([story({ passes: 'yes' })]), 'prd.json:7: userStories[0].passes: expected true or false, got "yes"'],
    [
      file([story({ acceptanceCriteria: ['ok', 3] })]),
      'prd.json:9: userStories[0].acceptanceCriteria[1]: expected a string, got 3',
    ],
    [file([story({ dependsOn: 'US-000' })]), 'prd.json:7: userStories[0].dependsOn: expected an array, got "US-000"'],
    [file([story({ id: null })]), 'prd.json:5: userStories[0].id: expected a string such as "US-001"'],
    [
      file([story({}), story({ id: 'US-002' }), story({})]),
      'prd.json:13: userStories[2].id: duplicate id "US-001" (also userStories[0])',
    ],
    [
      file([story({}), story({ id: 'US-002', dependsOn: ['US-001', 'US-009'] })]),
      'prd.json:13: userStories[1].dependsOn[1]: depends on unknown task "US-009"',
    ],
    [
      file([story({ dependencies: ['US-001'] })]),
      'prd.json:8: userStories[0].dependencies[0]: "US-001" depends on itself',
    ],
    [
      file([
        story({ dependsOn: ['US-003'] }),
        story({ id: 'US-002', dependsOn: ['US-001'] }),
        story({ id: 'US-003', dependsOn: ['US-002'] }),
      ]),
      'prd.json:7: userStories[0].dependsOn: dependency cycle: US-001 → US-003 → US-002 → US-001',
    ],
  ])('names the line and path of a mistake (%#)', (text, message) => {
    expect(() => parsePrdJson(text)).toThrow(message);
  });

  it('reports every problem at once, with the file name it was given', () => {
    const text = file([story({ priority: 'high' }), story({ id: 'US-002', passes: 1 })]);
    let err: unknown;
    try {
      parsePrdJson(text, 'docs/prd.json');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PrdError);
    expect((err as PrdError).file).toBe('docs/prd.json');
    expect((err as PrdError).problems.map((p) => p.path)).toEqual(['userStories[0].priority', 'userStories[1].passes']);
    expect((err as PrdError).message).toMatch(/^docs\/prd\.json:\d+: userStories\[0\]\.priority: .*; docs\/prd\.json:/);
  });
});

describe('parsePrdMarkdown', () => {
  it('reads a checklist: ids, titles, criteria, descriptions, boxes, dependencies, line numbers', () => {
    const prd = parsePrdMarkdown(MD_PRD);
    expect(prd.kind).toBe('markdown');
    expect(prd.project).toBe('TaskBoard: task priority');
    expect(prd.tasks.map((t) => [t.id, t.priority, t.done, t.dependsOn, t.source])).toEqual([
      ['T1', 1, true, [], { kind: 'markdown', line: 8 }],
      ['T2', 2, false, ['T1'], { kind: 'markdown', line: 13 }],
      ['T3', 3, false, ['T2'], { kind: 'markdown', line: 20 }],
      ['T4', 4, false, ['T2', 'T3'], { kind: 'markdown', line: 23 }],
      ['write-release-notes', 5, false, [], { kind: 'markdown', line: 26 }],
    ]);
    expect(prd.tasks[0]).toMatchObject({
      title: 'Add priority field to database',
      description: 'Store task priority so it persists across sessions.',
      acceptanceCriteria: [
        "Add a `priority` column to `tasks`: 'high' | 'medium' | 'low' (default 'medium')",
        'Generate and run the migration',
        'Typecheck passes',
      ],
    });
    // A wrapped criterion is one criterion; a task without text of its own is described by its heading.
    expect(prd.tasks[1]).toMatchObject({
      title: 'Expose priority in the tasks API',
      description: 'Backend',
      acceptanceCriteria: [
        '`GET /api/tasks` returns `priority` for every task',
        '`PATCH /api/tasks/:id` accepts `priority` and rejects other values with 400, naming the allowed values',
      ],
    });
    // Nested boxes are criteria, not tasks.
    expect(prd.tasks[2].acceptanceCriteria).toEqual([
      'Each card shows a colored badge (red=high, yellow=medium, gray=low)',
      'Visible without hovering',
    ]);
    expect(prd.tasks[4]).toMatchObject({ title: 'Write release notes', description: 'Frontend' });
  });

  it.each([
    ['- [ ] T1: a', { id: 'T1', title: 'a' }],
    ['* [x] **US-001**: a', { id: 'US-001', title: 'a', done: true }],
    ['+ [X] **T1.2:** a', { id: 'T1.2', title: 'a', done: true }],
    ['1. [ ] __FEAT-12__: a (depends on: b)\n2. [ ] B', { id: 'FEAT-12', title: 'a', dependsOn: ['b'] }],
    ['- [ ] TODO: no digit, so no id', { id: 'todo-no-digit-so-no-id', title: 'TODO: no digit, so no id' }],
    ['- [ ] Refactor: split `api.ts` (see [notes](x.md))', { id: 'refactor-split-api-ts-see-notes' }],
    ['- [ ] Résumé export', { id: 'resume-export' }],
    ['- [ ] !!!', { id: 'task' }],
    ['\t- [ ] tab-indented (depends:  T2 ,T3)\n- [ ] T2: b\n- [ ] T3: c', { dependsOn: ['T2', 'T3'], line: 1 }],
    ['---\ntitle: x\n---\n- [ ] a', { id: 'a', line: 4 }],
  ])('reads the item syntax %j', (text, expected) => {
    const { line, ...task } = expected as Partial<PrdTask> & { line?: number };
    const t = parsePrdMarkdown(text).tasks[0];
    expect(t).toMatchObject(task);
    if (line) expect(t.source).toEqual({ kind: 'markdown', line });
  });

  it('derives ids from titles, so they survive edits of other lines; repeated titles get a suffix', () => {
    const before = parsePrdMarkdown('- [ ] Write tests\n- [ ] Ship it\n- [ ] Write tests\n');
    const after = parsePrdMarkdown(
      '# Plan\n\n- [ ] New first task\n- [ ] Write tests\n- [ ] Ship it\n- [ ] Write tests\n',
    );
    expect(ids(before.tasks)).toEqual(['write-tests', 'ship-it', 'write-tests-2']);
    expect(ids(after.tasks)).toEqual(['new-first-task', 'write-tests', 'ship-it', 'write-tests-2']);
    expect(slugOf('A'.repeat(30) + ' ' + 'b'.repeat(40))).toBe('a'.repeat(30));
  });

  it('ends a task at a heading, a rule or unindented text, and ignores other lists', () => {
    const prd = parsePrdMarkdown(
      '- Goal: x\n  - not a criterion\n- [ ] A\n  - a1\n\n  more about A\n\nParagraph.\n  - orphan\n- [ ] B\n---\n  - orphan\n',
    );
    expect(prd.tasks.map((t) => [t.id, t.acceptanceCriteria, t.description])).toEqual([
      ['a', ['a1'], 'more about A'],
      ['b', [], ''],
    ]);
  });

  it.each([
    ['# Plan\n\nNothing to do.\n', 'PRD.md: no checklist items found: write each task as "- [ ] title"'],
    ['- [ ] a\n- [-] b\n', 'PRD.md:2: unrecognised checkbox "[-]": use "[ ]" or "[x]"'],
    ['- [] a\n', 'PRD.md:1: unrecognised checkbox "[]"'],
    ['- [ ] a\n- [ ]   \n', 'PRD.md:2: checklist item has no title'],
    ['- [ ] **T1**:\n', 'PRD.md:1: checklist item has no title'],
    ['- [ ] T1: a\n\n- [ ] T1: b\n', 'PRD.md:3: duplicate id "T1" (also line 1)'],
    ['- [ ] T1: a\n- [ ] T2: b (depends: T1, T9)\n', 'PRD.md:2: depends on unknown task "T9"'],
    ['- [ ] T1: a (depends: )\n', 'PRD.md:1: empty "(depends: )": list task ids'],
    ['- [ ] T1: a (depends: T1)\n', 'PRD.md:1: "T1" depends on itself'],
    ['- [ ] T1: a (depends: T2)\n- [ ] T2: b (depends: T1)\n', 'PRD.md:1: dependency cycle: T1 → T2 → T1'],
  ])('names the line of a mistake in %j', (text, message) => {
    expect(() => parsePrdMarkdown(text)).toThrow(message);
  });

  it('reports every problem at once, in line order', () => {
    expect(() => parsePrdMarkdown('- [ ] T1: a (depends: T7)\n- [?] b\n- [ ] T1: c\n', 'plan.md')).toThrow(
      'plan.md:1: depends on unknown task "T7"; plan.md:2: unrecognised checkbox "[?]": use "[ ]" or "[x]"; plan.md:3: duplicate id "T1" (also line 1)',
    );
  });
});

describe('parsePrd', () => {
  it('picks the format by extension', () => {
    expect(parsePrd(JSON_PRD, 'x/prd.json').kind).toBe('json');
    expect(parsePrd(MD_PRD, 'x/TODO.markdown').kind).toBe('markdown');
  });
});

describe('markTaskDone', () => {
  it('sets `passes` in prd.json and keeps every other byte, unknown keys included', () => {
    const prd = parsePrdJson(JSON_PRD);
    const out = markTaskDone(JSON_PRD, prd, 'US-003', true);
    expect(changedLines(JSON_PRD, out)).toEqual([[47, '      "passes": true,']]);
    expect(parsePrdJson(out).tasks.map((t) => t.done)).toEqual([true, false, true, false]);
    const undone = markTaskDone(out, parsePrdJson(out), 'US-001', false);
    expect(changedLines(out, undone)).toEqual([[17, '      "passes": false,']]);
    expect(JSON.parse(undone)).toEqual({
      ...JSON.parse(JSON_PRD),
      userStories: JSON.parse(JSON_PRD).userStories.map((s: { id: string }, i: number) => ({
        ...s,
        passes: i === 2,
      })),
    });
  });

  it.each([
    [
      '2 spaces',
      '{\n  "userStories": [\n    {\n      "id": "A",\n      "title": "t"\n    }\n  ]\n}\n',
      '{\n  "userStories": [\n    {\n      "id": "A",\n      "title": "t",\n      "passes": true\n    }\n  ]\n}\n',
    ],
    [
      'tabs and CRLF',
      '{\r\n\t"userStories": [{\r\n\t\t"id": "A",\r\n\t\t"title": "t"\r\n\t}]\r\n}',
      '{\r\n\t"userStories": [{\r\n\t\t"id": "A",\r\n\t\t"title": "t",\r\n\t\t"passes": true\r\n\t}]\r\n}',
    ],
    ['minified', '{"userStories":[{"id":"A","title":"t"}]}', '{"userStories":[{"id":"A","title":"t","passes":true}]}'],
    [
      'one line, spaced',
      '{ "userStories": [{ "id": "A", "title": "t" }] }',
      '{ "userStories": [{ "id": "A", "title": "t", "passes": true }] }',
    ],
    [
      'one key',
      '{"userStories":[{ "id": "A" , "title": "t"}]}',
      '{"userStories":[{ "id": "A" , "title": "t", "passes": true}]}',
    ],
  ])('adds a missing `passes` in the layout of the file (%s)', (_name, text, expected) => {
    // 'one key' has an odd comma: the new key copies the whitespace before the last key.
    const out = markTaskDone(text, parsePrdJson(text), 'A', true);
    expect(out).toBe(expected);
    expect(parsePrdJson(out).tasks[0].done).toBe(true);
  });

  it('changes the last `passes` of a story that repeats the key (the one JSON.parse reads)', () => {
    const text = '{"userStories":[{"id":"A","title":"t","passes":true,"passes":false}]}';
    expect(markTaskDone(text, parsePrdJson(text), 'A', true)).toBe(
      '{"userStories":[{"id":"A","title":"t","passes":true,"passes":true}]}',
    );
  });

  it('flips only the Markdown item of the task; every other line stays byte-identical', () => {
    const prd = parsePrdMarkdown(MD_PRD);
    const out = markTaskDone(MD_PRD, prd, 'T3', true);
    expect(changedLines(MD_PRD, out)).toEqual([
      [20, '- [x] **T3**: Display a priority badge on task cards (depends: T2)'],
    ]);
    const slugDone = markTaskDone(out, parsePrdMarkdown(out), 'write-release-notes', true);
    expect(changedLines(out, slugDone)).toEqual([[26, '- [x] Write release notes']]);
    const undone = markTaskDone(MD_PRD, prd, 'T1', false);
    expect(changedLines(MD_PRD, undone)).toEqual([[8, '- [ ] **T1**: Add priority field to database']]);
  });

  it('keeps CRLF line ends, a byte-order mark and an upper-case X', () => {
    const text = '\uFEFF* [ ] a\r\n1.\t[X] b\r\n';
    const prd = parsePrdMarkdown(text);
    expect(markTaskDone(text, prd, 'a', true)).toBe('\uFEFF* [x] a\r\n1.\t[X] b\r\n');
    expect(markTaskDone(text, prd, 'b', true)).toBe(text);
    expect(markTaskDone(text, prd, 'b', false)).toBe('\uFEFF* [ ] a\r\n1.\t[ ] b\r\n');
  });

  it.each([
    ['json', JSON_PRD, 'US-002'],
    ['markdown', MD_PRD, 'T2'],
  ])('is idempotent (%s): the second write returns the same text', (_kind, text, id) => {
    const once = markTaskDone(text, parsePrd(text, _kind === 'json' ? 'prd.json' : 'PRD.md'), id, true);
    const twice = markTaskDone(once, parsePrd(once, _kind === 'json' ? 'prd.json' : 'PRD.md'), id, true);
    expect(twice).toBe(once);
    expect(once).not.toBe(text);
  });

  it('rejects an unknown task id, naming the known ones', () => {
    expect(() => markTaskDone(MD_PRD, parsePrdMarkdown(MD_PRD), 'T9', true)).toThrow(
      new UnknownPrdTaskError('T9', ['T1', 'T2', 'T3', 'T4', 'write-release-notes']),
    );
    expect(() => markTaskDone(MD_PRD, parsePrdMarkdown(MD_PRD), 'T9', true)).toThrow(
      'no task "T9" (the PRD has T1, T2, T3, T4, write-release-notes)',
    );
  });

  it('refuses text the PRD was not parsed from', () => {
    const md = parsePrdMarkdown(MD_PRD);
    expect(() => markTaskDone('\n' + MD_PRD, md, 'T2', true)).toThrow(StalePrdError);
    expect(() => markTaskDone('\n' + MD_PRD, md, 'T2', true)).toThrow(
      'line 13 is no longer the checklist item "Expose priority in the tasks API"',
    );
    const json = parsePrdJson(JSON_PRD);
    const swapped = JSON.stringify({ userStories: [...JSON.parse(JSON_PRD).userStories].reverse() });
    expect(() => markTaskDone(swapped, json, 'US-002', true)).toThrow('userStories[1] is no longer "US-002"');
    expect(() => markTaskDone('{', json, 'US-002', true)).toThrow('it is no longer valid JSON');
  });
});

describe('the order a project runs a parsed PRD in (ProjectMachine holds the one queue)', () => {
  const NOW = '2026-01-01T00:00:00.000Z';
  const machineOf = (prd: Prd): ProjectMachine =>
    new ProjectMachine(defaultTimeoutsConfig(), { projectId: 'p', prdFile: 'prd', tasks: prd.tasks, now: NOW });
  /** Runs tasks to `outcome` by id (accepted by default) and returns the ids in the order the machine picked them. */
  const run = (m: ProjectMachine, fail: string[] = []): string[] => {
    const order: string[] = [];
    for (let t = m.next(NOW); t; t = m.next(NOW)) {
      order.push(t.id);
      m.startAttempt(t, 'x', NOW);
      if (fail.includes(t.id)) t.attemptBudget = 1;
      m.finishAttempt(t, fail.includes(t.id) ? 'gate_failure' : 'accepted', 'r', NOW);
    }
    return order;
  };

  it('takes the lowest priority number first, ties in file order, done tasks never', () => {
    expect(run(machineOf(prdOf('A:3', 'B:1', 'C:1')))).toEqual(['B', 'C', 'A']);
    expect(run(machineOf(prdOf('A!', 'B!')))).toEqual([]);
  });

  it('follows the fixtures: dependencies before priority; a blocked task holds back its dependents', () => {
    expect(run(machineOf(parsePrdMarkdown(MD_PRD)))[0]).toBe('T2');
    const json = machineOf(parsePrdJson(JSON_PRD));
    const order = run(json, ['US-002']);
    expect(order).not.toContain('US-004');
    expect(json.task('US-004')).toMatchObject({ status: 'blocked', blockReason: 'dependency' });
  });
});
