/**
 * Handoff declarations: how an agent asks for another specialist to take over, and the rules a handoff must pass
 * (target name, size limits, secrets, chain length and cycles). Pure: the loop reads the agent's output in an
 * activity and hands the text here.
 *
 * An agent ends its answer with one declaration, in either form (the last one in the output counts):
 *
 * ```text
 * <handoff target="cloud_architect" reason="DNS records are done; Exchange needs setting up">
 * What was done: MX and autodiscover records for example.com.
 * Open problems: SPF still missing.
 * </handoff>
 * ```
 *
 * or a fenced block with the language `handoff`: `target:` and `reason:` lines, then `context:` and the context on the
 * following lines.
 */
import type { RoutingRules } from './classifier';
import { scanSecrets, type SecretFinding } from './secrets';

/** What an agent hands to the next one. */
export interface Handoff {
  target: string;
  reason: string;
  /** What was done, key findings, open problems: goes into the next agent's prompt. */
  context: string;
}

/** Result of {@link parseHandoff}. */
export type HandoffParse =
  { found: false } | { found: true; ok: true; handoff: Handoff } | { found: true; ok: false; error: string };

/** Names of agent profiles (and handoff targets): lower-case letters and underscores, nothing that is a path. */
export const AGENT_NAME_RE = /^[a-z_]+$/;
/** Longest agent name. */
export const MAX_AGENT_NAME = 64;
/** Longest handoff reason. */
export const MAX_HANDOFF_REASON = 500;

/** Why `name` is not a valid agent name, or undefined when it is. */
export function agentNameProblem(name: string): string | undefined {
  if (!name) return 'the agent name is empty';
  if (name.length > MAX_AGENT_NAME) return `the agent name is longer than ${MAX_AGENT_NAME} characters`;
  if (!AGENT_NAME_RE.test(name))
    return `invalid agent name "${name.slice(0, 80)}": use lower-case letters and underscores only (^[a-z_]+$), e.g. security_specialist`;
  return undefined;
}

const TAG_RE = /<handoff\b([^>]*)>([\s\S]*?)<\/handoff>/gi;
const FENCE_RE = /```handoff[ \t]*\r?\n([\s\S]*?)```/g;
const attr = (attrs: string, name: string): string | undefined => {
  const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(attrs);
  return m ? (m[1] ?? m[2]) : undefined;
};

/**
 * Finds the last handoff declaration in an agent's output and validates it: a valid target name, a reason of at most
 * {@link MAX_HANDOFF_REASON} characters, and a context of at most `maxHandoffContextChars`. A declaration that breaks a
 * rule is `ok: false` with an error that says what to fix; it never passes.
 */
export function parseHandoff(
  output: string,
  rules: Pick<RoutingRules, 'maxHandoffContextChars'> = { maxHandoffContextChars: 8000 },
): HandoffParse {
  let last: { at: number; target?: string; reason?: string; context: string } | undefined;
  for (const m of output.matchAll(TAG_RE))
    if (!last || m.index! >= last.at)
      last = { at: m.index!, target: attr(m[1], 'target'), reason: attr(m[1], 'reason'), context: m[2] };
  for (const m of output.matchAll(FENCE_RE)) {
    if (last && m.index! < last.at) continue;
    const body = m[1];
    const target = /^\s*target\s*:\s*(.*)$/im.exec(body)?.[1]?.trim();
    const reason = /^\s*reason\s*:\s*(.*)$/im.exec(body)?.[1]?.trim();
    const ctx = /^\s*context\s*:[ \t]*(.*)$/im.exec(body);
    const context = ctx ? body.slice(ctx.index + ctx[0].length - ctx[1].length) : '';
    last = { at: m.index!, target, reason, context };
  }
  if (!last) return { found: false };
  const target = (last.target ?? '').trim();
  const problem = agentNameProblem(target);
  if (problem) return { found: true, ok: false, error: `handoff target: ${problem}` };
  const reason = (last.reason ?? '').trim().replace(/\s+/g, ' ');
  if (!reason) return { found: true, ok: false, error: 'handoff to ' + target + ' has no reason: add reason="..."' };
  if (reason.length > MAX_HANDOFF_REASON)
    return {
      found: true,
      ok: false,
      error: `handoff reason is ${reason.length} characters; at most ${MAX_HANDOFF_REASON} are allowed`,
    };
  const context = last.context.trim();
  if (context.length > rules.maxHandoffContextChars)
    return {
      found: true,
      ok: false,
      error: `handoff context is ${context.length} characters; at most ${rules.maxHandoffContextChars} are allowed: summarise it`,
    };
  return { found: true, ok: true, handoff: { target, reason, context } };
}

/** Result of {@link screenHandoff}. */
export type ScreenedHandoff =
  { ok: true; handoff: Handoff; redacted: SecretFinding[] } | { ok: false; error: string; findings: SecretFinding[] };

/**
 * Scans a handoff's reason and context for secrets: with `secrets: 'redact'` they are replaced by
 * `[REDACTED:<kind>]` and the handoff goes on; with `'refuse'` a handoff containing one is refused.
 */
export function screenHandoff(h: Handoff, rules: Pick<RoutingRules, 'secrets'>): ScreenedHandoff {
  const ctx = scanSecrets(h.context);
  const why = scanSecrets(h.reason);
  const findings = [...why.findings, ...ctx.findings];
  if (!findings.length) return { ok: true, handoff: h, redacted: [] };
  if (rules.secrets === 'refuse')
    return {
      ok: false,
      findings,
      error: `handoff to ${h.target} refused: its context holds ${describe(findings)}; secrets are never passed between agents`,
    };
  return { ok: true, handoff: { ...h, reason: why.redacted, context: ctx.redacted }, redacted: findings };
}

/** `2 secrets (github_token, private_key)`. */
export function describe(findings: readonly SecretFinding[]): string {
  const kinds = [...new Set(findings.map((f) => f.kind))].join(', ');
  return `${findings.length} secret${findings.length === 1 ? '' : 's'} (${kinds})`;
}

/** One handoff in a chain. */
export interface ChainLink {
  from: string;
  to: string;
  reason: string;
  /** Loop iteration whose output declared it. */
  iteration: number;
}

/** A handoff chain: the agents that ran in order, the links between them, and how it ended if it did. */
export interface HandoffChain {
  /** Agents in the order they ran; `agents[0]` started the chain. */
  agents: string[];
  links: ChainLink[];
  /** Iteration whose output is the chain's last valid one (kept when the chain is stopped). */
  lastValidIteration?: number;
  /** Set when a handoff was refused because of the limit or a cycle. */
  stopped?: { error: 'MaxHandoffsExceeded'; detail: string; iteration: number };
}

/** A new chain started by `agent`. */
export const newChain = (agent: string): HandoffChain => ({ agents: [agent], links: [] });

/** Result of {@link extendChain}. */
export type ChainVerdict =
  | { ok: true; chain: HandoffChain }
  | { ok: false; chain: HandoffChain; error: 'MaxHandoffsExceeded' | 'InvalidHandoff'; detail: string };

/** The shortest block of agents the sequence ends with, repeated `times` times in a row, or undefined. */
export function repeatingTail(agents: readonly string[], times: number): string[] | undefined {
  for (let p = 2; p * times <= agents.length; p++) {
    const block = agents.slice(agents.length - p);
    let ok = true;
    for (let k = 1; k < times && ok; k++)
      for (let i = 0; i < p && ok; i++) ok = agents[agents.length - (k + 1) * p + i] === block[i];
    if (ok && new Set(block).size > 1) return block;
  }
  return undefined;
}

/**
 * Adds a handoff declared by the chain's current agent at `iteration`, if the rules allow it:
 * - a target equal to the current agent is refused (`InvalidHandoff`: nothing to hand over);
 * - at `maxHandoffs` links, or when the agents already repeated a block `cycleRepeats` times in a row and the target
 *   starts it again (A→B→A→B→A→B→A with 3), the chain stops with `MaxHandoffsExceeded` and `lastValidIteration` = this iteration (its output is the one kept).
 */
export function extendChain(
  chain: HandoffChain,
  h: Pick<Handoff, 'target' | 'reason'>,
  iteration: number,
  rules: Pick<RoutingRules, 'maxHandoffs' | 'cycleRepeats'>,
): ChainVerdict {
  const from = chain.agents[chain.agents.length - 1];
  if (h.target === from)
    return { ok: false, chain, error: 'InvalidHandoff', detail: `${from} handed off to itself: ignored` };
  const next = [...chain.agents, h.target];
  const tail = repeatingTail(chain.agents, rules.cycleRepeats);
  const cycle = tail && tail[0] === h.target ? tail : undefined;
  const trail = next.join(' → ');
  if (chain.links.length >= rules.maxHandoffs || cycle) {
    const detail =
      chain.links.length >= rules.maxHandoffs
        ? `more than ${rules.maxHandoffs} handoffs (${trail})${repeatingTail(next, 2) ? '; the agents are cycling' : ''}`
        : `cycle ${cycle!.join(' → ')} repeated ${rules.cycleRepeats} times and starting again (${trail})`;
    return {
      ok: false,
      error: 'MaxHandoffsExceeded',
      detail,
      chain: {
        ...chain,
        lastValidIteration: iteration,
        stopped: { error: 'MaxHandoffsExceeded', detail, iteration },
      },
    };
  }
  return {
    ok: true,
    chain: {
      agents: next,
      links: [...chain.links, { from, to: h.target, reason: h.reason, iteration }],
      lastValidIteration: iteration,
    },
  };
}
