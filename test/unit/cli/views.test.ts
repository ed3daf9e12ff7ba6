import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli/index';
import { readEvents } from '../../../src/cli/loop-folder';
import { loadProfiles } from '../../../src/cli/commands/profile';
import { antiLazinessViews } from '../../../src/cli/views/loop';
import { emptyTotals, type LoopState } from '../../../src/core/loop-types';
import type { AgentProfile, InterventionEvent } from '../../../src/core/anti-laziness-types';
import { emptyProfile } from '../../../src/core/profile';

const state = (o: Partial<LoopState> = {}): LoopState => ({
  loopId: 'l1',
  status: 'running',
  phase: 'agent',
  iteration: 2,
  maxIterations: 5,
  agent: 'scripted',
  workspace: '/ws',
  stateDir: '/ws/.ralph',
  paused: false,
  records: [],
  decisions: [],
  signals: [],
  totals: emptyTotals(),
  pendingFeedback: [],
  run: 0,
  startedAt: '',
  updatedAt: '',
  labels: {},
  ...o,
});

const profile = (agent: string, o: Partial<AgentProfile> = {}): AgentProfile => ({ ...emptyProfile(agent), ...o });

const ev = (iteration: number, type: string): InterventionEvent => ({
  id: `${iteration}:${type}:0`,
  loopId: 'l1',
  iteration,
  timestamp: '2026-01-01T00:00:00Z',
  agent: 'scripted',
  type,
  severity: 'warning',
  verdict: 'WARN',
  details: `${type} details`,
  evidence: [],
});

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-views-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exitCode = undefined;
  jest.restoreAllMocks();
});

function writeLoopFile(loopId: string, rel: string, data: string): void {
  const file = path.join(tmp, 'loops', loopId, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data);
}

/** Runs `ralph <args>` in-process; returns what it printed and the exit code. */
async function ralph(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = '';
  let stderr = '';
  jest.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
  jest.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
  await main(['node', 'ralph', ...args]);
  jest.restoreAllMocks();
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { stdout, stderr, code };
}

describe('antiLazinessViews', () => {
  it('selects nothing without a view flag', () => {
    expect(antiLazinessViews(state(), { persistence: false, regressions: false, quality: false })).toBeUndefined();
  });

  it('prints one view and its object for one flag', () => {
    const v = antiLazinessViews(state(), { persistence: false, regressions: true, quality: false });
    expect(v?.lines[0]).toBe('Regression Events:');
    expect(v?.json).toEqual([]);
  });

  it('keys the objects by flag when several views are asked for', () => {
    const s = state({
      records: [
        {
          n: 1,
          quality: 80,
          check: { passed: true, exitCode: 0, durationMs: 1 },
        } as LoopState['records'][number],
      ],
    });
    const v = antiLazinessViews(s, { persistence: true, regressions: false, quality: true });
    expect(v?.json).toEqual({
      persistence: null,
      quality: { trajectory: [{ n: 1, quality: 80, verified: true }], best: null },
    });
    expect(v?.lines).toContain('Quality Trajectory:');
    expect(v?.lines.some((l) => /^ {2}iter {2}1 █+░+ {2}80% ✓$/.test(l))).toBe(true);
  });
});

describe('loadProfiles', () => {
  it('collects the profiles of one agent and skips other agents and broken files', () => {
    writeLoopFile('a1', 'profile.json', JSON.stringify(profile('claude', { iterations: 2 })));
    writeLoopFile('a2', 'profile.json', JSON.stringify(profile('claude', { iterations: 3 })));
    writeLoopFile('b1', 'profile.json', JSON.stringify(profile('codex', { iterations: 9 })));
    writeLoopFile('c1', 'profile.json', '{ broken');
    const { loops, profiles } = loadProfiles(tmp, 'claude');
    expect(loops).toEqual(['a1', 'a2']);
    expect(profiles.map((p) => p.iterations)).toEqual([2, 3]);
  });

  it('finds nothing in a state dir without loops', () => {
    expect(loadProfiles(path.join(tmp, 'nope'), 'claude')).toEqual({ loops: [], profiles: [] });
  });
});

describe('readEvents', () => {
  it('names the loop and the path when the log is missing', () => {
    const dir = path.join(tmp, 'loops', 'l9');
    expect(() => readEvents(dir, 'l9')).toThrow(
      `no interventions recorded for loop l9 at ${path.join(dir, 'interventions', 'events.json')}: the file does not exist`,
    );
  });

  it('rejects a log that is not an array', () => {
    writeLoopFile('l1', 'interventions/events.json', '{}');
    expect(() => readEvents(path.join(tmp, 'loops', 'l1'), 'l1')).toThrow(/expected a JSON array/);
  });
});

describe('ralph interventions', () => {
  it('prints the last events from --state-dir as JSON without asking the server', async () => {
    writeLoopFile('l1', 'interventions/events.json', JSON.stringify([ev(1, 'no_files_written'), ev(2, 'stuck_loop')]));
    const r = await ralph(['interventions', 'l1', '--state-dir', tmp, '--last', '1', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([ev(2, 'stuck_loop')]);
  });

  it('prints the table for humans', async () => {
    writeLoopFile('l1', 'interventions/events.json', JSON.stringify([ev(1, 'no_files_written')]));
    const r = await ralph(['interventions', 'l1', '--state-dir', tmp]);
    expect(r.stdout).toMatch(/^1 intervention\n/);
    expect(r.stdout).toMatch(/1 +no_files_written +warning +WARN +no_files_written details/);
  });

  it('fails with one clear line when nothing was recorded', async () => {
    const r = await ralph(['interventions', 'l2', '--state-dir', tmp]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `ralph: no interventions recorded for loop l2 at ${path.join(tmp, 'loops', 'l2', 'interventions', 'events.json')}: the file does not exist\n`,
    );
  });
});

describe('ralph profile', () => {
  it('merges the agent profiles of every loop', async () => {
    writeLoopFile('a1', 'profile.json', JSON.stringify(profile('claude', { iterations: 2, filesChanged: 4 })));
    writeLoopFile('a2', 'profile.json', JSON.stringify(profile('claude', { iterations: 2, noFilesCount: 1 })));
    const human = await ralph(['profile', '--agent', 'claude', '--state-dir', tmp]);
    expect(human.stdout).toContain('Agent profile: claude');
    expect(human.stdout).toMatch(/files changed +4 \(1 per iteration\)/);
    expect(human.stdout).toMatch(/loops +2/);
    const json = await ralph(['profile', '--agent', 'claude', '--state-dir', tmp, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      agent: 'claude',
      iterations: 4,
      noFilesCount: 1,
      loops: ['a1', 'a2'],
    });
  });

  it('says clearly when the agent has no profile', async () => {
    const r = await ralph(['profile', '--agent', 'nobody', '--state-dir', tmp]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^ralph: no profile of agent "nobody" under /);
  });

  it('requires --agent', async () => {
    const r = await ralph(['profile', '--state-dir', tmp]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--agent: required/);
  });
});

describe('ralph report', () => {
  it('prints report.md, or analytics.json with --json', async () => {
    writeLoopFile('l1', 'report.md', '# Ralph loop l1: accepted\n');
    writeLoopFile('l1', 'analytics.json', JSON.stringify({ loopId: 'l1' }));
    expect((await ralph(['report', 'l1', '--state-dir', tmp])).stdout).toBe('# Ralph loop l1: accepted\n');
    expect(JSON.parse((await ralph(['report', 'l1', '--state-dir', tmp, '--json'])).stdout)).toEqual({ loopId: 'l1' });
  });

  it('fails clearly when the report is missing and the loop is unreachable', async () => {
    const r = await ralph(['report', 'l3', '--state-dir', tmp, '--address', '127.0.0.1:1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^ralph: no report for loop l3 at .*report\.md: the file does not exist and the loop is not reachable \(no Temporal server at 127\.0\.0\.1:1/,
    );
  });
});
