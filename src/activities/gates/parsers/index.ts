/** The parser of each output format. */
import type { GateParser, OutputFormat } from '../../../core/gates';
import { parseIstanbulSummary, parseCobertura, parseLcov } from './coverage';
import { parseEslintJson } from './eslint';
import { parseGoTestJson } from './go-test';
import { parseJestJson } from './jest';
import { parseJunitXml } from './junit';
import { parseNpmAuditJson } from './npm-audit';
import { parsePytestSummary } from './pytest';
import { parseTsc } from './tsc';
import { parseVitestJson } from './vitest';

const PARSERS: Record<Exclude<OutputFormat, 'exit-code'>, GateParser> = {
  tsc: parseTsc,
  'eslint-json': parseEslintJson,
  'jest-json': parseJestJson,
  'vitest-json': parseVitestJson,
  pytest: parsePytestSummary,
  'junit-xml': parseJunitXml,
  'go-test-json': parseGoTestJson,
  'istanbul-summary': parseIstanbulSummary,
  lcov: parseLcov,
  cobertura: parseCobertura,
  'npm-audit-json': parseNpmAuditJson,
};

/** The parser for an output format (`exit-code` has none: only the exit code counts). */
export function parserFor(format: Exclude<OutputFormat, 'exit-code'>): GateParser {
  return PARSERS[format];
}
