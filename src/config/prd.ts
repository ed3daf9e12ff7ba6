/**
 * PRD task files: a `prd.json` in the common Ralph shape or a Markdown checklist, parsed into one list of tasks with
 * dependencies, and the pure text edit that records a task's progress back into the file, so the file stays the
 * human's source of truth. No I/O and no node builtins (only zod): reading and the atomic write-back are in
 * src/activities/prd-file.ts. Which task runs next is the project's (core/project-machine.ts), not the file's.
 * The parts: prd/types.ts, prd/json.ts (+ prd/json-scan.ts for positions), prd/markdown.ts, prd/problems.ts,
 * prd/write-back.ts.
 *
 * prd.json (Ralph's shape; unknown keys such as `notes` are allowed and kept on write-back):
 * ```json
 * { "project": "MyApp", "branchName": "ralph/x", "description": "...",
 *   "userStories": [{ "id": "US-001", "title": "...", "description": "...", "acceptanceCriteria": ["..."],
 *                     "priority": 1, "passes": false, "dependsOn": ["US-000"], "notes": "" }] }
 * ```
 * `projectName` is read like `project`; `dependencies` like `dependsOn`; numeric ids are read as strings. A story
 * without `priority` gets its 1-based position; without `passes` it is not done (write-back adds the key).
 *
 * Markdown checklist:
 * ```md
 * # Project name            (the first level-1 heading is the project)
 * ## Backend                (a heading is the description of the tasks under it that have none of their own)
 * - [ ] **T1**: Add the priority column
 *   Optional description: indented text under the item.
 *   - a migration adds `priority` (indented bullets are acceptance criteria; their own boxes are not read)
 * - [x] T2: Already done (depends: T1)
 * - [ ] A task without an id
 * ```
 * - A task is a `-`, `*`, `+` or `1.` list item starting with `[ ]` or `[x]`/`[X]` that is not nested under another
 *   task. Items inside fenced code blocks, HTML comments and YAML front matter are ignored.
 * - Id: an optional `T1:`, `**T1**:`, `**T1:**` or `US-001:` prefix (capital letters, digits, `-` or `.`, with at
 *   least one digit). Without one, the id is the slug of the title (`a-task-without-an-id`), so it stays the same when
 *   other lines are added, moved or removed; repeated titles get `-2`, `-3`... in file order.
 * - Dependencies: a trailing `(depends: T1, T2)` (also `(depends on: T1)`), listing ids or slugs.
 * - Priority: position in the file (1 = first).
 */
import { parsePrdJson } from './prd/json';
import { parsePrdMarkdown } from './prd/markdown';
import type { Prd } from './prd/types';

export { PrdError, StalePrdError, UnknownPrdTaskError, type PrdProblem } from './errors';
export type { Prd, PrdTask, PrdTaskSource } from './prd/types';
export { PrdJson, PrdStory, parsePrdJson } from './prd/json';
export { parsePrdMarkdown, slugOf } from './prd/markdown';
export { markTaskDone } from './prd/write-back';

/** The PRD format of a file name: `.json` or `.md`/`.markdown`; undefined for anything else. */
export function prdKindOf(file: string): Prd['kind'] | undefined {
  if (/\.json$/i.test(file)) return 'json';
  if (/\.(md|markdown)$/i.test(file)) return 'markdown';
  return undefined;
}

/** Parses a PRD of either format, chosen by `file`'s extension (a `.json` file is prd.json, anything else Markdown). */
export function parsePrd(text: string, file: string): Prd {
  return prdKindOf(file) === 'json' ? parsePrdJson(text, file) : parsePrdMarkdown(text, file);
}
