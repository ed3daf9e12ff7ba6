import fs from 'node:fs';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { PrdError } from '../config/prd';
import { parseProjectInput, type ResolvedProjectInput } from '../config/project-input';
import { defaultTimeoutsConfig } from '../config/timeouts-config';
import { ErrorTypes, RALPH_DIR } from '../core/constants';
import type { TaskSpec } from '../core/project-machine';
import { asActivityFailure } from './errors';
import { loadPrd, writeTaskDone } from './prd-file';

/** Input of {@link validateProject}: whatever the project workflow was started with. */
export interface ValidateProjectInput {
  raw: unknown;
}

/** Result of {@link validateProject}: the input with defaults and absolute paths, and the PRD's tasks. */
export interface ValidateProjectResult {
  input: ResolvedProjectInput;
  project?: string;
  tasks: TaskSpec[];
}

/**
 * Validates a project's input (schema, workspace) and reads its PRD. Fails non-retryably with a message naming the
 * bad field, or the PRD's file, line and problem.
 */
export async function validateProject({ raw }: ValidateProjectInput): Promise<ValidateProjectResult> {
  const input = asActivityFailure(() => parseProjectInput(raw));
  if (!path.isAbsolute(input.workspace) || !fs.existsSync(input.workspace))
    throw ApplicationFailure.nonRetryable(
      `workspace ${input.workspace} must be an existing absolute directory: fix input.workspace`,
      ErrorTypes.WorkspaceNotFound,
    );
  input.prdFile = path.resolve(input.workspace, input.prdFile);
  input.stateDir = path.resolve(input.workspace, input.stateDir ?? RALPH_DIR);
  const timeouts = input.timeouts ?? defaultTimeoutsConfig();
  try {
    const { prd } = await loadPrd(input.prdFile);
    return {
      input: { ...input, timeouts },
      project: prd.project,
      tasks: prd.tasks.map((t) => ({
        id: t.id,
        title: t.title,
        description: t.description,
        acceptanceCriteria: t.acceptanceCriteria,
        priority: t.priority,
        done: t.done,
        dependsOn: t.dependsOn,
      })),
    };
  } catch (e) {
    if (e instanceof PrdError || (e as Error).name === 'PrdError' || (e as NodeJS.ErrnoException).code === 'ENOENT')
      throw ApplicationFailure.nonRetryable(`invalid PRD: ${(e as Error).message}`, ErrorTypes.InvalidInput);
    throw ApplicationFailure.nonRetryable(`PRD ${input.prdFile}: ${(e as Error).message}`, ErrorTypes.InvalidInput);
  }
}

/** Input of {@link markTaskDone}. */
export interface MarkTaskDoneInput {
  prdFile: string;
  taskId: string;
}

/** Writes a task's done state back into the PRD file (atomically; idempotent). */
export async function markTaskDone({ prdFile, taskId }: MarkTaskDoneInput): Promise<void> {
  await writeTaskDone(prdFile, taskId, true);
}
