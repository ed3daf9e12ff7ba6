/** The parsed form of a PRD, the same for prd.json and a Markdown checklist. */

/** Where a task lives in its file: the index in `userStories`, or the 1-based line of the checklist item. */
export type PrdTaskSource = { kind: 'json'; index: number } | { kind: 'markdown'; line: number };

/** One task of a PRD, the same for both formats. */
export interface PrdTask {
  id: string;
  title: string;
  description: string;
  acceptanceCriteria: string[];
  /** Lower runs first; ties run in file order. */
  priority: number;
  /** `passes` in prd.json, a checked box in Markdown. */
  done: boolean;
  /** Ids of the tasks that must be done first. */
  dependsOn: string[];
  source: PrdTaskSource;
}

/** A parsed PRD. */
export interface Prd {
  kind: 'json' | 'markdown';
  project?: string;
  branchName?: string;
  /** prd.json's top-level `description`. */
  description?: string;
  tasks: PrdTask[];
}
