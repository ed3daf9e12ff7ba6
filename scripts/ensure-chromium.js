#!/usr/bin/env node
/**
 * `npm test`'s pretest step: installs Debian's Chromium (/usr/bin/chromium) for the console's browser test when it is
 * missing and we are root (CI runs on a fresh machine). Otherwise it only says what to do; the test then explains too.
 */
'use strict';
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');

const CHROMIUM = '/usr/bin/chromium';

function main() {
  if (fs.existsSync(CHROMIUM)) return 0;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    process.stderr.write(
      `ensure-chromium: ${CHROMIUM} is missing; install it with \`sudo apt-get install -y chromium\`\n`,
    );
    return 0;
  }
  process.stderr.write('ensure-chromium: installing Debian chromium for the console browser test...\n');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
    const r = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) {
      process.stderr.write(`ensure-chromium: apt-get ${args[0]} failed (exit ${r.status})\n`);
      return 0;
    }
  }
  return 0;
}

process.exitCode = main();
