/**
 * `ralph start --agent claude-code` (the built CLI as a subprocess) running the real claude binary against its model
 * stub, with the API key only in the worker's environment: the loop is accepted, and neither `ralph status` nor the
 * history nor any state file shows the key.
 */
import fs from 'node:fs';
import path from 'node:path';
import execa from 'execa';
import { Harness, checkFileExists, tempWorkspace } from '../helpers/env';
import type { ModelServer } from '../helpers/model-servers/server';
import { realAgents, tempHome } from '../helpers/real-agents';

const CLI = path.resolve(__dirname, '../../dist/src/cli/index.js');
const KEY = 'sk-ant-cli-secret-9d2e41f07a3b';

let h: Harness;
let stub: ModelServer | undefined;
beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  realAgents();
  process.env.ANTHROPIC_API_KEY = KEY;
  h = await Harness.start();
}, 600_000);
afterAll(async () => {
  await stub?.close();
  await h?.stop();
  delete process.env.ANTHROPIC_API_KEY;
});

const ralph = (args: string[]) =>
  execa(process.execPath, [CLI, ...args, '--address', h.env.address, '--task-queue', h.taskQueue], {
    reject: false,
    timeout: 180_000,
    env: { TEMPORAL_ADDRESS: '', TEMPORAL_NAMESPACE: '', RALPH_TASK_QUEUE: '' },
  });

describe('ralph start --agent claude-code with the real claude', () => {
  it('runs the loop to acceptance with tokens and cost, and never shows the worker key', async () => {
    const claude = realAgents()['claude-code'];
    const ws = tempWorkspace({ 'check.js': checkFileExists('done.txt', 'ok') });
    stub = await claude.startStub({
      apiKey: KEY,
      conversations: [
        {
          turns: [
            { tools: [{ kind: 'write', path: path.join(ws, 'done.txt'), content: 'ok\n' }] },
            { text: 'Created done.txt.\n\n<promise>DONE</promise>' },
          ],
        },
      ],
    });
    // Everything but the key goes in the loop's config (agent.env); the key stays in the worker's environment.
    const spec = claude.spec(stub, tempHome());
    const config = path.join(ws, 'loop.json');
    fs.writeFileSync(
      config,
      JSON.stringify({ agent: { adapter: 'claude-code', env: spec.env }, sandbox: { mode: 'enforce' } }),
    );
    const r = await ralph([
      'start',
      '--config',
      config,
      '--workspace',
      ws,
      '--agent',
      'claude-code',
      '--agent-binary',
      claude.binary,
      '--agent-arg=--allowedTools',
      '--agent-arg=Bash',
      '--prompt',
      'Create done.txt containing ok.',
      '--check',
      'node check.js',
      '--promise',
      'DONE',
      '--iteration-timeout',
      '120',
      '--follow',
      '--json',
    ]);
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout) as { loopId: string; result: { status: string; iterations: number } };
    expect(out.result).toMatchObject({ status: 'accepted', iterations: 1 });

    const status = await ralph(['status', out.loopId, '--json']);
    expect(status.exitCode).toBe(0);
    const s = JSON.parse(status.stdout) as {
      records: { agent: { usage?: { inputTokens?: number; costUsd?: number } } }[];
    };
    expect(s.records[0].agent.usage?.inputTokens).toBeGreaterThan(0);
    expect(s.records[0].agent.usage?.costUsd).toBeGreaterThan(0);
    const human = await ralph(['status', out.loopId]);
    expect(JSON.stringify(stub.requests.map((q) => q.headers))).toContain(KEY);
    for (const text of [r.stdout, r.stderr, status.stdout, human.stdout, human.stderr]) expect(text).not.toContain(KEY);
    expect(JSON.stringify(await h.client.workflow.getHandle(out.loopId).fetchHistory())).not.toContain(KEY);
    const files = fs
      .readdirSync(path.join(ws, '.ralph'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath ?? e.path, e.name));
    expect(files.length).toBeGreaterThan(5);
    expect(files.filter((f) => fs.readFileSync(f, 'latin1').includes(KEY))).toEqual([]);
  });
});
