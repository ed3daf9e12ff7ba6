/**
 * One scripted turn of each pinned real CLI (test/agents) against its model stub, without Temporal: the command the
 * adapter builds runs as a real subprocess and its output parses. `npm run agents:check` runs this file to catch a
 * new CLI version that changed its flags or output.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getAdapter } from '../../../../src/activities/agents';
import { agentInvocation, runCommand, useTmpDirs } from '../../../helpers/fake-agents';
import type { ModelServer } from '../../../helpers/model-servers/server';
import { startAnthropicStub } from '../../../helpers/model-servers/anthropic';
import { type RealAdapter, type RealAgent, realAgents, realAider, tempHome } from '../../../helpers/real-agents';

const tmpDir = useTmpDirs();
let cli: Record<RealAdapter, RealAgent>;
const stubs: ModelServer[] = [];
beforeAll(() => {
  cli = realAgents();
}, 600_000);
afterAll(() => Promise.all(stubs.map((s) => s.close())));

describe.each(['claude-code', 'codex', 'gemini'] as const)('the real %s CLI, one scripted turn', (adapter) => {
  it('runs the command the adapter builds, writes the file the model asked for and parses the answer and usage', async () => {
    const ws = tmpDir('ralph-ws-');
    const stub = await cli[adapter].startStub({
      apiKey: 'check-key',
      conversations: [
        {
          turns: [
            { tools: [{ kind: 'write', path: path.join(ws, 'hello.txt'), content: 'hello\n' }] },
            { text: 'Created hello.txt. <promise>DONE</promise>' },
          ],
        },
      ],
    });
    stubs.push(stub);
    const spec = cli[adapter].spec(stub, tempHome(), { [cli[adapter].keyVar]: 'check-key' });
    const impl = getAdapter(adapter);
    const cmd = impl.build(agentInvocation(adapter, ws, spec));
    const run = await runCommand(cmd, ws, spec.env);
    const parsed = impl.parse(run.out);
    process.stdout.write(
      `${adapter} ${cli[adapter].version}: exit ${run.exitCode}, ${stub.requests.length} requests\n`,
    );
    expect(run.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(ws, 'hello.txt'), 'utf8')).toBe('hello\n');
    expect(parsed.finalText).toContain('<promise>DONE</promise>');
    expect(parsed.usage?.inputTokens).toBeGreaterThan(0);
    expect(parsed.isError).toBe(false);
  });
});

describe('the real aider (pip), one scripted turn against the Anthropic stub', () => {
  it('runs the command the adapter builds, applies the edit the model wrote and parses the answer, tokens and cost', async () => {
    const aider = realAider();
    const ws = tmpDir('ralph-ws-');
    const stub = await startAnthropicStub({
      apiKey: 'check-key',
      everyRequestIsATurn: true,
      prefixTurns: aider.prefixTurns,
      conversations: [{ turns: [{ text: 'Creating it.\n\nhello.txt\n```\nhello\n```\n\n<promise>DONE</promise>\n' }] }],
    });
    stubs.push(stub);
    const spec = aider.spec(stub, tempHome(), { [aider.keyVar]: 'check-key' });
    const inv = agentInvocation('aider', ws, spec);
    fs.mkdirSync(path.dirname(inv.promptFile), { recursive: true });
    fs.writeFileSync(inv.promptFile, inv.prompt);
    const impl = getAdapter('aider');
    const run = await runCommand(impl.build(inv), ws, spec.env);
    const parsed = impl.parse(run.out);
    process.stdout.write(`aider ${aider.version}: exit ${run.exitCode}, ${stub.requests.length} requests\n`);
    expect(run.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(ws, 'hello.txt'), 'utf8')).toBe('hello\n');
    expect(parsed.filesTouched).toEqual(['hello.txt']);
    expect(parsed.finalText).toContain('<promise>DONE</promise>');
    expect(parsed.usage?.inputTokens).toBeGreaterThan(0);
    expect(parsed.usage?.costUsd).toBeGreaterThan(0);
  });
});
