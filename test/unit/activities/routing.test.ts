import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  appendRoutingLog,
  loadAgentProfile,
  loadAgentProfiles,
  loadRoutingSession,
  readSession,
  recordRouting,
  routingLogFile,
  sessionFile,
  writeSession,
} from '../../../src/activities/routing';
import type { RoutingSession } from '../../../src/config/routing';
import { parseRoutingLog } from '../../../src/core/routing';
import { registry } from '../../../src/telemetry/metrics';

const FIXTURES = path.join(__dirname, '../../fixtures/routing/agents');
let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-routing-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const writeProfile = (name: string, text: string): void => {
  fs.mkdirSync(path.join(tmp, '.ralph/agents'), { recursive: true });
  fs.writeFileSync(path.join(tmp, '.ralph/agents', `${name}.md`), text);
};

describe('loadAgentProfiles', () => {
  it('lists the fixture profiles with their domains and keywords, without instructions', async () => {
    const r = await loadAgentProfiles({ workspace: tmp, dir: FIXTURES });
    expect(r.warnings).toEqual([]);
    expect(r.profiles.map((p) => `${p.name}:${p.domain}`)).toEqual([
      'backend_engineer:backend',
      'data_engineer:data',
      'devops_engineer:devops',
      'finops_analyst:finops',
      'frontend_engineer:frontend',
      'security_specialist:security',
      'sre_principal_engineer:sre',
      'technical_writer:docs',
      'test_engineer:testing',
    ]);
    expect(r.profiles[5].keywords).toEqual(['pentest', 'threat model', 'owasp']);
    expect(JSON.stringify(r)).not.toContain('You are the');
  });

  it('has no profiles (routing off) when the folder does not exist', async () => {
    expect(await loadAgentProfiles({ workspace: tmp })).toMatchObject({ profiles: [], warnings: [] });
  });

  it('skips bad files with a warning naming the file and the problem', async () => {
    writeProfile('good', '---\ndomain: security\n---\nBe safe.');
    writeProfile('Bad-Name', '---\ndomain: security\n---\n');
    writeProfile('nofront', 'just text');
    writeProfile('typo', '---\ndomian: security\n---\n');
    const r = await loadAgentProfiles({ workspace: tmp });
    expect(r.profiles.map((p) => p.name)).toEqual(['good']);
    expect(r.warnings).toHaveLength(3);
    expect(r.warnings.join('\n')).toMatch(/Bad-Name\.md: invalid agent name/);
    expect(r.warnings.join('\n')).toMatch(/nofront\.md: no front matter/);
    expect(r.warnings.join('\n')).toMatch(/typo\.md: .*Unrecognized key: "domian"/i);
  });
});

describe('loadAgentProfile', () => {
  it('loads front matter and instructions of a profile', async () => {
    writeProfile(
      'dns',
      '---\ndomain: dns\nkeywords: [dns]\nadapter: scripted\noptions: { script: dns.json, env: { A: "1" } }\nmodel: m1\n' +
        'budget: { iterations: 2 }\niterationTimeoutSeconds: 900\n---\n\nYou configure DNS.\n',
    );
    const r = await loadAgentProfile({ workspace: tmp, name: 'dns' });
    expect(r).toMatchObject({
      ok: true,
      profile: {
        name: 'dns',
        domain: 'dns',
        agent: { adapter: 'scripted', script: 'dns.json', env: { A: '1' }, model: 'm1' },
        budget: { iterations: 2 },
        iterationTimeoutSeconds: 900,
        instructions: 'You configure DNS.',
      },
    });
  });

  it.each(['../etc/passwd', '..', 'a/b', 'Security', 'sec.md', ''])(
    'rejects the name %p before touching the filesystem',
    async (name) => {
      const stat = jest.spyOn(fs, 'statSync');
      const read = jest.spyOn(fs, 'readFileSync');
      try {
        const r = await loadAgentProfile({ workspace: tmp, name });
        expect(r).toMatchObject({ ok: false, reason: 'invalid_name' });
        expect(stat).not.toHaveBeenCalled();
        expect(read).not.toHaveBeenCalled();
      } finally {
        stat.mockRestore();
        read.mockRestore();
      }
    },
  );

  it('falls back (ok: false, a warning) for a missing profile', async () => {
    const r = await loadAgentProfile({ workspace: tmp, name: 'finops_agent' });
    expect(r).toMatchObject({ ok: false, reason: 'not_found' });
    expect(!r.ok && r.warning).toMatch(
      /finops_agent not found: expected .*finops_agent\.md: falling back to the base agent/,
    );
  });

  it.each([
    ['broken YAML', '---\ndomain: [unclosed\n---\nx', 'parse_error', /not valid YAML/],
    ['a bad field', '---\ndomain: security\nadapter: gpt\n---\nx', 'invalid', /adapter: must be one of/],
    ['a missing domain', '---\nkeywords: [x]\n---\nx', 'invalid', /domain/],
  ])('falls back for %s', async (_what, text, reason, message) => {
    writeProfile('broken', text);
    const r = await loadAgentProfile({ workspace: tmp, name: 'broken' });
    expect(r).toMatchObject({ ok: false, reason });
    expect(!r.ok && r.warning).toMatch(message);
  });

  it('refuses a file over 256 KB without reading it', async () => {
    writeProfile('huge', '---\ndomain: docs\n---\n' + 'x'.repeat(300 * 1024));
    expect(await loadAgentProfile({ workspace: tmp, name: 'huge' })).toMatchObject({ ok: false, reason: 'too_large' });
  });

  it('clips instructions to the limit, with a warning', async () => {
    writeProfile('long', '---\ndomain: docs\n---\n' + 'y'.repeat(5000));
    const r = await loadAgentProfile({ workspace: tmp, name: 'long', maxInstructionsChars: 1000 });
    expect(r.ok && r.profile.instructions.length).toBe(1000);
    expect(r.ok && r.profile.instructionsChars).toBe(5000);
    expect(r.ok && r.warning).toMatch(/clipped from 5000 to 1000/);
  });
});

describe('routing session file', () => {
  const session: RoutingSession = {
    version: 1,
    loopId: 'l1',
    activeAgent: 'security_specialist',
    domain: 'security',
    lastConfidence: 0.87,
    chain: {
      agents: ['finops_analyst', 'security_specialist'],
      links: [{ from: 'finops_analyst', to: 'security_specialist', reason: 'security needed', iteration: 2 }],
    },
    sharedContext: [{ agent: 'finops_analyst', iteration: 2, text: 'cut costs by 30%' }],
    updatedAt: '2026-01-01T00:00:00Z',
  };

  it('writes atomically with mode 600 and reads it back validated', () => {
    const file = sessionFile(tmp, 'l1');
    writeSession(file, session);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['session.json']);
    expect(readSession(file)).toEqual({ session });
  });

  it.each([
    ['not JSON', '{"version":1,'],
    ['a wrong shape', JSON.stringify({ ...session, lastConfidence: 7 })],
    ['a path as agent name', JSON.stringify({ ...session, activeAgent: '../x' })],
  ])('recovers from %s with an empty context and a logged error', async (_what, text) => {
    const file = sessionFile(tmp, 'l1');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    const r = await loadRoutingSession({ stateDir: tmp, loopId: 'l1' });
    expect(r.session).toBeUndefined();
    expect(r.error).toMatch(/starting with an empty routing context/);
    expect(fs.existsSync(file)).toBe(false);
    const log = parseRoutingLog(fs.readFileSync(routingLogFile(tmp, 'l1'), 'utf8')).entries;
    expect(log).toEqual([
      expect.objectContaining({ event: 'load', ok: false, reason: 'session_corrupt', level: 'error' }),
    ]);
  });

  it('has nothing to resume when there is no file', async () => {
    expect(await loadRoutingSession({ stateDir: tmp, loopId: 'none' })).toEqual({});
  });

  it('recordRouting writes the session, appends the log once per id, and removes the session at the end', async () => {
    const entry = { id: 'l1:1:decision', at: 'now', event: 'decision' as const, loopId: 'l1', domain: 'security' };
    const r1 = await recordRouting({ stateDir: tmp, loopId: 'l1', session, entries: [entry] });
    const r2 = await recordRouting({ stateDir: tmp, loopId: 'l1', session, entries: [entry] });
    expect([r1.appended, r2.appended]).toEqual([1, 0]);
    expect(readSession(r1.sessionFile).session).toEqual(session);
    expect(fs.statSync(r1.logFile).mode & 0o777).toBe(0o600);
    await recordRouting({ stateDir: tmp, loopId: 'l1', session: null });
    expect(fs.existsSync(r1.sessionFile)).toBe(false);
    expect(parseRoutingLog(fs.readFileSync(r1.logFile, 'utf8')).entries).toHaveLength(1);
  });

  it('counts routing decisions, loads, switches and handoffs in the Prometheus metrics once per new entry', async () => {
    const value = async (name: string, labels: Record<string, string>): Promise<number> => {
      const m = (await registry.getMetricsAsJSON()).find((x) => x.name === name);
      const v = m?.values.find((x) => Object.entries(labels).every(([k, want]) => x.labels[k] === want));
      return Number(v?.value ?? 0);
    };
    const before = await value('ralph_routing_decisions_total', { agent: 'security', class: 'security' });
    const entries = [
      { id: 'm1', at: 'now', event: 'decision' as const, loopId: 'lm', chosen: 'security', domain: 'security' },
      { id: 'm2', at: 'now', event: 'load' as const, loopId: 'lm', chosen: 'security', ok: true, loadMs: 12 },
      { id: 'm3', at: 'now', event: 'load' as const, loopId: 'lm', chosen: 'dns', ok: false, reason: 'missing' },
      { id: 'm4', at: 'now', event: 'switch' as const, loopId: 'lm', from: 'dns', to: 'security' },
      { id: 'm5', at: 'now', event: 'handoff' as const, loopId: 'lm', from: 'dns', to: 'security' },
    ];
    await recordRouting({ stateDir: tmp, loopId: 'lm', entries });
    await recordRouting({ stateDir: tmp, loopId: 'lm', entries });
    expect(await value('ralph_routing_decisions_total', { agent: 'security', class: 'security' })).toBe(before + 1);
    expect(await value('ralph_agent_loads_total', { agent: 'dns', ok: 'false' })).toBeGreaterThanOrEqual(1);
    expect(await value('ralph_agent_load_errors_total', { reason: 'missing' })).toBeGreaterThanOrEqual(1);
    expect(await value('ralph_domain_switches_total', { from: 'dns', to: 'security' })).toBeGreaterThanOrEqual(1);
    expect(await value('ralph_handoffs_total', { outcome: 'done' })).toBeGreaterThanOrEqual(1);
  });

  it('appends entries without ids every time', () => {
    const file = routingLogFile(tmp, 'l2');
    const e = { at: 'now', event: 'switch' as const, loopId: 'l2' };
    expect(appendRoutingLog(file, [e])).toBe(1);
    expect(appendRoutingLog(file, [e])).toBe(1);
  });
});
