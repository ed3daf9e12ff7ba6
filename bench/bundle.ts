/**
 * npm run bench:bundle — what each loop costs a worker in workflow code.
 *
 * A worker runs the workflow bundle in a reusable V8 context and evaluates its modules once per workflow, except the
 * modules the bundle shares (src/workers/workflow-bundle.ts, `sharedWorkflowModules`). This bench builds the product's
 * bundle as the build does, and the same code without the shared list, loads each in the SDK's reusable V8 context
 * (the one a worker uses), creates N workflow instances (BENCH_LOOPS, default 100) and reports the V8 heap each one
 * adds after a full GC, in two cases:
 * - `plain`: the workflow is created (every module of the workflow code evaluated for it): a loop without routing;
 * - `routing`: the workflow also classifies one task with the default routing model, as a routing loop does at its
 *   start (the model's weights parsed, once per worker when shared, once per loop when not).
 * Each case runs in its own child process. Target: at most 250 KB per loop in both cases with the shared list, the
 * bundle as built. Figures go to bench/results/bundle.json.
 *
 * The reusable context is the SDK's own (`@temporalio/worker/lib/workflow/reusable-vm`), reached by its file path: it
 * is not a public API, so an SDK upgrade that moves it makes this bench fail loudly, not measure something else.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleProductWorkflows } from '../src/workers/workflow-bundle';
import { writeResult } from './stats';
import { finishBench } from './verdict';

const LOOPS = Number(process.env.BENCH_LOOPS ?? 100);
const TARGET_KB_PER_LOOP = 250;
/** A task a routing loop classifies at its start (issue 22's example). */
const TASK = 'Our JWT verification accepts tokens signed with alg none; fix the verifier, rotate the keys';

interface CaseFigures {
  loops: number;
  /** V8 heap the context itself holds once the bundle is loaded (MB). */
  contextMb: number;
  /** V8 heap each workflow instance adds (KB). */
  kbPerLoop: number;
  /** Process RSS with every instance alive (MB). */
  rssMb: number;
  /** The domain the classification picked (routing case): proof it ran inside each workflow. */
  routedTo?: string;
}

/** The module id of the routing classifier in a bundle (webpack names modules by path in the SDK's bundles). */
function classifierModuleId(code: string): string {
  const m = /"([^"]*core\/routing\/classifier\.[jt]s)"/.exec(code);
  if (!m) throw new Error('the routing classifier is not a module of this bundle: was src/core/routing moved?');
  return m[1];
}

/** In a child process: loads `bundleFile`, creates `loops` workflows (each classifying TASK when `routing`). */
async function child(bundleFile: string, routing: boolean, loops: number): Promise<CaseFigures> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const heap = (): number => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  const { ReusableVMWorkflowCreator } = require('@temporalio/worker/lib/workflow/reusable-vm') as {
    ReusableVMWorkflowCreator: {
      create(
        bundle: { code: string; filename: string; sourceMap: unknown },
        timeoutMs: number,
        activityNames: Set<string>,
      ): Promise<{ context: object; createWorkflow(o: object): Promise<unknown> }>;
    };
  };
  const vm = await import('node:vm');
  const code = fs.readFileSync(bundleFile, 'utf8');
  const at = code.lastIndexOf('//# sourceMappingURL=data:');
  const sourceMap: unknown = JSON.parse(
    Buffer.from(code.slice(code.indexOf('base64,', at) + 'base64,'.length).trimEnd(), 'base64').toString(),
  );
  const id = classifierModuleId(code);
  const h0 = heap();
  const creator = await ReusableVMWorkflowCreator.create({ code, filename: bundleFile, sourceMap }, 5000, new Set());
  const h1 = heap();
  const alive: unknown[] = [];
  let routedTo: string | undefined;
  for (let i = 0; i < loops; i++) {
    const now = Date.now();
    const info = {
      workflowType: 'ralphLoop',
      workflowId: `bench-bundle-${i}`,
      runId: `run-${i}`,
      firstExecutionRunId: `run-${i}`,
      taskQueue: 'bench-bundle',
      namespace: 'default',
      attempt: 1,
      historyLength: 1,
      historySize: 1,
      continueAsNewSuggested: false,
      searchAttributes: {},
      typedSearchAttributes: [],
      memo: {},
      startTime: new Date(now),
      runStartTime: new Date(now),
      unsafe: { isReplaying: false, now: Date.now },
      priority: {},
    };
    alive.push(await creator.createWorkflow({ info, randomnessSeed: [i, 1], now, showStackTraceSources: false }));
    if (routing) {
      // The context's globals are this workflow's now: its module cache answers, as the loop's own code would.
      routedTo = vm.runInContext(
        `globalThis.__webpack_module_cache__[${JSON.stringify(id)}].exports.classify(${JSON.stringify(TASK)}).domain`,
        creator.context,
      ) as string;
    }
  }
  const h2 = heap();
  return {
    loops,
    contextMb: +((h1 - h0) / 1e6).toFixed(1),
    kbPerLoop: Math.round((h2 - h1) / loops / 1024),
    rssMb: Math.round(process.memoryUsage().rss / 1e6),
    ...(routing ? { routedTo: routedTo ?? 'none' } : {}),
  };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-bench-bundle-'));
  const bundles = { shared: path.join(dir, 'shared.js'), unshared: path.join(dir, 'unshared.js') };
  fs.writeFileSync(bundles.shared, await bundleProductWorkflows());
  fs.writeFileSync(bundles.unshared, await bundleProductWorkflows({ shared: false }));
  const figures: Record<string, Record<string, CaseFigures> & { bundleMb: number }> = {};
  for (const [name, file] of Object.entries(bundles)) {
    const row = { bundleMb: +(fs.statSync(file).size / 1e6).toFixed(2) } as Record<string, CaseFigures> & {
      bundleMb: number;
    };
    for (const c of ['plain', 'routing'] as const) {
      const out = execFileSync(process.execPath, ['--expose-gc', __filename, '--child', file, c, String(LOOPS)], {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      });
      row[c] = JSON.parse(out.trim().split('\n').pop() ?? '{}') as CaseFigures;
      const f = row[c];
      console.log(
        `${name.padEnd(8)} ${c.padEnd(7)} ${String(f.kbPerLoop).padStart(6)} KB/loop  context ${f.contextMb} MB  ` +
          `RSS ${f.rssMb} MB at ${f.loops} loops${f.routedTo ? `  (routed to ${f.routedTo})` : ''}`,
      );
    }
    figures[name] = row;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const targets = {
    [`plain <= ${TARGET_KB_PER_LOOP} KB/loop`]: figures.shared.plain.kbPerLoop <= TARGET_KB_PER_LOOP,
    [`routing <= ${TARGET_KB_PER_LOOP} KB/loop`]: figures.shared.routing.kbPerLoop <= TARGET_KB_PER_LOOP,
  };
  const file = writeResult('bundle', {
    at: new Date().toISOString(),
    loops: LOOPS,
    task: TASK,
    ...figures,
    targets: { kbPerLoop: TARGET_KB_PER_LOOP },
    met: targets,
  });
  console.log(`figures: ${file}`);
  finishBench('bundle', targets);
}

if (process.argv[2] === '--child') {
  child(process.argv[3], process.argv[4] === 'routing', Number(process.argv[5]))
    .then((f) => console.log(JSON.stringify(f)))
    .catch((e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    });
} else {
  main().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
