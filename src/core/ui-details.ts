/**
 * What the Temporal Web UI shows of a loop or a project, as pure functions: the static summary (the task's first
 * line, at most 200 bytes) and static details set when the workflow starts, and the current details (Markdown) the
 * loop keeps up to date: iteration n/max, phase, the pending gate with the commands that answer it, and the outcome.
 */
import type { LoopResult, LoopState } from './loop-types';
import { childGateCommands, type ChildGateNotice } from './child-gates';
import type { ProjectState } from './project-machine';

/** The UI's limit on a summary, in UTF-8 bytes. */
export const SUMMARY_MAX_BYTES = 200;

/** UTF-8 length of `s` (no TextEncoder: core runs in the workflow sandbox and imports nothing). */
export function utf8Bytes(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/** `s` cut to at most `max` UTF-8 bytes, never inside a character, with `…` when cut. */
export function clipUtf8(s: string, max = SUMMARY_MAX_BYTES): string {
  if (utf8Bytes(s) <= max) return s;
  let out = '';
  for (const ch of s) {
    if (utf8Bytes(out + ch) > max - 3) break;
    out += ch;
  }
  return `${out.trimEnd()}…`;
}

/** The first non-empty line of `text`, trimmed. */
export function firstLine(text: string): string {
  return (
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? ''
  );
}

/** The parts of a loop's input the UI texts use (the raw input: no config types in core). */
export interface LoopUiInput {
  prompt?: string;
  promptFile?: string;
  workspace?: string;
  agent?: { adapter?: string; model?: string };
  completion?: { command?: string; promise?: string };
  maxIterations?: number;
}

/** The loop's static summary: the task's first line (or its prompt file), at most 200 bytes. */
export function loopStaticSummary(i: LoopUiInput): string {
  // A Markdown heading's marks would make the one-line summary a heading: the words are the task.
  const task = i.prompt ? firstLine(i.prompt).replace(/^#+\s*/, '') : '';
  return clipUtf8(task || (i.promptFile ? `task in ${i.promptFile}` : 'Ralph loop'));
}

/** The loop's static details (Markdown): agent, workspace, the check, the budget, and the commands to follow it. */
export function loopStaticDetails(i: LoopUiInput, loopId: string): string {
  const agent = `${i.agent?.adapter ?? 'claude-code'}${i.agent?.model ? ` (${i.agent.model})` : ''}`;
  const check = i.completion?.command
    ? `\`${i.completion.command}\` must exit 0`
    : i.completion?.promise
      ? `the agent's promise \`${i.completion.promise}\``
      : 'the configured gates';
  return [
    `**Ralph loop** \`${loopId}\``,
    '',
    `- **Agent**: ${agent}`,
    `- **Workspace**: \`${i.workspace ?? '(current directory)'}\``,
    `- **Done when**: ${check}`,
    `- **Iterations**: at most ${i.maxIterations ?? 10} before a human decides`,
    '',
    `Follow it with \`ralph status ${loopId}\` or \`ralph watch ${loopId}\`; its progress is under Current Details.`,
  ].join('\n');
}

/** A project's static summary: the PRD file (at most 200 bytes). */
export function projectStaticSummary(prdFile: string): string {
  return clipUtf8(`Ralph project: ${prdFile}`);
}

/** A project's static details (Markdown): the PRD, the workspace, and the commands to follow it. */
export function projectStaticDetails(
  i: { prdFile: string; workspace?: string; agent?: { adapter?: string } },
  projectId: string,
): string {
  return [
    `**Ralph project** \`${projectId}\`: every task of \`${i.prdFile}\` in turn, one child loop per attempt`,
    '',
    `- **Agent**: ${i.agent?.adapter ?? 'claude-code'}`,
    `- **Workspace**: \`${i.workspace ?? '(current directory)'}\``,
    '',
    `Follow it with \`ralph status ${projectId}\`; blocked tasks: \`ralph blocked ${projectId}\`.`,
  ].join('\n');
}

/** A project's child loop: its static summary (task id and title, attempt, project), at most 200 bytes. */
export function childLoopSummary(projectId: string, taskId: string, title: string, attempt: number): string {
  return clipUtf8(`${taskId}: ${firstLine(title) || taskId} (attempt ${attempt} of project ${projectId})`);
}

/** The one word the outcome starts with, in capitals, so an aborted loop never reads like an accepted one. */
export function outcomeHeadline(r: Pick<LoopResult, 'status' | 'acceptedBy' | 'by' | 'reason' | 'iterations'>): string {
  const after = `after ${r.iterations} iteration${r.iterations === 1 ? '' : 's'}`;
  if (r.status === 'accepted') {
    if (r.acceptedBy === 'human') return `APPROVED by ${r.by ?? 'a human'} ${after}`;
    if (r.acceptedBy === 'promise') return `ACCEPTED on the agent's promise ${after} (no check configured)`;
    return `ACCEPTED by the check ${after}`;
  }
  if (r.status === 'aborted') return `ABORTED by ${r.by ?? 'an operator'} ${after}`;
  return `FAILED ${after}`;
}

/** The commands that answer a pending gate: `ralph <option> <id>` per option the gate offers. */
export function gateCommands(loopId: string, options: readonly string[]): string[] {
  const hint: Record<string, string> = {
    approve: `ralph approve ${loopId}`,
    reject: `ralph reject ${loopId} --guidance "what to do differently"`,
    abort: `ralph abort ${loopId}`,
    answer: `ralph answer ${loopId} "your answer"`,
  };
  return options.map((o) => hint[o] ?? `ralph ${o} ${loopId}`);
}

const PHASE_WORDS: Record<string, string> = {
  starting: 'between iterations',
  agent: 'the agent is working',
  inspecting: 'inspecting the changes',
  checking: 'running the completion check',
  gates: 'running the quality gates',
  verifying: 'verifying with the original checks',
  paused: 'paused (`ralph resume` goes on)',
  awaiting_human: 'waiting for a human',
  sleeping_usage_limit: 'sleeping until the usage limit resets',
  moving: 'moving to another host',
  done: 'done',
};

/** Phases inside an iteration (the iteration shown is the one running, not the last recorded). */
const IN_ITERATION: readonly string[] = [
  'agent',
  'inspecting',
  'checking',
  'gates',
  'verifying',
  'sleeping_usage_limit',
  'moving',
];

/** The loop's current details (Markdown), from its state alone (deterministic: the workflow sets them as it goes). */
export function loopCurrentDetails(s: LoopState, task: string): string {
  const lines: string[] = [];
  if (s.result) lines.push(`**${outcomeHeadline(s.result)}**`, '', `> ${firstLine(s.result.reason) || '-'}`, '');
  // While an iteration runs, it is the one after the last recorded; at a gate, paused or done, the last recorded.
  const running = IN_ITERATION.includes(s.phase) && !s.result;
  const shown = running ? s.iteration + 1 : s.iteration;
  lines.push(
    `**Iteration** ${shown}/${s.maxIterations} · **Phase**: ${PHASE_WORDS[s.phase] ?? s.phase} · **Status**: ${s.status}`,
    `**Task**: ${task}`,
    `**Agent**: ${s.agent}${s.sandbox ? ` (sandbox ${s.sandbox.state})` : ''}`,
  );
  const g = s.pendingGate;
  if (g) {
    lines.push('', `**Waiting for a human** at gate \`${g.id}\`: ${firstLine(g.title)}`, '', 'Answer with one of:', '');
    for (const c of gateCommands(s.loopId, g.options)) lines.push(`- \`${c}\``);
  }
  if (s.sleepingUntil && s.phase === 'sleeping_usage_limit') lines.push('', `Sleeping until ${s.sleepingUntil}.`);
  const t = s.totals;
  lines.push(
    '',
    `Agent runs ${t.agentRuns} · checks passed ${t.checksPassed}/${t.checksRun} · human gates ${t.humanGates}` +
      (t.costUsd ? ` · cost $${t.costUsd.toFixed(2)}` : ''),
  );
  return lines.join('\n');
}

/** How a project ended, as its result says (the workflow's `ProjectResult`, the part the UI text needs). */
export interface ProjectEnding {
  status: 'done' | 'finished_with_blocked' | 'aborted';
  blocked: { id: string }[];
}

/**
 * A project's current details (Markdown): tasks done, the task running and its loop, the loop's open human gate (what
 * it asks, the commands that answer it), blocked tasks, the outcome.
 */
export function projectCurrentDetails(s: ProjectState, ending?: ProjectEnding, childGate?: ChildGateNotice): string {
  const done = s.tasks.filter((t) => t.status === 'done').length;
  const blocked = s.tasks.filter((t) => t.status === 'blocked');
  const lines: string[] = [];
  if (ending)
    lines.push(
      ending.status === 'done'
        ? `**DONE: every task (${done}/${s.tasks.length})**`
        : ending.status === 'aborted'
          ? `**ABORTED with ${done}/${s.tasks.length} tasks done**`
          : `**FINISHED with ${ending.blocked.length} blocked: ${ending.blocked.map((b) => b.id).join(', ')}**`,
      '',
    );
  lines.push(
    `**Tasks**: ${done}/${s.tasks.length} done · ${blocked.length} blocked · ${s.attemptsRun} attempts · **Status**: ${s.status}`,
    `**PRD**: \`${s.prdFile}\``,
  );
  const current = !ending && s.current ? s.tasks.find((t) => t.id === s.current) : undefined;
  const attempt = current?.attempts[current.attempts.length - 1];
  if (current && attempt)
    lines.push(
      `**Now**: ${current.id} (${firstLine(current.title)}), attempt ${attempt.n}: loop \`${attempt.loopId}\``,
    );
  const g = current && attempt && childGate?.loopId === attempt.loopId ? childGate.gate : undefined;
  if (g) lines.push('', ...childGateDetails(attempt!.loopId, g));
  if (!ending && blocked.length) {
    lines.push('', `**Blocked**: ${blocked.map((t) => `${t.id} (${t.blockReason ?? 'blocked'})`).join(', ')}`, '');
    lines.push(
      `- \`ralph blocked ${s.projectId} --suggest\``,
      `- \`ralph unblock ${s.projectId} ${blocked[0].id} --timeout <secs>\``,
      `- \`ralph retry-blocked ${s.projectId}\``,
    );
  }
  return lines.join('\n');
}

/** A child loop's open gate in the project's details: what it asks, and the commands that answer it. */
function childGateDetails(loopId: string, g: NonNullable<ChildGateNotice['gate']>): string[] {
  const ask = g.question
    ? `${g.question.source === 'pdare' ? 'PDARE asks' : 'The agent asks'}: ${firstLine(g.question.text)}`
    : firstLine(g.title);
  return [
    `**Waiting for a human** at gate \`${g.id}\` (${g.reason}) of loop \`${loopId}\`: the project goes on once it is answered.`,
    '',
    `> ${ask}`,
    '',
    'Answer with one of:',
    '',
    ...childGateCommands(loopId, g).map((c) => `- \`${c}\``),
  ];
}
