/**
 * The script a model stub follows: per conversation (picked by a pattern on the prompt), per assistant turn, the text
 * and tool calls the "model" answers with, or an HTTP error it answers with first. Vendor-neutral: each stub maps the
 * tool calls to its CLI's own tools (Claude's Write/Edit/Bash, Codex's shell/apply_patch, Gemini's write_file...).
 */

/** One tool call the model asks the CLI to run. */
export type StubToolCall =
  | { kind: 'write'; path: string; content: string }
  | { kind: 'edit'; path: string; old: string; new: string }
  | { kind: 'delete'; path: string }
  | { kind: 'shell'; command: string };

/** An HTTP error the stub answers a turn's request with (`times` times; every time when not set). */
export interface StubError {
  status: number;
  /** The vendor's error type (`rate_limit_error`, `RESOURCE_EXHAUSTED`...) and message; a default per status. */
  type?: string;
  message?: string;
  headers?: Record<string, string>;
  /** The whole JSON error body, instead of the vendor's usual one. */
  body?: unknown;
  times?: number;
}

/** One assistant turn: an error first (optional), then text and tool calls. */
export interface StubTurn {
  fail?: StubError;
  text?: string;
  tools?: StubToolCall[];
  /** Tokens the response reports (defaults: a count derived from the request, 10 output tokens). */
  usage?: { input?: number; output?: number };
}

/** One scripted conversation (one agent run). */
export interface StubConversation {
  /** Regex tested on the conversation's first user message; the first conversation that matches (or has none) runs. */
  match?: string;
  turns: StubTurn[];
}

/** What a stub follows. */
export interface StubScript {
  /** The API key the CLI must send; any other key (or none) gets the vendor's 401. Unset: any key is accepted. */
  apiKey?: string;
  /** Every request is a turn, tools offered or not (aider edits through text, with no tools). */
  everyRequestIsATurn?: boolean;
  /** Assistant messages the CLI itself puts before the conversation (aider's few-shot examples): not turns. */
  prefixTurns?: number;
  conversations: StubConversation[];
}

/** One request a stub received, as logged for tests. */
export interface StubRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** Byte length of the raw request body. */
  bytes: number;
  /** The reply's HTTP status. */
  status: number;
  /** Index of the conversation and turn answered (main requests only). */
  conversation?: number;
  turn?: number;
}

/** The conversation whose `match` fits the first user message (the last one when none fits). */
export function pickConversation(script: StubScript, firstUserText: string): number {
  const i = script.conversations.findIndex((c) => !c.match || new RegExp(c.match).test(firstUserText));
  return i >= 0 ? i : script.conversations.length - 1;
}

/** What a turn's request gets: an error (counted), or the turn (a past-the-end turn is a plain "Done."). */
export class TurnPlayer {
  private readonly failed = new Map<string, number>();

  constructor(readonly script: StubScript) {}

  /** The error to answer this request with, if the turn's `fail` has tries left; counts the try. */
  failure(conversation: number, turn: number): StubError | undefined {
    const t = this.turn(conversation, turn);
    if (!t.fail) return undefined;
    const key = `${conversation}:${turn}`;
    const n = this.failed.get(key) ?? 0;
    if (t.fail.times !== undefined && n >= t.fail.times) return undefined;
    this.failed.set(key, n + 1);
    return t.fail;
  }

  /** The scripted turn (a plain "Done." after the script's end). */
  turn(conversation: number, turn: number): StubTurn {
    return this.script.conversations[conversation]?.turns[turn] ?? { text: 'Done.' };
  }
}

/** Splits text into a few chunks, as a streaming API sends it. */
export function chunks(text: string, size = 40): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
}
