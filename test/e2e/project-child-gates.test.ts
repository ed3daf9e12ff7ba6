/**
 * A project whose child loop asks a question, on a real dev server with the built CLI as subprocesses: the question
 * gate pauses the project, and the project's views show it with the command that answers it (`ralph start --prd
 * --follow`, `ralph status <project>` and its `--json`, the console's project page, the project's Temporal UI current
 * details). `ralph answer <child>` resumes the child, and the project runs to completion.
 */
import fs from 'node:fs';
import path from 'node:path';
import execa from 'execa';
import { projectChildGates } from '../../src/client';
import { projectPage } from '../../src/console/pages';
import type { ProjectState } from '../../src/core/project-machine';
import { Harness, tempWorkspace } from '../helpers/env';
import { recordHistory } from '../helpers/histories';

const CLI = path.resolve(__dirname, '../../dist/src/cli/index.js');

let h: Harness;
beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const ENV = { TEMPORAL_ADDRESS: '', TEMPORAL_NAMESPACE: '', RALPH_TASK_QUEUE: '', RALPH_PROJECT: '' };

/** Runs `ralph <args>` (async, so the in-process worker keeps running). */
async function ralph(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await execa(process.execPath, [CLI, ...args], { reject: false, timeout: 60_000, env: ENV });
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

const conn = (): string[] => ['--address', h.env.address, '--task-queue', h.taskQueue];

/** Passes once the agent wrote `done-<task>`. */
const CHECK = "const t = process.argv[2]; process.exit(require('fs').existsSync('done-' + t) ? 0 : 1);\n";
/** T1's agent: asks on its first run, and does the work once it was answered. */
const ASK_THEN_WORK = [
  "const fs = require('fs');",
  "if (!fs.existsSync('asked-T1')) {",
  "  fs.writeFileSync('asked-T1', 'asked');",
  "  console.log('<question>\\nShould the importer keep CSV v1 or switch to v2?\\n- keep v1\\n- switch to v2\\n</question>');",
  "} else fs.writeFileSync('done-T1', 'ok');",
  '',
].join('\n');
const story = (id: string, title: string, priority: number) => ({
  id,
  title,
  description: title,
  acceptanceCriteria: ['it works'],
  priority,
  passes: false,
});

/** Waits until `f` returns something (polls every 300 ms). */
async function until<T>(what: string, f: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("a project shows its child loops' human gates", () => {
  it('a child asks: follow, status, --json and the console page show the question and `ralph answer <child>`; the answer resumes the project to completion', async () => {
    const prd = { userStories: [story('T1', 'Fix the importer', 1), story('T2', 'Fix the exporter', 2)] };
    const ws = tempWorkspace(
      { 'prd.json': JSON.stringify(prd, null, 2), 'check.js': CHECK, 'ask.js': ASK_THEN_WORK },
      {
        tasks: {
          T1: { default: [{ run: 'node ask.js' }] },
          T2: { default: [{ write: 'done-T2', content: 'ok' }] },
        },
      },
    );
    // `--follow` runs until the project ends: started in the background, read as it goes.
    const follow = execa(
      process.execPath,
      [
        CLI,
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
        // The id the recorded history is replayed under (test/workflows/replay.test.ts).
        '--id',
        'project-child-question',
        '--follow',
        ...conn(),
      ],
      { reject: false, timeout: 180_000, env: ENV },
    );
    let out = '';
    follow.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    const id = await until('the project id', async () => out.split('\n')[0] || undefined);
    const child = `${id}--T1--a1`;

    // --follow says the task waits, what is asked, and the command that answers it.
    await until('the gate in --follow', async () => (out.includes('ralph answer') ? true : undefined));
    expect(out).toContain(`task T1 (attempt 1) waits for a human at gate question@1 of loop ${child} (question)`);
    expect(out).toContain('the agent asks: Should the importer keep CSV v1 or switch to v2?');
    expect(out).toContain('    - keep v1');
    expect(out).toContain(`ralph answer ${child} "your answer" --address ${h.env.address}`);

    const status = await ralph(['status', id, ...conn()]);
    expect(status.code).toBe(0);
    const lines = status.stdout.split('\n');
    expect(lines).toContain(`task T1 (attempt 1) waits for a human at gate question@1 of loop ${child} (question)`);
    expect(lines).toContain('  the agent asks: Should the importer keep CSV v1 or switch to v2?');
    expect(lines.some((l) => l.trim().startsWith(`ralph answer ${child} "your answer"`))).toBe(true);
    expect(lines.some((l) => l.trim().startsWith(`ralph abort ${child}`))).toBe(true);
    // The gate comes before the task table.
    expect(lines.findIndex((l) => l.includes('waits for a human'))).toBeLessThan(
      lines.findIndex((l) => l.includes('last outcome')),
    );

    const json = JSON.parse((await ralph(['status', id, '--json', ...conn()])).stdout) as ProjectState & {
      childGates: {
        taskId: string;
        loopId: string;
        gate: { id: string; reason: string; question?: { text: string } };
      }[];
    };
    expect(json.tasks.map((t) => [t.id, t.status])).toEqual([
      ['T1', 'running'],
      ['T2', 'pending'],
    ]);
    expect(json.childGates).toEqual([
      expect.objectContaining({
        taskId: 'T1',
        attempt: 1,
        loopId: child,
        gate: expect.objectContaining({
          id: 'question@1',
          reason: 'question',
          question: expect.objectContaining({ text: 'Should the importer keep CSV v1 or switch to v2?' }),
        }),
      }),
    ]);

    // The console's project page, from the same client reads.
    const state = await h.client.workflow.getHandle(id).query<ProjectState>('tasks');
    const page = projectPage(state, 'RUNNING', { operator: 'alice' }, [...(await projectChildGates(h.client, state))]);
    expect(page).toContain('id="child-gates"');
    expect(page).toContain('Should the importer keep CSV v1 or switch to v2?');
    expect(page).toContain(`href="/loops/${child}#pending-gate"`);
    expect(page).toContain(`ralph answer ${child} &quot;your answer&quot;`);

    // The project's Temporal UI current details (told by the child, patch child-gate-notice-v1).
    const details = await until('the gate in the project details', async () => {
      const md = await h.client.workflow
        .getHandle(id)
        .query<{ currentDetails?: string }>('__temporal_workflow_metadata');
      return md.currentDetails?.includes('Waiting for a human') ? md.currentDetails : undefined;
    });
    expect(details).toContain(`**Waiting for a human** at gate \`question@1\` (question) of loop \`${child}\``);
    expect(details).toContain('> The agent asks: Should the importer keep CSV v1 or switch to v2?');
    expect(details).toContain(`- \`ralph answer ${child} "your answer"\``);

    // Answering the project instead of its child is refused, naming where the loops are.
    const wrong = await ralph(['answer', id, 'Keep v1.', ...conn()]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain(`"${id}" is a ralphProject, not a ralphLoop: name the loop of its running task`);

    // Answering the child resumes it; the project goes on to T2 and ends done.
    const answered = await ralph(['answer', child, 'Keep v1.', '--by', 'alice', ...conn()]);
    expect({ code: answered.code, stderr: answered.stderr }).toEqual({ code: 0, stderr: '' });
    const r = await follow;
    expect(r.exitCode).toBe(0);
    expect(out).toMatch(/T1 attempt 1 → accepted/);
    expect(out).toMatch(/T2 attempt 1 → accepted/);
    const end = await ralph(['status', id, ...conn()]);
    expect(end.stdout).not.toContain('waits for a human');
    expect(JSON.parse((await ralph(['status', id, '--json', ...conn()])).stdout).childGates).toEqual([]);
    const ended = await h.client.workflow
      .getHandle(id)
      .query<{ currentDetails?: string }>('__temporal_workflow_metadata');
    expect(ended.currentDetails).toContain('**DONE: every task (2/2)**');
    expect(ended.currentDetails).not.toContain('Waiting for a human');
    // Replayed by test/workflows/replay.test.ts: the child's notices (patch child-gate-notice-v1), the project's signals.
    await recordHistory(h, id, 'project-child-question');
    await recordHistory(h, child, child);
  }, 240_000);
  it('aborting the project while its child waits at a question gate cancels the child and ends the project aborted', async () => {
    const prd = { userStories: [story('T1', 'Fix the importer', 1)] };
    const ws = tempWorkspace(
      { 'prd.json': JSON.stringify(prd, null, 2), 'check.js': CHECK, 'ask.js': ASK_THEN_WORK },
      { tasks: { T1: { default: [{ run: 'node ask.js' }] } } },
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
      '--no-anti-laziness',
      ...conn(),
    ]);
    expect(started.code).toBe(0);
    const id = started.stdout.split('\n')[0];
    const child = `${id}--T1--a1`;
    await until('the child gate', async () => {
      const s = await ralph(['status', id, '--json', ...conn()]);
      return s.code === 0 && (JSON.parse(s.stdout) as { childGates: unknown[] }).childGates.length ? true : undefined;
    });
    const aborted = await ralph(['abort', id, '--by', 'alice', ...conn()]);
    expect(aborted.code).toBe(0);
    expect(await h.client.workflow.getHandle(id).result()).toMatchObject({ status: 'aborted' });
    const childEnd = await until('the child to end', async () => {
      const d = await h.client.workflow.getHandle(child).describe();
      return d.status.name === 'RUNNING' ? undefined : d.status.name;
    });
    expect(childEnd).toBe('CANCELLED');
  }, 180_000);
});
