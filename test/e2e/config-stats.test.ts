/**
 * `ralph config check|schema|init` and `ralph stats` through the built CLI (`node dist/src/cli/index.js`, built by
 * `npm test`'s pretest) as a real subprocess. Loops run on this file's own dev server and worker, so the loop counts
 * that `ralph stats` reports are exactly the loops started here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import execa from 'execa';
import YAML from 'yaml';
import type { GatesConfigRaw } from '../../src/config/gates-config';
import type { GateStats } from '../../src/core/stats';
import { Harness, scriptedLoop, tempWorkspace } from '../helpers/env';

const CLI = path.resolve(__dirname, '../../dist/src/cli/index.js');
const JEST = `${path.resolve(__dirname, '../../node_modules/.bin')}/jest --ci --json --watchman=false`;

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

/** Runs `ralph <args>` (async, so the in-process worker keeps running), in `cwd` when given. */
async function ralph(args: string[], cwd?: string): Promise<Run> {
  const r = await execa(process.execPath, [CLI, ...args], {
    reject: false,
    timeout: 60_000,
    cwd,
    // Flags are passed explicitly; keep the caller's Temporal env out of the way.
    env: { TEMPORAL_ADDRESS: '', TEMPORAL_NAMESPACE: '', RALPH_TASK_QUEUE: '', USER: 'env-user' },
  });
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

const conn = (): string[] => ['--address', h.env.address, '--task-queue', h.taskQueue];

/** A directory holding `ralph.config.yaml` with `text` (a string is written as is, an object as YAML). */
function configDir(text: string | GatesConfigRaw, name = 'ralph.config.yaml'): { dir: string; file: string } {
  const dir = fs.realpathSync(tempWorkspace());
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof text === 'string' ? text : YAML.stringify(text));
  return { dir, file };
}

const PKG = JSON.stringify({ name: 'fixture', private: true });
const sumTests =
  "const sum = require('./sum');\n" +
  "test('adds two numbers', () => expect(sum(1, 2)).toBe(3));\n" +
  "test('adds negatives', () => expect(sum(-1, -2)).toBe(-3));\n" +
  "test('zero is neutral', () => expect(sum(5, 0)).toBe(5));\n";

/** A node workspace with a buggy sum.js (2 of 3 jest tests fail), its ralph.config.yaml and the agent's script. */
function sumWorkspace(config: GatesConfigRaw | string, script: Record<string, unknown>): string {
  const ws = tempWorkspace(
    { 'package.json': PKG, 'sum.js': 'module.exports = (a, b) => a - b;\n', 'sum.test.js': sumTests },
    script,
  );
  fs.writeFileSync(path.join(ws, 'ralph.config.yaml'), typeof config === 'string' ? config : YAML.stringify(config));
  return ws;
}

/** A loop with no `gates` in its input: only a claim ends it, so any gate comes from the workspace's config file. */
const claimLoop = (ws: string, over = {}) => scriptedLoop(ws, { completion: { promise: 'DONE' }, ...over });

const unitGate = { name: 'unit', kind: 'test', command: JEST } as const;

/** Loops started by the `ralph config` tests, counted again by `ralph stats`. */
const started: string[] = [];

describe('ralph config', () => {
  it('prints "valid" with the resolved gate table and exits 0 when the file is valid', async () => {
    const { file } = configDir({
      profile: 'strict',
      rejection: { maxRetries: 2 },
      gates: [
        { name: 'unit', kind: 'test', command: 'npx jest --ci --json' },
        { name: 'lint', kind: 'lint', command: 'npx eslint . -f json', thresholds: { maxWarnings: 5 } },
        { name: 'audit', kind: 'audit', command: 'npm audit --json', enabled: false },
      ],
    });
    const r = await ralph(['config', 'check', file]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`${file}: valid (profile strict, 3 gates, run on claim, escalate after 2 rejections)`);
    expect(lines[1]).toMatch(/^GATE\s+KIND\s+FORMAT\s+THRESHOLDS\s+COMMAND$/);
    expect(lines[2]).toMatch(/^unit\s+test\s+jest-json\s+\{"minPassRate":100\}\s+npx jest --ci --json$/);
    expect(lines[3]).toMatch(/^lint\s+lint\s+eslint-json\s+\{"maxErrors":0,"maxWarnings":5\}\s+npx eslint \. -f json$/);
    expect(lines[4]).toMatch(/^audit \(off\)\s+audit\s+npm-audit-json\s+\{"maxSeverity":"low"\}\s+npm audit --json$/);
    expect(lines).toHaveLength(5);
  });

  it('prints the profile merged with the overrides and the default formats with --json', async () => {
    const { file } = configDir({
      gates: [
        { name: 'cov', kind: 'coverage', command: 'npx jest --coverage', thresholds: { coverage: { lines: 50 } } },
        { name: 'types', kind: 'typecheck', command: 'npx tsc --noEmit' },
        { name: 'tests', kind: 'test', command: 'pytest', format: 'pytest', thresholds: { minPassRate: 80 } },
      ],
    });
    const r = await ralph(['config', 'check', file, '--json']);
    expect(r.code).toBe(0);
    const cfg = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(cfg).toMatchObject({
      profile: 'standard',
      runOn: 'claim',
      rejection: { maxRetries: 3, escalateToHuman: true },
      gates: [
        {
          name: 'cov',
          format: 'istanbul-summary',
          cwd: '.',
          timeoutSeconds: 600,
          enabled: true,
          thresholds: { coverage: { lines: 50, branches: 80, functions: 85, statements: 85 } },
        },
        { name: 'types', format: 'tsc', thresholds: { maxErrors: 0 } },
        { name: 'tests', format: 'pytest', thresholds: { minPassRate: 80 } },
      ],
    });
  });

  it.each([
    [
      'an unknown profile',
      'profile: paranoid\n',
      /^profile: Invalid option: expected one of "strict"\|"standard"\|"relaxed"$/,
    ],
    [
      'an unknown gate kind',
      'gates:\n  - { name: unit, kind: test, command: jest }\n  - { name: fuzz, kind: fuzz, command: fuzz }\n',
      /^gates\[1\]\.kind: must be one of build, typecheck, lint, test, coverage, audit, custom$/,
    ],
    [
      'a negative threshold',
      'gates:\n  - { name: lint, kind: lint, command: eslint, thresholds: { maxWarnings: -1 } }\n',
      /^gates\[0\]\.thresholds\.maxWarnings: .*>=0$/,
    ],
    [
      'a duplicate gate name',
      'gates:\n  - { name: unit, kind: test, command: jest }\n  - { name: unit, kind: lint, command: eslint }\n',
      /^gates\[1\]\.name: duplicate gate name "unit"$/,
    ],
    [
      'a misspelled key',
      'gates:\n  - { name: lint, kind: lint, command: eslint, thresholds: { maxWarning: 3 } }\n',
      /^gates\[0\]\.thresholds: unknown key\(s\) "maxWarning": check the spelling$/,
    ],
    ['a YAML syntax error', 'gates:\n  - name: unit\n   kind: test\n', /^not valid YAML: .*at line 3, column 1/],
  ])('exits 2 with one line naming the file and the path when the file has %s', async (_what, text, problem) => {
    const { file } = configDir(text);
    const r = await ralph(['config', 'check', file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0].startsWith(`ralph: ${file}: `)).toBe(true);
    expect(lines[0].slice(`ralph: ${file}: `.length)).toMatch(problem);
  });

  it('reads antiLaziness:, warns that persistence: is its deprecated name, and refuses both at once', async () => {
    const gates = [{ name: 'unit', kind: 'test', command: 'npx jest --ci --json' }];
    const now = configDir({ gates, antiLaziness: { enabled: false } } as GatesConfigRaw);
    const current = await ralph(['config', 'check', now.file, '--json']);
    expect(current.code).toBe(0);
    expect(JSON.parse(current.stdout)).toMatchObject({ persistence: { enabled: false } });
    expect(JSON.parse(current.stdout).deprecated).toBeUndefined();

    const old = configDir({ gates, persistence: { enabled: false } } as GatesConfigRaw);
    const r = await ralph(['config', 'check', old.file]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(
      `warning: ${old.file}: \`persistence:\` is deprecated: rename it \`antiLaziness:\` (same settings; the old name keeps working for now)`,
    );

    const both = configDir({ gates, persistence: {}, antiLaziness: {} } as GatesConfigRaw);
    const bad = await ralph(['config', 'check', both.file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('both antiLaziness and persistence are set: keep antiLaziness');
  });

  it('exits 2 saying it cannot read the file when the file does not exist', async () => {
    const file = path.join(fs.realpathSync(tempWorkspace()), 'nope', 'ralph.config.yaml');
    const r = await ralph(['config', 'check', file]);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr.trim()).toBe(
      `ralph: ${file}: can't read it (ENOENT): check the path, or create one with \`ralph config init --write\``,
    );
  });

  it('finds ralph.config.json in the workspace and reports a JSON syntax error in it', async () => {
    const { dir, file } = configDir('{ "gates": [ }', 'ralph.config.json');
    const r = await ralph(['config', 'check', '--workspace', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(new RegExp(`^ralph: ${file.replace(/\./g, '\\.')}: not valid JSON: `));
  });

  it('exits 2 telling to run `ralph config init --write` when the workspace has no config file', async () => {
    const dir = fs.realpathSync(tempWorkspace());
    const r = await ralph(['config', 'check'], dir);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr.trim()).toBe(
      `ralph: no ralph.config.yaml / ralph.config.yml / ralph.config.json in ${dir}: create one with \`ralph config init --write\``,
    );
  });

  it('prints a parseable JSON Schema of the file with the gates and the profile enum', async () => {
    const r = await ralph(['config', 'schema']);
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout) as {
      type: string;
      properties: Record<string, { enum?: string[]; items?: { properties: Record<string, { enum?: string[] }> } }>;
      additionalProperties?: boolean;
    };
    expect(schema.type).toBe('object');
    expect(schema.properties.profile.enum).toEqual(['strict', 'standard', 'relaxed']);
    expect(schema.properties.gates.items!.properties.kind.enum).toEqual(
      expect.arrayContaining(['build', 'typecheck', 'lint', 'test', 'coverage', 'audit', 'custom']),
    );
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['profile', 'gates', 'runOn', 'rejection', 'tokenBudget']),
    );
    expect(schema.additionalProperties).toBe(false);
  });

  it('proposes build, typecheck, lint and test gates for a node workspace, and check accepts them once written', async () => {
    const ws = fs.realpathSync(
      tempWorkspace({
        'package.json': JSON.stringify({
          name: 'app',
          scripts: { build: 'tsc' },
          devDependencies: { typescript: '^5.9.0', eslint: '^9.0.0', jest: '^30.0.0' },
        }),
        'tsconfig.json': '{}',
      }),
    );
    const file = path.join(ws, 'ralph.config.yaml');
    const shown = await ralph(['config', 'init', '--workspace', ws]);
    expect(shown.code).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
    const proposed = YAML.parse(shown.stdout) as GatesConfigRaw;
    expect(proposed).toMatchObject({ profile: 'standard', rejection: { maxRetries: 3, escalateToHuman: true } });
    expect(proposed.gates!.map((g) => [g.name, g.kind, g.command])).toEqual([
      ['build', 'build', 'npm run build --silent'],
      ['typecheck', 'typecheck', 'npx tsc --noEmit --pretty false'],
      ['lint', 'lint', 'npx eslint . -f json'],
      ['test', 'test', 'npx jest --ci --json'],
    ]);

    const wrote = await ralph(['config', 'init', '--workspace', ws, '--write']);
    expect(wrote).toMatchObject({ code: 0, stdout: `wrote ${file} (4 gates: build, typecheck, lint, test)` });
    expect(fs.readFileSync(file, 'utf8').trimEnd()).toBe(shown.stdout);
    const check = await ralph(['config', 'check'], ws);
    expect(check.code).toBe(0);
    expect(check.stdout.split('\n')[0]).toBe(
      `${file}: valid (profile standard, 4 gates, run on claim, escalate after 3 rejections)`,
    );

    const again = await ralph(['config', 'init', '--workspace', ws, '--write', '--profile', 'strict']);
    expect(again).toMatchObject({ code: 2, stdout: '' });
    expect(again.stderr.trim()).toBe(`ralph: ${file} exists: add --force to overwrite it`);
    expect(fs.readFileSync(file, 'utf8')).toContain('profile: standard');

    const forced = await ralph(['config', 'init', '--workspace', ws, '--write', '--force', '--profile', 'strict']);
    expect(forced.code).toBe(0);
    expect((YAML.parse(fs.readFileSync(file, 'utf8')) as GatesConfigRaw).profile).toBe('strict');
  });

  it.each([
    ['python', 'pyproject.toml', '[project]\nname = "app"\n', ['test'], 'python -m pytest -q', 'pytest'],
    [
      'go',
      'go.mod',
      'module example.com/app\n\ngo 1.22\n',
      ['build', 'vet', 'test'],
      'go test -json ./...',
      'go-test-json',
    ],
  ])(
    'proposes a %s test gate when the workspace has %s',
    async (_lang, marker, content, names, testCommand, format) => {
      const ws = tempWorkspace({ [marker]: content });
      const r = await ralph(['config', 'init', '--workspace', ws]);
      expect(r.code).toBe(0);
      const cfg = YAML.parse(r.stdout) as GatesConfigRaw;
      expect(cfg.gates!.map((g) => g.name)).toEqual(names);
      expect(cfg.gates!.find((g) => g.name === 'test')).toEqual({
        name: 'test',
        kind: 'test',
        command: testCommand,
        format,
      });
      fs.writeFileSync(path.join(ws, 'ralph.config.yaml'), r.stdout);
      expect((await ralph(['config', 'check', '--workspace', ws])).code).toBe(0);
    },
  );

  it('exits 2 saying what it looked for when the workspace is empty, and writes nothing', async () => {
    const ws = fs.realpathSync(tempWorkspace());
    const r = await ralph(['config', 'init', '--workspace', ws, '--write']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr.trim()).toBe(
      `ralph: found no package.json, pyproject.toml/setup.py or go.mod in ${ws}: write the gates yourself (see \`ralph config schema\`)`,
    );
    expect(fs.readdirSync(ws)).toEqual([]);
  });

  it('fails a loop at once with InvalidInput naming the file and the bad path when its ralph.config.yaml is invalid', async () => {
    const ws = sumWorkspace(
      'gates:\n  - { name: unit, kind: test, command: jest }\n  - { name: fuzz, kind: fuzz, command: fuzz }\n',
      { default: [{ write: 'touched.txt', content: 'x' }, { promise: 'DONE' }] },
    );
    const id = await h.startLoop(claimLoop(ws));
    const err = await h.result(id).then(
      () => undefined,
      (e: unknown) => e as WorkflowFailedError,
    );
    expect(err?.name).toBe(WorkflowFailedError.name);
    const cause = err!.cause as { type?: string; message: string };
    expect(cause.type).toBe('InvalidInput');
    expect(cause.message).toContain(
      `invalid config ${path.join(ws, 'ralph.config.yaml')}: gates[1].kind: must be one of`,
    );
    expect(cause.message).toContain('ralph config check');
    expect(fs.existsSync(path.join(ws, '.ralph/loops', id, 'iterations'))).toBe(false);
    expect(fs.existsSync(path.join(ws, 'touched.txt'))).toBe(false);
    expect((await h.status(id)).records).toEqual([]);
    started.push(id);
  });

  it('runs the gates of the workspace ralph.config.yaml when the input has none: rejects the first claim, accepts the fix', async () => {
    const ws = sumWorkspace(
      { gates: [unitGate] },
      {
        iterations: [
          [{ promise: 'DONE' }],
          [{ write: 'sum.js', content: 'module.exports = (a, b) => a + b;\n' }, { promise: 'DONE' }],
        ],
      },
    );
    expect((await ralph(['config', 'check', '--workspace', ws])).code).toBe(0);
    const id = await h.startLoop(claimLoop(ws));
    expect(await h.result(id)).toMatchObject({ status: 'accepted', acceptedBy: 'check', iterations: 2 });
    const s = await h.status(id);
    expect(s.records.map((r) => [r.outcome, r.rejected ?? false, r.gates?.map((g) => [g.name, g.passed])])).toEqual([
      ['claim_rejected', true, [['unit', false]]],
      ['completed', false, [['unit', true]]],
    ]);
    expect(s.records[0].gates![0].actual).toBe('2 of 3 failing (33.3% pass)');
    expect(s.totals).toMatchObject({ rejections: 1, gateRuns: 2 });
    started.push(id);
  });
});

describe('ralph stats and ralph flag', () => {
  let escalated: string;
  let overridden: string;
  let fixed: string;
  beforeAll(async () => {
    fixed = started[1];
    // A loop whose agent deletes the two failing tests: the detectors open a regression gate, and a human approves it
    // (a false positive by the stats' definition).
    const cheat = sumWorkspace(
      { gates: [unitGate] },
      {
        default: [
          {
            write: 'sum.test.js',
            content: "const sum = require('./sum');\ntest('zero is neutral', () => expect(sum(5, 0)).toBe(5));\n",
          },
          { evidence: ['sum.test.js'] },
          { promise: 'DONE' },
        ],
      },
    );
    overridden = await h.startLoop(claimLoop(cheat, { maxIterations: 4, verification: { enabled: false } }));
    await h.waitFor(overridden, (s) => s.pendingGate?.reason === 'regression', 90_000);
    const ok = await ralph(['approve', overridden, '--by', 'lead', '--reason', 'those tests were wrong', ...conn()]);
    expect(ok.code).toBe(0);
    expect(await h.result(overridden)).toMatchObject({ status: 'accepted', acceptedBy: 'human' });
    // One more loop: its claim is rejected once (maxRetries 1), so it waits at the rejections gate; a human approves.
    const ws = sumWorkspace({ gates: [unitGate], rejection: { maxRetries: 1 } }, { default: [{ promise: 'DONE' }] });
    escalated = await h.startLoop(claimLoop(ws, { maxIterations: 10 }));
    await h.waitFor(escalated, (s) => s.pendingGate?.reason === 'rejections', 90_000);
    const r = await ralph(['approve', escalated, '--by', 'lead', '--reason', 'known bug', ...conn()]);
    expect(r.code).toBe(0);
    expect(await h.result(escalated)).toMatchObject({ status: 'accepted', acceptedBy: 'human', by: 'lead' });
  });

  /** `ralph stats --json` (extra args added), once the list of loops shows every loop of this file. */
  async function statsJson(...extra: string[]): Promise<GateStats> {
    const end = Date.now() + 30_000;
    for (;;) {
      const r = await ralph(['stats', '--json', '--address', h.env.address, ...extra]);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      const st = JSON.parse(r.stdout) as GateStats;
      if (st.loopsWithGates >= 3 || Date.now() > end) return st;
      await new Promise((res) => setTimeout(res, 300));
    }
  }

  it('puts each seed target beside its figure on loops with known outcomes, with the rejection breakdown and failure categories', async () => {
    expect(started).toHaveLength(2);
    const st = await statsJson();
    // The loop that failed on its config ran no iteration: it is not counted. Three loops: fixed after one rejection,
    // a regression gate approved by a human, escalated at the rejections gate and approved.
    expect(st).toMatchObject({
      loops: 3,
      loopsWithGates: 3,
      firstTryPassRate: 0.333,
      rejectionsPerLoop: 0.67,
      escalationRate: 0.667,
      falsePositiveRate: 0.333,
      falseNegativeRate: 0,
    });
    expect(st.since).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(Date.now() - Date.parse(st.since!)).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(st.targets.map((t) => [t.key, t.met])).toEqual([
      ['firstTryPassRate', false],
      ['rejectionsPerLoop', true],
      ['escalationRate', false],
      ['gateOverheadShare', st.gateOverheadShare < 0.1],
      ['falsePositiveRate', false],
      ['falseNegativeRate', true],
    ]);
    expect(st.rejections).toEqual({
      notRejected: { count: 1, share: 0.333 },
      once: { count: 1, share: 0.333 },
      twice: { count: 0, share: 0 },
      threeOrMore: { count: 0, share: 0 },
      escalated: { count: 1, share: 0.333 },
    });
    expect(st.humanGates).toEqual({ regression: 1, rejections: 1 });
    expect(st.falsePositives).toEqual({ detectorGates: 1, decided: 1, approved: 1, loops: [overridden] });
    expect(st.gates).toEqual([{ name: 'unit', kind: 'test', runs: 4, passRate: 0.5, meanMs: expect.any(Number) }]);
    expect(st.gates[0].meanMs).toBeGreaterThan(0);
    expect(st.gateOverheadShare).toBeGreaterThan(0);
    expect(st.gateOverheadShare).toBeLessThan(1);
    expect(st.failureCategories).toEqual([{ category: 'test failures', count: 2, share: 1 }]);
    expect(st.topFailureReasons[0]).toEqual({ reason: 'unit: N of N failing (N% pass)', count: 2, share: 1 });
    expect(st.interventions.byType.test_deletion).toBeGreaterThanOrEqual(1);
    expect(st.interventions.bySeverity.critical).toBeGreaterThanOrEqual(1);
    expect(st.interventions.per100Iterations).toBe(Math.round((st.interventions.total / st.iterations) * 10000) / 100);
  });

  it('flags an accepted loop as a false negative, stored in its state folder, and stats counts it', async () => {
    const r = await ralph(['flag', fixed, '--reason', 'the fix broke subtraction', '--by', 'qa', ...conn()]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const file = path.join((await h.status(fixed)).stateDir, 'loops', fixed, 'flags.jsonl');
    expect(r.stdout).toBe(`flagged loop ${fixed} (1 flag; ${file}): \`ralph stats\` counts it as a false negative`);
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l) as Record<string, string>)).toEqual([
      { loopId: fixed, reason: 'the fix broke subtraction', by: 'qa', at: expect.stringMatching(/^\d{4}-/) },
    ]);
    const st = await statsJson();
    expect(st.falseNegativeRate).toBe(0.333);
    expect(st.falseNegatives).toMatchObject({ accepted: 3, flagged: [fixed], unreadable: [] });
    expect(st.targets.find((t) => t.key === 'falseNegativeRate')).toMatchObject({ met: false, over: 3 });
  });

  it('refuses to flag without a reason, a loop that was not accepted, or one that does not exist', async () => {
    const none = await ralph(['flag', fixed, ...conn()]);
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toContain('--reason is required: say what was wrong with the accepted work');
    const failed = await ralph(['flag', started[0], '--reason', 'x', ...conn()]);
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    expect(failed.stderr.trim()).toBe(
      `ralph: loop ${started[0]} ended failed, not accepted: only accepted work can be a false negative`,
    );
    const missing = await ralph(['flag', 'ralph-no-such-loop', '--reason', 'x', ...conn()]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toMatch(
      /^ralph: can't flag loop ralph-no-such-loop: no loop with id "ralph-no-such-loop"/,
    );
  });

  it('prints the figures beside their targets, the breakdown and the trust figures without --json', async () => {
    await statsJson();
    const r = await ralph(['stats', '--address', h.env.address]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const out = r.stdout;
    expect(out).toMatch(/^Quality over the last 7d \(since \S+\): 3 loops \(3 with gates\), \d+ iterations$/m);
    expect(out).toMatch(/^ {2}FIGURE\s+VALUE\s+TARGET\s+STATUS\s+OVER$/m);
    expect(out).toMatch(/^ {2}first-try pass rate\s+33\.3%\s+> 80%\s+missed\s+3 loops$/m);
    expect(out).toMatch(/^ {2}rejections per task\s+0\.67\s+< 2\s+met\s+3 loops$/m);
    expect(out).toMatch(/^ {2}escalation rate\s+66\.7%\s+< 5%\s+missed\s+3 loops$/m);
    expect(out).toMatch(/^ {2}gate overhead\s+\d+(\.\d)?%\s+< 10%\s+(met|missed)\s+3 loops$/m);
    expect(out).toMatch(/^ {2}false positives\s+33\.3%\s+< 1%\s+missed\s+3 loops$/m);
    expect(out).toMatch(/^ {2}false negatives\s+33\.3%\s+0%\s+missed\s+3 accepted loops$/m);
    expect(out).toContain('  ├─ not rejected: 1 (33.3%)\n  ├─ rejected 1x: 1 (33.3%)\n  ├─ rejected 2x: 0 (0%)');
    expect(out).toContain('  └─ escalated: 1 (33.3%)');
    expect(out).toMatch(/^ {2}unit\s+test\s+4\s+50%\s+\d+\.\ds$/m);
    expect(out).toContain('Top failure reasons:\n  1. test failures (100%, 2)');
    expect(out).toContain('Human gates: regression 1, rejections 1');
    expect(out).toContain(`False positives: 1 of 1 decided detector gates approved by a human (${overridden})`);
    expect(out).toContain(`False negatives: 1 of 3 accepted loops flagged (${fixed})`);
    expect(out).toContain(`  ${fixed}: the fix broke subtraction (qa, `);
    expect(out).toMatch(
      /^Interventions: \d+ \([\d.]+ per 100 iterations\); remediation success [\d.]+% \(\d+ of \d+\)$/m,
    );
  });

  it('prints the same figures as Prometheus gauges with --prometheus', async () => {
    await statsJson();
    const r = await ralph(['stats', '--prometheus', '--address', h.env.address]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('# TYPE ralph_stats_figure gauge');
    expect(r.stdout).toContain('ralph_stats_figure{figure="falseNegativeRate"} 0.333');
    expect(r.stdout).toContain('ralph_stats_target_met{figure="falseNegativeRate"} 0');
    expect(r.stdout).toContain('ralph_stats_loops_by_rejections{rejected="escalated"} 1');
    expect(r.stdout).toContain('ralph_stats_failure_share{category="test failures"} 1');
  });

  it('looks at the window --since gives and the most recent loops with --limit, and names a bad --since or --limit', async () => {
    await statsJson();
    expect(await statsJson('--since', '1h')).toMatchObject({ loops: 3 });
    const future = await ralph(['stats', '--json', '--since', '2099-01-01', '--address', h.env.address]);
    expect(future.code).toBe(0);
    expect(JSON.parse(future.stdout)).toMatchObject({ loops: 0, since: '2099-01-01T00:00:00.000Z' });
    expect((JSON.parse(future.stdout) as GateStats).targets.every((t) => t.met === undefined)).toBe(true);
    // The escalated loop both started and closed last, so it is the most recent one however the list is ordered.
    const r = await ralph(['stats', '--json', '--since', 'all', '--limit', '1', '--address', h.env.address]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      loops: 1,
      loopsWithGates: 1,
      escalationRate: 1,
      rejectionsPerLoop: 1,
    });
    const bad = await ralph(['stats', '--limit', '0', '--address', h.env.address]);
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toMatch(/^ralph: --limit: /);
    const both = await ralph(['stats', '--json', '--prometheus', '--address', h.env.address]);
    expect(both).toMatchObject({ code: 2, stdout: '' });
    expect(both.stderr.trim()).toBe('ralph: --json and --prometheus: choose one output format');
    const since = await ralph(['stats', '--since', '7x', '--address', h.env.address]);
    expect(since).toMatchObject({ code: 2, stdout: '' });
    expect(since.stderr).toMatch(
      /^ralph: --since: use a window like 7d, 24h, 30m, 2w, an ISO date \(2026-11-01\), or all/,
    );
  });
});
