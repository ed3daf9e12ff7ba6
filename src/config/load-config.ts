import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { GatesConfig } from './gates-config';

/** Config file names looked up in a workspace, in order. */
export const CONFIG_FILE_NAMES = ['ralph.config.yaml', 'ralph.config.yml', 'ralph.config.json'];

import { ConfigError } from './errors';
import { withAntiLazinessAlias } from './aliases';

export { ConfigError };

/** Formats a zod issue path as `gates[1].thresholds.maxWarnings`. */
export const issuePath = (p: PropertyKey[]): string =>
  p.map((s, i) => (typeof s === 'number' ? `[${s}]` : `${i ? '.' : ''}${String(s)}`)).join('') || '(root)';

/** Reads and validates a gates config file (YAML or JSON). Nothing half-valid is ever returned. */
export function loadGatesConfig(file: string): GatesConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const fix = code === 'ENOENT' ? ': check the path, or create one with `ralph config init --write`' : '';
    throw new ConfigError(file, [`can't read it (${code ?? (e as Error).message})${fix}`]);
  }
  let raw: unknown;
  try {
    raw = file.endsWith('.json') ? JSON.parse(text) : YAML.parse(text, { prettyErrors: true });
  } catch (e) {
    throw new ConfigError(file, [
      `not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(e as Error).message.split('\n')[0].replace(/:\s*$/, '')}`,
    ]);
  }
  return parseGatesConfig(raw ?? {}, file);
}

/** Validates a gates config object; errors name the path, the problem and (for enums) the expected values. */
export function parseGatesConfig(raw: unknown, where = 'config'): GatesConfig {
  let value: unknown;
  try {
    value = withAntiLazinessAlias(raw, where).value;
  } catch (e) {
    throw new ConfigError(where, [(e as Error).message.replace(`${where}: `, '')]);
  }
  const r = GatesConfig.safeParse(value);
  if (!r.success)
    throw new ConfigError(
      where,
      r.error.issues.map((i) => `${issuePath(i.path)}: ${describeIssue(i)}`),
    );
  return r.data;
}

function describeIssue(i: z.core.$ZodIssue): string {
  if (i.code === 'unrecognized_keys')
    return `unknown key(s) ${i.keys.map((k) => `"${k}"`).join(', ')}: check the spelling`;
  return i.message;
}

/** The config file of a workspace, if it has one. */
export function findConfigFile(workspace: string): string | undefined {
  return CONFIG_FILE_NAMES.map((n) => path.join(workspace, n)).find((f) => fs.existsSync(f));
}
