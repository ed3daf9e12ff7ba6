import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GATE_TIMEOUTS, thresholdsFor } from '../../../src/config/gates-config';
import { detectGates } from '../../../src/config/detect-gates';
import { loadGatesConfig, parseGatesConfig } from '../../../src/config/load-config';

const tmp = (files: Record<string, string>): string => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-cfg-'));
  for (const [f, c] of Object.entries(files)) fs.writeFileSync(path.join(d, f), c);
  return d;
};

describe('gates config', () => {
  it('merges the profile with per-gate overrides', () => {
    const cfg = parseGatesConfig({
      profile: 'strict',
      gates: [{ name: 'lint', kind: 'lint', command: 'eslint .', thresholds: { maxWarnings: 10 } }],
    });
    expect(thresholdsFor(cfg.profile, cfg.gates[0])).toEqual({ maxErrors: 0, maxWarnings: 10 });
    const c = parseGatesConfig({
      gates: [{ name: 'c', kind: 'coverage', command: 'x', thresholds: { coverage: { lines: 50 } } }],
    });
    expect(thresholdsFor(c.profile, c.gates[0]).coverage).toEqual({
      lines: 50,
      branches: 80,
      functions: 85,
      statements: 85,
    });
  });

  it.each([
    [{ profile: 'lenient' }, /^config: profile: /],
    [
      { gates: [{ name: 'a', kind: 'tests', command: 'x' }] },
      'gates[0].kind: must be one of build, typecheck, lint, test, coverage, audit, custom',
    ],
    [
      { gates: [{ name: 'a', kind: 'lint', command: 'x', thresholds: { maxWarnings: -1 } }] },
      'gates[0].thresholds.maxWarnings',
    ],
    [
      {
        gates: [
          { name: 'a', kind: 'test', command: 'x' },
          { name: 'a', kind: 'lint', command: 'y' },
        ],
      },
      'gates[1].name: duplicate gate name "a"',
    ],
    [
      { gates: [{ name: 'a', kind: 'test', command: 'x', timeout: 5 }] },
      'gates[0]: unknown key(s) "timeout": check the spelling',
    ],
    [{ rejection: { maxRetries: 0 } }, 'rejection.maxRetries'],
  ])('names the path of each mistake in %j', (raw, message) => {
    expect(() => parseGatesConfig(raw)).toThrow(message);
  });

  it('gives each gate kind its own default timeout (seed 002: build 300 s, lint 120 s, test 600 s, custom 60 s), a gate its own when set', () => {
    const kinds = ['build', 'typecheck', 'lint', 'test', 'coverage', 'audit', 'custom'] as const;
    const cfg = parseGatesConfig({ gates: kinds.map((kind) => ({ name: kind, kind, command: 'x' })) });
    expect(Object.fromEntries(cfg.gates.map((g) => [g.kind, g.timeoutSeconds]))).toEqual({
      build: 300,
      typecheck: 300,
      lint: 120,
      test: 600,
      coverage: 600,
      audit: 120,
      custom: 60,
    });
    expect(GATE_TIMEOUTS).toMatchObject({ build: 300, lint: 120, test: 600, custom: 60 });
    // A config that sets a timeout keeps it, longer or shorter than the kind's default.
    const own = parseGatesConfig({
      gates: [
        { name: 'slow-lint', kind: 'lint', command: 'x', timeoutSeconds: 900 },
        { name: 'quick-test', kind: 'test', command: 'x', timeoutSeconds: 30 },
      ],
    });
    expect(own.gates.map((g) => g.timeoutSeconds)).toEqual([900, 30]);
    expect(() => parseGatesConfig({ gates: [{ name: 'b', kind: 'build', command: 'x', timeoutSeconds: 0 }] })).toThrow(
      'gates[0].timeoutSeconds',
    );
  });

  it('reads YAML and JSON files and names the file in errors, including syntax errors', () => {
    const d = tmp({
      'ralph.config.yaml': 'profile: relaxed\ngates:\n  - name: t\n    kind: test\n    command: npm test\n',
      'bad.yaml': 'gates: [\n',
      'bad.json': '{"gates": 1}',
    });
    expect(loadGatesConfig(path.join(d, 'ralph.config.yaml'))).toMatchObject({
      profile: 'relaxed',
      gates: [{ name: 't', timeoutSeconds: 600 }],
    });
    expect(() => loadGatesConfig(path.join(d, 'bad.yaml'))).toThrow(/bad\.yaml: not valid YAML/);
    expect(() => loadGatesConfig(path.join(d, 'bad.json'))).toThrow(/bad\.json: gates: /);
    expect(() => loadGatesConfig(path.join(d, 'missing.yaml'))).toThrow(/missing\.yaml: can't read it \(ENOENT\)/);
  });

  it('detects default gates for Node/TypeScript, Python and Go workspaces', () => {
    const node = tmp({
      'package.json': JSON.stringify({
        scripts: { build: 'tsc' },
        devDependencies: { typescript: '5', eslint: '9', jest: '30' },
      }),
      'tsconfig.json': '{}',
    });
    expect(detectGates(node).map((g) => `${g.name}:${g.kind}`)).toEqual([
      'build:build',
      'typecheck:typecheck',
      'lint:lint',
      'test:test',
    ]);
    expect(detectGates(tmp({ 'pyproject.toml': '' }))).toEqual([
      expect.objectContaining({ kind: 'test', format: 'pytest' }),
    ]);
    expect(detectGates(tmp({ 'go.mod': 'module x' })).map((g) => g.name)).toEqual(['build', 'vet', 'test']);
    expect(detectGates(tmp({}))).toEqual([]);
  });
});
