/**
 * The real claude, codex and gemini CLIs (pinned in test/agents) in loops on the real dev server, each against its
 * loopback model stub: no network. The stub scripts the model's turns; the CLI really runs the tool calls.
 */
import fs from 'node:fs';
import path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import type { LoopInputRaw } from '../../src/config/loop-input';
import { Harness, checkFileExists, tempWorkspace } from '../helpers/env';
import type { StubScript } from '../helpers/model-servers/script';
import type { ModelServer } from '../helpers/model-servers/server';
import { type RealAdapter, type RealAgent, realAgents, tempHome } from '../helpers/real-agents';

let h: Harness;
let cli: Record<RealAdapter, RealAgent>;
const stubs: ModelServer[] = [];
/** Keys given to the worker's environment (the in-process worker runs the agents with it). */
const KEYS: Record<RealAdapter, string> = {
  'claude-code': 'sk-ant-secret-7f3a9c21e8d04b56',
  codex: 'sk-openai-secret-52be0d9a41c7f683',
  gemini: 'gm-secret-c81f2e7d93a04b65',
};

beforeAll(async () => {
  cli = realAgents();
  for (const a of Object.values(cli)) process.env[a.keyVar] = KEYS[a.adapter];
  h = await Harness.start();
}, 600_000);
afterAll(async () => {
  await Promise.all(stubs.map((s) => s.close()));
  await h?.stop();
  for (const a of Object.values(cli ?? {})) delete process.env[a.keyVar];
});

/** Starts `adapter`'s stub following `script`, expecting the worker's key. */
async function stubFor(adapter: RealAdapter, script: Omit<StubScript, 'apiKey'>, apiKey = KEYS[adapter]) {
  const s = await cli[adapter].startStub({ apiKey, ...script });
  stubs.push(s);
  return s;
}

/** A loop of the real `adapter` against `stub` in `ws`, done when `node check.js` passes after a DONE claim. */
function realLoop(adapter: RealAdapter, stub: ModelServer, ws: string, over: Partial<LoopInputRaw> = {}): LoopInputRaw {
  return {
    prompt: 'Create done.txt containing ok, then say <promise>DONE</promise>.',
    workspace: ws,
    agent: cli[adapter].spec(stub, tempHome()),
    completion: { command: 'node check.js', promise: 'DONE' },
    maxIterations: 3,
    iterationTimeoutSeconds: 120,
    heartbeatTimeoutSeconds: 30,
    sandbox: { mode: 'enforce' },
    ...over,
  };
}

/** Every file under `dir`, as text. */
function allFiles(dir: string): { file: string; text: string }[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((e) => {
    if (!e.isFile()) return [];
    const file = path.join(e.parentPath ?? e.path, e.name);
    return [{ file, text: fs.readFileSync(file, 'latin1') }];
  });
}

/**
 * Checks that `key` reached the model API and appears nowhere in the loop's history payloads, its status, or any
 * file under the state folder (state files, artifacts, agent logs, audit log).
 */
async function expectNoLeak(id: string, ws: string, stub: ModelServer, key: string): Promise<void> {
  expect(JSON.stringify(stub.requests.map((q) => q.headers))).toContain(key);
  const history = JSON.stringify(await h.client.workflow.getHandle(id).fetchHistory());
  expect(history).not.toContain(key);
  // Payload data is base64 in the JSON form of the history: look for the key's encodings at all three offsets.
  for (let i = 0; i < 3; i++)
    expect(history).not.toContain(
      Buffer.from('xx'.slice(0, i) + key)
        .toString('base64')
        .slice(4, -4),
    );
  expect(JSON.stringify(await h.status(id))).not.toContain(key);
  expect(
    allFiles(path.join(ws, '.ralph'))
      .filter((f) => f.text.includes(key))
      .map((f) => f.file),
  ).toEqual([]);
}

const ADAPTERS: RealAdapter[] = ['claude-code', 'codex', 'gemini'];

describe.each(ADAPTERS)('the real %s CLI in a loop', (adapter) => {
  it('edits files through its tools, claims done, passes the check, reports tokens; a 300 KiB prompt gets through stdin and the key leaks nowhere', async () => {
    const ws = tempWorkspace({ 'check.js': checkFileExists('done.txt', 'ok'), 'notes.txt': 'draft\n' });
    const marker = 'END-OF-LONG-PROMPT-7c1d';
    const stub = await stubFor(adapter, {
      conversations: [
        {
          turns: [
            {
              text: 'Writing the file.',
              tools: [
                { kind: 'write', path: path.join(ws, 'done.txt'), content: 'draft\n' },
                { kind: 'shell', command: 'echo ran > shell.txt' },
              ],
            },
            {
              tools: [
                { kind: 'edit', path: path.join(ws, 'done.txt'), old: 'draft', new: 'ok' },
                { kind: 'delete', path: path.join(ws, 'notes.txt') },
              ],
            },
            { text: 'done.txt now says ok.\n\n<promise>DONE</promise>', usage: { input: 1200, output: 40 } },
          ],
        },
      ],
    });
    const prompt = `Create done.txt containing ok.\n\n${'Context line for the long prompt. '.repeat(9600)}\n${marker}\n`;
    expect(Buffer.byteLength(prompt)).toBeGreaterThan(300 * 1024);
    const id = await h.startLoop(realLoop(adapter, stub, ws, { prompt }));
    const r = await h.result(id);
    const s = await h.status(id);

    expect(r).toMatchObject({ status: 'accepted', iterations: 1 });
    expect(fs.readFileSync(path.join(ws, 'done.txt'), 'utf8').trim()).toBe('ok');
    expect(fs.readFileSync(path.join(ws, 'shell.txt'), 'utf8').trim()).toBe('ran');
    expect(fs.existsSync(path.join(ws, 'notes.txt'))).toBe(false);
    const it1 = s.records[0];
    expect(it1.agent).toMatchObject({ exitCode: 0, claimed: true, claimVia: 'promise' });
    expect(it1.agent.usage?.inputTokens).toBeGreaterThan(0);
    expect(it1.agent.usage?.outputTokens).toBeGreaterThan(0);
    if (adapter === 'claude-code') expect(it1.agent.usage?.costUsd).toBeGreaterThan(0);
    // The whole prompt reached the model (stdin, not argv).
    const main = stub.requests.filter((q) => q.turn === 0);
    expect(main.length).toBeGreaterThan(0);
    expect(JSON.stringify(main[0].body)).toContain(marker);
    expect(main[0].bytes).toBeGreaterThan(300 * 1024);

    // The key went from the worker's environment to the model API, and nowhere else.
    await expectNoLeak(id, ws, stub, KEYS[adapter]);

    if (adapter === 'claude-code') {
      // Ralph's PreToolUse/PostToolUse hooks ran inside the real claude and logged its tool calls.
      const audit = allFiles(path.join(ws, '.ralph')).find((f) => f.file.endsWith('audit.jsonl'));
      expect(audit?.text).toMatch(/Bash|Write|Edit/);
    }
  });

  it('rejects a claim with no work behind it, then accepts the next iteration that does the work (key via an agent.env ${VAR} reference)', async () => {
    const ws = tempWorkspace({ 'check.js': checkFileExists('done.txt', 'ok') });
    // The key reaches the agent through agent.env as a reference to a worker variable, never as its value.
    const ref = `RALPH_TEST_KEY_${adapter.replace('-', '_').toUpperCase()}`;
    const key = `ref-${KEYS[adapter]}`;
    process.env[ref] = key;
    const stub = await stubFor(
      adapter,
      {
        conversations: [
          { match: 'iteration 1 of', turns: [{ text: 'Everything is done. <promise>DONE</promise>' }] },
          {
            turns: [
              { tools: [{ kind: 'write', path: path.join(ws, 'done.txt'), content: 'ok\n' }] },
              { text: 'Created done.txt. <promise>DONE</promise>' },
            ],
          },
        ],
      },
      key,
    );
    const input = realLoop(adapter, stub, ws);
    (input.agent as { env: Record<string, string> }).env[cli[adapter].keyVar] = `\${${ref}}`;
    const id = await h.startLoop(input);
    const r = await h.result(id);
    const s = await h.status(id);
    delete process.env[ref];
    expect(r).toMatchObject({ status: 'accepted', iterations: 2 });
    await expectNoLeak(id, ws, stub, key);
    expect(s.records.map((i) => i.outcome)).toEqual(['claim_rejected', 'completed']);
    expect(s.records[0].check?.passed).toBe(false);
  });

  it('fails the loop at once, naming how to fix it, when the key is wrong', async () => {
    const ws = tempWorkspace({ 'check.js': checkFileExists('done.txt', 'ok') });
    const stub = await stubFor(adapter, { conversations: [{ turns: [{ text: 'never reached' }] }] }, 'the-right-key');
    const input = realLoop(adapter, stub, ws);
    const spec = input.agent as { env: Record<string, string> };
    spec.env[cli[adapter].keyVar] = 'a-wrong-key';
    const id = await h.startLoop(input);
    const err = await h.result(id).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as Error)?.name).toBe(WorkflowFailedError.name);
    const cause = (err as { cause: { type?: string; message: string } }).cause;
    expect(cause.type).toBe('AgentAuthFailed');
    // Codex reads this stub's key from a custom provider's env_key, which the fix line names generically.
    const fix = adapter === 'codex' ? 'OPENAI_API_KEY \\(or the env_key' : cli[adapter].keyVar;
    expect(cause.message).toMatch(new RegExp(`could not authenticate.*${fix}`));
    expect(cause.message.split('\n')).toHaveLength(1);
    const s = await h.status(id);
    expect(s.records).toHaveLength(0);
    expect(stub.requests.filter((q) => q.status === 401 || q.status === 400).length).toBeGreaterThan(0);
  });

  it('sleeps through a 429 usage limit and re-runs the same iteration', async () => {
    const ws = tempWorkspace({ 'check.js': checkFileExists('done.txt', 'ok') });
    const stub = await stubFor(adapter, {
      conversations: [
        {
          turns: [
            {
              fail: { status: 429, headers: { 'retry-after': '5400' }, times: 1 },
              tools: [{ kind: 'write', path: path.join(ws, 'done.txt'), content: 'ok\n' }],
            },
            { text: 'Created done.txt. <promise>DONE</promise>' },
          ],
        },
      ],
    });
    const id = await h.startLoop(realLoop(adapter, stub, ws, { maxUsageLimitWaitSeconds: 1 }));
    const r = await h.result(id);
    const s = await h.status(id);
    expect(r).toMatchObject({ status: 'accepted', iterations: 1 });
    expect(s.totals.usageLimitWaits).toBe(1);
    expect(s.records[0].outcome).toBe('completed');
    expect(stub.requests.filter((q) => q.status === 429)).toHaveLength(1);
  });
});

describe.each(['claude-code', 'codex'] as const)('the real %s CLI against an overloaded API', (adapter) => {
  it('is retried by the activity retry policy, not counted as an iteration', async () => {
    const ws = tempWorkspace({ 'check.js': checkFileExists('done.txt', 'ok') });
    const status = adapter === 'claude-code' ? 529 : 503;
    const stub = await stubFor(adapter, {
      conversations: [
        {
          turns: [
            {
              fail: { status, times: 1 },
              tools: [{ kind: 'write', path: path.join(ws, 'done.txt'), content: 'ok\n' }],
            },
            { text: 'Created done.txt. <promise>DONE</promise>' },
          ],
        },
      ],
    });
    const id = await h.startLoop(realLoop(adapter, stub, ws));
    const r = await h.result(id);
    const s = await h.status(id);
    expect(r).toMatchObject({ status: 'accepted', iterations: 1 });
    expect(s.records).toHaveLength(1);
    expect(s.records[0].agent.attempts).toBe(2);
    expect(stub.requests.filter((q) => q.status === status)).toHaveLength(1);
    // The overloaded attempt's result was kept as an artifact, classified.
    const first = allFiles(path.join(ws, '.ralph')).find((f) => /agent-result\.json$/.test(f.file));
    expect(first && (JSON.parse(first.text) as { failureKind?: string }).failureKind).toBe('overloaded');
  });
});
