/**
 * Configuration of verification: the loop accepts only work that passes the ORIGINAL checks (the completion command
 * and the gates re-run with every protected file restored). `{}` (or leaving `verification` out) gives the defaults.
 */
import { z } from 'zod';

/** What the loop does when the agent changed protected files and the original checks still pass. */
export const OnProtectedEdit = ['human', 'revert', 'allow'] as const;
/** One of {@link OnProtectedEdit}. */
export type OnProtectedEdit = (typeof OnProtectedEdit)[number];

const Glob = z
  .string()
  .min(1, 'must be a non-empty glob such as "golden/**" or "*.snap"')
  .refine((g) => !g.includes('..'), { message: 'must stay inside the workspace (no "..")' })
  .refine((g) => !g.startsWith('/'), { message: 'must be relative to the workspace, not an absolute path' });

/** `verification` in the loop input or ralph.config.yaml. */
export const VerificationConfig = z
  .object({
    /** Off: no baseline, no verification run, no protected-path denial in hooks. */
    enabled: z.boolean().default(true),
    /** Globs (workspace-relative) protected on top of the conventions, e.g. `golden/**`. */
    protect: z.array(Glob, { error: 'must be a list of globs, e.g. ["golden/**"]' }).default([]),
    /** Globs the task may change although the conventions protect them, e.g. `test/legacy/**`. */
    allow: z.array(Glob, { error: 'must be a list of globs, e.g. ["test/legacy/**"]' }).default([]),
    /**
     * Protected files changed and the original checks still pass: `human` (default) asks at a gate; `revert` restores
     * the baseline files and accepts; `allow` accepts as is (the event is still recorded).
     */
    onProtectedEdit: z
      .enum(OnProtectedEdit, { error: `must be one of ${OnProtectedEdit.join(', ')}` })
      .default('human'),
    /**
     * The hook's answer to a write, edit or delete of a protected path (hook-capable agents): `deny` (default) or
     * `warn`.
     */
    hookPolicy: z.enum(['deny', 'warn'], { error: 'must be deny or warn' }).default('deny'),
    /**
     * The command that installs the dependencies afresh in the verification tree when a dependency folder changed
     * since the baseline (the agent installed a package with `sandbox.dependencies: writable`), e.g.
     * `pip install -r requirements.txt`. Default: by the lockfiles the workspace has (npm ci, pnpm or yarn frozen
     * installs, uv sync, a new venv with pip install -r requirements.txt); where none fits, a changed dependency
     * folder goes to a human.
     */
    install: z
      .string({ error: 'must be a shell command, e.g. "npm ci --prefer-offline"' })
      .trim()
      .min(1, 'must be a shell command, e.g. "npm ci --prefer-offline"')
      .optional(),
  })
  .strict();
/** Verification settings, after defaults. */
export type VerificationConfig = z.infer<typeof VerificationConfig>;
/** Verification settings as written. */
export type VerificationConfigRaw = z.input<typeof VerificationConfig>;

/** The defaults, as a value. */
export const defaultVerificationConfig = (): VerificationConfig => VerificationConfig.parse({});
