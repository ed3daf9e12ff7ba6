#!/usr/bin/env node
// @ts-check
/**
 * The real agent CLIs the adapter tests run (claude, codex, gemini), pinned in test/agents/package.json and its own
 * package-lock.json, outside the project's dependency tree: the claude and codex native binaries are ~400 MB each, so
 * a user's `npm ci` never fetches them. `ensure` installs them on demand with `npm ci --prefix test/agents` (skipped
 * when the pinned versions are already there) and locates each platform binary directly: the wrappers' postinstall
 * steps are not run (`--ignore-scripts`), and running the native binary keeps one process per agent run.
 *
 * Aider comes from PyPI: `aider-chat` pinned in test/agents/requirements-aider.txt, installed into
 * test/agents/aider-venv with `python3 -m venv` + pip (it installs cleanly, ~110 packages, a few minutes once).
 *
 * Usage: node scripts/agents.js [ensure|paths|versions] [--quiet] [--json]
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const AGENTS_DIR = path.join(ROOT, 'test', 'agents');
const MODULES = path.join(AGENTS_DIR, 'node_modules');
const AIDER_VENV = path.join(AGENTS_DIR, 'aider-venv');
const AIDER_REQUIREMENTS = path.join(AGENTS_DIR, 'requirements-aider.txt');

/** The platform suffix of the CLIs' optional native packages (`linux-x64`, `darwin-arm64`, `linux-x64-musl`...). */
function platformSuffix() {
  const base = `${process.platform}-${process.arch}`;
  if (process.platform !== 'linux') return base;
  // glibc reports its version in the process report; musl (Alpine) does not.
  const report = /** @type {{ header?: { glibcVersionRuntime?: string } } | undefined} */ (
    process.report?.getReport?.()
  );
  return report?.header?.glibcVersionRuntime ? base : `${base}-musl`;
}

/** Rust target triples of codex's vendored binaries. */
const CODEX_TRIPLES = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

/** @param {string} file */
function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The pinned version of each CLI package (test/agents/package.json). */
function pins() {
  const deps = readJson(path.join(AGENTS_DIR, 'package.json'))?.dependencies ?? {};
  return {
    claude: deps['@anthropic-ai/claude-code'],
    codex: deps['@openai/codex'],
    gemini: deps['@google/gemini-cli'],
    aider: /^aider-chat==(\S+)/m.exec(fs.readFileSync(AIDER_REQUIREMENTS, 'utf8'))?.[1],
  };
}

/** The aider-chat version installed in the venv (from its dist-info folder). */
function aiderVersion() {
  const lib = path.join(AIDER_VENV, 'lib');
  if (!fs.existsSync(lib)) return undefined;
  for (const py of fs.readdirSync(lib)) {
    const site = path.join(lib, py, 'site-packages');
    if (!fs.existsSync(site)) continue;
    const info = fs.readdirSync(site).find((d) => /^aider_chat-.+\.dist-info$/.test(d));
    if (info) return info.replace(/^aider_chat-/, '').replace(/\.dist-info$/, '');
  }
  return undefined;
}

/**
 * Where each CLI's executable is once installed, and the version its package.json says.
 * @returns {Record<'claude'|'codex'|'gemini'|'aider', { path: string, version?: string, present: boolean }>}
 */
function locate() {
  const suffix = platformSuffix();
  const plain = suffix.replace(/-musl$/, '');
  const claudePkg = [suffix, plain]
    .map((s) => path.join(MODULES, '@anthropic-ai', `claude-code-${s}`))
    .find((d) => fs.existsSync(d));
  const claude = path.join(claudePkg ?? path.join(MODULES, '@anthropic-ai', `claude-code-${suffix}`), 'claude');
  const triple = CODEX_TRIPLES[/** @type {keyof typeof CODEX_TRIPLES} */ (plain)] ?? plain;
  const codex = path.join(MODULES, '@openai', `codex-${plain}`, 'vendor', triple, 'bin', 'codex');
  const gemini = path.join(MODULES, '@google', 'gemini-cli', 'bundle', 'gemini.js');
  const aider = path.join(AIDER_VENV, 'bin', 'aider');
  const version = (/** @type {string} */ pkg) =>
    readJson(path.join(MODULES, ...pkg.split('/'), 'package.json'))?.version;
  return {
    claude: { path: claude, version: version('@anthropic-ai/claude-code'), present: fs.existsSync(claude) },
    codex: { path: codex, version: version('@openai/codex'), present: fs.existsSync(codex) },
    gemini: { path: gemini, version: version('@google/gemini-cli'), present: fs.existsSync(gemini) },
    aider: { path: aider, version: aiderVersion(), present: fs.existsSync(aider) },
  };
}

/** The npm-installed CLIs. */
const NPM_CLIS = /** @type {const} */ (['claude', 'codex', 'gemini']);

/**
 * Tells whether the named CLIs (all of them by default) are installed at their pinned versions.
 * @param {ReadonlyArray<'claude'|'codex'|'gemini'|'aider'>} [names]
 */
function installed(names = [...NPM_CLIS, 'aider']) {
  const p = pins();
  const l = locate();
  return names.every((k) => l[k].present && l[k].version === p[k]);
}

/**
 * Installs the pinned CLIs unless they are already there (npm ci for claude/codex/gemini, pip for aider); returns
 * their locations.
 * @param {{ quiet?: boolean }} [o]
 */
function ensure(o = {}) {
  if (!installed(['aider'])) installAider(o);
  if (!installed(NPM_CLIS)) {
    if (!o.quiet) console.error('installing the pinned agent CLIs into test/agents/node_modules (npm ci)...');
    const r = spawnSync(
      'npm',
      ['ci', '--prefix', AGENTS_DIR, '--no-audit', '--no-fund', '--ignore-scripts', '--engine-strict=false'],
      { stdio: o.quiet ? 'pipe' : 'inherit', encoding: 'utf8' },
    );
    if (r.status !== 0)
      throw new Error(
        `npm ci --prefix test/agents failed (exit ${r.status}): ${(r.stderr || '').trim().split('\n').slice(-3).join(' ')}`,
      );
  }
  if (!installed())
    throw new Error(
      `the agent CLIs are not where expected after installing: ${JSON.stringify(locate())}; is ${platformSuffix()} a supported platform?`,
    );
  return locate();
}

/**
 * Installs aider-chat (pinned) into test/agents/aider-venv with the system python3 (3.10-3.12).
 * @param {{ quiet?: boolean }} o
 */
function installAider(o) {
  if (!o.quiet) console.error('installing the pinned aider into test/agents/aider-venv (pip)...');
  const stdio = o.quiet ? 'pipe' : 'inherit';
  const venv = spawnSync('python3', ['-m', 'venv', AIDER_VENV], { stdio, encoding: 'utf8' });
  if (venv.status !== 0) throw new Error(`python3 -m venv test/agents/aider-venv failed (exit ${venv.status})`);
  const pip = spawnSync(
    path.join(AIDER_VENV, 'bin', 'pip'),
    ['install', '--quiet', '--disable-pip-version-check', '-r', AIDER_REQUIREMENTS],
    { stdio, encoding: 'utf8' },
  );
  if (pip.status !== 0)
    throw new Error(
      `pip install -r test/agents/requirements-aider.txt failed (exit ${pip.status}): ${(pip.stderr || '').trim().split('\n').slice(-3).join(' ')}`,
    );
}

/** Each installed CLI's own `--version` output. */
function versions() {
  const l = locate();
  /** @type {Record<string, string>} */
  const out = {};
  for (const [name, info] of Object.entries(l)) {
    if (!info.present) {
      out[name] = 'not installed';
      continue;
    }
    const cmd = name === 'gemini' ? process.execPath : info.path;
    const args = name === 'gemini' ? [info.path, '--version'] : ['--version'];
    const r = spawnSync(cmd, args, {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, GEMINI_CLI_NO_RELAUNCH: 'true', DISABLE_AUTOUPDATER: '1' },
    });
    out[name] = (r.stdout || r.stderr || `exit ${r.status}`).trim().split('\n')[0];
  }
  return out;
}

module.exports = { ensure, locate, installed, versions, pins, AGENTS_DIR };

if (require.main === module) {
  const args = process.argv.slice(2);
  const cmd = args.find((a) => !a.startsWith('--')) ?? 'ensure';
  const quiet = args.includes('--quiet');
  const json = args.includes('--json');
  try {
    if (cmd === 'ensure') {
      const l = ensure({ quiet });
      if (!quiet) for (const [k, v] of Object.entries(l)) console.log(`${k} ${v.version} ${v.path}`);
    } else if (cmd === 'paths') {
      const l = locate();
      console.log(
        json
          ? JSON.stringify(l, null, 2)
          : Object.values(l)
              .map((v) => v.path)
              .join('\n'),
      );
    } else if (cmd === 'versions') {
      const v = versions();
      console.log(
        json
          ? JSON.stringify(v, null, 2)
          : Object.entries(v)
              .map(([k, s]) => `${k}: ${s}`)
              .join('\n'),
      );
    } else {
      throw new Error(`unknown command "${cmd}": use ensure, paths or versions`);
    }
  } catch (e) {
    console.error(`agents: ${/** @type {Error} */ (e).message}`);
    process.exitCode = 1;
  }
}
