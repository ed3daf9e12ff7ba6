#!/usr/bin/env node
/**
 * `npm test`'s pretest step: installs the Debian packages the tests drive for real when they are missing and we are
 * root (CI runs on a fresh machine): Chromium for the console's browser test, and bubblewrap, socat and ripgrep, which
 * the agent sandbox (@anthropic-ai/sandbox-runtime) needs on Linux, and docker-compose (when Docker's compose plugin is
 * not there) for the check of docker-compose.yml, which needs no Docker engine. Otherwise it only says what to install; the tests
 * that need a package then say so too (they fail, never pass silently).
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

/** Debian package -> the file that shows it is installed. */
const PACKAGES = [
  { pkg: 'chromium', file: '/usr/bin/chromium', why: 'the console browser test' },
  { pkg: 'bubblewrap', bin: 'bwrap', why: 'the agent sandbox' },
  { pkg: 'socat', bin: 'socat', why: 'the agent sandbox' },
  { pkg: 'ripgrep', bin: 'rg', why: 'the agent sandbox' },
  {
    pkg: 'docker-compose',
    bin: 'docker-compose',
    why: 'the docker-compose.yml check (`docker-compose config`: no Docker engine needed)',
    // Docker's own compose plugin does the same check.
    orElse: () => spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0,
  },
];

function onPath(bin) {
  return (process.env.PATH || '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, bin)));
}

function main() {
  if (process.platform !== 'linux') return 0;
  const missing = PACKAGES.filter(
    (p) => !(p.file ? fs.existsSync(p.file) : onPath(p.bin)) && !(p.orElse && p.orElse()),
  );
  if (missing.length === 0) return 0;
  const names = missing.map((p) => p.pkg).join(' ');
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    for (const p of missing) process.stderr.write(`ensure-system-packages: ${p.pkg} is missing (${p.why})\n`);
    process.stderr.write(`ensure-system-packages: install them with \`sudo apt-get install -y ${names}\`\n`);
    return 0;
  }
  process.stderr.write(`ensure-system-packages: installing Debian ${names}...\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...missing.map((p) => p.pkg)]]) {
    const r = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) {
      process.stderr.write(`ensure-system-packages: apt-get ${args[0]} failed (exit ${r.status})\n`);
      return 0;
    }
  }
  return 0;
}

process.exitCode = main();
