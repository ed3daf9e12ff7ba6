/**
 * The verification tree's allow-list: which changed files are WORK (product code, docs and data, dependency manifests
 * and lockfiles, new tests) and so reach the tree as the agent left them, and which are ENVIRONMENT (what decides how a
 * check runs rather than what it checks: dotfiles, tool and package-manager configuration under any name, interpreter
 * startup files, nested modules and dependency folders) and so are absent or reverted in the tree. An environment
 * change is not a verdict: honest work may add a harmless `.npmrc`. It only matters when the original checks fail in
 * the tree without it, and then it is named to the human. A deny-list of names is always one name behind; here an
 * unknown kind of file is environment unless it looks like work. Pure.
 */

/** Why a changed file counts as environment. */
export type EnvironmentReason =
  'dotfile' | 'tool_config' | 'startup_file' | 'nested_module' | 'dependency_folder' | 'script_entry' | 'ignored';

/** One change the verification tree leaves out (added: absent; modified or deleted: reverted). */
export interface EnvironmentChange {
  path: string;
  change: 'modified' | 'deleted' | 'added';
  reason: EnvironmentReason;
  /** For package.json: the script entries added (`scripts.pretest`). */
  sections?: string[];
}

const base = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/**
 * Paths inside a folder package managers install into (anywhere: a tracked `src/node_modules/expect` shadows the
 * installed one for every file below `src`), or in Go's root `vendor/` (which `go test` builds from).
 */
const DEPENDENCY_SEGMENT =
  /(?:^|\/)(?:node_modules|\.venv|venv|__pypackages__|\.tox|bower_components|\.yarn)\/|^vendor\//;
/** Files an interpreter runs before the check's own code when they sit on its path. */
const STARTUP = /^(?:sitecustomize\.py|usercustomize\.py|[^/]*\.pth|\.pythonrc(?:\.py)?|\.noderc)$/;
/** Configuration formats: whatever their name, a tool reads them (pytest.toml, bunfig.toml, .npmrc...). */
const CONFIG_EXT = /\.(?:ini|cfg|toml|conf|properties|env|rc|npmrc|yarnrc)$/;
/** Manifests and lockfiles: the dependencies are the task's to change (fingerprinting guards the installed ones). */
const MANIFEST =
  /^(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|poetry\.lock|uv\.lock|Pipfile|Pipfile\.lock|requirements[^/]*\.txt|constraints[^/]*\.txt|go\.sum|Cargo\.toml|Cargo\.lock|Gemfile|Gemfile\.lock|composer\.json|composer\.lock|pom\.xml|build\.gradle(?:\.kts)?)$/;
/** Tool configuration by name at the workspace root (`babel.config.js`, `vite.config.ts`, `bunfig.toml`, `deno.json`). */
const ROOT_TOOL_CONFIG =
  /(?:^[^/]+\.config\.[^/]+|^[^/.]+rc(?:\.[^/]+)?|^(?:deno|jsr|bunfig|lerna|nx|turbo|rush)\.[^/]+)$/;
/** Data formats that are configuration when they sit at the root, and data (fixtures, locales, schemas) below it. */
const DATA_EXT = /\.(?:json|jsonc|json5|ya?ml|xml)$/;

/**
 * Why a changed path is environment, or undefined when it is work. Protected files and tests are decided before this
 * (by the protected set); section files (package.json, pyproject.toml, setup.cfg, tsconfig) by their fields.
 */
export function environmentReason(p: string, change: 'modified' | 'deleted' | 'added'): EnvironmentReason | undefined {
  const b = base(p);
  const root = !p.includes('/');
  if (DEPENDENCY_SEGMENT.test(p)) return 'dependency_folder';
  if (STARTUP.test(b)) return 'startup_file';
  if (p.split('/').some((s) => s.startsWith('.'))) return 'dotfile';
  if (b === 'go.work' || b === 'go.work.sum') return 'nested_module';
  // A new go.mod below the root makes its folder a module of its own, which `go test ./...` no longer runs.
  if (b === 'go.mod') return root || change !== 'added' ? undefined : 'nested_module';
  if (MANIFEST.test(b)) return undefined;
  if (CONFIG_EXT.test(b)) return 'tool_config';
  if (root && (ROOT_TOOL_CONFIG.test(b) || DATA_EXT.test(b))) return 'tool_config';
  return undefined;
}

/** Ignored paths (git's `--ignored --directory` listing) the check itself makes: build outputs, caches, installs. */
const BUILD_OUTPUT =
  /(?:^|\/)(?:node_modules|\.venv|venv|\.tox|bower_components|dist|build|out|lib|coverage|\.nyc_output|\.cache|\.parcel-cache|\.next|\.nuxt|\.turbo|\.vite|\.vitest|__pycache__|\.pytest_cache|\.mypy_cache|\.ruff_cache|\.hypothesis|htmlcov|[^/]*\.egg-info|\.eggs|target|\.gradle|tmp|\.tmp|logs?)(?:\/|$)|\.(?:pyc|pyo|log|tsbuildinfo|coverage|lcov)$|(?:^|\/)(?:\.coverage(?:\.[^/]*)?|coverage\.xml|junit[^/]*\.xml|\.DS_Store|\.eslintcache|\.stylelintcache)$/;

/** Whether an ignored path is something a check or an install makes, which the tree may lack without harm. */
export const isBuildOutput = (p: string): boolean => BUILD_OUTPUT.test(p);

/**
 * Ignored or excluded paths present now that were not at the baseline, other than build outputs and dependency
 * folders: files the checkpoint never holds but a tool may read in the workspace (an `.npmrc` hidden by
 * `.git/info/exclude`). `baseline` undefined (a manifest from before this was recorded): none known.
 */
export function newIgnoredPaths(baseline: readonly string[] | undefined, now: readonly string[]): string[] {
  if (!baseline) return [];
  const was = new Set(baseline);
  return now.filter((p) => !was.has(p) && !isBuildOutput(p) && !p.startsWith('.ralph/'));
}

/** One line per environment change: `A .npmrc (dotfile)`, `M package.json: scripts.pretest (new script)`. */
export function describeEnvironmentChanges(changes: readonly EnvironmentChange[], max = 30): string[] {
  const letter = { modified: 'M', deleted: 'D', added: 'A' } as const;
  const what: Record<EnvironmentReason, string> = {
    dotfile: 'dotfile',
    tool_config: 'tool configuration',
    startup_file: 'interpreter startup file',
    nested_module: 'nested module',
    dependency_folder: 'inside a dependency folder',
    script_entry: 'new package script',
    ignored: 'ignored by git',
  };
  const lines = changes
    .slice(0, max)
    .map(
      (c) =>
        `${letter[c.change]} ${c.path}${c.sections?.length ? `: ${c.sections.join(', ')}` : ''} (${what[c.reason]})`,
    );
  if (changes.length > max) lines.push(`… ${changes.length - max} more`);
  return lines;
}
