import {
  adapterFolders,
  allowedDomains,
  isLoopbackHost,
  missingSandboxPackages,
  parseSandboxDenials,
  sandboxLine,
  sandboxSettings,
  urlHost,
  type SandboxOptions,
} from '../../src/core/sandbox';
import { SandboxConfig } from '../../src/config/sandbox-config';
import { parseLoopInput } from '../../src/config/loop-input';
import { describeProbeFailure } from '../../src/activities/agents/sandbox';

const opts = (over: Partial<SandboxOptions> = {}): SandboxOptions => ({ ...SandboxConfig.parse({}), ...over });

const base = {
  adapter: 'claude-code',
  workspace: '/w/repo',
  stateDir: '/w/repo/.ralph',
  home: '/home/u',
  tmpDir: '/tmp/ralph-agent-1',
  env: {},
};

describe('sandboxSettings', () => {
  it('lets the agent write the workspace, its temp folder and its own folders under HOME, never HOME itself', () => {
    const s = sandboxSettings({ ...base, options: opts() });
    expect(s.filesystem.allowWrite).toEqual(
      expect.arrayContaining(['/w/repo', '/tmp/ralph-agent-1', '/home/u/.claude', '/home/u/.claude.json']),
    );
    expect(s.filesystem.allowWrite).not.toContain('/home/u');
    expect(s.filesystem.denyWrite).toEqual(
      expect.arrayContaining([
        '/w/repo/.git/hooks',
        '/w/repo/.git/info',
        '/w/repo/.git/config',
        '/w/repo/.git/refs/ralph',
        '/w/repo/.ralph',
        '/w/repo/node_modules',
        '/w/repo/.venv',
      ]),
    );
  });

  it('keeps dependency folders writable only when asked, and resolves ~/, relative and absolute extra paths', () => {
    const s = sandboxSettings({
      ...base,
      adapter: 'codex',
      options: opts({ dependencies: 'writable', allowWrite: ['~/.cache/pip', 'build/../out'], denyWrite: ['/etc/x'] }),
    });
    expect(s.filesystem.denyWrite).not.toContain('/w/repo/node_modules');
    expect(s.filesystem.allowWrite).toEqual(
      expect.arrayContaining(['/home/u/.codex', '/home/u/.cache/pip', '/w/repo/out']),
    );
    expect(s.filesystem.denyWrite).toContain('/etc/x');
  });

  it("allows the adapter's API hosts, the hosts its *_BASE_URL variables name, and the configured ones", () => {
    const d = allowedDomains({
      adapter: 'claude-code',
      env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:4100/v1', HOME: '/home/u', OTHER: 'http://evil.example' },
      options: opts({ allowedDomains: ['registry.npmjs.org'] }),
    });
    expect(d).toEqual(expect.arrayContaining(['api.anthropic.com', '127.0.0.1:4100', 'registry.npmjs.org']));
    expect(d).not.toContain('evil.example');
    expect(allowedDomains({ adapter: 'scripted', env: {}, options: opts() })).toEqual([]);
  });

  it("allows the hosts of URLs in the agent's arguments (codex's provider base_url)", () => {
    const d = allowedDomains({
      adapter: 'codex',
      env: {},
      args: ['exec', '-c', 'model_providers.stub.base_url="http://127.0.0.1:4200/v1"', 'see https://docs.example'],
      options: opts(),
    });
    expect(d).toEqual(expect.arrayContaining(['api.openai.com', '127.0.0.1:4200', 'docs.example']));
  });

  it("makes the adapter's folders writable where its environment moves them, never HOME or above, and creates them", () => {
    const at = (env: Record<string, string>) =>
      sandboxSettings({
        adapter: 'codex',
        workspace: '/w/repo',
        stateDir: '/w/repo/.ralph',
        home: '/home/u',
        tmpDir: '/tmp/r',
        env,
        options: opts(),
      }).filesystem.allowWrite;
    expect(at({ CODEX_HOME: '/srv/codex' })).toContain('/srv/codex');
    expect(at({ CODEX_HOME: '/home/u' })).not.toContain('/home/u');
    expect(at({ CODEX_HOME: '/home' })).not.toContain('/home');
    expect(adapterFolders({ adapter: 'claude-code', env: {}, home: '/h' })).toEqual([
      '/h/.claude',
      '/h/.cache/claude',
      '/h/.local/state/claude',
    ]);
    expect(adapterFolders({ adapter: 'codex', env: { CODEX_HOME: '/h/.codex' }, home: '/h' })).toEqual(['/h/.codex']);
  });

  it('reads hosts from URLs and knows loopback', () => {
    expect(urlHost('https://user:pw@API.example.com:8443/x')).toBe('api.example.com:8443');
    expect(urlHost('not a url')).toBeUndefined();
    expect(isLoopbackHost('127.0.0.1:4100')).toBe(true);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('api.openai.com')).toBe(false);
  });
});

describe('parseSandboxDenials', () => {
  it('reads the refused writes of sh, coreutils, node and python, relative and absolute', () => {
    const out = [
      'sh: 1: cannot create node_modules/dep/index.js: Read-only file system',
      "touch: cannot touch '/home/u/.npmrc': Read-only file system",
      "Error: EROFS: read-only file system, open '/w/repo/.ralph/x.json'",
      "OSError: [Errno 30] Read-only file system: '/usr/lib/python3/site.pth'",
      'all good here',
      'sh: 1: cannot create node_modules/dep/index.js: Read-only file system',
    ].join('\n');
    expect(parseSandboxDenials(out).map((d) => d.path)).toEqual([
      'node_modules/dep/index.js',
      '/home/u/.npmrc',
      '/w/repo/.ralph/x.json',
      '/usr/lib/python3/site.pth',
    ]);
  });

  it('finds nothing in output without a refused write, and stops at the limit', () => {
    expect(parseSandboxDenials('wrote done.txt\nPermission to proceed granted')).toEqual([]);
    const many = Array.from({ length: 30 }, (_, i) => `sh: 1: cannot create f${i}: Read-only file system`).join('\n');
    expect(parseSandboxDenials(many, 5)).toHaveLength(5);
  });
});

describe('sandbox messages and config', () => {
  it('names the Debian packages to install when srt says its tools are missing', () => {
    const said =
      'Error: Sandbox dependencies not available: ripgrep (rg) not found, bubblewrap (bwrap) not installed, socat not installed';
    expect(missingSandboxPackages(said)).toEqual(['bubblewrap', 'socat', 'ripgrep']);
    if (process.platform === 'linux')
      expect(describeProbeFailure(said)).toContain('apt-get install -y bubblewrap socat ripgrep');
  });

  it('says UNSANDBOXED for off and unavailable, and what the sandbox does when enforced', () => {
    expect(sandboxLine({ state: 'off' })).toMatch(/^UNSANDBOXED: sandbox.mode is off/);
    expect(sandboxLine({ state: 'unavailable', reason: 'bwrap missing' })).toContain('(bwrap missing)');
    expect(sandboxLine({ state: 'enforced' })).toMatch(/^enforced/);
  });

  it('defaults to auto with read-only dependencies, and names a bad mode', () => {
    const input = parseLoopInput({
      prompt: 'x',
      workspace: '/w',
      agent: { adapter: 'scripted', script: 's' },
      completion: { command: 'true' },
    });
    expect(input.sandbox).toEqual({
      mode: 'auto',
      allowWrite: [],
      denyWrite: [],
      allowedDomains: [],
      dependencies: 'read-only',
    });
    expect(() =>
      parseLoopInput({
        prompt: 'x',
        workspace: '/w',
        agent: { adapter: 'scripted', script: 's' },
        completion: { command: 'true' },
        sandbox: { mode: 'strict' },
      }),
    ).toThrow(/input\.sandbox\.mode: must be one of auto, enforce, off/);
  });
});
