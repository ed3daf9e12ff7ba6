/**
 * Risk of one agent tool call, judged before it runs (pre-tool-use hook) and after (post-tool-use): writes and edits
 * to tests, test configuration and CI, and shell commands that delete tests or work (`rm -rf`, `git rm`, `git reset
 * --hard`, `git push --force`...). Pure: it reads only the call's name and input, never the disk, so the same call
 * always gets the same assessment. Tool names and inputs are Claude Code's (Write/Edit/MultiEdit/NotebookEdit, Bash);
 * Codex's `apply_patch` (the patch in `command`) and a shell command that pipes a patch to `apply_patch` are judged as
 * the file tool calls the patch amounts to ({@link patchCalls}).
 *
 * Levels: `critical` loses tests or history for good (deny-able by policy); `high` may weaken the checks or lose
 * uncommitted work (warning + rollback checkpoint); `medium` changes files in a way worth an audit line but not a
 * warning (plain file deletions, clean-ups of regenerable folders, build scripts); `low` is notable but harmless
 * (a plain `git push`); `none` is everything else.
 */
import { isCiConfig, isCiOrScript, isTestConfig, isTestFile } from './detectors/validation-bypass';
import { lex, type Segment } from './shell-words';
import { parsePatch, patchOfCommand } from './apply-patch';

/** How dangerous a tool call is, from `none` to `critical`. */
export type RiskLevel = 'critical' | 'high' | 'medium' | 'low' | 'none';

/** One tool call of the agent, as Claude Code's hooks receive it (`tool_name`, `tool_input`). */
export interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
}

/** What {@link classifyToolCall} found. */
export interface RiskAssessment {
  risk: RiskLevel;
  /**
   * Kind of risk: `test_edit`, `test_config_edit`, `ci_config_edit`, `destructive_command` (the warned ones),
   * `config_edit`, `script_edit`, `file_deletion`, `check_bypass`, `git_push`, `git_history` (logged only), or for
   * risk `none`: `file_edit`, `command`, `other`.
   */
  category: string;
  /** Why, one short clause each, most serious first. Empty for risk `none`. */
  reasons: string[];
  /** The file (workspace-relative when it was under `cwd`) or the shell command the risk is about. */
  target?: string;
}

/** Options of {@link classifyToolCall}. */
export interface ClassifyOptions {
  /** The workspace: absolute paths under it are judged (and reported) relative to it. */
  cwd?: string;
}

/** Risk levels from harmless to worst: a level's index orders it. */
export const RISK_LEVELS: readonly RiskLevel[] = ['none', 'low', 'medium', 'high', 'critical'];

/** True when `risk` is `min` or worse. */
export const riskAtLeast = (risk: RiskLevel, min: RiskLevel): boolean =>
  RISK_LEVELS.indexOf(risk) >= RISK_LEVELS.indexOf(min);

const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

interface Finding {
  risk: RiskLevel;
  category: string;
  reason: string;
  target?: string;
}

const finding = (risk: RiskLevel, category: string, reason: string, target?: string): Finding => ({
  risk,
  category,
  reason,
  target,
});

/** Keeps the worst finding's category and target, and the reasons of every finding, worst first. */
function assess(findings: Finding[], fallback: RiskAssessment): RiskAssessment {
  const risky = findings
    .filter((f) => f.risk !== 'none')
    .sort((a, b) => RISK_LEVELS.indexOf(b.risk) - RISK_LEVELS.indexOf(a.risk));
  if (!risky.length) return fallback;
  const reasons = [...new Set(risky.map((f) => f.reason))];
  return { risk: risky[0].risk, category: risky[0].category, reasons, target: risky[0].target ?? fallback.target };
}

/** Strips the workspace prefix from an absolute path and a leading `./`, without any path library (core is pure). */
function relative(p: string, cwd: string | undefined): string {
  let out = p;
  const base = cwd?.replace(/\/+$/, '');
  if (base && out.startsWith(base + '/')) out = out.slice(base.length + 1);
  return out.replace(/^(\.\/)+/, '');
}

/** A path names a directory of tests (`test`, `src/__tests__/`, `tests/*`) or a test file or glob (`*.test.ts`). */
function isTestPath(p: string): boolean {
  const dir = p.replace(/\/\*+$/, '').replace(/\/+$/, '');
  return isTestFile(p) || (dir !== '' && isTestFile(`${dir}/x`));
}

/** Targets that mean "everything here": the root, the workspace, the home folder, or a bare glob. */
const ROOT_LIKE =
  /^(\/|\/\*|\.|\.\/|\.\/\*|\.\*|\*|\*\*|\.\.|\.\.\/|\.\.\/\*|~|~\/|~\/\*|\$HOME|\$\{HOME\}|\$HOME\/\*?)$/;

/**
 * Folders a build or install regenerates: deleting them is routine (`rm -rf node_modules dist`), so it is logged as
 * medium, not warned about. Warning on routine clean-ups would teach the agent to ignore warnings, and a checkpoint
 * would not even hold them (they are usually git-ignored).
 */
const REGENERABLE =
  /^(node_modules|dist|build|out|coverage|\.nyc_output|\.cache|\.next|\.nuxt|\.turbo|\.parcel-cache|target|__pycache__|\.pytest_cache|\.mypy_cache|\.ruff_cache|\.tox|\.venv|venv|tmp|\.tmp|[^/]*\.tsbuildinfo|[^/]*\.log)$/;
const isRegenerable = (p: string): boolean => {
  const parts = p.replace(/\/+$/, '').split('/');
  return parts.length > 0 && REGENERABLE.test(parts[parts.length - 1]) && !parts.includes('..');
};

/** Multi-purpose files that isTestConfig counts (package.json...): an edit of theirs matters only if it touches tests. */
const MIXED_CONFIG = /(^|\/)(package\.json|pyproject\.toml|setup\.cfg|tox\.ini)$/;
const TEST_TERMS =
  /\b(tests?|testing|specs?|jest|vitest|mocha|ava|jasmine|karma|cypress|playwright|pytest|nose2?|coverage|cov|nyc|c8|lint|eslint|tsc|typecheck|check|ci)\b|exit\s+0|\|\|/i;

/** Text of a Write/Edit/MultiEdit call that a test declaration could be in (the removed side and the added side). */
function editTexts(c: ToolCall): { removed: string[]; added: string[] } {
  const i = c.input;
  const s = (v: unknown): string => (typeof v === 'string' ? v : '');
  if (Array.isArray(i.edits)) {
    const edits = i.edits.filter((e): e is Record<string, unknown> => !!e && typeof e === 'object');
    return { removed: edits.map((e) => s(e.old_string)), added: edits.map((e) => s(e.new_string)) };
  }
  if (c.tool === 'Write') return { removed: [], added: [s(i.content)] };
  if (c.tool === 'NotebookEdit') return { removed: [], added: [s(i.new_source)] };
  return { removed: [s(i.old_string)], added: [s(i.new_string)] };
}

const TEST_DECLARATION = /\b(?:it|test|describe)(?:\.\w+)*\s*\(|\bdef test_|\bfunc Test|@Test\b/g;
const countTests = (texts: string[]): number => texts.reduce((n, t) => n + (t.match(TEST_DECLARATION)?.length ?? 0), 0);

function classifyFileTool(c: ToolCall, cwd: string | undefined): RiskAssessment {
  const raw = c.input.file_path ?? c.input.notebook_path;
  if (typeof raw !== 'string' || !raw) return { risk: 'none', category: 'file_edit', reasons: [] };
  const file = relative(raw, cwd);
  const none: RiskAssessment = { risk: 'none', category: 'file_edit', reasons: [], target: file };
  const { removed, added } = editTexts(c);
  if (isTestFile(file)) {
    const findings = [finding('high', 'test_edit', `${file} is a test file`, file)];
    if (c.tool === 'Write' && !added.join('').trim())
      findings.push(finding('critical', 'test_edit', `it replaces the test file ${file} with nothing`, file));
    const lost = countTests(removed) - countTests(added);
    if (lost > 0)
      findings.push(
        finding(
          'critical',
          'test_edit',
          `it removes ${lost} test declaration${lost > 1 ? 's' : ''} from ${file}`,
          file,
        ),
      );
    return assess(findings, none);
  }
  if (isCiConfig(file)) return assess([finding('high', 'ci_config_edit', `${file} is CI configuration`, file)], none);
  if (isTestConfig(file)) {
    const partial = c.tool !== 'Write' && MIXED_CONFIG.test(file);
    if (partial && ![...removed, ...added].some((t) => TEST_TERMS.test(t)))
      return assess(
        [finding('medium', 'config_edit', `${file} holds test settings, not touched by this edit`, file)],
        none,
      );
    return assess([finding('high', 'test_config_edit', `${file} configures the tests or coverage`, file)], none);
  }
  if (isCiOrScript(file))
    return assess([finding('medium', 'script_edit', `${file} is a build or CI script`, file)], none);
  return none;
}

// ---------------------------------------------------------------------------------------------------------------
// Shell commands

const base = (w: string): string => w.slice(w.lastIndexOf('/') + 1);

/** Drops what only wraps the real command: `VAR=x`, `sudo`, `env`, `command`, `nohup`, `time`, `xargs` and options. */
function unwrap(words: string[]): { name: string; args: string[]; viaXargs: boolean } {
  let i = 0;
  let viaXargs = false;
  const withValue: Record<string, RegExp> = {
    sudo: /^-[ugCDhpRrT]$/,
    env: /^-[uCS]$/,
    xargs: /^-[IdEeLlnPs]$/,
    nice: /^-n$/,
    timeout: /^-[sk]$/,
  };
  for (;;) {
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) i++;
    const w = base(words[i] ?? '');
    if (!['sudo', 'env', 'command', 'exec', 'nohup', 'time', 'nice', 'builtin', 'xargs', 'timeout', 'doas'].includes(w))
      break;
    if (w === 'xargs') viaXargs = true;
    // `command -v rm` only looks the command up.
    if (w === 'command' && /^-[vV]$/.test(words[i + 1] ?? '')) return { name: 'command', args: [], viaXargs };
    i++;
    while (i < words.length && words[i].startsWith('-')) {
      if (withValue[w]?.test(words[i])) i++;
      i++;
    }
    // timeout's first operand is the duration.
    if (w === 'timeout' && i < words.length) i++;
  }
  return { name: base(words[i] ?? '').replace(/^\\/, ''), args: words.slice(i + 1), viaXargs };
}

/** Operands of a command: the words that are not options (every word after `--`). */
function operands(args: string[]): string[] {
  const out: string[] = [];
  let opts = true;
  for (const a of args) {
    if (opts && a === '--') opts = false;
    else if (!opts || !a.startsWith('-') || a === '-') out.push(a);
  }
  return out;
}

/** Whether a short-option cluster (`-rf`) or a long option (`--recursive`) is present. */
const hasFlag = (args: string[], short: string, long?: string): boolean =>
  args.some(
    (a) =>
      (long !== undefined && (a === long || a.startsWith(`${long}=`))) ||
      (/^-[A-Za-z]+$/.test(a) && new RegExp(`[${short}]`).test(a.slice(1))),
  );

/** Path-like words of the commands a segment is piped from, as the possible targets of `... | xargs rm`. */
function pipedWords(seg: Segment, cwd: string | undefined): string[] {
  const out: string[] = [];
  for (let s = seg.pipedFrom; s; s = s.pipedFrom) out.push(...operands(s.words.slice(1)).map((w) => relative(w, cwd)));
  return out;
}

function deletion(kind: string, targets: string[], recursive: boolean, text: string): Finding {
  const tests = targets.filter(isTestPath);
  if (tests.length)
    return finding('critical', 'destructive_command', `${kind} deletes tests (${tests.join(', ')})`, text);
  const roots = targets.filter((t) => ROOT_LIKE.test(t));
  if (recursive && roots.length)
    return finding('critical', 'destructive_command', `${kind} deletes everything under ${roots.join(', ')}`, text);
  const config = targets.filter((t) => isCiConfig(t) || isTestConfig(t));
  if (config.length)
    return finding(
      'high',
      'destructive_command',
      `${kind} deletes test or CI configuration (${config.join(', ')})`,
      text,
    );
  if (!targets.length)
    return finding('high', 'destructive_command', `${kind} deletes files it is given at run time`, text);
  if (recursive && targets.every(isRegenerable))
    return finding('medium', 'file_deletion', `${kind} deletes regenerable folders (${targets.join(', ')})`, text);
  if (recursive)
    return finding('high', 'destructive_command', `${kind} recursively deletes ${targets.join(', ')}`, text);
  return finding('medium', 'file_deletion', `${kind} deletes ${targets.join(', ')}`, text);
}

/** Operands of a command whose options in `withValue` take the next word as their value. */
function operandsSkipping(args: string[], withValue: RegExp): string[] {
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--') return [...operands(rest), ...args.slice(i + 1)];
    if (withValue.test(args[i])) i++;
    else rest.push(args[i]);
  }
  return operands(rest);
}

/** Files a command writes in place: sed/perl -i, tee, truncate, cp/mv/install destinations, dd of=. */
function writtenFiles(name: string, args: string[]): string[] {
  const inPlace = args.some((a) => /^(-[A-Za-z]*i|--in-place)/.test(a));
  if (name === 'sed' && inPlace) {
    const ops = operandsSkipping(args, /^(-e|--expression|-f|--file|-l|--line-length)$/);
    // Without -e/-f the first operand is the sed script itself.
    const scripted = args.some((a) => /^(-e|--expression|-f|--file)(=|$)/.test(a));
    return scripted ? ops : ops.slice(1);
  }
  if (name === 'perl' && inPlace) return operandsSkipping(args, /^-[A-Za-z]*[eEIMx]$/);
  const ops = operands(args);
  if (name === 'tee') return ops;
  if (name === 'truncate') return operandsSkipping(args, /^(-s|-r|--size|--reference)$/);
  if ((name === 'cp' || name === 'mv' || name === 'install' || name === 'ln') && ops.length >= 2)
    return [ops[ops.length - 1]];
  if (name === 'dd') return args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3));
  return [];
}

function fileWrites(files: string[], text: string, cwd: string | undefined): Finding[] {
  const out: Finding[] = [];
  for (const raw of files) {
    if (raw === '/dev/null' || /^\/dev\/(stdout|stderr|fd\/\d+)$/.test(raw)) continue;
    const f = relative(raw, cwd);
    if (isTestFile(f)) out.push(finding('high', 'test_edit', `the command writes the test file ${f}`, text));
    else if (isCiConfig(f))
      out.push(finding('high', 'ci_config_edit', `the command writes CI configuration ${f}`, text));
    else if (isTestConfig(f))
      out.push(finding('high', 'test_config_edit', `the command writes test configuration ${f}`, text));
  }
  return out;
}

/** The git subcommand and its arguments, past git's own options (`-C dir`, `-c k=v`, `--no-pager`...). */
function gitSub(args: string[]): { sub: string; rest: string[] } {
  let i = 0;
  while (i < args.length && args[i].startsWith('-'))
    i += /^(-C|-c|--git-dir|--work-tree|--namespace)$/.test(args[i]) ? 2 : 1;
  return { sub: args[i] ?? '', rest: args.slice(i + 1) };
}

function classifyGit(args: string[], text: string, cwd: string | undefined): Finding[] {
  const { sub, rest } = gitSub(args);
  const ops = operands(rest);
  const paths = (): string[] => ops.map((o) => relative(o, cwd));
  switch (sub) {
    case 'push': {
      const force =
        hasFlag(rest, 'f', '--force') ||
        rest.some((a) => a.startsWith('--force-with-lease') || a === '--mirror') ||
        ops.slice(1).some((r) => r.startsWith('+'));
      if (force) return [finding('critical', 'destructive_command', 'a force push rewrites the remote history', text)];
      if (hasFlag(rest, 'd', '--delete') || ops.slice(1).some((r) => r.startsWith(':')))
        return [finding('high', 'destructive_command', 'the push deletes a remote branch', text)];
      return [finding('low', 'git_push', 'the command pushes to a remote', text)];
    }
    case 'rm': {
      const tests = paths().filter(isTestPath);
      if (tests.length)
        return [finding('critical', 'destructive_command', `git rm removes tests (${tests.join(', ')})`, text)];
      return [finding('high', 'destructive_command', `git rm removes ${paths().join(', ') || 'files'}`, text)];
    }
    case 'reset':
      return rest.includes('--hard')
        ? [finding('high', 'destructive_command', 'git reset --hard discards uncommitted changes', text)]
        : [];
    case 'clean':
      return hasFlag(rest, 'f', '--force') && !hasFlag(rest, 'n', '--dry-run')
        ? [finding('high', 'destructive_command', 'git clean deletes untracked files', text)]
        : [];
    case 'checkout': {
      const dashdash = rest.includes('--');
      if (hasFlag(rest, 'f', '--force') || ops.includes('.') || (dashdash && ops.length))
        return [finding('high', 'destructive_command', 'git checkout discards uncommitted changes', text)];
      return [];
    }
    case 'restore': {
      if (rest.includes('--staged') && !rest.some((a) => a === '--worktree' || a === '-W')) return [];
      const everything = ops.some((o) => ROOT_LIKE.test(o));
      return [
        finding(
          everything ? 'high' : 'medium',
          everything ? 'destructive_command' : 'file_deletion',
          `git restore discards uncommitted changes to ${ops.join(', ') || 'files'}`,
          text,
        ),
      ];
    }
    case 'stash':
      return ops[0] === 'drop' || ops[0] === 'clear'
        ? [finding('high', 'destructive_command', `git stash ${ops[0]} deletes stashed work`, text)]
        : [];
    case 'branch':
      return rest.includes('-D') || (hasFlag(rest, 'd', '--delete') && hasFlag(rest, 'f', '--force'))
        ? [finding('high', 'destructive_command', 'the command force-deletes a branch', text)]
        : [];
    case 'commit': {
      const out: Finding[] = [];
      if (rest.includes('--no-verify') || hasFlag(rest, 'n'))
        out.push(finding('medium', 'check_bypass', 'the commit skips the pre-commit hooks', text));
      if (rest.includes('--amend'))
        out.push(finding('low', 'git_history', 'the commit rewrites the last commit', text));
      return out;
    }
    case 'filter-branch':
    case 'filter-repo':
      return [finding('high', 'destructive_command', `git ${sub} rewrites the whole history`, text)];
    case 'mv': {
      const from = paths().slice(0, -1).filter(isTestPath);
      return from.length ? [finding('high', 'test_edit', `the command moves tests (${from.join(', ')})`, text)] : [];
    }
    default:
      return [];
  }
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);

function classifySegment(seg: Segment, cwd: string | undefined, depth: number): Finding[] {
  const { name, args, viaXargs } = unwrap(seg.words);
  const text = seg.text;
  const out = fileWrites(seg.redirects, text, cwd);
  const rel = (ws: string[]): string[] => ws.map((w) => relative(w, cwd));
  if (name === 'rm' || name === 'unlink' || name === 'shred') {
    const recursive = name === 'rm' && hasFlag(args, 'rR', '--recursive');
    const given = rel(operands(args));
    // Without operands rm deletes nothing, unless xargs hands it the output of the commands piped into it.
    // Its targets then are unknown: only test paths named upstream (`find test | xargs rm`) say what they are.
    if (given.length || viaXargs)
      out.push(deletion(name, given.length ? given : pipedWords(seg, cwd).filter(isTestPath), recursive, text));
  } else if (name === 'find' && args.some((a) => a === '-delete' || a === '-exec' || a === '-execdir')) {
    const execRm = args.some((a, i) => (a === '-exec' || a === '-execdir') && base(args[i + 1] ?? '') === 'rm');
    if (args.includes('-delete') || execRm) {
      const starts = rel(
        args.slice(
          0,
          Math.max(
            0,
            args.findIndex((a) => /^[-(!]/.test(a)),
          ),
        ),
      );
      const names = args.filter((_, i) => /^-i?(name|path|wholename)$/.test(args[i - 1] ?? ''));
      const tests = [...starts, ...names].filter(isTestPath);
      if (tests.length) out.push(deletion('find', tests, true, text));
      else if (!names.length) out.push(deletion('find', starts.length ? starts : ['.'], true, text));
      else out.push(finding('high', 'destructive_command', `find deletes files matching ${names.join(', ')}`, text));
    }
  } else if (name === 'git') {
    out.push(...classifyGit(args, text, cwd));
  } else if ((SHELLS.has(name) || name === 'eval') && depth < 3) {
    const i = args.findIndex((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a));
    const script = name === 'eval' ? args.join(' ') : i >= 0 ? args[i + 1] : undefined;
    if (script) out.push(...classifyCommand(script, cwd, depth + 1));
  } else if (name === 'mv') {
    const ops = rel(operands(args));
    const moved = ops.slice(0, -1).filter(isTestPath);
    if (moved.length && !isTestPath(ops[ops.length - 1] ?? ''))
      out.push(
        finding('high', 'test_edit', `the command moves tests out of the test tree (${moved.join(', ')})`, text),
      );
  }
  out.push(...fileWrites(writtenFiles(name, args), text, cwd));
  return out;
}

function classifyCommand(command: string, cwd: string | undefined, depth = 0): Finding[] {
  const { segments, nested } = lex(command);
  const out = segments.flatMap((s) => classifySegment(s, cwd, depth));
  if (depth < 3) for (const n of nested) out.push(...classifyCommand(n, cwd, depth + 1));
  return out;
}

/**
 * Judges one tool call. Write/Edit/MultiEdit/NotebookEdit by the file they change (`file_path`, `notebook_path`):
 * test files are `test_edit` high (critical when the call empties the file or removes test declarations), CI
 * pipelines `ci_config_edit` high, test-runner and coverage configuration `test_config_edit` high (an Edit of
 * package.json/pyproject.toml that touches no test, lint or coverage setting is only `config_edit` medium), other
 * build scripts `script_edit` medium. Bash by its `command`, split into simple commands at `&&`, `||`, `;`, `|`
 * (and inside `$(...)`, backticks, `sh -c`, `eval`), the worst one deciding: `rm` of tests (`rm test/a.test.ts`,
 * `rm -rf test`), `rm -r` of `/`, `.`, `*` or `~`, `git rm` of tests and any force push are critical; other
 * recursive deletions, `git rm`, `git reset --hard`, `git clean -f`, `git checkout -- <paths>`/`.`, and shell writes
 * to tests or test/CI configuration (`>`, `sed -i`, `tee`, `cp`) are high; `rm -rf` of regenerable folders only
 * (`node_modules`, `dist`, `coverage`...) and plain file deletions are medium. Everything else, reads included, is
 * `none`.
 */
export function classifyToolCall(c: ToolCall, opts: ClassifyOptions = {}): RiskAssessment {
  if (FILE_TOOLS.has(c.tool)) return classifyFileTool(c, opts.cwd);
  const patched = patchCalls(c);
  if (c.tool === 'Bash') {
    const command = typeof c.input.command === 'string' ? c.input.command : '';
    const none: RiskAssessment = { risk: 'none', category: 'command', reasons: [], target: command || undefined };
    return mostSerious([
      assess(classifyCommand(command, opts.cwd), none),
      ...patched.map((p) => classifyToolCall(p, opts)),
    ]);
  }
  if (c.tool === 'apply_patch') return mostSerious(patched.map((p) => classifyToolCall(p, opts)));
  return { risk: 'none', category: 'other', reasons: [] };
}

/** The most serious of some assessments (the first of equals); `file_edit` of nothing for none. */
function mostSerious(all: RiskAssessment[]): RiskAssessment {
  const worst = [...all].sort((a, b) => RISK_LEVELS.indexOf(b.risk) - RISK_LEVELS.indexOf(a.risk))[0];
  return worst ?? { risk: 'none', category: 'file_edit', reasons: [] };
}

/** The text of a patch a call applies: Codex's `apply_patch` tool, or a shell command that runs `apply_patch`. */
export function patchText(c: ToolCall): string | undefined {
  const command = typeof c.input.command === 'string' ? c.input.command : undefined;
  const input = typeof c.input.input === 'string' ? c.input.input : undefined;
  if (c.tool === 'apply_patch') return command ?? input;
  return c.tool === 'Bash' && command ? patchOfCommand(command) : undefined;
}

/**
 * The file tool calls a patch amounts to: an added file is a Write, an update a MultiEdit of its hunks (on the file it
 * moves to, after a `mv`), a deleted file an `rm`. [] for a call that applies no patch.
 */
export function patchCalls(c: ToolCall): ToolCall[] {
  const text = patchText(c);
  if (!text) return [];
  return parsePatch(text).flatMap((f): ToolCall[] => {
    if (f.kind === 'add') return [{ tool: 'Write', input: { file_path: f.path, content: f.content } }];
    if (f.kind === 'delete') return [{ tool: 'Bash', input: { command: `rm -- ${shellWord(f.path)}` } }];
    const edits = f.hunks.map((h) => ({ old_string: h.old.join('\n'), new_string: h.new.join('\n') }));
    const edit: ToolCall = { tool: 'MultiEdit', input: { file_path: f.moveTo ?? f.path, edits } };
    return f.moveTo
      ? [{ tool: 'Bash', input: { command: `mv -- ${shellWord(f.path)} ${shellWord(f.moveTo)}` } }, edit]
      : [edit];
  });
}

const shellWord = (p: string): string => (/^[A-Za-z0-9_./@%+=:,-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`);

/** A file a tool call writes or deletes, workspace-relative when it is under the workspace. */
export interface TouchedPath {
  path: string;
  action: 'write' | 'delete';
}

function touchedBySegment(seg: Segment, cwd: string | undefined, depth: number): TouchedPath[] {
  const { name, args } = unwrap(seg.words);
  const rel = (ws: string[]): string[] => ws.map((w) => relative(w, cwd));
  const out: TouchedPath[] = rel(seg.redirects)
    .filter((f) => !/^\/dev\//.test(f))
    .map((f) => ({ path: f, action: 'write' as const }));
  const del = (ps: string[]) => out.push(...ps.map((p) => ({ path: p, action: 'delete' as const })));
  if (name === 'rm' || name === 'unlink' || name === 'shred') del(rel(operands(args)));
  else if (name === 'git') {
    const { sub, rest } = gitSub(args);
    const ops = rel(operands(rest));
    if (sub === 'rm') del(ops);
    else if (sub === 'mv' && ops.length >= 2) {
      del(ops.slice(0, -1));
      out.push({ path: ops[ops.length - 1], action: 'write' });
    } else if (sub === 'checkout' || sub === 'restore') {
      const dd = rest.indexOf('--');
      if (dd >= 0) out.push(...rel(rest.slice(dd + 1)).map((p) => ({ path: p, action: 'write' as const })));
    }
  } else if (name === 'mv') {
    const ops = rel(operands(args));
    if (ops.length >= 2) del(ops.slice(0, -1));
  } else if ((SHELLS.has(name) || name === 'eval') && depth < 3) {
    const i = args.findIndex((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a));
    const script = name === 'eval' ? args.join(' ') : i >= 0 ? args[i + 1] : undefined;
    if (script) out.push(...touchedByCommand(script, cwd, depth + 1));
  }
  out.push(...rel(writtenFiles(name, args)).map((p) => ({ path: p, action: 'write' as const })));
  return out;
}

function touchedByCommand(command: string, cwd: string | undefined, depth = 0): TouchedPath[] {
  const { segments, nested } = lex(command);
  const out = segments.flatMap((s) => touchedBySegment(s, cwd, depth));
  if (depth < 3) for (const n of nested) out.push(...touchedByCommand(n, cwd, depth + 1));
  return out;
}

/**
 * The files a tool call writes or deletes, as far as its input says: the `file_path` of Write/Edit/MultiEdit and the
 * `notebook_path` of NotebookEdit; for Bash, the files its commands delete (`rm`, `unlink`, `git rm`, the sources of
 * `mv`), write (redirections, `sed -i`, `tee`, `cp`/`mv` destinations, `git checkout -- <paths>`), inside `sh -c`,
 * `eval` and `$(...)` too. Globs and variables are returned as written. Each path once, in order.
 */
export function touchedPaths(c: ToolCall, opts: ClassifyOptions = {}): TouchedPath[] {
  let out: TouchedPath[] = [];
  if (FILE_TOOLS.has(c.tool)) {
    const raw = c.input.file_path ?? c.input.notebook_path;
    if (typeof raw === 'string' && raw) out = [{ path: relative(raw, opts.cwd), action: 'write' }];
  } else if (c.tool === 'Bash' && typeof c.input.command === 'string')
    out = touchedByCommand(c.input.command, opts.cwd);
  // A patch (Codex): the files its calls write and delete (a moved file: deleted where it was, written where it goes).
  for (const p of patchCalls(c)) out.push(...touchedPaths(p, opts));
  const seen = new Set<string>();
  return out.filter((t) => {
    const k = `${t.action}:${t.path}`;
    if (seen.has(k) || !t.path) return false;
    seen.add(k);
    return true;
  });
}

/** A hook's answer: let the call run, let it run with a warning for the agent, or stop it. */
export interface HookResponse {
  decision: 'allow' | 'warn' | 'deny';
  /** For the agent (warn, deny). */
  message?: string;
}

const WARN_BEFORE: Record<string, (target: string) => string> = {
  test_edit: (t) => `You are about to modify test file ${t}. Verify this is a fix, not a deletion or weakening.`,
  test_config_edit: (t) =>
    `You are about to modify test configuration ${t}. Do not exclude tests, skip checks or lower thresholds.`,
  ci_config_edit: (t) => `You are about to modify CI configuration ${t}. Do not make failing checks pass or skip them.`,
  destructive_command: (t) =>
    `You are about to run a destructive command: \`${t}\`. Make sure it deletes no tests and no work you need.`,
};

const WARN_AFTER: Record<string, (target: string) => string> = {
  test_edit: (t) =>
    `You modified test file ${t}. Check that no test or assertion was removed or weakened: ralph compares the tests after each iteration.`,
  test_config_edit: (t) =>
    `You modified test configuration ${t}. Check that no test is excluded and no threshold lowered: ralph checks this after each iteration.`,
  ci_config_edit: (t) => `You modified CI configuration ${t}. Check that every check still runs and can still fail.`,
  destructive_command: (t) =>
    `You ran a destructive command: \`${t}\`. Check that no test or needed work was deleted; restore it if so.`,
};

const clip = (s: string, n = 300): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The hook's answer to an assessed call. Before the call (`pre-tool-use`): deny when the risk is critical and the
 * policy is `deny`; warn for high and critical otherwise ("⚠️ You are about to modify test file test/x.test.ts.
 * Verify this is a fix, not a deletion or weakening."); allow below high. After it (`post-tool-use`) nothing can be
 * denied any more: high and critical calls get a warning to check what they did.
 */
export function hookResponse(
  event: 'pre-tool-use' | 'post-tool-use',
  a: RiskAssessment,
  policy: 'warn' | 'deny',
): HookResponse {
  if (!riskAtLeast(a.risk, 'high')) return { decision: 'allow' };
  const target = clip(a.target ?? 'this file');
  const why = a.reasons.length ? ` (${a.reasons.join('; ')})` : '';
  if (event === 'pre-tool-use' && a.risk === 'critical' && policy === 'deny')
    return {
      decision: 'deny',
      message:
        `⛔ Blocked by ralph: ${a.category === 'test_edit' ? `this edit of ${target}` : `\`${target}\``} is a critical-risk action${why}. ` +
        'Deleting tests or rewriting history is not allowed here: fix the code instead, or explain in your answer why this is needed so a human can decide.',
    };
  const text = (event === 'pre-tool-use' ? WARN_BEFORE : WARN_AFTER)[a.category];
  const message = text
    ? `⚠️ ${text(target)}${a.risk === 'critical' ? ` Critical risk${why}.` : ''}`
    : `⚠️ This action is ${a.risk}-risk${why}.`;
  return { decision: 'warn', message };
}

/** Claude Code tools the hooks watch: the file-writing tools and the shell. */
export const HOOK_TOOL_MATCHER = 'Write|Edit|MultiEdit|NotebookEdit|Bash';
