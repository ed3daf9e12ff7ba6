/**
 * `ralph config check [file]`, `ralph config schema`, `ralph config init`: the quality-gates config file
 * (ralph.config.yaml / .json) validated, documented for editors, and bootstrapped from the workspace.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import YAML from 'yaml';
import { z } from 'zod';
import { PERSISTENCE_DEPRECATED, withAntiLazinessAlias } from '../../config/aliases';
import { detectGates } from '../../config/detect-gates';
import { DEFAULT_FORMATS, gatesConfigJsonSchema, thresholdsFor } from '../../config/gates-config';
import { CONFIG_FILE_NAMES, findConfigFile, loadGatesConfig, parseGatesConfig } from '../../config/load-config';
import { type CommandContext, UsageError, runCommand, table } from '../run-command';

/** Options of `ralph config check`. */
export const ConfigCheckOptions = z.object({ workspace: z.string().default('.'), json: z.boolean().default(false) });
/** Options of `ralph config check`. */
export type ConfigCheckOptions = z.infer<typeof ConfigCheckOptions>;
/** Options of `ralph config init`. */
export const ConfigInitOptions = z.object({
  workspace: z.string().default('.'),
  profile: z.enum(['strict', 'standard', 'relaxed']).default('standard'),
  write: z.boolean().default(false),
  force: z.boolean().default(false),
});

/** Registers `ralph config` and its subcommands. */
export function configCommand(program: Command): Command {
  const config = program.command('config').description('validate, document and create the quality-gates config file');
  config
    .command('check [file]')
    .description(`validate a config file (default: ${CONFIG_FILE_NAMES.join(' / ')} in the workspace)`)
    .option('--workspace <dir>', 'workspace to look in (default: current directory)')
    .option('--json', 'print the resolved config as JSON')
    .action(runCommand(ConfigCheckOptions, checkConfig));
  config
    .command('schema')
    .description('print the JSON Schema of the config file (for editors: yaml-language-server $schema)')
    .action(
      runCommand(z.object({}), async (_o, _args, ctx) => {
        ctx.out.json(gatesConfigJsonSchema());
      }),
    );
  config
    .command('init')
    .description('propose gates for the workspace (Node/TypeScript, Python, Go), as YAML')
    .option('--workspace <dir>', 'workspace to inspect (default: current directory)')
    .option('--profile <name>', 'strict | standard | relaxed (default standard)')
    .option('--write', 'write ralph.config.yaml into the workspace')
    .option('--force', 'overwrite an existing config file')
    .action(
      runCommand(ConfigInitOptions, async (o, _args, ctx) => {
        const ws = path.resolve(o.workspace);
        if (!fs.existsSync(ws) || !fs.statSync(ws).isDirectory())
          throw new UsageError(`workspace ${ws} does not exist or is not a directory: fix --workspace`);
        const gates = detectGates(ws);
        if (!gates.length)
          throw new UsageError(
            `found no package.json, pyproject.toml/setup.py or go.mod in ${ws}: write the gates yourself (see \`ralph config schema\`)`,
          );
        const cfg = parseGatesConfig(
          { profile: o.profile, gates, rejection: { maxRetries: 3, escalateToHuman: true } },
          'detected config',
        );
        const text = `# Quality gates for ralph (validate with: ralph config check)\n${YAML.stringify({ profile: cfg.profile, runOn: cfg.runOn, rejection: cfg.rejection, gates })}`;
        if (!o.write) return ctx.out.line(text.trimEnd());
        const file = path.join(ws, 'ralph.config.yaml');
        if (fs.existsSync(file) && !o.force) throw new UsageError(`${file} exists: add --force to overwrite it`);
        fs.writeFileSync(file, text);
        ctx.out.line(`wrote ${file} (${gates.length} gates: ${gates.map((g) => g.name).join(', ')})`);
      }),
    );
  return config;
}

/** Whether a config file still names the anti-laziness layer `persistence:` (read as JSON or YAML). */
function usesDeprecatedPersistence(file: string): boolean {
  const text = fs.readFileSync(file, 'utf8');
  const raw: unknown = file.endsWith('.json') ? JSON.parse(text) : YAML.parse(text);
  return withAntiLazinessAlias(raw ?? {}).deprecated;
}

/** `ralph config check [file]`: the resolved config as a table (or JSON), and a warning for the deprecated key. */
async function checkConfig(o: ConfigCheckOptions, args: string[], ctx: CommandContext): Promise<void> {
  const file = args[0] ? path.resolve(args[0]) : findConfigFile(path.resolve(o.workspace));
  if (!file)
    throw new UsageError(
      `no ${CONFIG_FILE_NAMES.join(' / ')} in ${path.resolve(o.workspace)}: create one with \`ralph config init --write\``,
    );
  const cfg = loadGatesConfig(file);
  const deprecated = usesDeprecatedPersistence(file);
  const resolved = {
    ...cfg,
    gates: cfg.gates.map((g) => ({
      ...g,
      format: g.format ?? DEFAULT_FORMATS[g.kind],
      thresholds: thresholdsFor(cfg.profile, g),
    })),
  };
  if (o.json) return ctx.out.json(deprecated ? { ...resolved, deprecated: [PERSISTENCE_DEPRECATED] } : resolved);
  if (deprecated) ctx.out.line(`warning: ${file}: ${PERSISTENCE_DEPRECATED}`);
  ctx.out.line(
    `${file}: valid (profile ${cfg.profile}, ${cfg.gates.length} gates, run on ${cfg.runOn}, escalate after ${cfg.rejection.maxRetries} rejections)`,
  );
  for (const l of table(
    ['GATE', 'KIND', 'FORMAT', 'THRESHOLDS', 'COMMAND'],
    resolved.gates.map((g) => [
      g.name + (g.enabled ? '' : ' (off)'),
      g.kind,
      g.format,
      JSON.stringify(g.thresholds),
      g.command,
    ]),
  ))
    ctx.out.line(l);
}
