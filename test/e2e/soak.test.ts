import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SOAK = path.resolve(__dirname, '../../dist/bench/soak.js');

describe('npm run soak (short)', () => {
  it('keeps every loop exact through worker kill -9s and a dev server restart', async () => {
    const resultFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-soak-test-')), 'soak.json');
    const { code, output, stdout } = await new Promise<{ code: number | null; output: string; stdout: string }>(
      (resolve) => {
        const child = execFile(
          process.execPath,
          [SOAK],
          {
            env: {
              ...process.env,
              SOAK_LOOPS: '3',
              SOAK_ITERATIONS: '8',
              SOAK_KILL_MIN_S: '15',
              SOAK_KILL_MAX_S: '25',
              // However fast the machine: kill the worker at a quarter and at 60 % of the iterations.
              SOAK_KILL_AT: '0.25,0.6',
              SOAK_SERVER_RESTARTS: '1',
              SOAK_DEADLINE_S: '240',
              // A slower agent, so the kills land while the loops run however fast the machine.
              SOAK_AGENT_SLEEP_S: '0.3',
              SOAK_RESULT_FILE: resultFile,
            },
            timeout: 300_000,
          },
          (err, stdout, stderr) =>
            resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr, stdout }),
        );
        child.stdin?.end();
      },
    );
    expect({ code, output: output.split('\n').filter((l) => /^soak:|PROBLEM/.test(l)) }).toEqual({
      code: 0,
      output: [expect.stringMatching(/EXACT$/)],
    });
    // The verdict line comes last on stdout (a restarted dev server may still log to stderr after it).
    expect(stdout.trimEnd().split('\n').pop()).toBe('bench:soak: all 1 targets met');
    const r = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as {
      exact: boolean;
      iterations: number;
      workerKills: number;
      serverRestarts: number;
      maxHistoryEventsPerRun: number;
      problems: unknown[];
    };
    expect(r).toMatchObject({ exact: true, iterations: 24, serverRestarts: 1, problems: [] });
    expect(r.workerKills).toBeGreaterThanOrEqual(2);
    // continue-as-new every 10 iterations keeps each run's history small.
    expect(r.maxHistoryEventsPerRun).toBeLessThan(400);
  }, 320_000);
});
