/**
 * Classifies the work of a loop (its files now against the verification baseline) by the protected set: which
 * protected files the agent changed, deleted or added, which changes the task allows, which new tests it wrote, and so
 * what the verification tree must restore, merge and remove. Pure: the activity passes blob ids and section changes.
 */
import {
  allowReason,
  conventionKind,
  isConfigKind,
  isSectionFile,
  matchesAny,
  type ProtectedKind,
  type ProtectedSet,
} from './protected-set';
import { environmentReason, type EnvironmentChange } from './environment';

/** How a protected file changed. */
export type ProtectedChangeKind = 'modified' | 'deleted' | 'added';

/** One change of the agent to a protected file. */
export interface ProtectedChange {
  path: string;
  change: ProtectedChangeKind;
  kind: ProtectedKind;
  /** For multi-purpose files: the protected fields or sections that changed. */
  sections?: string[];
}

/** A change to a file the rules protect but the loop allows (the task names it, or `verification.allow`). */
export interface AllowedChange {
  path: string;
  change: ProtectedChangeKind;
  reason: 'task' | 'allow';
}

/** The classification, and what the verification tree does. */
export interface VerificationPlan {
  protectedChanges: ProtectedChange[];
  allowedChanges: AllowedChange[];
  /** Test files the agent added: kept in the verification tree (added tests still count). */
  newTests: string[];
  /** Files written back with their baseline content (changed or deleted protected files). */
  restore: string[];
  /** Multi-purpose files whose protected parts are put back (the rest of the agent's version kept). */
  merge: string[];
  /** Configuration files the agent added (a new vitest.config.ts must not narrow the original run). */
  remove: string[];
  /**
   * Changes outside the allow-list that are not protected either (a new `.npmrc`, `pytest.toml`, a new package script):
   * absent or reverted in the tree (their paths are in restore/remove/merge too), named only if the checks then fail.
   */
  environmentChanges: EnvironmentChange[];
}

/** What {@link classifyWork} compares. */
export interface ClassifyWorkInput {
  /** Path → blob id at the baseline. */
  baseline: Record<string, string>;
  /** Path → blob id now (the post-run checkpoint). */
  current: Record<string, string>;
  set: ProtectedSet;
  rules: { protect: string[]; allow: string[]; task: string };
  /**
   * For each changed or added multi-purpose file (package.json, tsconfig, pyproject.toml, setup.cfg), the protected
   * parts that differ (from compareSections). A changed multi-purpose file missing here counts as wholly changed.
   */
  sections: Record<string, string[]>;
  /** For package.json: the fields the agent added that are environment, not protected (new scripts). */
  environmentSections?: Record<string, string[]>;
}

/** Whether the verification tree differs from the agent's work (else re-running the checks there proves nothing new). */
export const planChangesTree = (p: VerificationPlan): boolean =>
  p.restore.length + p.merge.length + p.remove.length > 0;

/**
 * Compares the work against the baseline, file by file, by the protected set:
 * - a protected file modified or deleted: a protected change, restored (multi-purpose files: only if their protected
 *   parts changed, and then merged);
 * - an added file that is configuration by convention (test runner, coverage, lint, CI, `conftest.py`) or matches a
 *   `protect` glob: a protected change, removed; an added multi-purpose file with test sections: merged;
 * - an added test file: a new test, kept;
 * - a change the task names or `allow` matches: allowed, recorded, kept.
 */
export function classifyWork(input: ClassifyWorkInput): VerificationPlan {
  const plan: VerificationPlan = {
    protectedChanges: [],
    allowedChanges: [],
    newTests: [],
    restore: [],
    merge: [],
    remove: [],
    environmentChanges: [],
  };
  const kinds = new Map(input.set.protected.map((e) => [e.path, e.kind]));
  const allowed = new Map(input.set.allowed.map((e) => [e.path, e.reason]));
  const paths = [...new Set([...Object.keys(input.baseline), ...Object.keys(input.current)])].sort();
  for (const p of paths) {
    const was = input.baseline[p];
    const now = input.current[p];
    if (was === now) continue;
    const change: ProtectedChangeKind = was === undefined ? 'added' : now === undefined ? 'deleted' : 'modified';
    if (was !== undefined) classifyExisting(input, plan, p, change, kinds.get(p), allowed.get(p));
    else classifyAdded(input, plan, p);
  }
  return plan;
}

/** A file the baseline had, modified or deleted. */
function classifyExisting(
  input: ClassifyWorkInput,
  plan: VerificationPlan,
  p: string,
  change: ProtectedChangeKind,
  kind: ProtectedKind | undefined,
  allowedFor: AllowedChange['reason'] | undefined,
): void {
  if (allowedFor) plan.allowedChanges.push({ path: p, change, reason: allowedFor });
  if (!kind) {
    const reason = allowedFor ? undefined : environmentReason(p, change);
    if (reason) {
      plan.environmentChanges.push({ path: p, change, reason });
      plan.restore.push(p);
    }
    return;
  }
  if (kind === 'sections' && change === 'modified') {
    const sections = input.sections[p] ?? ['(whole file)'];
    const env = input.environmentSections?.[p] ?? [];
    if (sections.length) plan.protectedChanges.push({ path: p, change, kind, sections });
    else if (env.length) plan.environmentChanges.push({ path: p, change, reason: 'script_entry', sections: env });
    else return;
    plan.merge.push(p);
  } else {
    plan.protectedChanges.push({ path: p, change, kind });
    plan.restore.push(p);
  }
}

/** A file the agent added. */
function classifyAdded(input: ClassifyWorkInput, plan: VerificationPlan, p: string): void {
  const change = 'added';
  const conv = conventionKind(p);
  const byUser = matchesAny(p, input.rules.protect);
  const reason = allowReason(p, input.rules);
  if (!conv && !byUser) {
    const env = reason ? undefined : environmentReason(p, change);
    if (env) {
      plan.environmentChanges.push({ path: p, change, reason: env });
      plan.remove.push(p);
    }
    return;
  }
  if (reason) {
    plan.allowedChanges.push({ path: p, change, reason });
    return;
  }
  if (isSectionFile(p)) {
    const sections = input.sections[p] ?? ['(whole file)'];
    if (!sections.length) return;
    plan.protectedChanges.push({ path: p, change, kind: 'sections', sections });
    plan.merge.push(p);
  } else if (isConfigKind(conv) || (byUser && conv !== 'test' && conv !== 'test_data')) {
    plan.protectedChanges.push({ path: p, change, kind: conv ?? 'user' });
    plan.remove.push(p);
  } else if (conv === 'test') plan.newTests.push(p);
}

/** One line per protected change: `M test/run.js (test)`, `M package.json: scripts.test`, `A vitest.config.ts`. */
export function describeProtectedChanges(changes: readonly ProtectedChange[], max = 30): string[] {
  const letter = { modified: 'M', deleted: 'D', added: 'A' } as const;
  const lines = changes
    .slice(0, max)
    .map(
      (c) =>
        `${letter[c.change]} ${c.path}${c.sections ? `: ${c.sections.join(', ')}` : ` (${c.kind.replace(/_/g, ' ')})`}`,
    );
  if (changes.length > max) lines.push(`… ${changes.length - max} more`);
  return lines;
}
