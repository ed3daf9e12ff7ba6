/**
 * The agent sandbox end to end on a real dev server: a scripted agent's writes outside the workspace, into a
 * dependency folder, into .git/hooks and into the state folder fail under the sandbox (Linux with bubblewrap), and
 * the loop records that; an unsandboxed run (`mode: off`) is visible in the state, `ralph status` and `--follow`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { Harness, checkFileExists, scriptedLoop, tempWorkspace } from '../helpers/env';
import { readEvents } from '../../src/activities/persist-state';
import { readAudit } from '../../src/state/audit';
import { statusLines } from '../../src/cli/views/loop';
import { followLoop } from '../../src/cli/follow';
import { SearchAttributes } from '../../src/core/constants';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

/** The sandbox needs bubblewrap, socat and ripgrep (the pretest installs them): say so instead of passing. */
function requireSandboxTools(): void {
  const missing = ['bwrap', 'socat', 'rg'].filter(
    (b) => !(process.env.PATH ?? '').split(':').some((d) => d && fs.existsSync(path.join(d, b))),
  );
  if (missing.length)
    throw new Error(`the sandbox test needs ${missing.join(', ')}: apt-get install -y bubblewrap socat ripgrep`);
}

/** A git workspace with a dependency folder, whose agent tries to write where it may not, then does the task. */
function trespassingWorkspace(outside: string): string {
  const ws = tempWorkspace(
    { 'check.js': checkFileExists('done.txt'), 'node_modules/dep/index.js': 'module.exports = 1;\n' },
    {
      iterations: [
        [
          { run: `sh -c 'echo x > ${outside}'` },
          { run: `sh -c 'echo "module.exports = 2;" > node_modules/dep/index.js'` },
          { run: `sh -c 'echo "exit 0" > .git/hooks/pre-commit'` },
          { run: `sh -c 'echo x > .ralph/planted.txt'` },
          { hook: 'pre-tool-use', tool: 'Bash', input: { command: 'rm -rf build' } },
          { write: 'done.txt', content: 'done' },
          { claimDone: true },
        ],
      ],
    },
  );
  execFileSync('git', ['init', '-q'], { cwd: ws });
  return ws;
}

describe('agent sandbox', () => {
  it('confines a sandboxed agent: writes outside the workspace, into node_modules, .git/hooks and .ralph fail', async () => {
    requireSandboxTools();
    const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-outside-')), 'planted.txt');
    const ws = trespassingWorkspace(outside);
    const id = await h.startLoop(scriptedLoop(ws, { sandbox: { mode: 'enforce' } }));
    const r = await h.result(id);
    expect(r.status).toBe('accepted');
    // The task's own write went through; none of the others did.
    expect(fs.readFileSync(path.join(ws, 'done.txt'), 'utf8')).toBe('done');
    expect(fs.existsSync(outside)).toBe(false);
    expect(fs.readFileSync(path.join(ws, 'node_modules/dep/index.js'), 'utf8')).toBe('module.exports = 1;\n');
    expect(fs.existsSync(path.join(ws, '.git/hooks/pre-commit'))).toBe(false);
    expect(fs.existsSync(path.join(ws, '.ralph/planted.txt'))).toBe(false);

    const s = await h.status(id);
    expect(s.sandbox).toEqual({ state: 'enforced' });
    expect(s.records[0].agent.sandbox).toBe('enforced');
    expect(s.records[0].agent.sandboxDenied).toEqual(
      expect.arrayContaining([outside, 'node_modules/dep/index.js', '.ralph/planted.txt']),
    );
    // The refusals are evidence (an info event), not a verdict: the loop accepted the work.
    const events = readEvents(path.join(ws, '.ralph'), id).filter((e) => e.type === 'sandbox_denied');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ severity: 'info', iteration: 1 });
    // The hook ran inside the sandbox (state folder read-only there): its entry reached the audit log anyway.
    const audit = await readAudit(path.join(ws, '.ralph'), id);
    expect(audit.some((e) => e.tool === 'Bash' && e.target?.includes('build'))).toBe(true);
    // The settings the run was wrapped with are kept with its artifacts.
    const settings = JSON.parse(fs.readFileSync(path.join(s.records[0].artifactDir, 'sandbox.json'), 'utf8'));
    expect(settings.filesystem.denyWrite).toEqual(expect.arrayContaining([path.join(ws, 'node_modules')]));
    const desc = await h.client.workflow.getHandle(id).describe();
    expect(desc.searchAttributes[SearchAttributes.RalphSandbox.name]).toEqual(['enforced']);
  });

  it('says loudly when the agent runs unsandboxed (mode off): state, status, --follow and the search attribute', async () => {
    const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-outside-')), 'planted.txt');
    const ws = trespassingWorkspace(outside);
    const id = await h.startLoop(scriptedLoop(ws, { sandbox: { mode: 'off' } }));
    const lines: string[] = [];
    const following = followLoop(h.client, id, { print: (l) => lines.push(l), intervalMs: 200 });
    // Without the sandbox the writes land: that is what `off` gives up. The changed dependency folder is still caught
    // (its fingerprint at baseline; no lockfile to install from), so a human decides instead of the check.
    const s = await h.waitFor(id, (st) => st.pendingGate !== undefined, 90_000);
    expect(fs.existsSync(outside)).toBe(true);
    expect(fs.readFileSync(path.join(ws, 'node_modules/dep/index.js'), 'utf8')).toContain('2');
    expect(s.pendingGate).toMatchObject({ reason: 'protected_edit' });
    expect(`${s.pendingGate!.title}\n${s.pendingGate!.details}`).toContain('node_modules');
    expect(s.sandbox).toEqual({ state: 'off' });
    expect(s.records[0].agent.sandbox).toBe('off');
    expect(statusLines(s).join('\n')).toMatch(/sandbox\s+UNSANDBOXED: sandbox.mode is off/);
    const desc = await h.client.workflow.getHandle(id).describe();
    expect(desc.searchAttributes[SearchAttributes.RalphSandbox.name]).toEqual(['off']);
    await h.signal(id, 'abort', { by: 'reviewer' });
    expect((await following).status).toBe('aborted');
    expect(lines.some((l) => l.includes('UNSANDBOXED: sandbox.mode is off'))).toBe(true);
  });
});
