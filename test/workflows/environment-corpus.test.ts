/**
 * The environment corpus (bench/corpus/environment-scenarios.ts) on the real dev server: each scenario is a ralphLoop
 * with the scripted agent in a temp git repository made from a real fixture repository (vercel/ms on jest, unjs/scule
 * on vitest, python-semver on pytest, hashicorp/go-version on go test), the repository's own test command as the
 * completion check. A cheat must not be accepted without a human (a gate, or a failed check); a hard negative must be
 * accepted unattended. A representative subset runs by default; `RALPH_ENV_CORPUS=all` runs every scenario.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Harness, scriptedLoop } from '../helpers/env';
import { envScenarios, type EnvScenario } from '../../bench/corpus/environment-scenarios';
import { checkCommand, materialize } from '../../bench/corpus/fixture-repos';
import { mapLimit } from '../../src/activities/workspace/snapshot';
import type { LoopState } from '../../src/core/loop-types';

const SUBSET = [
  'ms-env-npmrc',
  'ms-env-dependency',
  'ms-env-neg-npmrc',
  'sc-env-lifecycle',
  'sc-env-neg-script',
  'sv-env-pytest-toml',
  'sv-env-pth',
  'sv-env-neg-editorconfig',
  'gv-env-testmain',
  'gv-env-neg-new-test',
];
const chosen =
  process.env.RALPH_ENV_CORPUS === 'all' ? envScenarios : envScenarios.filter((s) => SUBSET.includes(s.id));

/** What the loop did with a scenario. */
interface EnvOutcome {
  verdict: 'accepted' | 'rejected';
  /** The gate's reason, when one was opened; else the loop's end status. */
  how: string;
  /** The agent's own check passed in the workspace (the premise of a cheat). */
  checkPassed: boolean;
  /** Writes the sandbox refused, as the iteration record has them. */
  denied?: string[];
  details?: string;
}

let h: Harness;
const outcomes = new Map<string, EnvOutcome>();
const PTH = '/zz-ralph-corpus.pth';

async function runScenario(s: EnvScenario): Promise<EnvOutcome> {
  const ws = await fs.promises.mkdtemp(path.join(os.tmpdir(), `ralph-env-${s.id}-`));
  await materialize(s.repo, ws, s.setup, { nodeModules: 'farm' });
  fs.writeFileSync(path.join(ws, '.ralph-script.json'), JSON.stringify({ iterations: [s.steps] }));
  const id = await h.startLoop(
    scriptedLoop(ws, {
      prompt: s.task,
      completion: { command: await checkCommand(s.repo), promise: 'DONE', timeoutSeconds: 300 },
      maxIterations: 1,
      iterationTimeoutSeconds: 300,
      heartbeatTimeoutSeconds: 60,
      sandbox: { mode: s.sandbox, ...(s.dependencies ? { dependencies: s.dependencies } : {}) },
      ...(s.install ? { verification: { install: s.install } } : {}),
    }),
    `env-${s.id}-${Date.now()}`,
  );
  const st: LoopState = await h.waitFor(id, (x) => x.pendingGate !== undefined || x.status !== 'running', 600_000);
  const checkPassed = st.records[0]?.check?.passed === true;
  const denied = st.records[0]?.agent?.sandboxDenied;
  if (st.pendingGate) {
    await h.signal(id, 'abort', { by: 'corpus' });
    await h.result(id).catch(() => undefined);
    return { verdict: 'rejected', how: st.pendingGate.reason, checkPassed, denied, details: st.pendingGate.details };
  }
  const r = await h.result(id);
  const accepted = r.status === 'accepted' && r.acceptedBy !== 'human';
  await fs.promises.rm(ws, { recursive: true, force: true });
  return { verdict: accepted ? 'accepted' : 'rejected', how: r.status, checkPassed, denied };
}

beforeAll(async () => {
  h = await Harness.start();
  await mapLimit(chosen, 2, async (s) => {
    try {
      outcomes.set(s.id, await runScenario(s));
    } catch (e) {
      outcomes.set(s.id, { verdict: 'rejected', how: `error: ${(e as Error).message}`, checkPassed: false });
    }
  });
  if (process.env.RALPH_CORPUS_REPORT)
    for (const s of chosen) {
      const o = outcomes.get(s.id)!;
      process.stdout.write(`${s.id} (${s.positive ? 'cheat' : 'hard negative'}): ${o.verdict} via ${o.how}\n`);
    }
}, 1_800_000);

afterAll(async () => {
  // The .pth cheat must never outlive its scenario, whatever the sandbox did.
  const site = await import('node:child_process').then((cp) =>
    cp.execFileSync('python3', ['-c', 'import site; print(site.getsitepackages()[0])'], { encoding: 'utf8' }).trim(),
  );
  fs.rmSync(site + PTH, { force: true });
  await h?.stop();
});

describe('environment corpus on the dev server', () => {
  it('has cheats and hard negatives on each of the four repositories', () => {
    for (const repo of ['ms', 'scule', 'semver', 'goversion'])
      for (const positive of [true, false])
        expect(envScenarios.filter((s) => s.repo === repo && s.positive === positive).length).toBeGreaterThan(0);
  });

  it.each(chosen.map((s) => [s.id, s.positive ? 'cheat' : 'hard negative', s.description, s.expected]))(
    '%s (%s: %s) is %s',
    (id) => {
      const s = envScenarios.find((x) => x.id === id)!;
      const o = outcomes.get(id)!;
      expect(o.how).not.toMatch(/^error/);
      expect(o.verdict).toBe(s.expected);
      // A hard negative passes its check; a cheat under `sandbox: off` does too (the tree is what stops it).
      if (!s.positive || s.sandbox === 'off') expect(o.checkPassed).toBe(true);
      if (s.deniedBySandbox) expect(o.denied?.length).toBeGreaterThan(0);
      // The gate names what made the difference when one environment file did.
      if (id === 'ms-env-npmrc' || id === 'sc-env-npmrc')
        expect(o.details).toContain('With .npmrc put back, the original checks pass');
    },
  );
});
