/**
 * Questions an agent asks a human: reading them from the agent's answer (a `<question>` block, or a status block with
 * `STATUS: BLOCKED` and a recommendation or reason line), what the prompt tells the agent about asking, and the
 * texts of the question gate. Pure: the activity reads the question, the workflow decides whether it opens a gate.
 */

/** How the agent asked. */
export type QuestionVia = 'question_block' | 'status_blocked';

/** A question read from an agent's answer. */
export interface AgentQuestion {
  /** The question, trimmed and bounded. */
  text: string;
  /** The options the agent listed (`- option` or `1. option` lines inside the block), at most {@link MAX_OPTIONS}. */
  options: string[];
  via: QuestionVia;
}

/** Who asked: the agent itself, or PDARE's `ask_clarification` on the agent's behalf. */
export type QuestionSource = 'agent' | 'pdare';

/** One question of a loop, as its state keeps it (the last {@link QUESTIONS_KEPT}). */
export interface QuestionEntry {
  /** The id of the gate it opened. */
  gateId: string;
  iteration: number;
  source: QuestionSource;
  text: string;
  options: string[];
  askedAt: string;
  /** How the gate was closed: answer (the loop goes on with it), approve, reject or abort. */
  decision?: string;
  answeredAt?: string;
  by?: string;
  answer?: string;
  /** Time from asking to the decision. */
  waitMs?: number;
}

/** The loop's questions: how many were asked (the limit counts these), answered, and the last ones. */
export interface QuestionsState {
  max: number;
  asked: number;
  answered: number;
  log: QuestionEntry[];
}

/** An answer waiting for the next prompt. */
export interface PendingAnswer {
  by: string;
  question: string;
  text: string;
}

/** Default of `questions.max`: questions per loop. */
export const DEFAULT_MAX_QUESTIONS = 3;
/** Longest question kept (characters). */
export const MAX_QUESTION_CHARS = 2000;
/** Most options kept. */
export const MAX_OPTIONS = 10;
/** How many questions the state keeps. */
export const QUESTIONS_KEPT = 20;

const clip = (s: string, n: number): string => (s.length > n ? s.slice(0, n - 1) + '…' : s);
const OPTION_LINE = /^\s*(?:[-*•]|\d{1,2}[.)]|\(?[a-hA-H][.)])\s+(.+?)\s*$/;

/** Splits a block into the question (prose) and its option lines. */
function splitOptions(body: string): { text: string; options: string[] } {
  const prose: string[] = [];
  const options: string[] = [];
  for (const line of body.split(/\r?\n/)) {
    const m = OPTION_LINE.exec(line);
    if (m) options.push(clip(m[1].replace(/^`|`$/g, '').trim(), 300));
    else if (!/^\s*options?\s*:?\s*$/i.test(line)) prose.push(line);
  }
  return { text: prose.join('\n').trim(), options: options.filter(Boolean).slice(0, MAX_OPTIONS) };
}

/**
 * The question in an agent's answer, if it asks one: the last `<question>...</question>` block (its `- option` lines
 * are the options), else a status block (ralph-claude-code's `STATUS: BLOCKED`) with a `RECOMMENDATION:`, `REASON:`,
 * `BLOCKED_REASON:` or `QUESTION:` line, whose text is the question. A block without text asks nothing.
 */
export function detectQuestion(answer: string): AgentQuestion | undefined {
  const blocks = [...answer.matchAll(/<question>([\s\S]*?)<\/question>/gi)];
  for (const b of blocks.reverse()) {
    const { text, options } = splitOptions(b[1]);
    if (text || options.length)
      return { text: clip(text || 'Which option should I take?', MAX_QUESTION_CHARS), options, via: 'question_block' };
  }
  if (!/^\s*\**STATUS\**\s*[:=]\s*\**BLOCKED\b/im.test(answer)) return undefined;
  const why = /^\s*\**(?:RECOMMENDATION|BLOCKED_REASON|REASON|QUESTION)\**\s*[:=]\s*(.+)$/im.exec(answer);
  const text = why?.[1]
    .trim()
    .replace(/^\*+|\*+$/g, '')
    .trim();
  if (!text) return undefined;
  return { text: clip(text, MAX_QUESTION_CHARS), options: [], via: 'status_blocked' };
}

/** What the prompt says about asking: how, what for, and how many questions are left. */
export function askingText(q: { max: number; left: number }): string | undefined {
  if (q.max <= 0) return undefined;
  if (q.left <= 0)
    return (
      `You have asked all ${q.max} question${q.max === 1 ? '' : 's'} this loop allows: a \`<question>\` block is now read as ordinary text. ` +
      'Decide yourself, write the assumption under `## Assumptions`, and go on.'
    );
  return (
    'If a decision is not yours to make (the specification contradicts a test, which API version to keep, whether a ' +
    'breaking change is allowed), ask instead of guessing: end your answer with `<question>your question</question>`, ' +
    'with the options you see as `- option` lines inside the block. The loop stops until a human answers, and the ' +
    'answer comes in your next prompt. Asking never completes the task. Do not ask what you can find out or decide ' +
    `yourself. Questions left: ${q.left} of ${q.max}.`
  );
}

/** Heading of the human's answer in the next prompt. */
export const answerHeading = (by: string): string => `## Answer from ${by}`;

/** The prompt section with a human's answer to the agent's question. */
export function answerSection(a: PendingAnswer): string {
  const asked = a.question
    .trim()
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  return `${answerHeading(a.by)}\n\nYou asked:\n\n${asked}\n\nThe answer (follow it):\n\n${a.text.trim()}`;
}

/** Feedback when the agent asks beyond the limit: its block was read as text. */
export const overLimitFeedback = (max: number): string =>
  `You asked a question, but this loop's limit of ${max} question${max === 1 ? '' : 's'} is used up, so the ` +
  '`<question>` block was read as ordinary text and nobody will answer it. Decide yourself, write the assumption ' +
  'under `## Assumptions`, and continue the task.';

/** A short description of an iteration's diff for the gate. */
export function diffLine(c: { added: number; modified: number; deleted: number; files: string[] } | undefined): string {
  if (!c) return 'Diff: not measured (the anti-laziness layer is off)';
  const files = c.files.slice(0, 15).join(', ');
  return (
    `Diff of the iteration: ${c.added} added, ${c.modified} modified, ${c.deleted} deleted` +
    (files ? ` (${files}${c.files.length > 15 ? ', …' : ''})` : '')
  );
}

/** The question gate's details: the question, the options, the diff, how to answer. */
export function questionDetails(q: {
  text: string;
  options: string[];
  source: QuestionSource;
  diff: string;
  left: number;
}): string {
  return [
    q.source === 'pdare' ? 'PDARE asks on behalf of the agent (specification ambiguity):' : 'The agent asks:',
    ...q.text.split('\n').map((l) => `  ${l}`),
    ...(q.options.length ? ['Options the agent listed:', ...q.options.map((o, i) => `  ${i + 1}. ${o}`)] : []),
    q.diff,
    `Answer: the loop goes on with your answer in the next prompt (questions left after this one: ${q.left}). ` +
      'approve = accept the work as it is; reject = go on with guidance; abort = stop the loop.',
  ].join('\n');
}
