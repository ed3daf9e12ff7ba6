/**
 * Source of the spawn helper process (run with `node -e`, so it works the same from `dist/` and from ts-jest).
 *
 * Plain JavaScript on purpose: it is a string, never imported. It serves requests over the IPC channel:
 * - `{ t: 'run', id, file, args, cwd, env, input?, maxBuffer }`: runs the process with piped output and answers
 *   `{ t: 'done', id, code, signal, stdout, stderr, truncated }` (Buffers), or `{ t: 'done', id, error, errno }` when it
 *   could not start;
 * - `{ t: 'log', id, file, args, shell, cwd, env, input?, stdoutPath, stderrPath }`: starts the process in its own
 *   process group with its output going straight to the two files, answers `{ t: 'started', id, pid }`, then
 *   `{ t: 'done', id, code, signal }`.
 * It exits when the worker that started it goes away (the IPC channel closes).
 */
export const SPAWN_SERVER_SOURCE = String.raw`// ralph spawn helper
'use strict';
process.title = 'ralph spawn helper';
const cp = require('node:child_process');
const fs = require('node:fs');
const send = (m) => { if (process.connected) process.send(m); };
process.on('disconnect', () => process.exit(0));
function run(m) {
  let child;
  try {
    child = cp.spawn(m.file, m.args, {
      cwd: m.cwd, env: m.env, stdio: [m.input == null ? 'ignore' : 'pipe', 'pipe', 'pipe'], windowsHide: true,
    });
  } catch (e) { return send({ t: 'done', id: m.id, error: String(e && e.message || e), errno: e && e.code }); }
  const out = []; const err = []; let outBytes = 0; let errBytes = 0; let truncated = false; let failed;
  child.stdout.on('data', (b) => {
    if (outBytes + b.length > m.maxBuffer) { truncated = true; child.kill('SIGKILL'); return; }
    outBytes += b.length; out.push(b);
  });
  child.stderr.on('data', (b) => { if (errBytes < m.maxBuffer) { errBytes += b.length; err.push(b); } });
  child.on('error', (e) => { failed = e; });
  if (m.input != null) { child.stdin.on('error', () => {}); child.stdin.end(m.input); }
  child.on('close', (code, signal) => {
    if (failed && !child.pid)
      return send({ t: 'done', id: m.id, error: String(failed.message), errno: failed.code });
    send({ t: 'done', id: m.id, code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err), truncated });
  });
}
function log(m) {
  let child; let outFd; let errFd;
  try {
    outFd = fs.openSync(m.stdoutPath, 'w'); errFd = fs.openSync(m.stderrPath, 'w');
    child = cp.spawn(m.file, m.args, {
      cwd: m.cwd, env: m.env, shell: m.shell, detached: true, windowsHide: true,
      stdio: [m.input == null ? 'ignore' : 'pipe', outFd, errFd],
    });
  } catch (e) {
    return send({ t: 'done', id: m.id, error: String(e && e.message || e), errno: e && e.code });
  } finally {
    if (outFd !== undefined) fs.closeSync(outFd);
    if (errFd !== undefined) fs.closeSync(errFd);
  }
  let failed;
  child.on('error', (e) => { failed = e; });
  if (child.pid) send({ t: 'started', id: m.id, pid: child.pid });
  if (m.input != null && child.stdin) { child.stdin.on('error', () => {}); child.stdin.end(m.input); }
  child.on('close', (code, signal) => {
    if (failed && !child.pid)
      return send({ t: 'done', id: m.id, error: String(failed.message), errno: failed.code });
    send({ t: 'done', id: m.id, code, signal });
  });
}
process.on('message', (m) => {
  try { if (m.t === 'run') run(m); else if (m.t === 'log') log(m); }
  catch (e) { send({ t: 'done', id: m.id, error: String(e && e.message || e) }); }
});
send({ t: 'ready', pid: process.pid });
`;
