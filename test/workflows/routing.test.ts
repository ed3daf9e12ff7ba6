/**
 * Automatic agent routing and handoffs on a real dev server, with scripted agents as the specialists (each profile's
 * `options.script` is its own script) and profiles in a temp workspace's `.ralph/agents`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Harness, checkFileExists, scriptedLoop, tempWorkspace } from '../helpers/env';
import { recordHistory } from '../helpers/histories';
import type { LoopInputRaw } from '../../src/config/loop-input';
import type { LoopState } from '../../src/core/loop-types';
import { parseRoutingLog, type RoutingLogEntry } from '../../src/core/routing';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

type Steps = Record<string, unknown>[];

/** A workspace with profiles (`name` → domain, keywords, instructions, the scripted agent's steps). */
function workspace(
  profiles: Record<string, { domain: string; keywords?: string[]; body: string; steps: Steps }>,
  baseSteps: Steps = [{ write: 'done.txt', content: 'base' }],
): string {
  const files: Record<string, string> = { 'check.js': checkFileExists('done.txt') };
  for (const [name, p] of Object.entries(profiles)) {
    files[`.ralph/agents/${name}.md`] =
      `---\ndomain: ${p.domain}\nkeywords: ${JSON.stringify(p.keywords ?? [])}\nadapter: scripted\n` +
      `options: { script: .scripts/${name}.json }\n---\n${p.body}\n`;
    files[`.scripts/${name}.json`] = JSON.stringify({ default: p.steps });
  }
  return tempWorkspace(files, { default: baseSteps });
}

const loopDir = (ws: string, id: string): string => path.join(ws, '.ralph', 'loops', id);
const promptOf = (ws: string, id: string, n: number): string =>
  fs.readFileSync(path.join(loopDir(ws, id), 'iterations', String(n).padStart(3, '0'), 'prompt.md'), 'utf8');
const routingLog = (ws: string, id: string): RoutingLogEntry[] =>
  parseRoutingLog(fs.readFileSync(path.join(loopDir(ws, id), 'routing', 'log.jsonl'), 'utf8')).entries;
const sessionPath = (ws: string, id: string): string => path.join(loopDir(ws, id), 'routing', 'session.json');

const done: Steps = [{ write: 'done.txt', content: 'ok' }];
const handoff = (target: string, reason: string, context: string): Steps => [
  { print: `Work done.\n<handoff target="${target}" reason="${reason}">\n${context}\n</handoff>` },
];

const SECURITY = {
  domain: 'security',
  body: 'SECURITY-INSTRUCTIONS: threat-model first, then fix the root cause.',
  steps: done,
};
const SECURITY_TASK = 'Review this Python code for security issues and fix any injection vulnerabilities you find';

async function run(
  ws: string,
  prompt: string,
  over: Partial<LoopInputRaw> = {},
  loopId?: string,
): Promise<{ id: string; s: LoopState }> {
  const id = await h.startLoop(scriptedLoop(ws, { prompt, ...over }), loopId);
  await h.result(id);
  return { id, s: await h.status(id) };
}

describe('automatic routing in ralphLoop', () => {
  it('routes a security task to the security profile, whose instructions are in the prompt', async () => {
    const ws = workspace({ security_specialist: SECURITY });
    const { id, s } = await run(ws, SECURITY_TASK);
    expect(s.result).toMatchObject({ status: 'accepted' });
    expect(fs.readFileSync(path.join(ws, 'done.txt'), 'utf8')).toBe('ok');
    expect(promptOf(ws, id, 1)).toContain('## Specialist instructions\n\nSECURITY-INSTRUCTIONS');
    expect(s.routing).toMatchObject({
      agent: 'security_specialist',
      domain: 'security',
      profiles: ['security_specialist'],
    });
    expect(s.routing!.last).toMatchObject({ reason: 'routed', agent: 'security_specialist' });
    const log = routingLog(ws, id);
    expect(log.find((e) => e.event === 'decision')).toMatchObject({
      suggested: 'security_specialist',
      chosen: 'security_specialist',
    });
    expect(log.find((e) => e.event === 'load')).toMatchObject({ ok: true, chosen: 'security_specialist' });
    expect(s.result!.routing).toMatchObject({ agent: 'security_specialist', domain: 'security' });
    // The session file is removed when the loop ends.
    expect(fs.existsSync(sessionPath(ws, id))).toBe(false);
    // A loop started now routes with the v29 model (patch routing-v29-model); routing-v26-model.json to
    // routing-v3-model.json keep v26's, v25's, v24's, v21's, v18's, v17's, v16's, v15's, v14's, v13's, v10's, v9's, v8's, v7's, v6's, v5's, v4's and
    // v3's replay.
    const { searchAttributes } = await h.client.workflow.getHandle(id).describe();
    expect(searchAttributes.TemporalChangeVersion).toEqual(
      expect.arrayContaining(['routing-v25-model', 'routing-v26-model', 'routing-v29-model']),
    );
    await recordHistory(h, id, 'routing-v29-model');
  });

  it('runs a dns → cloud_architect → security chain, each prompt holding the previous context', async () => {
    const ws = workspace({
      dns: {
        domain: 'dns',
        keywords: ['dns', 'mx record', 'autodiscover'],
        body: 'DNS-INSTRUCTIONS',
        steps: handoff(
          'cloud_architect',
          'DNS records done; Exchange needs setup',
          'DNS-CONTEXT: MX and autodiscover set',
        ),
      },
      cloud_architect: {
        domain: 'cloud',
        keywords: ['exchange online'],
        body: 'CLOUD-INSTRUCTIONS',
        steps: handoff('security_specialist', 'Exchange configured; harden it', 'CLOUD-CONTEXT: mailboxes created'),
      },
      security_specialist: SECURITY,
    });
    const { id, s } = await run(
      ws,
      'Set up the DNS zone for the custom domain: MX records, autodiscover and SPF for the new mail setup',
      {},
      'routing-handoff-chain',
    );
    await recordHistory(h, id, 'routing-handoff-chain');
    expect(s.result).toMatchObject({ status: 'accepted', iterations: 3 });
    expect(promptOf(ws, id, 1)).toContain('DNS-INSTRUCTIONS');
    const p2 = promptOf(ws, id, 2);
    expect(p2).toContain('CLOUD-INSTRUCTIONS');
    expect(p2).toContain('DNS-CONTEXT: MX and autodiscover set');
    const p3 = promptOf(ws, id, 3);
    expect(p3).toContain('SECURITY-INSTRUCTIONS');
    expect(p3).toContain('DNS-CONTEXT');
    expect(p3).toContain('CLOUD-CONTEXT: mailboxes created');
    expect(s.routing!.chain.agents).toEqual(['dns', 'cloud_architect', 'security_specialist']);
    expect(s.routing!.chain.links.map((l) => `${l.from}>${l.to}: ${l.reason}`)).toEqual([
      'dns>cloud_architect: DNS records done; Exchange needs setup',
      'cloud_architect>security_specialist: Exchange configured; harden it',
    ]);
    expect(routingLog(ws, id).filter((e) => e.event === 'handoff')).toHaveLength(2);
  });

  it('stops an A→B→A→B ping-pong at 5 handoffs with MaxHandoffsExceeded, keeping the last valid output', async () => {
    const ws = workspace({
      ping: {
        domain: 'ping',
        keywords: ['ping', 'table tennis', 'rally'],
        body: 'PING',
        steps: handoff('pong', 'your turn', 'ping ctx'),
      },
      pong: { domain: 'pong', keywords: ['pong'], body: 'PONG', steps: handoff('ping', 'your turn', 'pong ctx') },
    });
    const { id, s } = await run(
      ws,
      'Play a table tennis match: serve ping, count every rally and write the final table tennis score',
      {
        maxIterations: 8,
        onBudgetExhausted: 'end',
        // Agents that only talk would trip the anti-laziness layer's stuck-loop gate: this test is about the chain.
        persistence: { enabled: false },
      },
    );
    expect(s.result).toMatchObject({ status: 'failed', iterations: 8 });
    const chain = s.routing!.chain;
    expect(chain.links).toHaveLength(5);
    expect(chain.stopped).toMatchObject({ error: 'MaxHandoffsExceeded', iteration: 6 });
    expect(chain.lastValidIteration).toBe(6);
    expect(chain.stopped!.detail).toMatch(/more than 5 handoffs .*cycling/);
    const refused = routingLog(ws, id).filter((e) => e.event === 'handoff_refused');
    expect(refused[0]).toMatchObject({ iteration: 6, reason: expect.stringMatching(/^MaxHandoffsExceeded/) });
    // After the stop the last agent goes on; no further handoff is accepted.
    expect(s.routing!.counters.handoffs).toBe(5);
  });

  it('runs the base agent for a general, low-confidence task (no profile, no routing sections)', async () => {
    const ws = workspace({ security_specialist: SECURITY });
    const { id, s } = await run(ws, "What's the weather?");
    expect(s.result).toMatchObject({ status: 'accepted' });
    expect(fs.readFileSync(path.join(ws, 'done.txt'), 'utf8')).toBe('base');
    expect(promptOf(ws, id, 1)).not.toContain('Specialist instructions');
    expect(s.routing!.agent).toBeUndefined();
    expect(s.routing!.last).toMatchObject({ reason: 'not_routed', domain: 'general', confidence: 0 });
    expect(routingLog(ws, id).filter((e) => e.event === 'load')).toHaveLength(0);
  });

  it('falls back to the base agent when the chosen profile is missing, and the loop goes on', async () => {
    const ws = workspace({ security_specialist: SECURITY });
    const id = `route-missing-${Date.now()}`;
    await h.client.workflow.signalWithStart('ralphLoop', {
      taskQueue: h.taskQueue,
      workflowId: id,
      args: [scriptedLoop(ws, { prompt: SECURITY_TASK })],
      signal: 'route',
      signalArgs: [{ agent: 'finops_agent', by: 'test' }],
    });
    await h.result(id);
    const s = await h.status(id);
    expect(s.result).toMatchObject({ status: 'accepted' });
    expect(fs.readFileSync(path.join(ws, 'done.txt'), 'utf8')).toBe('base');
    expect(s.routing!.warnings.join('\n')).toMatch(/finops_agent not found: expected .*finops_agent\.md: falling back/);
    expect(routingLog(ws, id).find((e) => e.event === 'load')).toMatchObject({ ok: false, reason: 'not_found' });
  });

  it('applies and logs an operator override with the suggestion it replaced', async () => {
    const ws = workspace({
      security_specialist: SECURITY,
      sre_principal: { domain: 'sre', body: 'SRE-INSTRUCTIONS', steps: done },
    });
    const id = `route-override-${Date.now()}`;
    await h.client.workflow.signalWithStart('ralphLoop', {
      taskQueue: h.taskQueue,
      workflowId: id,
      args: [scriptedLoop(ws, { prompt: SECURITY_TASK })],
      signal: 'route',
      signalArgs: [{ agent: 'sre_principal', by: 'ana', reason: 'it is an outage', requestId: 'r1' }],
    });
    await h.result(id);
    const s = await h.status(id);
    expect(promptOf(ws, id, 1)).toContain('SRE-INSTRUCTIONS');
    expect(s.routing).toMatchObject({
      agent: 'sre_principal',
      last: { reason: 'override' },
      counters: { overrides: 1 },
    });
    expect(routingLog(ws, id).find((e) => e.event === 'override')).toMatchObject({
      suggested: 'security_specialist',
      chosen: 'sre_principal',
      reason: 'it is an outage',
    });
  });

  it('rejects a ../ profile name in a route signal and in a handoff, without touching the filesystem', async () => {
    const ws = workspace({
      security_specialist: {
        ...SECURITY,
        steps: [...done, ...handoff('../../etc/passwd', 'escape', 'x')],
      },
    });
    const id = `route-traversal-${Date.now()}`;
    await h.client.workflow.signalWithStart('ralphLoop', {
      taskQueue: h.taskQueue,
      workflowId: id,
      args: [scriptedLoop(ws, { prompt: SECURITY_TASK })],
      signal: 'route',
      signalArgs: [{ agent: '../../etc/passwd', by: 'mallory' }],
    });
    await h.result(id);
    const s = await h.status(id);
    expect(s.result).toMatchObject({ status: 'accepted' });
    expect(s.routing!.last).toMatchObject({ agent: 'security_specialist', reason: 'routed' });
    expect(s.routing!.counters.overrides).toBe(0);
    const refused = routingLog(ws, id).find((e) => e.event === 'handoff_refused');
    expect(refused!.reason).toMatch(/handoff target: invalid agent name "..\/..\/etc\/passwd"/);
    expect(
      routingLog(ws, id)
        .filter((e) => e.event === 'load')
        .map((e) => e.chosen),
    ).toEqual(['security_specialist']);
  });

  it('never passes secrets in handoff context: redacted in the next prompt and the session', async () => {
    const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    const ws = workspace({
      dns: {
        domain: 'dns',
        keywords: ['dns', 'mx record'],
        body: 'DNS',
        steps: handoff('security_specialist', 'harden', `registrar token ${token}\nkey AKIAIOSFODNN7EXAMPLE`),
      },
      security_specialist: { ...SECURITY, steps: [{ sleep: 1500 }, ...done] },
    });
    const id = await h.startLoop(
      scriptedLoop(ws, {
        prompt: 'Set up the DNS zone for the custom domain with MX records and SPF for the mail setup',
      }),
    );
    // While iteration 2 runs, the session file holds the shared context: redacted too, and mode 600.
    await h.waitFor(id, (s) => s.routing?.agent === 'security_specialist' && s.phase === 'agent');
    const session = fs.readFileSync(sessionPath(ws, id), 'utf8');
    expect(session).not.toContain(token);
    expect(session).toContain('[REDACTED:github_token]');
    expect(fs.statSync(sessionPath(ws, id)).mode & 0o777).toBe(0o600);
    await h.result(id);
    const p2 = promptOf(ws, id, 2);
    expect(p2).not.toContain(token);
    expect(p2).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(p2).toContain('registrar token [REDACTED:github_token]');
    expect(routingLog(ws, id).find((e) => e.event === 'handoff')!.reason).toMatch(/2 secret\(s\) redacted/);
  });

  it("hands back to the base agent when a routed agent reaches its profile's token budget, logging why", async () => {
    // The specialist reports 1,200 tokens per run and never finishes; its budget is 1,000 tokens. The base agent
    // finishes. Without enforcement the specialist would run every iteration until maxIterations.
    const ws = workspace({
      security_specialist: {
        ...SECURITY,
        steps: [
          { usage: { inputTokens: 800, outputTokens: 400, costUsd: 0.01 } },
          { write: 'notes.txt', content: 'x' },
        ],
      },
    });
    const profile = path.join(ws, '.ralph', 'agents', 'security_specialist.md');
    fs.writeFileSync(
      profile,
      fs.readFileSync(profile, 'utf8').replace('adapter: scripted', 'adapter: scripted\nbudget: { tokens: 1000 }'),
    );
    const { id, s } = await run(ws, SECURITY_TASK, { maxIterations: 4 }, 'routing-budget');
    await recordHistory(h, id, 'routing-budget');
    expect(s.result).toMatchObject({ status: 'accepted', iterations: 2 });
    expect(fs.readFileSync(path.join(ws, 'done.txt'), 'utf8')).toBe('base');
    expect(promptOf(ws, id, 1)).toContain('SECURITY-INSTRUCTIONS');
    expect(promptOf(ws, id, 2)).not.toContain('SECURITY-INSTRUCTIONS');
    const log = routingLog(ws, id);
    const spent = log.find((e) => e.event === 'budget_exhausted');
    expect(spent).toMatchObject({ iteration: 1, from: 'security_specialist', level: 'warning' });
    expect(spent!.reason).toContain('tokens 1200 of 1000');
    expect(spent!.reason).toContain('back to the base agent');
    const decisions = log.filter((e) => e.event === 'decision');
    expect(decisions.map((d) => [d.iteration, d.chosen ?? 'base', d.reason])).toEqual([
      [1, 'security_specialist', 'routed'],
      [2, 'base', 'budget_exhausted'],
    ]);
    // The classifier still suggests the specialist; the budget, not the classifier, sent the base agent.
    expect(decisions[1].suggested).toBe('security_specialist');
    expect(s.routing).toMatchObject({ exhausted: ['security_specialist'] });
    expect(s.routing!.spend!.security_specialist).toEqual({ iterations: 1, tokens: 1200, costUsd: 0.01 });
  });

  it('changes nothing for a loop without profiles', async () => {
    const ws = tempWorkspace({ 'check.js': checkFileExists('done.txt') }, { default: done });
    const { id, s } = await run(ws, SECURITY_TASK);
    expect(s.result).toMatchObject({ status: 'accepted' });
    expect(s.routing).toBeUndefined();
    expect(fs.existsSync(path.join(loopDir(ws, id), 'routing'))).toBe(false);
  });
});

describe('automatic routing in ralphProject', () => {
  it('switches domain between two tasks and passes the first agent’s context to the second', async () => {
    const story = (id: string, title: string, priority: number) => ({
      id,
      title,
      description: title,
      acceptanceCriteria: ['it works'],
      priority,
      passes: false,
    });
    const ws = workspace({
      finops_analyst: {
        domain: 'finops',
        body: 'FINOPS-INSTRUCTIONS',
        steps: [{ print: 'FINOPS-FINDINGS: 3 idle VMs, 40% savings' }, { write: 'done-t1', content: 'ok' }],
      },
      security_specialist: { ...SECURITY, steps: [{ write: 'done-t2', content: 'ok' }] },
    });
    fs.writeFileSync(
      path.join(ws, 'check.js'),
      "process.exit(require('fs').existsSync('done-' + process.argv[2]) ? 0 : 1);\n",
    );
    fs.writeFileSync(
      path.join(ws, 'prd.json'),
      JSON.stringify({
        userStories: [
          story(
            't1',
            'Optimize our Azure costs: find idle resources and rightsizing opportunities and estimate the monthly savings',
            1,
          ),
          story(
            't2',
            'Now make it secure: harden the storage accounts, encrypt the data at rest and apply least privilege',
            2,
          ),
        ],
      }),
    );
    const id = `project-routing-${Date.now()}`;
    await h.client.workflow.start('ralphProject', {
      taskQueue: h.taskQueue,
      workflowId: id,
      args: [
        {
          prdFile: 'prd.json',
          workspace: ws,
          agent: { adapter: 'scripted', script: '.ralph-script.json' },
          completion: { command: 'node check.js {taskId}' },
          heartbeatTimeoutSeconds: 10,
        },
      ],
    });
    const r = (await h.client.workflow.getHandle(id).result()) as { status: string; done: string[] };
    expect(r).toMatchObject({ status: 'done', done: ['t1', 't2'] });
    const t1 = `${id}--t1--a1`;
    const t2 = `${id}--t2--a1`;
    expect(promptOf(ws, t1, 1)).toContain('FINOPS-INSTRUCTIONS');
    const p2 = promptOf(ws, t2, 1);
    expect(p2).toContain('SECURITY-INSTRUCTIONS');
    expect(p2).toContain('## Context from previous agents');
    expect(p2).toContain('FINOPS-FINDINGS: 3 idle VMs, 40% savings');
    expect(routingLog(ws, t2).find((e) => e.event === 'switch')).toMatchObject({
      from: 'finops',
      to: 'security',
      taskId: 't2',
    });
    expect(routingLog(ws, t1).find((e) => e.event === 'decision')).toMatchObject({
      chosen: 'finops_analyst',
      taskId: 't1',
    });
  });
});
