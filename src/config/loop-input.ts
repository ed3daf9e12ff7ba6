import { z } from 'zod';
import { AntiLazinessConfig } from './anti-laziness-config';
import { GatesConfig, type GateSpec } from './gates-config';
import type { GateThresholds } from '../core/gate-rules';
import { HOST_ID_PATTERN } from '../core/hosts';
import { VerificationConfig } from './verification-config';
import { SandboxConfig } from './sandbox-config';
import { QuestionsConfig } from './questions-config';
import type { SandboxStatus } from '../core/sandbox';
import { LoopRoutingConfig } from './routing';
import { InvalidInputError } from './errors';
import { withAntiLazinessAlias } from './aliases';

/** Agent adapters the loop can drive. */
export const AgentAdapters = ['claude-code', 'codex', 'gemini', 'aider', 'command', 'scripted'] as const;
/** One of {@link AgentAdapters}. */
export type AgentAdapter = (typeof AgentAdapters)[number];

const Env = z.record(z.string(), z.string());

/** Which agent runs each iteration, and how. */
export const AgentSpec = z
  .object({
    adapter: z.enum(AgentAdapters, {
      error: `must be one of ${AgentAdapters.join(', ')}`,
    }),
    /** Executable to run instead of the adapter's default (`claude`, `codex`, `gemini`, `aider`, node for scripted). */
    binary: z.string().min(1).optional(),
    /** Model name passed to the agent CLI, when it takes one. */
    model: z.string().min(1).optional(),
    /** Extra arguments appended to the adapter's argv. */
    args: z.array(z.string()).default([]),
    /** Extra environment variables for the agent process. */
    env: Env.default({}),
    /** `command` adapter: argv template; `{prompt}` and `{promptFile}` are replaced. */
    command: z.array(z.string()).min(1).optional(),
    /** `scripted` adapter: path of the JSON script (relative paths are relative to the workspace). */
    script: z.string().min(1).optional(),
  })
  .superRefine((a, ctx) => {
    if (a.adapter === 'command' && !a.command)
      ctx.addIssue({
        code: 'custom',
        path: ['command'],
        message:
          'the command adapter needs `command`: an argv array such as ["my-agent","--prompt-file","{promptFile}"]',
      });
    if (a.adapter === 'scripted' && !a.script)
      ctx.addIssue({
        code: 'custom',
        path: ['script'],
        message: 'the scripted adapter needs `script`: the path of a JSON script file',
      });
  });
/** Which agent runs each iteration, and how. */
export type AgentSpec = z.infer<typeof AgentSpec>;

/** What "done" means: a command that must exit 0, and/or a promise string the agent prints. */
export const CompletionCriteria = z.object({
  /** Shell command run in the workspace; the loop completes only when it exits 0. */
  command: z.string().min(1).optional(),
  /** The agent claims completion by printing `<promise>TEXT</promise>` (or `EXIT_SIGNAL: true`). */
  promise: z.string().min(1).optional(),
  /** When to run the command: only when the agent claims done, or after every iteration. */
  checkOn: z.enum(['claim', 'every-iteration']).optional(),
  /** Time limit for the completion command. */
  timeoutSeconds: z.number().int().positive().default(600),
});
/** What "done" means. */
export type CompletionCriteria = z.infer<typeof CompletionCriteria>;

/**
 * Input of the `ralphLoop` workflow. JSON-friendly so that
 * `temporal workflow start --type ralphLoop --input '{...}'` works as well as `ralph start`.
 */
export const LoopInput = z
  .object({
    /** The task for the agent. One of prompt / promptFile is required. */
    prompt: z.string().min(1).optional(),
    /** A file holding the task prompt (relative paths are relative to the workspace). */
    promptFile: z.string().min(1).optional(),
    /** Absolute path of the directory the agent works in. */
    workspace: z.string().min(1, 'must be the absolute path of the directory the agent works in'),
    agent: AgentSpec,
    completion: CompletionCriteria,
    /** Iterations before a human gate asks whether to accept, continue or abort. */
    maxIterations: z.number().int().positive().max(100_000).default(10),
    /** Time limit of one agent run (the activity's startToCloseTimeout). */
    iterationTimeoutSeconds: z.number().int().positive().default(1800),
    /** Heartbeat timeout of the agent, check, gate, verification and restore activities: how soon a dead worker is noticed. */
    heartbeatTimeoutSeconds: z.number().int().positive().default(60),
    /** Attempts per agent run for infrastructure failures (worker crash, timeout). */
    agentMaxAttempts: z.number().int().positive().max(20).default(3),
    /** Continue-as-new after this many iterations in one run (or earlier if Temporal suggests it). */
    continueAsNewEvery: z.number().int().positive().default(50),
    /** Where loop state and artifacts live; default `<workspace>/.ralph`. */
    stateDir: z.string().min(1).optional(),
    /**
     * What happens when `maxIterations` are used up without completion: `gate` (default) asks a human; `end` ends the
     * loop with status `failed` (a parent project then counts a failed attempt and moves on).
     */
    onBudgetExhausted: z.enum(['gate', 'end']).default('gate'),
    /** Extra iterations granted by a `reject` that names none. */
    defaultExtraIterations: z.number().int().positive().default(3),
    /** Longest durable sleep after a usage limit, before retrying anyway. */
    maxUsageLimitWaitSeconds: z
      .number()
      .int()
      .positive()
      .default(6 * 3600),
    /**
     * Quality gates that decide completion (see ralph.config.yaml). Default: the workspace's ralph.config.yaml/.json
     * if it has one, else none.
     */
    gates: GatesConfig.optional(),
    /**
     * The anti-laziness layer: snapshots and checkpoints, detectors, reinforcement, PDARE recovery, best output. On by
     * default; `{ "enabled": false }` turns it off.
     */
    persistence: AntiLazinessConfig.default(AntiLazinessConfig.parse({})),
    /** The anti-laziness layer under its current name (read as `persistence`, its deprecated old name). */
    antiLaziness: AntiLazinessConfig.optional(),
    /**
     * The host whose workspace this is (multi-host deployments): every activity that touches the workspace runs on
     * the task queue `<taskQueue>@<host>`, polled by that host's workers (`ralph worker --host`). Default: the host of
     * the worker that validates the loop, when workers run with `--host`; none (one shared queue) otherwise.
     */
    host: z
      .string()
      .regex(HOST_ID_PATTERN, 'must be 1-63 letters, digits, ".", "_" or "-", starting with a letter or digit')
      .optional(),
    /**
     * A host-bound loop reports its host as unreachable in `status` when an activity waited this long for a worker of
     * the host; it keeps waiting (it never moves by itself).
     */
    hostWaitSeconds: z.number().int().positive().default(300),
    /**
     * Git remote (name) that host-bound loops push their post-run checkpoints to, so `ralph move` can re-create the
     * workspace on another host. Pushing is skipped when the workspace has no such remote.
     */
    checkpointRemote: z.string().min(1).default('origin'),
    /** Set by validation: the URL of `checkpointRemote` as the bound host sees it. */
    checkpointRemoteUrl: z.string().min(1).optional(),
    /**
     * Verification: acceptance re-runs the completion command and the gates with every protected file (tests, their
     * data, test/lint/CI configuration) restored to its state at loop start. On by default (else `verification` of
     * `ralph.config.yaml`); `{ "enabled": false }` turns it off.
     */
    verification: VerificationConfig.default(VerificationConfig.parse({})),
    /**
     * The agent sandbox: the agent writes only in the workspace and its own folders (never the dependency folders,
     * `.git` internals or the state folder) and reaches only its model's API. `auto` (default) sandboxes wherever the
     * sandbox can start and says loudly where it can't; `enforce` fails the loop there; `off` never sandboxes.
     */
    sandbox: SandboxConfig.default(SandboxConfig.parse({})),
    /**
     * Questions the agent may ask a human per loop (`<question>` block or `STATUS: BLOCKED`; default max 3): a
     * question gate opens and the loop goes on with the answer. Else `questions` of ralph.config.yaml.
     */
    questions: QuestionsConfig.default(QuestionsConfig.parse({})),
    /** Free-form labels, shown by `ralph status`. */
    labels: z.record(z.string(), z.string()).default({}),
    /**
     * Automatic agent routing to the profiles in `routing.profilesDir` (default `.ralph/agents`): active when that
     * folder has profiles; `{ "enabled": false }` turns it off.
     */
    routing: LoopRoutingConfig.optional(),
  })
  .strict()
  .refine((i) => i.prompt !== undefined || i.promptFile !== undefined, {
    message: 'set `prompt` (the task text) or `promptFile` (a file holding it)',
    path: ['prompt'],
  })
  .refine(
    (i) => {
      // Runs even when other fields are invalid (see `when`), so every problem is reported at once: guard the shape.
      const c = (i as { completion?: { command?: unknown; promise?: unknown } }).completion;
      const gates = (i as { gates?: { gates?: unknown[] } }).gates?.gates;
      return !c || c.command !== undefined || c.promise !== undefined || (Array.isArray(gates) && gates.length > 0);
    },
    {
      message:
        'set `completion.command` (a shell command that must exit 0) and/or `completion.promise`, or configure `gates`',
      path: ['completion'],
      when: () => true,
    },
  );
/** Input of the `ralphLoop` workflow, after defaults. */
export type LoopInput = z.infer<typeof LoopInput>;
/** Input of the `ralphLoop` workflow as a user writes it (defaults optional). */
export type LoopInputRaw = z.input<typeof LoopInput>;

/**
 * Formats zod issues as one line per problem: `path: message (got X)`, so an error names the field and the fix.
 */
export function formatIssues(error: z.ZodError, root = 'input'): string {
  return error.issues
    .map((i) => {
      const p = i.path.length ? i.path.map((s) => (typeof s === 'number' ? `[${s}]` : `.${String(s)}`)).join('') : '';
      return `${root}${p}: ${i.message}`;
    })
    .join('; ');
}

/**
 * The one parse of a loop input (the CLI, the client and the worker's validation all call it): defaults applied,
 * every bad field named in an {@link InvalidInputError} (`describe` words the problems, e.g. with the CLI's flags).
 */
export function parseLoopInput(raw: unknown, describe: (e: z.ZodError) => string = formatIssues): LoopInput {
  const r = LoopInput.safeParse(withAntiLazinessAlias(raw).value);
  if (!r.success) throw new InvalidInputError(`invalid loop input: ${describe(r.error)}`);
  return r.data;
}

/** A gate after validation: its thresholds are the full set (its profile's, with its own overrides). */
export type ResolvedGateSpec = Omit<GateSpec, 'thresholds'> & { thresholds: GateThresholds };

/**
 * A loop input as the worker's validation returns it and the workflow runs it: defaults applied, paths absolute, the
 * state folder chosen, the workspace's config file merged, each gate's thresholds resolved.
 */
export type ResolvedLoopInput = Omit<LoopInput, 'stateDir' | 'gates'> & {
  stateDir: string;
  /** The sandbox as the validating worker found it (absent in loops started before the sandbox). */
  sandboxStatus?: SandboxStatus;
  gates?: Omit<GatesConfig, 'gates'> & { gates: ResolvedGateSpec[] };
};
