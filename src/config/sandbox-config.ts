/**
 * Configuration of the agent sandbox (`sandbox` in the loop input or ralph.config.yaml): the agent runs under
 * @anthropic-ai/sandbox-runtime, which lets it write only in the workspace and its own folders, and reach only its
 * model's API. `{}` (or leaving `sandbox` out) gives the defaults: `auto`.
 */
import { z } from 'zod';

/** `auto` sandboxes wherever the sandbox can start; `enforce` fails the loop where it can't; `off` never sandboxes. */
export const SandboxModes = ['auto', 'enforce', 'off'] as const;
/** One of {@link SandboxModes}. */
export type SandboxMode = (typeof SandboxModes)[number];

const SandboxPath = z
  .string()
  .min(1, 'must be a path: absolute, "~/..." or relative to the workspace')
  .refine((p) => !p.includes('\0'), { message: 'must not contain a NUL byte' });

/** `sandbox` in the loop input or ralph.config.yaml. */
export const SandboxConfig = z
  .object({
    /** `auto` sandboxes wherever the sandbox can start and says so where it can't; `enforce` fails the loop there; `off` never sandboxes. */
    mode: z.enum(SandboxModes, { error: `must be one of ${SandboxModes.join(', ')}` }).default('auto'),
    /** Extra folders or files the agent may write (absolute, `~/...`, or relative to the workspace). */
    allowWrite: z.array(SandboxPath, { error: 'must be a list of paths, e.g. ["~/.cache/pip"]' }).default([]),
    /** Extra paths the agent may not write, even inside the workspace (they win over allowWrite). */
    denyWrite: z.array(SandboxPath, { error: 'must be a list of paths, e.g. ["fixtures"]' }).default([]),
    /**
     * Hosts the agent may reach on top of its model's API (and the hosts its environment's `*_BASE_URL` variables
     * name), e.g. `["registry.npmjs.org"]`; `host:port` limits an entry to a port.
     */
    allowedDomains: z
      .array(z.string().min(1), { error: 'must be a list of host names, e.g. ["registry.npmjs.org"]' })
      .default([]),
    /**
     * The workspace's dependency folders (node_modules, .venv, venv): `read-only` (default), or `writable` when the
     * task is allowed to install packages (acceptance then checks the change).
     */
    dependencies: z.enum(['read-only', 'writable'], { error: 'must be read-only or writable' }).default('read-only'),
  })
  .strict();
/** Sandbox settings, after defaults. */
export type SandboxConfig = z.infer<typeof SandboxConfig>;
/** Sandbox settings as written. */
export type SandboxConfigRaw = z.input<typeof SandboxConfig>;

/** The defaults, as a value. */
export const defaultSandboxConfig = (): SandboxConfig => SandboxConfig.parse({});
