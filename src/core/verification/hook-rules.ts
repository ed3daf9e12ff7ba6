/**
 * Which files a tool call may not touch: the hook (`ralph hook pre-tool-use`) denies a write, edit or delete of a
 * protected path before it happens, so the agent learns before it wastes an iteration. Pure: the hook reads the
 * manifest and the touched paths, this decides.
 */
import type { TouchedPath } from '../risk';
import {
  allowReason,
  conventionKind,
  globToRegExp,
  isConfigKind,
  matchesAny,
  type AllowedEntry,
  type ProtectedEntry,
  type ProtectedKind,
} from './protected-set';

/** What the hook knows of the loop's protected set (from its manifest). */
export interface ProtectedPathRules {
  protected: ProtectedEntry[];
  allowed: AllowedEntry[];
  rules: { protect: string[]; allow: string[]; task: string };
}

/** A protected file a tool call would touch. */
export interface ProtectedHit {
  path: string;
  kind: ProtectedKind;
  action: 'write' | 'delete';
  /** The file did not exist at the baseline (a new runner/CI/lint configuration file). */
  added?: boolean;
}

const isPattern = (p: string): boolean => /[*?[{]/.test(p);

/**
 * The protected files a touched path means: the path itself when it is protected (or, not yet existing, is new
 * runner/CI/lint configuration or matches a `protect` glob), and for a glob or a folder (`rm -rf test`,
 * `rm test/*.js`) every protected file it covers. Files the task names or `allow` matches are never hits, and neither
 * are new test files (added tests count). Paths outside the workspace (absolute, or climbing out) are not its business.
 */
export function protectedHits(r: ProtectedPathRules, t: TouchedPath): ProtectedHit[] {
  const p = t.path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  if (!p || p.startsWith('/') || p.startsWith('../') || p === '..' || p.startsWith('~') || p.startsWith('$')) return [];
  // The loop's own state (manifest, checkpoints, logs) is never the agent's to touch.
  if (p === '.ralph' || p.startsWith('.ralph/')) return [{ path: p, kind: 'loop_state', action: t.action }];
  const allowed = new Set(r.allowed.map((a) => a.path));
  const exact = r.protected.find((e) => e.path === p);
  if (exact) return [{ path: p, kind: exact.kind, action: t.action }];
  if (allowed.has(p)) return [];
  const covered =
    isPattern(p) || p === '.' || !/\.\w+$/.test(p)
      ? r.protected.filter((e) => (p === '.' ? true : globToRegExp(p, true).test(e.path)))
      : [];
  if (covered.length) return covered.map((e) => ({ path: e.path, kind: e.kind, action: t.action }));
  if (t.action === 'delete' || isPattern(p) || allowReason(p, r.rules)) return [];
  const conv = conventionKind(p);
  if (isConfigKind(conv)) return [{ path: p, kind: conv!, action: t.action, added: true }];
  if (matchesAny(p, r.rules.protect) && conv !== 'test' && conv !== 'test_data')
    return [{ path: p, kind: 'user', action: t.action, added: true }];
  return [];
}

/**
 * The hook's message for protected paths: before the call (deny or warn, by policy), or after it (the change will be
 * undone for verification).
 */
export function protectedHookMessage(
  event: 'pre-tool-use' | 'post-tool-use',
  hits: readonly ProtectedHit[],
  decision: 'deny' | 'warn',
): string {
  const list = hits
    .slice(0, 8)
    .map((h) => `${h.path} (${h.kind === 'sections' ? 'its test/lint settings' : h.kind.replace(/_/g, ' ')})`)
    .join(', ');
  const more = hits.length > 8 ? ` and ${hits.length - 8} more` : '';
  const core =
    `${list}${more} ${hits.length === 1 ? 'is' : 'are'} protected: the tests, their data and the test, lint and CI ` +
    'configuration are not yours to change. Your work is accepted only if it passes the ORIGINAL checks, re-run with ' +
    'every protected file restored, so changing them cannot help. Change the product code instead (adding NEW test ' +
    'files, or new cases to a test file without changing its existing tests, is fine); if the task truly needs this ' +
    'change, say so in your answer and a human will decide.';
  if (event === 'post-tool-use') return `⚠️ You changed ${core}`;
  return decision === 'deny' ? `⛔ Blocked by ralph: ${core}` : `⚠️ ${core}`;
}
