/** Ralph's `prd.json`: its schema, and parsing with every problem located by line and JSON path. */
import { z } from 'zod';
import { JsonSyntaxError, PrdError, type PrdProblem } from '../errors';
import { lineAt, lineColumn, nodeAt, scanJson, type JsonNode } from './json-scan';
import { dependencyProblems, duplicateIdProblems } from './problems';
import type { Prd, PrdTask } from './types';

const Id = z.union([z.string().min(1, 'must not be empty'), z.number().int()], {
  error: 'expected a string such as "US-001"',
});

/** One story of a Ralph `prd.json`. Unknown keys (`notes`, ...) are allowed and kept on write-back. */
export const PrdStory = z.looseObject({
  id: Id,
  title: z.string().min(1, 'must not be empty'),
  description: z.string().default(''),
  acceptanceCriteria: z.array(z.string()).default([]),
  /** Lower runs first; default: the story's 1-based position. */
  priority: z.number().optional(),
  passes: z.boolean().default(false),
  dependsOn: z.array(Id).optional(),
  /** Alias of `dependsOn` found in some Ralph variants. */
  dependencies: z.array(Id).optional(),
});
/** One story of a Ralph `prd.json`. */
export type PrdStory = z.infer<typeof PrdStory>;

/** A Ralph `prd.json`. Unknown top-level keys are allowed and kept on write-back. */
export const PrdJson = z.looseObject({
  project: z.string().optional(),
  projectName: z.string().optional(),
  branchName: z.string().optional(),
  description: z.string().optional(),
  userStories: z.array(PrdStory).min(1, 'must list at least one story'),
});
/** A Ralph `prd.json`. */
export type PrdJson = z.infer<typeof PrdJson>;

/** Parses and validates a Ralph `prd.json`; throws a {@link PrdError} listing every problem with its line and path. */
export function parsePrdJson(text: string, file = 'prd.json'): Prd {
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  let raw: unknown;
  try {
    raw = JSON.parse(text.slice(bom));
  } catch (e) {
    throw jsonSyntaxError(text, file, e);
  }
  // Spans are needed only to put line numbers on problems: scanned lazily.
  let spans: JsonNode | undefined;
  const lineOf = (p: PropertyKey[]): number => {
    spans ??= scanJson(text);
    return lineAt(text, nodeAt(spans, p).start);
  };
  const where = (p: PropertyKey[]): Omit<PrdProblem, 'message'> => ({
    line: lineOf(p),
    ...(p.length ? { path: issuePath(p) } : {}),
  });

  const r = PrdJson.safeParse(raw);
  if (!r.success)
    throw new PrdError(
      file,
      r.error.issues.map((i) => ({ ...where(i.path), message: describeIssue(i, raw) })),
    );

  const tasks = r.data.userStories.map((s, index): PrdTask => ({
    id: String(s.id),
    title: s.title,
    description: s.description,
    acceptanceCriteria: s.acceptanceCriteria,
    priority: s.priority ?? index + 1,
    done: s.passes,
    dependsOn: [...new Set([...(s.dependsOn ?? []), ...(s.dependencies ?? [])].map(String))],
    source: { kind: 'json', index },
  }));
  const problems = [
    ...duplicateIdProblems(tasks, (t, first) => ({
      ...where(['userStories', jsonIndex(t), 'id']),
      message: `duplicate id "${t.id}" (also userStories[${jsonIndex(first)}])`,
    })),
    ...dependencyProblems(tasks, (t, dep) => {
      const i = jsonIndex(t);
      const s = r.data.userStories[i];
      const keys = (['dependsOn', 'dependencies'] as const).filter((k) => s[k] !== undefined);
      for (const k of keys) {
        const j = dep === undefined ? -1 : s[k]!.map(String).indexOf(dep);
        if (j >= 0) return where(['userStories', i, k, j]);
      }
      return where(['userStories', i, keys[0] ?? 'dependsOn']);
    }),
  ];
  if (problems.length) throw new PrdError(file, problems);
  return {
    kind: 'json',
    project: r.data.project ?? r.data.projectName,
    branchName: r.data.branchName,
    description: r.data.description,
    tasks,
  };
}

const jsonIndex = (t: PrdTask): number => (t.source.kind === 'json' ? t.source.index : -1);

/** Formats a zod issue path as `userStories[2].priority` (as load-config's issuePath; kept here so this module stays free of node builtins). */
const issuePath = (p: PropertyKey[]): string =>
  p.map((s, i) => (typeof s === 'number' ? `[${s}]` : `${i ? '.' : ''}${String(s)}`)).join('');

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

function describeIssue(i: z.core.$ZodIssue, raw: unknown): string {
  if (i.code !== 'invalid_type') return i.message;
  const expected = TYPE_NAMES[i.expected] ?? i.expected;
  let v: unknown = raw;
  for (const k of i.path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v === undefined ? `missing: expected ${expected}` : `expected ${expected}, got ${describeValue(v)}`;
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  const s = JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

function jsonSyntaxError(text: string, file: string, parseError: unknown): PrdError {
  try {
    scanJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) {
      const { line, column } = lineColumn(text, e.offset);
      return new PrdError(file, [{ message: `invalid JSON at line ${line} column ${column}: ${e.message}` }], {
        cause: parseError,
      });
    }
  }
  // The scanner accepted what JSON.parse rejected: report JSON.parse's own words.
  return new PrdError(file, [{ message: `invalid JSON: ${(parseError as Error).message}` }], { cause: parseError });
}
