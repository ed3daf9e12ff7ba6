/**
 * The configuration reference page (docs/configuration-reference.md), rendered from the zod schemas themselves: every
 * field of the loop input, ralph.config.yaml, the project input and an agent profile's front matter, with its type,
 * default and description. Descriptions come from a schema's own `.describe()`/`.meta()` when it has one, else from
 * the doc comments of the schema source (`npm run docs:config` reads them; see scripts/docs-config.js). Pure: the
 * same schemas and comments always give the same page, so a test can hold the committed page to it.
 */
import { z } from 'zod';
import * as agentProfile from './agent-profile';
import * as antiLaziness from './anti-laziness-config';
import * as gatesConfig from './gates-config';
import * as loopInput from './loop-input';
import * as projectInput from './project-input';
import * as routing from './routing';
import * as sandboxConfig from './sandbox-config';
import * as timeoutsConfig from './timeouts-config';
import * as verificationConfig from './verification-config';

/** Where descriptions that are not in the schemas come from: the doc comments of the schema source. */
export interface SchemaDocs {
  /** The doc comment of `key` in the object literal whose keys are `keys` (the object's whole key set). */
  field(keys: readonly string[], key: string): string | undefined;
  /** The doc comment of the exported schema constant `name`. */
  schema(name: string): string | undefined;
}

type Schema = z.core.$ZodType;
type Def = { type: string; innerType?: Schema; defaultValue?: unknown; element?: Schema; in?: Schema };

/** One section of the page: a schema documented once, and linked from every field that uses it. */
interface Section {
  title: string;
  anchor: string;
  schema: Schema;
  intro: string;
}

const SECTIONS: Section[] = [
  {
    title: 'Loop input (`ralphLoop`)',
    anchor: 'loop-input-ralphloop',
    schema: loopInput.LoopInput,
    intro: 'What `ralph start` sends, and what `temporal workflow start --type ralphLoop --input` takes.',
  },
  {
    title: 'ralph.config.yaml',
    anchor: 'ralphconfigyaml',
    schema: gatesConfig.GatesConfig,
    intro: 'The workspace config file (`.yaml`, `.yml` or `.json`), also accepted as `gates` in a loop input.',
  },
  {
    title: 'Project input (`ralphProject`)',
    anchor: 'project-input-ralphproject',
    schema: projectInput.ProjectInput,
    intro: 'What `ralph start --prd` sends, and what `temporal workflow start --type ralphProject --input` takes.',
  },
  {
    title: 'Agent profile front matter',
    anchor: 'agent-profile-front-matter',
    schema: agentProfile.ProfileFrontMatter,
    intro: 'The YAML front matter of `.ralph/agents/<name>.md`; the body is the specialist instructions.',
  },
  { title: 'agent', anchor: 'agent', schema: loopInput.AgentSpec, intro: '' },
  { title: 'completion', anchor: 'completion', schema: loopInput.CompletionCriteria, intro: '' },
  { title: 'gates[] (one gate)', anchor: 'gates-one-gate', schema: gatesConfig.GateSpec, intro: '' },
  { title: 'antiLaziness', anchor: 'antilaziness', schema: antiLaziness.AntiLazinessConfig, intro: '' },
  { title: 'verification', anchor: 'verification', schema: verificationConfig.VerificationConfig, intro: '' },
  { title: 'sandbox', anchor: 'sandbox', schema: sandboxConfig.SandboxConfig, intro: '' },
  { title: 'timeouts', anchor: 'timeouts', schema: timeoutsConfig.TimeoutsConfig, intro: '' },
  { title: 'routing', anchor: 'routing', schema: routing.LoopRoutingConfig, intro: '' },
];

/** Schemas documented by a section of another name: the loop's routing settings extend the project's. */
const ALIASES = new Map<Schema, Schema>([[routing.RoutingConfig, routing.LoopRoutingConfig]]);

/** The exported name of every schema constant of the config modules, to find its doc comment. */
const EXPORT_NAMES = new Map<Schema, string>();
for (const mod of [
  agentProfile,
  antiLaziness,
  gatesConfig,
  loopInput,
  projectInput,
  routing,
  sandboxConfig,
  timeoutsConfig,
  verificationConfig,
])
  for (const [name, value] of Object.entries(mod))
    if (value instanceof z.ZodType && !EXPORT_NAMES.has(value)) EXPORT_NAMES.set(value, name);

const def = (s: Schema): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional']);

/** A field's schema without its wrappers, whether it may be left out, and its default. */
function unwrap(s: Schema): { inner: Schema; optional: boolean; hasDefault: boolean; defaultValue?: unknown } {
  let inner = s;
  let optional = false;
  let hasDefault = false;
  let defaultValue: unknown;
  for (let d = def(inner); WRAPPERS.has(d.type) && d.innerType; d = def(inner)) {
    if (d.type === 'optional') optional = true;
    if ((d.type === 'default' || d.type === 'prefault') && !hasDefault) {
      hasDefault = true;
      defaultValue = d.defaultValue;
    }
    inner = d.innerType;
  }
  if (def(inner).type === 'pipe' && def(inner).in) return { ...unwrap(def(inner).in as Schema), optional, hasDefault };
  return { inner, optional, hasDefault, defaultValue };
}

const sectionOf = (s: Schema): Section | undefined => {
  const target = ALIASES.get(s) ?? s;
  return SECTIONS.find((x) => x.schema === target);
};

const shapeOf = (s: Schema): Record<string, Schema> | undefined =>
  def(s).type === 'object' ? (s as unknown as { shape: Record<string, Schema> }).shape : undefined;

/** Doc comment text as one Markdown table cell: one line, `{@link X}` as code, pipes escaped. */
const cell = (text: string): string =>
  text
    .replace(/\{@link\s+([^}\s|]+)[^}]*\}/g, '`$1`')
    .replace(/\s+/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();

const code = (v: unknown): string => '`' + (typeof v === 'string' ? v : JSON.stringify(v)).replace(/\|/g, '\\|') + '`';

/** The JSON Schema type of a leaf, in words: `integer > 0`, `` `a` \| `b` ``, `list of string`... */
function jsonType(js: Record<string, unknown>): string {
  if (Array.isArray(js.enum)) return js.enum.map(code).join(' \\| ');
  if (js.const !== undefined) return code(js.const);
  if (Array.isArray(js.anyOf)) return js.anyOf.map((x) => jsonType(x as Record<string, unknown>)).join(' or ');
  const t = js.type as string | undefined;
  if (t === 'array') return `list of ${js.items ? jsonType(js.items as Record<string, unknown>) : 'any'}`;
  if (t === 'object') {
    const v = js.additionalProperties;
    return v && typeof v === 'object' && !js.properties ? `map of ${jsonType(v as Record<string, unknown>)}` : 'object';
  }
  if (t === 'integer' || t === 'number') {
    const bounds: string[] = [];
    // zod's `.int()` bounds every integer to the safe range: not worth a word.
    const safe = (v: unknown): boolean => v !== undefined && Math.abs(v as number) !== Number.MAX_SAFE_INTEGER;
    if (safe(js.minimum)) bounds.push(`≥ ${String(js.minimum)}`);
    if (js.exclusiveMinimum !== undefined) bounds.push(`> ${String(js.exclusiveMinimum)}`);
    if (safe(js.maximum)) bounds.push(`≤ ${String(js.maximum)}`);
    if (js.exclusiveMaximum !== undefined) bounds.push(`< ${String(js.exclusiveMaximum)}`);
    return [t, bounds.join(', ')].filter(Boolean).join(' ');
  }
  return t ?? 'any';
}

/** A field's type in words, linking to the section that documents it. */
function typeOf(s: Schema): string {
  const section = sectionOf(s);
  if (section) return `object: see [${section.title}](#${section.anchor})`;
  const d = def(s);
  if (d.type === 'array' && d.element) {
    const el = unwrap(d.element).inner;
    const elSection = sectionOf(el);
    if (elSection) return `list of [${elSection.title}](#${elSection.anchor})`;
    if (shapeOf(el)) return 'list of objects';
  }
  if (shapeOf(s)) return 'object';
  return jsonType(z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>);
}

function defaultCell(f: ReturnType<typeof unwrap>): string {
  if (f.hasDefault) {
    const v = f.defaultValue;
    if (v !== null && typeof v === 'object' && !Array.isArray(v))
      return Object.keys(v).length ? 'see its fields' : '`{}`';
    const text = code(v);
    if (text.length <= 60) return text;
    return Array.isArray(v) && v.every((x) => typeof x === 'string')
      ? v.map((x) => code(x)).join(', ')
      : 'see the schema';
  }
  return f.optional ? '' : 'required';
}

/** The description of `key` in an object of `keys`: the schema's own, the field's comment, the schema's comment. */
function describe(docs: SchemaDocs, keys: string[], key: string, field: Schema, inner: Schema): string {
  const own = (field as { description?: string }).description ?? (inner as { description?: string }).description;
  if (own) return own;
  const fromField = docs.field(keys, key);
  if (fromField) return fromField;
  const name = EXPORT_NAMES.get(inner);
  return (name && docs.schema(name)) ?? '';
}

/** The table rows of an object's fields, nested objects flattened (`stuck.sameError`, `gates[].name`). */
function rows(docs: SchemaDocs, obj: Schema, prefix: string): string[] {
  const shape = shapeOf(obj) ?? {};
  const keys = Object.keys(shape);
  const out: string[] = [];
  for (const key of keys) {
    const f = unwrap(shape[key]);
    const path = `${prefix}${key}`;
    const text = describe(docs, keys, key, shape[key], f.inner);
    out.push(`| \`${path}\` | ${typeOf(f.inner)} | ${defaultCell(f)} | ${cell(text)} |`);
    if (sectionOf(f.inner)) continue;
    if (shapeOf(f.inner)) out.push(...rows(docs, f.inner, `${path}.`));
    const d = def(f.inner);
    if (d.type === 'array' && d.element) {
      const el = unwrap(d.element).inner;
      if (shapeOf(el) && !sectionOf(el)) out.push(...rows(docs, el, `${path}[].`));
    }
  }
  return out;
}

function renderSection(docs: SchemaDocs, s: Section): string {
  const name = EXPORT_NAMES.get(s.schema);
  const about = [s.intro, cell((name && docs.schema(name)) ?? '')].filter(Boolean).join(' ');
  return [
    `## ${s.title}`,
    ...(about ? ['', about] : []),
    '',
    '| field | type | default | description |',
    '| --- | --- | --- | --- |',
    ...rows(docs, s.schema, ''),
  ].join('\n');
}

/** The whole page, Markdown, before Prettier's table alignment. */
export function configReference(docs: SchemaDocs): string {
  const head = [
    '# Configuration reference',
    '',
    '<!-- Generated by `npm run docs:config` from the zod schemas in src/config/: do not edit by hand. -->',
    '',
    'What this page is for: every field of every input and config file, with its type, its default and what it does,',
    'generated from the schemas the CLI, the client and the worker validate with (a field that is not here is',
    'refused). How the pieces fit together: [configuration](configuration.md). Fields marked "required" must be set;',
    'the others may be left out. Nested fields are written with dots (`stuck.sameError`) and `[]` for list items.',
  ].join('\n');
  return [head, ...SECTIONS.map((s) => renderSection(docs, s))].join('\n\n') + '\n';
}
