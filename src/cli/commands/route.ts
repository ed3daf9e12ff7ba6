/**
 * `ralph route explain "<task text>" [--profiles dir] [--json]`: how routing classifies a text (domain, calibrated
 * probability of every domain and of no specialist, complexity, which threshold decided, chosen profile, why) without
 * a server. `ralph route <loop-id> --agent <name>`: force an agent profile on
 * a running loop (the `route` signal; `--agent base` forces the base agent). A project's task loops are routed by
 * their own ids.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { loadAgentProfiles } from '../../state/routing-files';
import { routeLoop } from '../../client';
import { DEFAULT_PROFILES_DIR } from '../../config/routing';
import {
  ROUTING_DEFAULTS,
  ROUTING_MODEL_VERSIONS,
  buildRoutingIndex,
  classify,
  isCalibrated,
  type Classification,
  type ConfidenceModel,
} from '../../core/routing/classifier';
import { routePayloadProblem, type RoutePayload } from '../../core/routing/signal';
import { defaultBy } from '../signal-helpers';
import { CommandFailedError, UsageError, runCommand, table } from '../run-command';

/** The routing version of a model id (`calibrated-v8` → `v8`). */
const versionOf = (model: ConfidenceModel): string =>
  Object.entries(ROUTING_MODEL_VERSIONS).find(([, m]) => m === model)?.[0] ?? model;

/** `--model`: a routing version (`v8`) or a model id (`calibrated-v8`), as the model id. */
const ModelOption = z
  .string()
  .transform((v, ctx): ConfidenceModel => {
    const key = v.trim().toLowerCase();
    const model = ROUTING_MODEL_VERSIONS[key] ?? Object.values(ROUTING_MODEL_VERSIONS).find((m) => m === key);
    if (model) return model;
    ctx.addIssue({
      code: 'custom',
      message:
        `unknown routing model "${v}": use ${Object.keys(ROUTING_MODEL_VERSIONS).join(', ')} ` +
        '(the version a loop recorded with it replays with; default the newest)',
    });
    return z.NEVER;
  })
  .optional();

/** Options of `ralph route explain`. */
export const RouteExplainOptions = z.object({
  profiles: z.string().min(1).default(DEFAULT_PROFILES_DIR),
  model: ModelOption,
  minConfidence: z.coerce.number().min(0).max(1).default(ROUTING_DEFAULTS.minConfidence),
  minComplexity: z.coerce.number().int().min(0).max(10).default(ROUTING_DEFAULTS.minComplexity),
  json: z.boolean().default(false),
});

/** Options of `ralph route <id>`. */
export const RouteOptions = z.object({
  agent: z.string({ error: 'required: name the profile to force, e.g. --agent security_specialist (or base)' }),
  reason: z.string().min(1).max(500).optional(),
  by: z.string().min(1).max(500).optional(),
});

/** What `ralph route explain --json` prints. */
export interface RouteExplanation extends Classification {
  profilesDir: string;
  profiles: string[];
  warnings: string[];
  /** The agent that would run: the chosen profile when routed, else `base`. */
  agent: string;
}

/** Classifies `text` against the profiles in `dir` (relative to the current directory). */
export async function explainRoute(
  text: string,
  dir: string,
  rules = { minConfidence: ROUTING_DEFAULTS.minConfidence, minComplexity: ROUTING_DEFAULTS.minComplexity },
  model?: ConfidenceModel,
): Promise<RouteExplanation> {
  const r = await loadAgentProfiles({ workspace: process.cwd(), dir });
  const c = classify(text, buildRoutingIndex(r.profiles, model), rules);
  return {
    ...c,
    profilesDir: r.dir,
    profiles: r.profiles.map((p) => p.name),
    warnings: r.warnings,
    agent: c.route && c.profile ? c.profile : 'base',
  };
}

/** What kept a task's complexity low, if anything: a mechanical chore it leads with (v5), small work it names (v6). */
const choreNote = (e: Classification): string =>
  !e.chore
    ? ''
    : e.why.some((w) => w.startsWith('small work'))
      ? ` (small work: ${e.chore})`
      : ` (a mechanical chore: ${e.chore})`;

/** Which threshold decided, in words. */
export function decidedLine(e: Classification, rules: { minConfidence: number; minComplexity: number }): string {
  switch (e.decidedBy) {
    case 'routed':
      return `routed: probability ${e.confidence} > minConfidence ${rules.minConfidence} and complexity ${e.complexity} > minComplexity ${rules.minComplexity}`;
    case 'minConfidence':
      return `minConfidence: probability ${e.confidence} is not above ${rules.minConfidence}`;
    case 'minComplexity':
      return `minComplexity: complexity ${e.complexity} is not above ${rules.minComplexity}${choreNote(e)}`;
    case 'no_profile':
      return `no profile serves domain ${e.domain}`;
    default:
      return 'no domain keyword matched';
  }
}

/** `ralph route explain`'s text: the verdict, which threshold decided, why, and the probability of every domain. */
export function explanationLines(
  e: RouteExplanation,
  rules: { minConfidence: number; minComplexity: number },
): string[] {
  const calibrated = isCalibrated(e.model);
  const out = [
    `domain       ${e.domain}`,
    `${calibrated ? 'probability' : 'confidence '}  ${e.confidence}${calibrated ? ' (calibrated: right this often)' : ''}`,
    `complexity   ${e.complexity}`,
    `decided by   ${decidedLine(e, rules)}`,
    `agent        ${e.agent}${e.route ? ' (routed)' : ' (base agent)'}`,
    `model        routing ${versionOf(e.model)} (${e.model})`,
    'why',
    ...e.why.map((w) => `  - ${w}`),
  ];
  const rows: (string | number)[][] = Object.entries(e.confidences)
    .sort((a, b) => b[1] - a[1])
    .map(([d, c]) => [d, c, (e.matched[d] ?? []).join(', ')]);
  if (e.general !== undefined && rows.length) rows.push(['general (no specialist)', e.general, '']);
  if (rows.length) {
    out.push('');
    for (const l of table(['DOMAIN', calibrated ? 'PROBABILITY' : 'CONFIDENCE', 'MATCHED'], rows)) out.push(`  ${l}`);
  }
  return out;
}

/** Registers `ralph route`. */
export function routeCommand(program: Command): Command {
  const route = program
    .command('route')
    .description('force an agent profile on a running loop or project (the route signal); see also `route explain`')
    .argument('[id]', 'the loop or project id')
    .option('--agent <name>', 'the profile to force (^[a-z_]+$), or base for the base agent')
    .option('--reason <text>', 'why (logged with the suggestion it replaces, for routing accuracy)')
    .option('--by <name>', 'who decides (default: $USER)')
    .action(
      runCommand(RouteOptions, async (o, [id], ctx) => {
        if (!id) throw new UsageError('name the loop or project: ralph route <id> --agent <name>');
        const problem = routePayloadProblem({ agent: o.agent, reason: o.reason, by: o.by });
        if (problem) throw new UsageError(`--agent: ${problem}`);
        const payload: RoutePayload = { agent: o.agent, by: o.by ?? defaultBy(), requestId: randomUUID() };
        if (o.reason) payload.reason = o.reason;
        const w = await routeLoop(await ctx.client(), id, payload).catch((e: Error) => {
          // A project has no route handler: name the loops to route instead.
          if (e.name !== 'NotALoopError') throw e;
          throw new CommandFailedError(
            `${id} is a project: route the loop of its running task instead (ralph route ${id}--<task>--a<n> ` +
              `--agent ${o.agent}; \`ralph status ${id}\` lists the tasks)`,
          );
        });
        ctx.out.line(
          `route sent to ${w.type} ${id}: ${o.agent === 'base' ? 'the base agent' : `profile ${o.agent}`} runs from ` +
            `the next iteration (by ${payload.by}); the override is logged in its routing log`,
        );
      }),
    );
  route
    .command('explain <text>')
    .description(
      'classify a task text: the calibrated probability of each domain, complexity, which threshold decided, the ' +
        'profile that would run, and why',
    )
    .option('--profiles <dir>', `the profiles folder (default ./${DEFAULT_PROFILES_DIR})`)
    .option('--min-confidence <x>', `route above this confidence (default ${ROUTING_DEFAULTS.minConfidence})`)
    .option('--min-complexity <n>', `route above this complexity (default ${ROUTING_DEFAULTS.minComplexity})`)
    .option(
      '--model <version>',
      `classify with an older routing model, as a loop recorded with it replays (${Object.keys(ROUTING_MODEL_VERSIONS).join(', ')}; default ${Object.keys(ROUTING_MODEL_VERSIONS)[0]})`,
    )
    .option('--json', 'print the classification as JSON')
    .action(
      runCommand(RouteExplainOptions, async (o, [text], ctx) => {
        if (!text?.trim()) throw new UsageError('give the task text: ralph route explain "<task text>"');
        const e = await explainRoute(text, o.profiles, o, o.model);
        for (const w of e.warnings) ctx.out.note(`warning: ${w}`);
        if (o.json) return ctx.out.json(e);
        if (!e.profiles.length)
          ctx.out.note(
            `note: no profiles in ${path.relative(process.cwd(), e.profilesDir) || '.'}: the base agent always runs`,
          );
        for (const l of explanationLines(e, o)) ctx.out.line(l);
      }),
    );
  return route;
}
