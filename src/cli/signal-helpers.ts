/**
 * Shared by the human-signal commands (approve, reject, abort, pause, resume), `status`, `start --follow` and the
 * demo: how to send a signal idempotently and confirm what the loop did with it, and how to show a pending gate with
 * the exact commands that answer it.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Client } from '@temporalio/client';
import type { Command } from 'commander';
import { z } from 'zod';
import { getLoopStatus, signalLoop, withTimeout, type MovePayload } from '../client';
import type { DecisionPayload, SignalName } from '../core/loop-machine';
import type { HumanGate, LoopState, SignalEvent } from '../core/loop-types';
import { evidenceLines } from '../core/verification/evidence-render';
import { type CommandContext, intOption, runCommand } from './run-command';
import { logLoopEvent } from '../telemetry/logger';
import { gateNumbersLines } from '../views/gate-numbers';
import { SignalIgnoredError } from './errors';

/** Who is deciding, by default: $USER, else the OS account name. */
export function defaultBy(): string {
  try {
    return process.env.USER || os.userInfo().username || 'cli';
  } catch {
    return 'cli';
  }
}

/** Quotes an argument for a shell command line we print, only when it needs it. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The exact commands that answer a pending gate, one per option the gate offers. */
export function answerCommands(loopId: string, gate: HumanGate, connectionFlags = ''): string[] {
  const tail = connectionFlags ? ` ${connectionFlags}` : '';
  const id = shellQuote(loopId);
  const byOption: Record<string, string> = {
    approve: `ralph approve ${id}${tail}`,
    reject: `ralph reject ${id} --guidance "what to do differently" [--extra-iterations n]${tail}`,
    abort: `ralph abort ${id}${tail}`,
    answer: `ralph answer ${id} "your answer"${tail}`,
  };
  return gate.options.map((o) => byOption[o] ?? `ralph ${o} ${id}${tail}`);
}

/**
 * A pending gate as indented lines: what it asks, why, its evidence (the protected files' diff, the failure excerpt;
 * ANSI-coloured when `color`), and the commands that answer it.
 */
export function gateLines(loopId: string, gate: HumanGate, connectionFlags = '', color = false): string[] {
  const evidence = evidenceLines(gate.evidence, color);
  return [
    `human gate ${gate.id} (${gate.reason}): ${gate.title}`,
    ...gate.details.split('\n').map((l) => `  ${l}`),
    ...gateNumbersLines(gate.numbers).map((l) => `  ${l}`),
    ...(evidence.length ? ['', ...evidence.map((l) => `  ${l}`), ''] : []),
    `  opened ${gate.openedAt} at iteration ${gate.iteration}; answer with one of:`,
    ...answerCommands(loopId, gate, connectionFlags).map((c) => `    ${c}`),
  ];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** What became of a signal, as far as the CLI could see. */
export interface SignalOutcome {
  /** The loop's record of the signal, once a worker processed it; undefined if none did within the wait. */
  event?: SignalEvent;
  state?: LoopState;
}

/**
 * Sends a human signal with a random `requestId`, retrying transient transport errors with the same id (the loop
 * ignores duplicates, so a retry never applies twice), then waits up to `waitMs` for the loop to record it.
 */
export async function sendSignal(
  client: Client,
  loopId: string,
  name: SignalName | 'move',
  payload: DecisionPayload | MovePayload,
  waitMs = 5000,
): Promise<SignalOutcome> {
  const full: DecisionPayload & Partial<MovePayload> = { ...payload, requestId: payload.requestId ?? randomUUID() };
  const sentAt = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      await signalLoop(client, loopId, name, full);
      break;
    } catch (e) {
      if (attempt >= 3 || !isTransient(e)) throw e;
      await sleep(500 * attempt);
    }
  }
  const end = Date.now() + waitMs;
  // The workflow stamps events with workflow time, which is after the server received the signal; allow for clock skew.
  const since = sentAt - 2000;
  while (Date.now() < end) {
    const state = await withTimeout(getLoopStatus(client, loopId), Math.max(500, end - Date.now()));
    const event = state?.signals
      .slice()
      .reverse()
      .find(
        (s) =>
          s.name === name &&
          s.by === full.by &&
          (s.reason ?? undefined) === (full.reason ?? undefined) &&
          Date.parse(s.at) >= since,
      );
    if (event) return { event, state };
    if (state?.result && name === 'approve' && state.result.by === full.by && state.result.acceptedBy === 'human')
      return { state };
    await sleep(200);
  }
  return {};
}

function isTransient(e: unknown): boolean {
  const err = e as { name?: string; cause?: { code?: number } };
  // gRPC UNAVAILABLE (14) and DEADLINE_EXCEEDED (4): the signal may not have reached the server; retrying is safe.
  return err?.name === 'ServiceError' && (err.cause?.code === 14 || err.cause?.code === 4);
}

/** Options common to every signal command. */
const BaseSignalOptions = z.object({
  reason: z.string().min(1).optional(),
  by: z.string().min(1).optional(),
});

/** Options of the gate-answering signal commands (approve, reject, abort). */
const GateSignalOptions = BaseSignalOptions.extend({ gate: z.string().min(1).optional() });

/** Options of `ralph reject`. */
const RejectOptions = GateSignalOptions.extend({
  guidance: z.string().min(1).optional(),
  extraIterations: intOption().positive().max(10_000).optional(),
});

/** How each signal command reads in help text and confirmations. */
const SIGNALS: Record<SignalName, { summary: string; done: string }> = {
  approve: { summary: 'accept the work at the pending human gate: the loop ends accepted', done: 'approved' },
  reject: {
    summary: 'refuse at the pending human gate: the loop continues with your guidance in the next prompt',
    done: 'rejected',
  },
  abort: { summary: 'end the loop: answers a pending gate, or cancels the running agent and stops', done: 'aborted' },
  pause: { summary: 'stop the loop before its next iteration, until `ralph resume`', done: 'paused' },
  resume: { summary: 'continue a paused loop', done: 'resumed' },
  answer: { summary: "answer the agent's question at a pending question gate", done: 'answered' },
};

/** Registers `ralph <name> <id>` for one human signal; each signal command's file calls this. */
export function registerSignalCommand(program: Command, name: SignalName): Command {
  const gateSignal = name === 'approve' || name === 'reject' || name === 'abort';
  const cmd = program
    .command(`${name} <loopId>`)
    .description(SIGNALS[name].summary)
    .option('--reason <text>', 'why (shown in status and reports)')
    .option('--by <name>', 'who decides (default: $USER)');
  if (gateSignal) cmd.option('--gate <gateId>', 'answer only this gate: refused if another gate is pending');
  if (name === 'reject')
    cmd
      .option('--guidance <text>', "guidance for the agent's next prompt")
      .option('--extra-iterations <n>', "more iterations to grant (default: the loop's defaultExtraIterations)");
  // Every field is optional, so the narrower schemas read as the widest one.
  const schema = (
    name === 'reject' ? RejectOptions : gateSignal ? GateSignalOptions : BaseSignalOptions
  ) as typeof RejectOptions;
  return cmd.action(
    runCommand(schema, async (o, [loopId], ctx) => {
      const payload: DecisionPayload = {
        by: o.by ?? defaultBy(),
        reason: o.reason,
        gateId: o.gate,
        guidance: o.guidance,
        extraIterations: o.extraIterations,
      };
      await confirmSignal(ctx, loopId, name, payload);
    }),
  );
}

/** Sends a human signal and says what the loop did with it (SignalIgnoredError when it refused it). */
export async function confirmSignal(
  ctx: CommandContext,
  loopId: string,
  name: SignalName,
  payload: DecisionPayload,
): Promise<void> {
  const client = await ctx.client();
  const { event, state } = await sendSignal(client, loopId, name, payload);
  logLoopEvent('signal.sent', {
    loopId,
    iteration: state?.iteration,
    signal: name,
    by: payload.by,
    applied: event?.applied,
    note: event?.note,
  });
  const done = SIGNALS[name].done;
  if (!event && !state) {
    ctx.out.line(
      `${name} sent to loop ${loopId}; no worker has processed it yet (it applies when one does): check with \`ralph status ${loopId}\``,
    );
    return;
  }
  if (event && !event.applied && !event.note.includes('duplicate of request'))
    throw new SignalIgnoredError(loopId, name, event.note);
  const extra =
    name === 'reject' && state
      ? ` (now ${state.iteration}/${state.maxIterations} iterations${payload.guidance ? ', guidance goes into the next prompt' : ''})`
      : '';
  ctx.out.line(`${done} loop ${loopId} as ${payload.by}: ${event?.note ?? 'applied'}${extra}`);
}
export { SignalIgnoredError };
