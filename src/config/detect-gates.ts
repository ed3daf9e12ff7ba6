import fs from 'node:fs';
import path from 'node:path';
import type { GateSpec } from './gates-config';

type DetectedGate = Pick<GateSpec, 'name' | 'kind' | 'command'> & Partial<GateSpec>;

const readJson = (file: string): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

/**
 * Sensible default gates for a workspace: Node/TypeScript (from package.json scripts and dev dependencies), Python
 * (pytest) and Go. Shown by `ralph config init`; nothing is guessed for a workspace it doesn't recognise.
 */
export function detectGates(workspace: string): DetectedGate[] {
  const has = (f: string): boolean => fs.existsSync(path.join(workspace, f));
  const gates: DetectedGate[] = [];
  const pkg = readJson(path.join(workspace, 'package.json'));
  if (pkg) {
    const scripts = (pkg.scripts ?? {}) as Record<string, string>;
    const deps = { ...(pkg.dependencies as object), ...(pkg.devDependencies as object) } as Record<string, string>;
    if (scripts.build) gates.push({ name: 'build', kind: 'build', command: 'npm run build --silent' });
    if (has('tsconfig.json') && deps.typescript)
      gates.push({ name: 'typecheck', kind: 'typecheck', command: 'npx tsc --noEmit --pretty false', format: 'tsc' });
    if (deps.eslint) gates.push({ name: 'lint', kind: 'lint', command: 'npx eslint . -f json', format: 'eslint-json' });
    if (deps.vitest)
      gates.push({ name: 'test', kind: 'test', command: 'npx vitest run --reporter=json', format: 'vitest-json' });
    else if (deps.jest || /\bjest\b/.test(scripts.test ?? ''))
      gates.push({ name: 'test', kind: 'test', command: 'npx jest --ci --json', format: 'jest-json' });
    else if (scripts.test && !/no test specified/.test(scripts.test))
      gates.push({ name: 'test', kind: 'custom', command: 'npm test --silent' });
  } else if (has('pyproject.toml') || has('setup.py') || has('pytest.ini') || has('setup.cfg')) {
    gates.push({ name: 'test', kind: 'test', command: 'python -m pytest -q', format: 'pytest' });
  } else if (has('go.mod')) {
    gates.push({ name: 'build', kind: 'build', command: 'go build ./...' });
    gates.push({ name: 'vet', kind: 'custom', command: 'go vet ./...' });
    gates.push({ name: 'test', kind: 'test', command: 'go test -json ./...', format: 'go-test-json' });
  }
  return gates;
}
