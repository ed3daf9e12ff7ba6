/**
 * `ralph demo [--keep] [--json]`: a self-contained showcase, offline, in well under a minute. It starts a Temporal dev
 * server on free ports and a worker in this process, then runs two loops with the scripted agent (a real subprocess
 * following a JSON script) against real completion checks:
 *
 *  1. slugify: the agent claims done without writing anything (the check rejects the claim), then writes a partial
 *     and an almost-right implementation; at max iterations a human gate opens; the demo answers `reject` with
 *     guidance and one extra iteration; the agent gets it right and the check accepts the work.
 *  2. changelog: the check stays strict about a detail; at the gate the demo answers `approve`.
 *
 * It prints live progress, the gates with the commands a human would type, and a summary. Exit code 0 only if both
 * loops end as expected. Everything is stopped at the end unless `--keep`.
 */
import type { Client } from '@temporalio/client';
import type { Command } from 'commander';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { connectClient, startLoop } from '../../client';
import { ConnectionConfig } from '../../config/connection';
import type { LoopInputRaw } from '../../config/loop-input';
import { DEFAULT_NAMESPACE, DEFAULT_TASK_QUEUE } from '../../core/constants';
import type { DecisionPayload, SignalName } from '../../core/loop-machine';
import type { HumanGate, LoopResult } from '../../core/loop-types';
import { startDevServer } from '../../dev/dev-server';
import type { AgentScript } from '../../scripted-agent/script';
import { runWorker } from '../../workers/main';
import { followLoop } from '../follow';
import { unsandboxedLine, type SandboxStatus } from '../../core/sandbox';
import { CommandFailedError, installWorkerRuntime, runCommand, untilInterrupted } from '../run-command';
import { sendSignal, shellQuote } from '../signal-helpers';

/** Options of `ralph demo`. */
export const DemoOptions = z.object({
  keep: z.boolean().default(false),
  json: z.boolean().default(false),
});

/** Longest a demo loop may take before the demo gives up on it. */
const LOOP_DEADLINE_MS = 90_000;
/** How long the demo "thinks" at a gate before answering, so a reader can follow. */
const HUMAN_PAUSE_MS = 1000;

/** One loop of the demo: its files, the agent's script, and the gate answer. */
interface Story {
  name: string;
  blurb: string;
  expected: string;
  files: Record<string, string>;
  script: AgentScript | { iterations: unknown[][] };
  prompt: string;
  maxIterations: number;
  promise?: string;
  answer: { signal: SignalName; payload: DecisionPayload; flags: string; why: string };
  verify(r: LoopResult, loopDir: string): string | undefined;
}

/** How one demo loop ended, as the summary and `--json` report it. */
export interface DemoLoopReport {
  name: string;
  loopId: string;
  expected: string;
  ok: boolean;
  problem?: string;
  status: string;
  acceptedBy?: string;
  by?: string;
  reason: string;
  iterations: number;
  stateFile: string;
  artifacts: string;
  uiUrl: string;
  /** How the agent ran: `enforced` (sandboxed), or the UNSANDBOXED line saying why not. */
  sandbox: string;
}

const SLUGIFY_CHECK = `// Completion check: exits 0 only when slugify.js handles every case.
let slugify;
try {
  slugify = require('./slugify.js');
} catch (e) {
  console.error('slugify.js is missing or broken: ' + String(e.message).split('\\n')[0]);
  process.exit(1);
}
const cases = [
  ['Hello World', 'hello-world'],
  ['  Trim  me  ', 'trim-me'],
  ['Rock & Roll!', 'rock-roll'],
  ['a--b', 'a-b'],
  ['Already-slugged', 'already-slugged'],
];
const got = (input) => {
  try {
    return slugify(input);
  } catch (e) {
    return 'threw ' + e.message;
  }
};
const failed = cases.filter(([input, want]) => got(input) !== want);
if (failed.length) {
  console.error(failed.length + ' of ' + cases.length + ' cases fail:');
  for (const [input, want] of failed)
    console.error('  slugify(' + JSON.stringify(input) + ') returned ' + JSON.stringify(got(input)) + ', expected ' + JSON.stringify(want));
  process.exit(1);
}
console.log('all ' + cases.length + ' cases pass');
`;

const CHANGELOG_CHECK = `// Completion check: CHANGELOG.md needs a "## [1.1.0] - YYYY-MM-DD" entry with at least one item.
const fs = require('fs');
if (!fs.existsSync('CHANGELOG.md')) {
  console.error('CHANGELOG.md is missing');
  process.exit(1);
}
const text = fs.readFileSync('CHANGELOG.md', 'utf8');
const m = text.match(/^## \\[1\\.1\\.0\\](.*)$/m);
if (!m) {
  console.error('no "## [1.1.0] - YYYY-MM-DD" heading in CHANGELOG.md');
  process.exit(1);
}
if (!/^ - \\d{4}-\\d{2}-\\d{2}$/.test(m[1])) {
  console.error('the 1.1.0 heading has no release date: got "' + m[0] + '"');
  process.exit(1);
}
console.log('changelog entry ok');
`;

const usage = (inputTokens: number, outputTokens: number, costUsd: number) => ({
  usage: { inputTokens, outputTokens, costUsd },
});

const GUIDANCE = 'Collapse runs of dashes into one: slugify("a--b") must return "a-b".';

const STORIES: Story[] = [
  {
    name: 'slugify',
    blurb: 'the agent must implement slugify(); a human rejects at the gate with guidance, then the check accepts',
    expected: 'accepted by the check at iteration 4, after a reject with guidance at the gate',
    files: {
      'TASK.md':
        '# Task\nImplement `slugify(text)` in slugify.js (CommonJS, no dependencies). `node check.js` must pass.\n',
      'check.js': SLUGIFY_CHECK,
    },
    prompt: 'Implement slugify(text) in slugify.js so that `node check.js` passes. See TASK.md.',
    maxIterations: 3,
    promise: 'DONE',
    script: {
      iterations: [
        // 1: claims done without writing anything; the check rejects the claim.
        [{ print: 'Implemented slugify in slugify.js. All done!' }, usage(1800, 240, 0.012), { promise: 'DONE' }],
        // 2: a partial implementation.
        [
          { write: 'slugify.js', content: "module.exports = (s) => s.toLowerCase().replace(/ /g, '-');\n" },
          { print: 'Wrote a first slugify: lowercase, spaces to dashes.' },
          usage(2600, 310, 0.017),
        ],
        // 3: almost right: only runs of dashes are not collapsed.
        [
          {
            write: 'slugify.js',
            content:
              "module.exports = (s) => s.trim().toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '');\n",
          },
          { print: 'Trimmed input, replaced punctuation, stripped edge dashes.' },
          usage(3100, 280, 0.019),
          { promise: 'DONE' },
        ],
        // 4: after the human's guidance: correct.
        [
          {
            run: 'grep -c "Collapse runs of dashes" "$RALPH_PROMPT_FILE" >/dev/null && echo "Read the reviewer guidance."',
          },
          {
            write: 'slugify.js',
            content:
              "module.exports = (s) => s.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');\n",
          },
          { print: 'Runs of dashes now collapse into one.' },
          usage(3300, 260, 0.02),
          { promise: 'DONE' },
        ],
      ],
    },
    answer: {
      signal: 'reject',
      payload: { by: 'demo', guidance: GUIDANCE, extraIterations: 1, reason: 'one case still fails' },
      flags: `--guidance ${shellQuote(GUIDANCE)} --extra-iterations 1`,
      why: 'one case still fails and the fix is clear: reject with guidance and grant 1 more iteration',
    },
    verify(r, loopDir) {
      if (r.status !== 'accepted' || r.acceptedBy !== 'check')
        return `expected accepted by check, got ${r.status} (${r.acceptedBy ?? '-'})`;
      if (r.iterations !== 4) return `expected 4 iterations, got ${r.iterations}`;
      const prompt4 = path.join(loopDir, 'iterations', '004', 'prompt.md');
      if (!fs.existsSync(prompt4) || !fs.readFileSync(prompt4, 'utf8').includes(GUIDANCE))
        return `the guidance did not reach iteration 4's prompt (${prompt4})`;
      return undefined;
    },
  },
  {
    name: 'changelog',
    blurb: 'the check insists on a release date that does not exist yet; a human approves at the gate',
    expected: 'accepted by a human (demo) at the gate after 2 iterations',
    files: {
      'CHANGELOG.md': '# Changelog\n\n## [1.0.0] - 2024-01-15\n- First release.\n',
      'check.js': CHANGELOG_CHECK,
    },
    prompt: 'Add a CHANGELOG.md entry for version 1.1.0 (new: --follow for `ralph start`). `node check.js` must pass.',
    maxIterations: 2,
    script: {
      iterations: [
        [
          { append: 'CHANGELOG.md', content: '\n## 1.1.0\n- `ralph start --follow` watches a loop to the end.\n' },
          { print: 'Added the 1.1.0 entry.' },
          usage(900, 120, 0.006),
        ],
        [
          {
            write: 'CHANGELOG.md',
            content:
              '# Changelog\n\n## [1.1.0] - unreleased\n- `ralph start --follow` watches a loop to the end.\n\n## [1.0.0] - 2024-01-15\n- First release.\n',
          },
          { print: 'Fixed the heading format; the release date is not known yet.' },
          usage(1100, 140, 0.007),
        ],
      ],
    },
    answer: {
      signal: 'approve',
      payload: { by: 'demo', reason: 'the date is set at release time; the entry itself is right' },
      flags: `--reason ${shellQuote('the date is set at release time')}`,
      why: 'the only failing rule is a release date nobody knows yet: approve',
    },
    verify(r) {
      if (r.status !== 'accepted' || r.acceptedBy !== 'human' || r.by !== 'demo')
        return `expected accepted by human (demo), got ${r.status} (${r.acceptedBy ?? '-'}, ${r.by ?? '-'})`;
      if (r.iterations !== 2) return `expected 2 iterations, got ${r.iterations}`;
      return undefined;
    },
  },
];

/** Registers `ralph demo` on the program. */
export function demoCommand(program: Command): Command {
  return program
    .command('demo')
    .description(
      'run a self-contained showcase: a local server, a worker and two loops with human gates (offline, < 1 min)',
    )
    .option('--keep', 'keep the server and worker running afterwards, until Ctrl-C')
    .option('--json', 'print a JSON report on stdout (progress goes to stderr)')
    .action(
      runCommand(DemoOptions, async (o, _args, ctx) => {
        installWorkerRuntime('WARN');
        const print = o.json ? ctx.out.note : ctx.out.line;
        const interrupt = untilInterrupted(() => ctx.out.note('ralph demo: still stopping...'));
        const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-demo-'));
        const t0 = Date.now();
        try {
          print('ralph demo: a Temporal dev server and a worker on this machine, two loops driven by a scripted agent');
          const server = await startDevServer({ dbFile: path.join(root, 'temporal.db'), log: (m) => print(`  ${m}`) });
          print(`  server  ${server.address} (temporal from ${server.source})`);
          print(`  Web UI  ${server.uiUrl}`);
          let stopWorker: () => void = () => undefined;
          const workerStop = new Promise<void>((r) => (stopWorker = r));
          const taskQueue = DEFAULT_TASK_QUEUE;
          const connection = ConnectionConfig.parse({
            address: server.address,
            namespace: DEFAULT_NAMESPACE,
            taskQueue,
          });
          const worker = runWorker({
            connection,
            until: Promise.race([workerStop, interrupt.stopped]),
            log: (m) => print(`  worker ${m}`),
          });
          // A worker that dies (or a Ctrl-C) ends the demo instead of leaving it waiting on loops nobody runs.
          const aborted = Promise.race([
            worker.then(() => {
              throw new CommandFailedError('the worker stopped before the demo finished');
            }),
            interrupt.stopped.then(() => {
              throw new CommandFailedError('interrupted');
            }),
          ]);
          aborted.catch(() => undefined);
          const client = await connectClient(connection);
          const reports: DemoLoopReport[] = [];
          try {
            for (const story of STORIES)
              reports.push(await runStory(client, story, root, server.address, server.uiUrl, print, aborted));
            const ok = reports.every((r) => r.ok);
            const seconds = ((Date.now() - t0) / 1000).toFixed(1);
            if (o.json)
              ctx.out.json({
                ok,
                seconds: Number(seconds),
                address: server.address,
                uiUrl: server.uiUrl,
                root,
                loops: reports,
              });
            printSummary(reports, print, seconds);
            if (o.keep) {
              printKeepHints(print, server, reports[0].loopId, root);
              await interrupt.stopped;
            }
            return ok ? 0 : 1;
          } finally {
            await client.connection.close().catch(() => undefined);
            stopWorker();
            await worker.catch((e: unknown) => print(`  worker failed: ${(e as Error).message}`));
            await server.stop();
          }
        } finally {
          interrupt.dispose();
        }
      }),
    );
}

/** With --keep: what keeps running, and the commands to try on it. */
function printKeepHints(
  print: (line: string) => void,
  server: { address: string; uiUrl: string },
  loopId: string,
  root: string,
): void {
  print('');
  print(`the server and worker keep running (Ctrl-C to stop): Web UI ${server.uiUrl}`);
  print(`  ralph list --address ${server.address}`);
  print(`  ralph status ${loopId} --address ${server.address}`);
  print(
    `  ralph start --address ${server.address} --workspace ${shellQuote(path.join(root, 'slugify'))} --agent scripted --script ${shellQuote(path.join(root, 'scripts', 'slugify.json'))} --prompt "again" --check "node check.js" --follow`,
  );
}

async function runStory(
  client: Client,
  story: Story,
  root: string,
  address: string,
  uiUrl: string,
  print: (l: string) => void,
  aborted: Promise<never>,
): Promise<DemoLoopReport> {
  const workspace = path.join(root, story.name);
  for (const [rel, content] of Object.entries(story.files)) {
    fs.mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
    fs.writeFileSync(path.join(workspace, rel), content);
  }
  const script = path.join(root, 'scripts', `${story.name}.json`);
  fs.mkdirSync(path.dirname(script), { recursive: true });
  fs.writeFileSync(script, JSON.stringify(story.script, null, 2));
  const input: LoopInputRaw = {
    prompt: story.prompt,
    workspace,
    agent: { adapter: 'scripted', script },
    completion: { command: 'node check.js', promise: story.promise, checkOn: 'every-iteration' },
    maxIterations: story.maxIterations,
    iterationTimeoutSeconds: 60,
    heartbeatTimeoutSeconds: 10,
    labels: { demo: story.name },
  };
  const loopId = await startLoop(client, input, {
    taskQueue: DEFAULT_TASK_QUEUE,
    loopId: `demo-${story.name}-${Date.now().toString(36)}`,
  });
  const label = `[${story.name}]`;
  print('');
  print(`${label} loop ${loopId}: ${story.blurb}`);
  print(`${label} workspace ${workspace}; check \`node check.js\`; max ${story.maxIterations} iterations`);
  const onGate = async (gate: HumanGate): Promise<void> => {
    print(`${' '.repeat(8)}the demo plays the human (${story.answer.why}) and types:`);
    print(`${' '.repeat(10)}$ ralph ${story.answer.signal} ${loopId} ${story.answer.flags} --address ${address}`);
    await new Promise((r) => setTimeout(r, HUMAN_PAUSE_MS));
    await sendSignal(client, loopId, story.answer.signal, { ...story.answer.payload, gateId: gate.id }, 0);
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new CommandFailedError(
            `demo loop ${loopId} did not finish within ${LOOP_DEADLINE_MS / 1000}s: see \`ralph status ${loopId} --address ${address}\``,
          ),
        ),
      LOOP_DEADLINE_MS,
    );
  });
  let result: LoopResult;
  try {
    result = await Promise.race([
      followLoop(client, loopId, { print, label, intervalMs: 250, connectionFlags: `--address ${address}`, onGate }),
      deadline,
      aborted,
    ]);
  } finally {
    clearTimeout(timer);
  }
  const loopDir = result.stateFile ? path.dirname(result.stateFile) : '';
  const problem = story.verify(result, loopDir);
  return {
    name: story.name,
    loopId,
    expected: story.expected,
    ok: problem === undefined,
    problem,
    status: result.status,
    acceptedBy: result.acceptedBy,
    by: result.by,
    reason: result.reason,
    iterations: result.iterations,
    stateFile: result.stateFile,
    artifacts: loopDir && path.join(loopDir, 'iterations'),
    sandbox: sandboxOf(result.stateFile),
    uiUrl: `${uiUrl}/namespaces/${DEFAULT_NAMESPACE}/workflows/${encodeURIComponent(loopId)}`,
  };
}

/** The loop's sandbox as its state file recorded it. */
function sandboxOf(stateFile: string): string {
  try {
    const s = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { sandbox?: SandboxStatus };
    if (!s.sandbox) return 'unknown';
    return s.sandbox.state === 'enforced' ? 'enforced' : unsandboxedLine(s.sandbox);
  } catch {
    return 'unknown';
  }
}

function printSummary(reports: DemoLoopReport[], print: (l: string) => void, seconds: string): void {
  print('');
  print(`summary (${seconds}s)`);
  for (const r of reports) {
    const how = r.status === 'accepted' ? `accepted by ${r.acceptedBy}${r.by ? ` (${r.by})` : ''}` : r.status;
    print(
      `  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name.padEnd(10)} ${how} after ${r.iterations} iterations; expected: ${r.expected}`,
    );
    if (r.problem) print(`       problem    ${r.problem}`);
    print(`       sandbox    ${r.sandbox}`);
    print(`       state      ${r.stateFile}`);
    print(`       artifacts  ${r.artifacts}`);
    print(`       Web UI     ${r.uiUrl}`);
  }
  print(
    reports.every((r) => r.ok)
      ? 'demo passed: the check rejected a false "done", a human steered one loop and accepted the other.'
      : 'demo FAILED: a loop did not end as expected (see above).',
  );
}
