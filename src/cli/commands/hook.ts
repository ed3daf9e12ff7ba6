#!/usr/bin/env node
/**
 * `ralph hook pre-tool-use|post-tool-use`: Claude Code's PreToolUse/PostToolUse hook. Reads the hook input (JSON on
 * stdin), judges the tool call's risk (core/risk), and for a loop's agent (RALPH_LOOP_ID set) appends it to the
 * loop's audit log and, before a high-risk call, takes a rollback checkpoint. After a call, blocks a change to a test
 * or check file that the loop would reject (in-iteration correction, cli/hook-correction). Answers in Claude Code's
 * hook JSON.
 *
 * Also runnable on its own (`node dist/src/cli/commands/hook.js <event>`), which is what loops install: it loads only
 * the hook's modules, not the whole CLI with the Temporal client (~0.2 s per tool call instead of ~1.1 s).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Command } from 'commander';
import fs from 'node:fs';
import os from 'node:os';
import { applyUpdate, parsePatch, type PatchFile } from '../../core/apply-patch';
import {
  classifyToolCall,
  HOOK_TOOL_MATCHER,
  hookResponse,
  patchText,
  riskAtLeast,
  touchedPaths,
  type HookResponse,
  type TouchedPath,
} from '../../core/risk';
import { protectedHits, protectedHookMessage, type ProtectedHit } from '../../core/verification/hook-rules';
import { compareSections } from '../../core/verification/sections';
import { appendAudit, reserveRiskCheckpoint, type AuditEntry } from '../../state/audit';
import { appendHookLog, type HookLogEntry } from '../../state/hook-log';
import { spoolHookEntry } from '../../state/hook-spool';
import { readManifest, type VerificationManifest } from '../../state/manifest';
import { IN_ITERATION_BLOCK, isWatchedFile } from '../../core/verification/watched';
import type { Correction, HookToolCall } from '../hook-correction';

/** The two hook events, as `ralph hook` spells them. */
export const HOOK_EVENTS = ['pre-tool-use', 'post-tool-use'] as const;
/** A hook event: before or after a tool call. */
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Where a hook run logs and checkpoints, read from the agent's environment (RALPH_*). */
export interface HookContext {
  /** RALPH_LOOP_ID: without it the hook answers but logs nothing. */
  loopId?: string;
  /** RALPH_STATE_DIR; `<workspace>/.ralph` when unset. */
  stateDir?: string;
  /** RALPH_ITERATION (1-based); 0 when unset. */
  iteration: number;
  /** RALPH_WORKSPACE; the hook input's `cwd` when unset. */
  workspace?: string;
  /** RALPH_HOOK_POLICY: `deny` blocks critical calls, `warn` (default) only warns. */
  policy: 'warn' | 'deny';
  /**
   * RALPH_HOOK_SPOOL: set when the agent runs in the sandbox, where the state folder is read-only. Entries go to this
   * file (the worker moves them into the logs after the run) and no rollback checkpoint is taken (the run's pre-run
   * checkpoint covers it).
   */
  spool?: string;
}

/** What one hook run produced: the JSON for Claude Code, the audit entry it logged, notes for stderr. */
export interface HookRunResult {
  output: Record<string, unknown>;
  entry?: AuditEntry;
  notes: string[];
}

/** Reads the hook's context from an environment; problems with it become notes, never errors. */
export function hookContextFromEnv(env: NodeJS.ProcessEnv, notes: string[] = []): HookContext {
  const policy = env.RALPH_HOOK_POLICY?.trim().toLowerCase();
  if (policy && policy !== 'warn' && policy !== 'deny')
    notes.push(`RALPH_HOOK_POLICY must be warn or deny, got "${env.RALPH_HOOK_POLICY}": using warn`);
  const iteration = Number(env.RALPH_ITERATION ?? '0');
  if (env.RALPH_ITERATION !== undefined && !(Number.isInteger(iteration) && iteration >= 0))
    notes.push(`RALPH_ITERATION must be a positive integer, got "${env.RALPH_ITERATION}": using 0`);
  return {
    loopId: env.RALPH_LOOP_ID || undefined,
    stateDir: env.RALPH_STATE_DIR || undefined,
    iteration: Number.isInteger(iteration) && iteration >= 0 ? iteration : 0,
    workspace: env.RALPH_WORKSPACE || undefined,
    policy: policy === 'deny' ? 'deny' : 'warn',
    spool: env.RALPH_HOOK_SPOOL || undefined,
  };
}

/**
 * The hook's answer in Claude Code's format. Deny: `permissionDecision: "deny"` with the reason, which Claude sees.
 * Warn before a call: the message as `additionalContext` (for the model) and `systemMessage` (for the user), and no
 * `permissionDecision` at all: `"allow"` would bypass the permission system (approving a Bash command the user's
 * allowedTools never allowed) and its reason is not shown to the model. Warn after a call: `additionalContext`.
 * Allow: `{}`.
 */
export function claudeHookOutput(event: HookEvent, r: HookResponse): Record<string, unknown> {
  if (r.decision === 'allow' || !r.message) return {};
  if (event === 'post-tool-use')
    return { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: r.message } };
  if (r.decision === 'deny')
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: r.message,
      },
    };
  return {
    systemMessage: r.message,
    hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: r.message },
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
/** An error's message on one line, clipped: notes and the audit log stay one line per problem. */
const oneLine = (e: unknown): string =>
  String((e as Error)?.message ?? e)
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 500);

/**
 * Runs the hook on one hook input (`stdin`, Claude Code's JSON: `tool_name`, `tool_input`, `cwd`, `session_id`...).
 * Never throws: bad input answers `{}` with a note; a checkpoint or log that fails is noted (and the checkpoint error
 * recorded in the entry) while the answer still goes out, since a hook problem must never break the agent.
 *
 * After a call that changed a test, test/CI configuration or protected file in a way the loop rejects (a deleted
 * test, an added skip, a weakened assertion, a lowered threshold), the answer is Claude Code's PostToolUse
 * `{"decision": "block", "reason": ...}`: the agent reads the reason at once and can undo the change in the same
 * iteration (in-iteration correction; the audit entry's category is `in_iteration_block`).
 */
export async function runHook(event: HookEvent, stdin: string, env: NodeJS.ProcessEnv): Promise<HookRunResult> {
  const t0 = Date.now();
  const notes: string[] = [];
  const payload = parsePayload(stdin, notes);
  if (!payload) return { output: {}, notes };
  const ctx = hookContextFromEnv(env, notes);
  const call = toolCallOf(payload);
  const workspace = ctx.workspace ?? (typeof payload.cwd === 'string' ? payload.cwd : undefined);
  const assessment = classifyToolCall(call, { cwd: workspace });
  const manifest = loopManifest(ctx, workspace, notes);
  const guard = manifest && protectedGuard(event, call, manifest, workspace ?? manifest.workspace);
  // A denied call is not made: nothing to stash for it, nothing to judge after it.
  const correction =
    guard?.response.decision === 'deny' ? undefined : inIteration(event, call, ctx, manifest, workspace, notes);
  const response = guard?.response ?? hookResponse(event, assessment, ctx.policy);
  const decision = correction ? 'block' : response.decision;
  const output = correction
    ? { decision: 'block', reason: correction.reason }
    : (isGemini(payload) ? geminiHookOutput : claudeHookOutput)(event, response);
  const hookLog = (): void =>
    logHookCall(ctx, workspace, notes, {
      at: new Date(t0).toISOString(),
      loopId: ctx.loopId ?? '',
      iteration: ctx.iteration,
      type: 'hook',
      name: `${event} ${call.tool}`,
      outcome: decision,
      durationMs: Date.now() - t0,
      detail: `risk ${assessment.risk}${assessment.target ? `: ${assessment.target}` : ''}`,
    });
  if (assessment.risk === 'none' && !guard && !correction) {
    hookLog();
    return { output, notes };
  }
  if (!ctx.loopId) {
    notes.push('RALPH_LOOP_ID is not set: the call is judged but not logged and no checkpoint is taken');
    return { output, notes };
  }
  const stateDir = path.resolve(ctx.stateDir ?? path.join(workspace ?? '.', '.ralph'));
  const entry = auditEntry(event, payload, ctx.loopId, ctx.iteration, { assessment, guard, correction, decision });
  if (event === 'pre-tool-use' && riskAtLeast(assessment.risk, 'high') && response.decision !== 'deny')
    await riskCheckpoint(ctx, workspace, stateDir, entry, notes);
  try {
    if (ctx.spool) spoolHookEntry(ctx.spool, { kind: 'audit', entry });
    else await appendAudit(stateDir, ctx.loopId, entry);
  } catch (e) {
    notes.push(`could not append to the audit log: ${oneLine(e)}`);
  }
  hookLog();
  return { output, entry, notes };
}

/** The hook input as an object; undefined (with a note) when stdin is not a JSON object. */
function parsePayload(stdin: string, notes: string[]): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(stdin);
    if (!isRecord(parsed)) throw new Error('not a JSON object');
    return parsed;
  } catch (e) {
    notes.push(`could not read the hook input on stdin (${oneLine(e)}): allowing the call`);
    return undefined;
  }
}

/** The tool call of a hook input: name, input, PostToolUse response, id. */
function toolCallOf(payload: Record<string, unknown>): HookToolCall {
  const call: HookToolCall = {
    tool: typeof payload.tool_name === 'string' ? payload.tool_name : '',
    input: isRecord(payload.tool_input) ? payload.tool_input : {},
    response: isRecord(payload.tool_response) ? payload.tool_response : undefined,
    toolUseId: typeof payload.tool_use_id === 'string' ? payload.tool_use_id : undefined,
  };
  return isGemini(payload) ? geminiCall(payload, call) : call;
}

/** Gemini CLI's hook input (`BeforeTool`/`AfterTool`), not Claude Code's or Codex's (`PreToolUse`/`PostToolUse`). */
const isGemini = (payload: Record<string, unknown>): boolean =>
  payload.hook_event_name === 'BeforeTool' || payload.hook_event_name === 'AfterTool';

/** Gemini's tools as the Claude Code tools they are: the rest of the hook knows those. */
const GEMINI_TOOLS: Record<string, string> = { write_file: 'Write', replace: 'Edit', run_shell_command: 'Bash' };

/**
 * A Gemini CLI call in Claude Code's terms: `write_file` is a Write, `replace` an Edit (`allow_multiple`: all
 * occurrences), `run_shell_command` a Bash call; a relative `file_path` is resolved against the hook's `cwd`; the
 * text before an edit (`tool_response.returnDisplay.originalContent`) is Claude's `originalFile`. Gemini sends no
 * call id: the session and the call's input pair a BeforeTool with its AfterTool (for the shell stash).
 */
function geminiCall(payload: Record<string, unknown>, call: HookToolCall): HookToolCall {
  const tool = GEMINI_TOOLS[call.tool] ?? call.tool;
  const input = { ...call.input };
  const cwd = typeof payload.cwd === 'string' ? payload.cwd : undefined;
  if (typeof input.file_path === 'string' && cwd) input.file_path = path.resolve(cwd, input.file_path);
  if (tool === 'Edit' && input.allow_multiple === true) input.replace_all = true;
  const display = call.response && isRecord(call.response.returnDisplay) ? call.response.returnDisplay : undefined;
  const response = display
    ? display.isNewFile === true
      ? { type: 'create' }
      : typeof display.originalContent === 'string'
        ? { originalFile: display.originalContent }
        : {}
    : undefined;
  const session = typeof payload.session_id === 'string' ? payload.session_id : '';
  const toolUseId = `gemini-${createHash('sha256')
    .update(`${session}\0${call.tool}\0${JSON.stringify(call.input)}`)
    .digest('hex')
    .slice(0, 24)}`;
  return { tool, input, response, toolUseId };
}

/**
 * The hook's answer in Gemini CLI's format: it reads only a top-level `decision` (`deny` before a call, `block` after
 * it: the model gets the reason as the tool's error) and, after a call, `hookSpecificOutput.additionalContext`; a
 * warning before a call has no place it reaches the model.
 */
export function geminiHookOutput(event: HookEvent, r: HookResponse): Record<string, unknown> {
  if (r.decision === 'allow' || !r.message) return {};
  if (event === 'pre-tool-use') return r.decision === 'deny' ? { decision: 'deny', reason: r.message } : {};
  return { hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: r.message } };
}

/** The audit entry of a judged call: the protected guard's or the correction's view when there is one. */
function auditEntry(
  event: HookEvent,
  payload: Record<string, unknown>,
  loopId: string,
  iteration: number,
  j: {
    assessment: ReturnType<typeof classifyToolCall>;
    guard?: { hits: ProtectedHit[] };
    correction?: Correction;
    decision: AuditEntry['decision'];
  },
): AuditEntry {
  const { assessment: a, guard, correction: c } = j;
  const guarded = guard ? (riskAtLeast(a.risk, 'high') ? a.risk : 'high') : a.risk;
  return {
    at: new Date().toISOString(),
    loopId,
    iteration,
    event,
    tool: typeof payload.tool_name === 'string' ? payload.tool_name : '',
    target: c ? c.files.join(', ') : guard ? guard.hits.map((h) => h.path).join(', ') : a.target,
    risk: c ? 'critical' : guarded,
    category: c ? IN_ITERATION_BLOCK : guard ? 'protected_edit' : a.category,
    reasons: c
      ? c.detections.map(
          (d) => `${d.type}: ${d.details}${d.evidence.length ? ` (${d.evidence.slice(0, 3).join('; ')})` : ''}`,
        )
      : guard
        ? [...guard.hits.map((h) => `${h.path} is protected (${h.kind})`), ...a.reasons]
        : a.reasons,
    decision: j.decision,
    toolUseId: typeof payload.tool_use_id === 'string' ? payload.tool_use_id : undefined,
    sessionId: typeof payload.session_id === 'string' ? payload.session_id : undefined,
  };
}

/** Takes the rollback checkpoint before a high-risk call (not in the sandbox: its pre-run checkpoint covers it). */
async function riskCheckpoint(
  ctx: HookContext,
  workspace: string | undefined,
  stateDir: string,
  entry: AuditEntry,
  notes: string[],
): Promise<void> {
  if (ctx.spool) {
    notes.push(
      'sandboxed run: no rollback checkpoint (the state folder is read-only here); the pre-run checkpoint covers the run',
    );
    return;
  }
  try {
    if (!workspace) throw new Error('no workspace: set RALPH_WORKSPACE');
    const label = await reserveRiskCheckpoint(stateDir, entry.loopId, ctx.iteration);
    entry.checkpoint = label;
    // Loaded only here: most tool calls need no checkpoint, and git/execa cost start-up time.
    const { createCheckpoint } =
      require('../../activities/workspace/checkpoint') as typeof import('../../activities/workspace/checkpoint');
    // This process ends after the call: no later checkpoint of it could reuse a listing of the tree.
    await createCheckpoint({ workspace, stateDir, loopId: entry.loopId, label }, { listTree: false });
  } catch (e) {
    entry.checkpointError = oneLine(e);
    notes.push(`rollback checkpoint failed: ${entry.checkpointError}`);
  }
}

/** The loop's verification manifest (undefined without a loop, without one, or when it cannot be read: noted). */
function loopManifest(
  ctx: HookContext,
  workspace: string | undefined,
  notes: string[],
): VerificationManifest | undefined {
  if (!ctx.loopId) return undefined;
  try {
    return readManifest(path.resolve(ctx.stateDir ?? path.join(workspace ?? '.', '.ralph')), ctx.loopId);
  } catch (e) {
    notes.push(`could not read the verification manifest: ${oneLine(e)}`);
    return undefined;
  }
}

/**
 * In-iteration correction: before a Bash call, stashes the watched files it is about to change; after any call,
 * judges the watched files it changed. Loads the detectors only when the call touches a watched file. A failure is a
 * note, never a block.
 */
function inIteration(
  event: HookEvent,
  call: HookToolCall,
  ctx: HookContext,
  manifest: VerificationManifest | undefined,
  workspace: string | undefined,
  notes: string[],
): Correction | undefined {
  // Before a shell command or a patch (Codex), the files it will change are stashed: after it, nothing tells their text.
  if (!workspace || (event === 'pre-tool-use' && call.tool !== 'Bash' && call.tool !== 'apply_patch')) return undefined;
  const protectedPaths = manifest ? new Set(manifest.protected.map((e) => e.path)) : undefined;
  const touched = touchedPaths(call, { cwd: workspace });
  // A shell deletion may take a folder of tests with it (`rm -rf test`): the stash lists what was in it.
  const relevant = (t: TouchedPath): boolean =>
    isWatchedFile(t.path.replace(/^(\.\/)+/, ''), protectedPaths) || (call.tool === 'Bash' && t.action === 'delete');
  if (!touched.some(relevant)) return undefined;
  try {
    const c = require('../hook-correction') as typeof import('../hook-correction');
    const watched = c.watchedPaths(touched, protectedPaths);
    const cx = {
      workspace,
      iteration: ctx.iteration,
      task: manifest?.rules.task,
      protectedPaths,
      stashDir: stashDir(ctx, workspace),
    };
    if (event === 'pre-tool-use') {
      c.stashBeforeShell(call, touched, cx);
      return undefined;
    }
    return c.checkToolChange(call, watched, cx);
  } catch (e) {
    notes.push(`in-iteration check failed (the call is allowed): ${oneLine(e)}`);
    return undefined;
  }
}

/** Where Bash stashes go: next to the spool in the sandbox, else under the loop's folder (or the temp folder). */
function stashDir(ctx: HookContext, workspace: string): string {
  if (ctx.spool) return path.join(path.dirname(ctx.spool), 'hook-stash');
  if (!ctx.loopId) return path.join(os.tmpdir(), 'ralph-hook-stash');
  return path.join(path.resolve(ctx.stateDir ?? path.join(workspace, '.ralph')), 'loops', ctx.loopId, 'hook-stash');
}

/** Appends a call to the hook log (or, in the sandbox, to the spool); a failure becomes a note. */
function logHookCall(ctx: HookContext, workspace: string | undefined, notes: string[], logged: HookLogEntry): void {
  if (!ctx.loopId) return;
  try {
    if (ctx.spool) spoolHookEntry(ctx.spool, { kind: 'hook-log', entry: logged });
    else appendHookLog(path.resolve(ctx.stateDir ?? path.join(workspace ?? '.', '.ralph')), [logged]);
  } catch (e) {
    notes.push(`could not append to the hook log: ${oneLine(e)}`);
  }
}

/**
 * Protected paths (the loop's verification manifest): a write, edit or delete of one is denied before the call (or
 * warned about, by the manifest's policy), and reported after it. An edit of a multi-purpose file (package.json,
 * tsconfig, pyproject.toml, setup.cfg) counts only when it changes its test, lint or strictness settings, and an edit
 * of a test file only when it does more than add cases or rename and move tests ({@link benignTestWrite}). Undefined
 * when the call touches nothing protected.
 */
function protectedGuard(
  event: HookEvent,
  call: HookToolCall,
  manifest: VerificationManifest,
  cwd: string,
): { hits: ProtectedHit[]; response: HookResponse } | undefined {
  const hits = touchedPaths(call, { cwd })
    .flatMap((t) => protectedHits(manifest, t))
    .filter((h) => h.kind !== 'sections' || h.action === 'delete' || changesSettings(call, cwd, h.path))
    .filter((h) => !benignTestWrite(event, call, h, cwd));
  if (!hits.length) return undefined;
  // A shell write to a multi-purpose file can't be judged before it runs: warn, don't deny.
  const onlyShellSections = call.tool === 'Bash' && hits.every((h) => h.kind === 'sections' && h.action === 'write');
  const decision = event === 'pre-tool-use' && manifest.hookPolicy === 'deny' && !onlyShellSections ? 'deny' : 'warn';
  return { hits, response: { decision, message: protectedHookMessage(event, hits, decision) } };
}

/** Whether a file tool's call changes the protected settings of a multi-purpose file (read from disk, edit applied). */
function changesSettings(call: HookToolCall, cwd: string, rel: string): boolean {
  const file = path.join(cwd, rel);
  const current = readText(file) ?? '';
  const next = proposedText(call, current, rel, cwd);
  // A shell command (but one that applies a patch) can't be judged before it runs: it counts.
  if (next === undefined) return call.tool === 'Bash' || call.tool === 'apply_patch';
  return compareSections(file, current, next).changed.length > 0;
}

/**
 * Whether a file tool's edit of a protected test file only adds cases or renames or moves tests, every existing test
 * and line kept (judgeTestEdit, the rule the verification accepts such edits by): honest work, accepted without a
 * human, so the hook neither denies nor warns about it (the original tests still judge the work). Before the call:
 * the file on disk against the edit applied; after it: the tool's `originalFile` against the file on disk. A shell
 * command, a new file or a delete is never judged so.
 */
function benignTestWrite(event: HookEvent, call: HookToolCall, hit: ProtectedHit, cwd: string): boolean {
  if (hit.kind !== 'test' || hit.action !== 'write' || hit.added) return false;
  if (call.tool === 'Bash' && !patchText(call)) return false;
  const disk = readText(path.join(cwd, hit.path));
  if (disk === undefined) return false;
  const before = event === 'pre-tool-use' ? disk : textBefore(call, disk, hit.path, cwd);
  const after = event === 'pre-tool-use' ? proposedText(call, disk, hit.path, cwd) : disk;
  if (before === undefined || after === undefined || before === after) return false;
  // Loaded only for a test file's edit: other calls pay nothing for the test extractor.
  const { judgeTestEdit } =
    require('../../core/verification/benign-test-edit') as typeof import('../../core/verification/benign-test-edit');
  return judgeTestEdit(hit.path, before, after).benign;
}

/**
 * The text a Write, Edit, MultiEdit or patch (Codex's apply_patch, or a shell command applying one) leaves of
 * `current`, the text of `rel` (workspace-relative); undefined for other tools, and for a patch that deletes or moves
 * the file or does not apply.
 */
function proposedText(call: HookToolCall, current: string, rel: string, cwd: string): string | undefined {
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  if (call.tool === 'Write') return str(call.input.content);
  if (call.tool === 'Edit' || call.tool === 'MultiEdit') {
    let next = current;
    const edits = Array.isArray(call.input.edits) ? (call.input.edits as Record<string, unknown>[]) : [call.input];
    for (const e of edits) {
      const from = str(e?.old_string);
      const to = str(e?.new_string);
      next = e?.replace_all === true ? next.split(from).join(to) : next.replace(from, () => to);
    }
    return next;
  }
  const f = patchFile(call, rel, cwd);
  if (f?.kind === 'add') return f.content;
  return f?.kind === 'update' && !f.moveTo ? applyUpdate(current, f.hunks) : undefined;
}

/** After a call: the text `rel` had before it (Claude's `originalFile`; a patch undone on `after`). */
function textBefore(call: HookToolCall, after: string, rel: string, cwd: string): string | undefined {
  const original = call.response?.originalFile;
  if (typeof original === 'string') return original;
  const f = patchFile(call, rel, cwd);
  return f?.kind === 'update' && !f.moveTo ? applyUpdate(after, f.hunks, true) : undefined;
}

/** The file of a call's patch that is `rel` (patch paths may be absolute or `./`-prefixed). */
function patchFile(call: HookToolCall, rel: string, cwd: string): PatchFile | undefined {
  const text = patchText(call);
  if (!text) return undefined;
  const norm = (p: string): string => path.relative(cwd, path.resolve(cwd, p)).split(path.sep).join('/');
  return parsePatch(text).find((f) => norm(f.path) === rel);
}

/** A file's text; undefined when it cannot be read. */
function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Runs one hook call as a process: stdin in, Claude Code's JSON on stdout, notes on stderr. Resolves in every case
 * and leaves the exit code 0: a hook that fails must not fail the agent's tool call.
 */
export async function hookMain(event: string | undefined): Promise<void> {
  const notes: string[] = [];
  let output: Record<string, unknown> = {};
  try {
    if (!HOOK_EVENTS.includes(event as HookEvent))
      notes.push(`unknown hook event "${event}": use pre-tool-use or post-tool-use`);
    else {
      const r = await runHook(event as HookEvent, await readStdin(), process.env);
      output = r.output;
      notes.push(...r.notes);
    }
  } catch (e) {
    notes.push(`unexpected error: ${(e as Error)?.stack ?? String(e)}`);
  }
  for (const n of notes) process.stderr.write(`ralph hook: ${n}\n`);
  process.stdout.write(JSON.stringify(output) + '\n');
}

const INSTALL_HELP = `
Reads Claude Code's hook input (JSON) on stdin and answers on stdout in Claude Code's hook format; the exit code is
always 0, even on bad input (a hook problem must never break the agent).

How it is installed:
  Loops with hooks enabled install it themselves: the claude-code adapter writes <iteration dir>/claude-settings.json
  and passes it with --settings; the scripted agent runs $RALPH_HOOK_COMMAND for its "hook" steps. To use it in your
  own Claude Code session, add to .claude/settings.json:
    {"hooks": {
      "PreToolUse":  [{"matcher": "${HOOK_TOOL_MATCHER}",
                       "hooks": [{"type": "command", "command": "ralph hook pre-tool-use"}]}],
      "PostToolUse": [{"matcher": "${HOOK_TOOL_MATCHER}",
                       "hooks": [{"type": "command", "command": "ralph hook post-tool-use"}]}]}}

Environment:
  RALPH_LOOP_ID      loop to log for; unset: the call is judged and answered, nothing is logged
  RALPH_STATE_DIR    state folder (default <workspace>/.ralph); log: <state>/loops/<loop>/audit.jsonl
  RALPH_ITERATION    iteration number, for the log and checkpoint labels (iter-<NNN>-risk-<k>)
  RALPH_WORKSPACE    workspace to checkpoint (default: the hook input's cwd)
  RALPH_HOOK_SPOOL   set by the worker for a sandboxed agent: entries go to this file, moved into the logs after the run
  RALPH_HOOK_POLICY  warn (default): warn on high and critical calls; deny: also block critical ones

In-iteration correction: after a call that changed a test, test/CI configuration or protected file in a way the
loop rejects (a test deleted, a skip added, an assertion weakened, a coverage threshold lowered, tests ignored, a
mock of the module under test), post-tool-use answers {"decision": "block", "reason": ...}: Claude Code shows the
reason to the model at once, so it can undo the change in the same iteration. Honest edits (a new test, a renamed,
moved or split test, tests the task asks to remove) are never blocked. The loop then records corrected_in_iteration.

Protected paths: when the loop recorded a verification manifest (<state>/loops/<loop>/verification/manifest.json),
a write, edit or delete of a protected file (tests, their data, test/lint/CI configuration, files the checks name)
is denied before it runs (verification.hookPolicy: deny, the default) or warned about (warn).
`;

/** Registers `ralph hook pre-tool-use` and `ralph hook post-tool-use`. */
export function hookCommand(program: Command): Command {
  const hook = program
    .command('hook')
    .description('Claude Code tool-call hook: log risky calls, warn or deny, block cheats, take rollback checkpoints')
    .addHelpText('after', INSTALL_HELP);
  for (const event of HOOK_EVENTS)
    hook
      .command(event)
      .description(
        event === 'pre-tool-use'
          ? 'before a tool call: judge it, log it, warn or deny, checkpoint the workspace'
          : 'after a tool call: log it, block a change the loop would reject, remind the agent to check what it did',
      )
      .addHelpText('after', INSTALL_HELP)
      // Not through runCommand: a hook never connects to Temporal and must exit 0 whatever happens.
      .action(() => hookMain(event));
  return hook;
}

if (require.main === module) void hookMain(process.argv[2]);
