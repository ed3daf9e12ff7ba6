/**
 * The project commands of the built CLI (`start --prd`, `status`, `blocked`, `unblock`, `retry-blocked`) as real
 * subprocesses against a real dev server and an in-process worker: a two-task PRD whose first task blocks.
 */
import fs from 'node:fs';
import path from 'node:path';
import execa from 'execa';
import type { ProjectState } from '../../src/core/project-machine';
import type { ProjectResult } from '../../src/workflows/ralph-project';
import { Harness, tempWorkspace } from '../helpers/env';

const CLI = path.resolve(__dirname, '../../dist/src/cli/index.js');

let h: Harness;
beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `ralph <args>` (async, so the in-process worker keeps running). */
async function ralph(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const r = await execa(process.execPath, [CLI, ...args], {
    reject: false,
    timeout: 60_000,
    env: { TEMPORAL_ADDRESS: '', TEMPORAL_NAMESPACE: '', RALPH_TASK_QUEUE: '', RALPH_PROJECT: '', ...env },
  });
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

const conn = (): string[] => ['--address', h.env.address, '--task-queue', h.taskQueue];

/** Passes once the agent wrote `done-<task>`. */
const CHECK = "const t = process.argv[2]; process.exit(require('fs').existsSync('done-' + t) ? 0 : 1);\n";
const finishTask = (id: string) => [{ write: `done-${id}`, content: 'ok' }];
const story = (id: string, title: string, priority: number) => ({
  id,
  title,
  description: title,
  acceptanceCriteria: ['it works'],
  priority,
  passes: false,
});

describe('ralph project commands', () => {
  it('refuses a missing PRD file and an unblock without a project, before contacting the server', async () => {
    const missing = await ralph(['start', '--prd', '/nonexistent/prd.json', '--check', 'true', ...conn()]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'ralph: PRD file not found: /nonexistent/prd.json: --prd takes a prd.json or Markdown checklist',
    );
    const noProject = await ralph(['unblock', '--timeout', '60', ...conn()]);
    expect(noProject.code).toBe(2);
    expect(noProject.stderr).toMatch(/^ralph: name the project: `ralph unblock <projectId> <task-id\.\.\.>`/);
  });

  it('starts a PRD, follows it until a task blocks, shows and suggests, unblocks it with a timeout, and refuses bad requests', async () => {
    const prd = { userStories: [story('T1', 'Fix the importer', 1), story('T2', 'Fix the exporter', 2)] };
    const ws = tempWorkspace(
      {
        'prd.json': JSON.stringify(prd, null, 2),
        'check.js': CHECK,
        'project.json': JSON.stringify({ timeouts: { maxAttemptsPerTask: 2 } }),
      },
      {
        tasks: {
          // Attempt 3 (after the unblock) sleeps, so retry-blocked finds the project running with nothing blocked.
          T1: {
            attempts: { '3': [{ sleep: 4000 }, ...finishTask('T1')] },
            default: [{ append: 'wip-T1.txt', content: 'still trying\n' }],
          },
          T2: { default: finishTask('T2') },
        },
      },
    );
    const started = await ralph([
      'start',
      '--prd',
      path.join(ws, 'prd.json'),
      '--workspace',
      ws,
      '--script',
      path.join(ws, '.ralph-script.json'),
      '--check',
      'node check.js {taskId}',
      '--heartbeat-timeout',
      '10',
      '--no-anti-laziness',
      '--config',
      path.join(ws, 'project.json'),
      '--follow',
      ...conn(),
    ]);
    // --follow stops (exit 1) when only blocked tasks are left, naming them and the command that unblocks them.
    expect(started.code).toBe(1);
    const [id] = started.stdout.split('\n');
    expect(id).toMatch(/^ralph-project-ralph-ws-[a-z0-9]+-prd-[0-9a-f]{6}$/);
    expect(started.stdout).toMatch(/T1 attempt 1 → gate_failure · timeout \d+ s/);
    expect(started.stdout).toMatch(/T1 attempt 2 → gate_failure · timeout \d+ s .*→ BLOCKED \(gate_failure\)/);
    expect(started.stdout).toMatch(/T2 attempt 1 → accepted/);
    expect(started.stdout).toContain('project waits for an operator: 1 done, 1 blocked');
    expect(started.stdout).toContain(`run       ralph unblock ${id} T1 --max-attempts 1 --reason reviewed`);

    const status = await ralph(['status', id, ...conn()]);
    expect(status.code).toBe(0);
    const lines = status.stdout.split('\n');
    expect(lines).toContain('  status     waiting operator: only blocked tasks are left');
    expect(lines.find((l) => l.includes('last outcome'))).toMatch(
      /id +title +complexity +status +attempts +last outcome +last timeout +block reason/,
    );
    expect(lines.find((l) => l.startsWith('  T1 '))).toMatch(
      /T1 +Fix the importer +simple +blocked +2 +gate_failure +\d+ s +gate_failure/,
    );
    expect(lines.find((l) => l.startsWith('  T2 '))).toMatch(/T2 +Fix the exporter +simple +done +1 +accepted/);
    const json = JSON.parse((await ralph(['status', id, '--json', ...conn()])).stdout) as ProjectState;
    expect(json.tasks.map((t) => [t.id, t.status])).toEqual([
      ['T1', 'blocked'],
      ['T2', 'done'],
    ]);

    const blocked = await ralph(['blocked', id, '--suggest', ...conn()]);
    expect(blocked.code).toBe(0);
    expect(blocked.stdout).toContain('T1  Fix the importer  (simple)  blocked: gate_failure');
    expect(blocked.stdout).toContain('attempts  2 (gate_failure, gate_failure)');
    expect(blocked.stdout).toContain(
      'suggest   manual_review: gates kept failing after 2 attempts on a simple task: a human should look at it',
    );
    expect(blocked.stdout).toContain(`ralph status ${id}--T1--a2`);
    const blockedJson = JSON.parse((await ralph(['blocked', '--json', ...conn()], { RALPH_PROJECT: id })).stdout);
    expect(blockedJson).toMatchObject({ projectId: id, status: 'waiting_operator' });
    expect(blockedJson.blocked).toEqual([
      expect.objectContaining({ id: 'T1', reason: 'gate_failure', attempts: 2, timeoutsTried: [60, 60] }),
    ]);

    const bad = await ralph(['unblock', id, 'nope', ...conn()]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(`ralph: no task "nope" in ${path.join(ws, 'prd.json')} (tasks: T1, T2)`);

    // The project id from $RALPH_PROJECT: every argument is a task id.
    const ok = await ralph(['unblock', 'T1', '--timeout', '90', '--by', 'ops', ...conn()], { RALPH_PROJECT: id });
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout).toBe(
      `unblocked T1 with timeout 90 s in project ${id} as ops: follow with \`ralph status ${id}\``,
    );

    const nothing = await ralph(['retry-blocked', id, ...conn()]);
    expect(nothing).toMatchObject({ code: 1, stderr: 'ralph: no task is blocked' });

    const r = (await h.client.workflow.getHandle(id).result()) as ProjectResult;
    expect(r).toMatchObject({ status: 'done', blocked: [], attempts: 4 });
    const t1 = (await h.client.workflow.getHandle(id).query<ProjectState>('tasks')).tasks[0];
    expect(t1.attempts[2]).toMatchObject({ outcome: 'accepted', timeoutSeconds: 90 });
    expect(t1.unblocks[0]).toMatchObject({ by: 'ops', timeoutSeconds: 90, from: 'gate_failure' });

    const ended = await ralph(['retry-blocked', '--project', id, ...conn()]);
    expect(ended.code).toBe(1);
    expect(ended.stderr).toBe(
      `ralph: project "${id}" already ended (completed): nothing to retry; see \`ralph status ${id}\``,
    );
  });
});
