import {
  AGENT_SETUPS,
  agentCheck,
  DISK_FAIL_BYTES,
  DISK_WARN_BYTES,
  diskCheck,
  doctorExitCode,
  doctorLines,
  formatBytes,
  nodeCheck,
  type DoctorCheck,
} from '../../../src/core/doctor';

const claude = AGENT_SETUPS.find((a) => a.adapter === 'claude-code')!;

describe('doctor rules', () => {
  it.each([
    ['20.11.1', 'ok'],
    ['22.0.0', 'ok'],
    ['18.19.0', 'fail'],
  ])('rates Node %s as %s', (v, status) => {
    expect(nodeCheck(v).status).toBe(status);
  });

  it.each([
    [DISK_FAIL_BYTES - 1, 'fail'],
    [DISK_WARN_BYTES - 1, 'warn'],
    [DISK_WARN_BYTES * 10, 'ok'],
  ])('rates %d free bytes as %s', (free, status) => {
    const c = diskCheck('/ws/.ralph', free);
    expect(c.status).toBe(status);
    expect(c.detail).toContain('free under /ws/.ralph');
    if (status !== 'ok') expect(c.fix).toContain('ralph checkpoints prune');
  });

  it('formats bytes for people', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536 * 1024 * 1024)).toBe('1.5 GB');
    expect(formatBytes(300 * 1024 * 1024)).toBe('300 MB');
  });

  it('fails a missing agent only when the loop runs it, and never prints credential values', () => {
    expect(agentCheck({ setup: claude, credentials: [] }, true)).toMatchObject({
      status: 'fail',
      fix: 'npm install -g @anthropic-ai/claude-code',
    });
    expect(agentCheck({ setup: claude, credentials: [] }, false).status).toBe('warn');
    const noCreds = agentCheck({ setup: claude, path: '/bin/claude', version: '2.1.0', credentials: [] }, true);
    expect(noCreds).toMatchObject({ status: 'warn' });
    expect(noCreds.fix).toContain('ANTHROPIC_API_KEY');
    const ok = agentCheck(
      { setup: claude, path: '/bin/claude', version: '2.1.0', credentials: ['~/.claude/.credentials.json'] },
      true,
    );
    expect(ok).toMatchObject({ status: 'ok', detail: '/bin/claude (2.1.0); credentials: ~/.claude/.credentials.json' });
    const broken = agentCheck(
      { setup: claude, path: '/bin/claude', broken: 'Error: native binary not installed', credentials: [] },
      true,
    );
    expect(broken).toMatchObject({ status: 'fail', fix: 'reinstall it: npm install -g @anthropic-ai/claude-code' });
  });

  it('exits 1 only for a needed failure, and says what must be fixed', () => {
    const checks: DoctorCheck[] = [
      { name: 'node', status: 'ok', detail: 'v20', needed: true },
      { name: 'agent codex', status: 'warn', detail: 'not found', fix: 'npm i -g @openai/codex', needed: false },
    ];
    expect(doctorExitCode(checks)).toBe(0);
    expect(doctorLines(checks)).toEqual([
      'ok    node         v20',
      'warn  agent codex  not found',
      '                   fix: npm i -g @openai/codex',
      'ready to run loops (1 warning)',
    ]);
    checks.push({ name: 'worker', status: 'fail', detail: 'none', fix: 'ralph worker', needed: true });
    expect(doctorExitCode(checks)).toBe(1);
    expect(doctorLines(checks).pop()).toBe('not ready: worker must be fixed before a loop can run');
  });
});
