/**
 * Shared context between agents: what each previous agent did, found and left open, summarised into one prompt
 * section within a size limit (newest agents keep the most room), plus the prompt sections of a routed iteration.
 */

/** What one agent passed on (a handoff's context, or the end of its output on a domain switch). */
export interface ContextEntry {
  agent: string;
  iteration: number;
  /** Why the work moved on (handoff reason or switch reason). */
  reason?: string;
  text: string;
}

/** Heading of the shared-context section in a routed agent's prompt. */
export const SHARED_CONTEXT_HEADING = '## Context from previous agents';
/** Heading of the specialist's instructions in its prompt. */
export const SPECIALIST_HEADING = '## Specialist instructions';
/** Entries kept in the session (older ones are dropped: the summary only ever shows the newest). */
export const MAX_CONTEXT_ENTRIES = 10;

const clip = (s: string, n: number): string => (s.length <= n ? s : n <= 1 ? '…' : s.slice(0, n - 1).trimEnd() + '…');

/**
 * Summarises entries, oldest first, into at most `maxChars` characters (heading included). Each entry gets a share
 * of the room that doubles from oldest to newest, so the agent just before gets the most; entries that would get
 * under 80 characters are left out and counted in a note. With too little room for that, only the newest entry is
 * shown, clipped.
 */
export function summariseContext(entries: readonly ContextEntry[], maxChars: number): string {
  const list = entries.filter((e) => e.text.trim() || e.reason);
  if (!list.length || maxChars < SHARED_CONTEXT_HEADING.length + 20) return '';
  const head = `${SHARED_CONTEXT_HEADING}\n\nEarlier agents worked on this task; build on what they did.`;
  const titles = list.map((e) => `### ${e.agent} (iteration ${e.iteration})${e.reason ? `: ${e.reason}` : ''}`);
  for (let keep = list.length; keep > 0; keep--) {
    const from = list.length - keep;
    const note = from > 0 ? `\n\n(${from} earlier agent${from === 1 ? '' : 's'} omitted)` : '';
    let room = maxChars - head.length - note.length;
    const parts: string[] = [];
    const weights = Array.from({ length: keep }, (_, i) => 2 ** i);
    let total = weights.reduce((a, b) => a + b, 0);
    let fits = true;
    // Newest first, so an entry that needs less than its share leaves the rest to older ones.
    for (let i = keep - 1; i >= 0; i--) {
      const e = list[from + i];
      const title = clip(titles[from + i], 200);
      const share = Math.floor((room * weights[i]) / total) - title.length - 3;
      if (share < 80 && e.text.trim()) {
        fits = false;
        break;
      }
      const body = clip(e.text.trim(), Math.max(0, share));
      const part = `\n\n${title}${body ? `\n${body}` : ''}`;
      parts.unshift(part);
      room -= part.length;
      total -= weights[i];
    }
    if (fits) return clip(head + note + parts.join(''), maxChars);
  }
  // Not even the newest entry gets its minimum: show it clipped rather than nothing.
  const last = list[list.length - 1];
  return clip(`${head}\n\n${titles[titles.length - 1]}\n${last.text.trim()}`, maxChars);
}

/** The extra prompt sections of a routed iteration: the specialist's instructions, then the shared context. */
export function routedSections(
  instructions: string | undefined,
  sharedContext: string,
  maxInstructions: number,
): string[] {
  const out: string[] = [];
  if (instructions?.trim()) out.push(`${SPECIALIST_HEADING}\n\n${clip(instructions.trim(), maxInstructions)}`);
  if (sharedContext) out.push(sharedContext);
  return out;
}

/** Appends an entry, keeping the newest {@link MAX_CONTEXT_ENTRIES}. */
export function addContext(entries: readonly ContextEntry[], e: ContextEntry): ContextEntry[] {
  return [...entries, e].slice(-MAX_CONTEXT_ENTRIES);
}
