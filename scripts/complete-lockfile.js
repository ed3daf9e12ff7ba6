#!/usr/bin/env node
// @ts-check
/**
 * Restores lockfile entries for other platforms' optional native binaries (e.g. @swc/core-darwin-arm64) that npm
 * leaves out when the registry it talks to doesn't serve them (a filtered mirror). Without them, `npm ci` refuses the
 * lock ("Missing: ... from lock file") even though those packages would be skipped on this platform anyway.
 * Each entry gets the version its parent asks for, `optional: true`, and the os/cpu/libc its name says, so npm ci
 * skips it on other platforms and installs it (from the real registry) on its own.
 *
 * Run after `npm install` changes the lock: node scripts/complete-lockfile.js
 */
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const pkgs = lock.packages;

/** @param {string} name */
function platformOf(name) {
  const base = name.split('/').pop() || name;
  const os = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openharmony', 'sunos', 'aix'].find((o) =>
    base.includes(o),
  );
  const cpu = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32'].find((c) =>
    new RegExp(`(^|-)${c}(-|$)`).test(base),
  );
  const libc = /-musl(eabihf)?$/.test(base) ? 'musl' : /-gnu(eabihf)?$/.test(base) ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [where, entry] of Object.entries(pkgs)) {
  const optional = entry.optionalDependencies || {};
  for (const [dep, version] of Object.entries(optional)) {
    // npm resolves a dependency next to its parent first, then up the tree; these binaries sit at the top level.
    const nested = `${where ? where + '/' : ''}node_modules/${dep}`;
    const top = `node_modules/${dep}`;
    if (pkgs[nested] || pkgs[top]) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os && !cpu) continue;
    pkgs[top] = {
      version: String(version).replace(/^[\^~=]/, ''),
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(libc ? { libc: [libc] } : {}),
      optional: true,
      ...(os ? { os: [os] } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
process.stdout.write(`complete-lockfile: added ${added} optional platform entries\n`);
