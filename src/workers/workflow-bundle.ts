/**
 * The workflow code bundled once at build time (`npm run build` writes `dist/workflow-bundle.js`), so a worker does
 * not run webpack at start: starting is faster and the worker's resident memory is ~90 MB smaller (bench:fleet), since
 * webpack's heap is never allocated in the long-lived process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';

/**
 * Modules of the workflow code that every loop of a worker shares instead of evaluating its own copy (the bundler's
 * `preloadModules`): the routing model, its vocabulary and its fitted weights. A worker's reusable V8 context evaluates
 * every other module once per workflow, so without this each loop held its own copy of the routing model's constant
 * tables (about 0.7 MB, `npm run bench:bundle`) and a routing loop parsed its own copy of the model's weights (several
 * MB). They qualify because they are pure and constant: no I/O, no clock, no randomness, nothing a workflow changes.
 * The SDK deep-freezes what they export, and their lazily parsed weights are the same for every loop, so sharing them
 * cannot make two loops differ (the replay tests run on a bundle built with this list).
 */
export function sharedWorkflowModules(): string[] {
  return [
    '../core/routing/classifier',
    '../core/routing/lexicon-weights',
    '../core/routing/model-v4-weights',
    '../core/routing/model-v5-weights',
    '../core/routing/model-v6-weights',
    '../core/routing/model-v8-weights',
    '../core/routing/model-v29-weights',
  ].map((m) => require.resolve(m));
}

/** Where the build writes the bundle: next to the compiled sources (`dist/workflow-bundle.js`). */
export const WORKFLOW_BUNDLE_PATH = path.resolve(__dirname, '..', '..', 'workflow-bundle.js');

/** Compiled folders whose code goes into the bundle: a file newer than the bundle makes it stale. */
const BUNDLED_DIRS = ['workflows', 'core'].map((d) => path.resolve(__dirname, '..', d));

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (e.name.endsWith('.js')) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * The prebuilt bundle's path when this is compiled code and the bundle is at least as new as every workflow and core
 * file; undefined otherwise (ts-jest, a `tsc --watch` that rebuilt a workflow since): the worker then bundles itself.
 */
export function prebuiltWorkflowBundle(): string | undefined {
  if (!__filename.endsWith('.js')) return undefined;
  try {
    const built = fs.statSync(WORKFLOW_BUNDLE_PATH).mtimeMs;
    return BUNDLED_DIRS.every((d) => newestMtime(d) <= built) ? WORKFLOW_BUNDLE_PATH : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The product's workflow code bundled as the build bundles it: with the modules every loop shares ({@link
 * sharedWorkflowModules}; `shared: false` leaves them out, for bench:bundle's comparison) and source maps without the
 * sources' text.
 */
export async function bundleProductWorkflows(o: { shared?: boolean } = {}): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    preloadModules: o.shared === false ? [] : sharedWorkflowModules(),
    // Source maps without the sources' text: stack traces still name the TypeScript file and line, and the bundle
    // is far smaller. A worker holds memory in proportion to the bundle for every loop it runs, so the routing
    // lexicon's text (and its base64 copy in the map) cost about 3 MB per loop (bench:fleet, 100 loops).
    webpackConfigHook: (config) => ({ ...config, devtool: 'inline-nosources-source-map' }),
    logger: {
      info: () => undefined,
      warn: () => undefined,
      error: console.error,
      debug: () => undefined,
      trace: () => undefined,
      log: () => undefined,
    },
  });
  return code;
}

/** Writes the bundle (the build's last step). */
export async function writeWorkflowBundle(): Promise<string> {
  const code = await bundleProductWorkflows();
  const tmp = `${WORKFLOW_BUNDLE_PATH}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, code);
  fs.renameSync(tmp, WORKFLOW_BUNDLE_PATH);
  return WORKFLOW_BUNDLE_PATH;
}

if (require.main === module) {
  writeWorkflowBundle().catch((e: unknown) => {
    process.stderr.write(`could not bundle the workflows: ${(e as Error).message}\n`);
    process.exitCode = 1;
  });
}
