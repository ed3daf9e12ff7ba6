import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ErrorTypes } from '../../src/core/constants';

const SRC = path.resolve(__dirname, '../../src');

interface Edge {
  to: string;
  typeOnly: boolean;
}

/** Every .ts file under src, as a path relative to src. */
function sources(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') ? [path.relative(SRC, p)] : [];
  });
}

/** The relative imports (and re-exports) of one file, resolved to files under src. */
function importsOf(file: string): Edge[] {
  const text = fs.readFileSync(path.join(SRC, file), 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false);
  const out: Edge[] = [];
  for (const st of sf.statements) {
    let spec: string | undefined;
    let typeOnly = false;
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      spec = st.moduleSpecifier.text;
      typeOnly = st.importClause?.isTypeOnly ?? false;
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      spec = st.moduleSpecifier.text;
      typeOnly = st.isTypeOnly;
    }
    if (!spec?.startsWith('.')) continue;
    const base = path.join(path.dirname(path.join(SRC, file)), spec);
    const target = [`${base}.ts`, path.join(base, 'index.ts')].find((c) => fs.existsSync(c));
    if (target) out.push({ to: path.relative(SRC, target), typeOnly });
  }
  return out;
}

/** The non-relative imports (packages, node builtins) of one file. */
function packageImportsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(SRC, file), 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false);
  return sf.statements.flatMap((st) =>
    (ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) &&
    st.moduleSpecifier &&
    ts.isStringLiteral(st.moduleSpecifier) &&
    !st.moduleSpecifier.text.startsWith('.')
      ? [st.moduleSpecifier.text]
      : [],
  );
}

const graph = new Map(sources().map((f) => [f, importsOf(f)]));

/** One import cycle per strongly connected group of files (Tarjan), as a list of files. */
function cycles(): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!idx.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v)!, idx.get(to)!));
    }
    if (low.get(v) === idx.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).some((e) => e.to === v)) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

describe('source layout', () => {
  it('reads the imports of every source file', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get(path.join('workflows', 'ralph-loop.ts'))!.map((e) => e.to)).toContain(
      path.join('workflows', 'loop', 'iteration.ts'),
    );
  });

  it('has no import cycles (type-only imports included)', () => {
    expect(cycles()).toEqual([]);
  });

  it('keeps core free of imports from outside core, type-only imports included', () => {
    const bad = [...graph].flatMap(([from, edges]) =>
      from.startsWith(`core${path.sep}`)
        ? edges.filter((e) => !e.to.startsWith(`core${path.sep}`)).map((e) => `${from} -> ${e.to}`)
        : [],
    );
    expect(bad).toEqual([]);
  });

  it('keeps core free of packages and node builtins', () => {
    const bad = sources()
      .filter((f) => f.startsWith(`core${path.sep}`))
      .flatMap((f) => packageImportsOf(f).map((spec) => `${f} -> ${spec}`));
    expect(bad).toEqual([]);
  });

  it('keeps workflow code to workflows, core and type-only imports of activities and config', () => {
    const bad = [...graph].flatMap(([from, edges]) =>
      from.startsWith(`workflows${path.sep}`)
        ? edges
            .filter(
              (e) => !e.typeOnly && !e.to.startsWith(`workflows${path.sep}`) && !e.to.startsWith(`core${path.sep}`),
            )
            .map((e) => `${from} -> ${e.to}`)
        : [],
    );
    expect(bad).toEqual([]);
  });

  it('names every failure type once, in core/constants ErrorTypes (no literal error type strings)', () => {
    const constants = path.join('core', 'constants.ts');
    const bad = sources()
      .filter((f) => f !== constants)
      .flatMap((f) => {
        const text = fs.readFileSync(path.join(SRC, f), 'utf8');
        return Object.values(ErrorTypes)
          .filter((t) => text.includes(`'${t}'`) || text.includes(`"${t}"`))
          .map((t) => `${f}: '${t}'`);
      });
    expect(bad).toEqual([]);
  });

  it('keeps error classes in one errors.ts per layer at most', () => {
    const declaring = sources().filter((f) =>
      /\bclass \w+ extends Error\b/.test(fs.readFileSync(path.join(SRC, f), 'utf8')),
    );
    const misplaced = declaring.filter((f) => f !== path.join(f.split(path.sep)[0], 'errors.ts'));
    expect(misplaced).toEqual([]);
    // Every layer that has error classes has them in one file.
    expect(new Set(declaring.map((f) => f.split(path.sep)[0])).size).toBe(declaring.length);
  });

  it('lets commands share code through cli modules, never by importing another command', () => {
    const commands = `cli${path.sep}commands${path.sep}`;
    const bad = [...graph].flatMap(([from, edges]) =>
      from.startsWith(commands) ? edges.filter((e) => e.to.startsWith(commands)).map((e) => `${from} -> ${e.to}`) : [],
    );
    expect(bad).toEqual([]);
  });

  it('keeps the CLI and the console to the client (and core, config, state, the process launchers) for Temporal and the loop', () => {
    const allowed = [
      'cli',
      'client',
      'core',
      'config',
      'state',
      'views',
      'workers',
      'dev',
      'telemetry',
      'scripted-agent',
    ];
    const bad = [...graph].flatMap(([from, edges]) =>
      /^(cli|console)[/\\]/.test(from)
        ? edges
            .filter((e) => !allowed.includes(e.to.split(path.sep)[0]) && !e.to.startsWith(`console${path.sep}`))
            .map((e) => `${from.split(path.sep).join('/')} -> ${e.to.split(path.sep).join('/')}`)
            .filter((edge) => !CLI_EXCEPTIONS.includes(edge))
        : [],
    );
    expect(bad).toEqual([]);
    // Temporal itself only through the client: the CLI and the console import the SDK's types, never its values.
    const sdk = sources()
      .filter((f) => /^(cli|console)[/\\]/.test(f))
      .filter((f) =>
        /^import (?!type )[^;]*from '@temporalio\/client'/m.test(fs.readFileSync(path.join(SRC, f), 'utf8')),
      );
    expect(sdk).toEqual([]);
  });

  it('keeps views (text renderings of the state) to core', () => {
    const bad = [...graph].flatMap(([from, edges]) =>
      from.startsWith(`views${path.sep}`)
        ? edges.filter((e) => !['views', 'core'].includes(e.to.split(path.sep)[0])).map((e) => `${from} -> ${e.to}`)
        : [],
    );
    expect(bad).toEqual([]);
  });

  it('keeps state (the files of the state folder) to core, config and telemetry', () => {
    const bad = [...graph].flatMap(([from, edges]) =>
      from.startsWith(`state${path.sep}`)
        ? edges
            .filter((e) => !['state', 'core', 'config', 'telemetry'].includes(e.to.split(path.sep)[0]))
            .map((e) => `${from} -> ${e.to}`)
        : [],
    );
    expect(bad).toEqual([]);
  });

  it('has no function body over 80 lines, but for the listed ones, which may only shrink', () => {
    const over = longFunctions();
    const unlisted = over.filter((f) => !(f.key in LONG_FUNCTIONS)).map((f) => `${f.key}: ${f.lines} lines`);
    const grown = over
      .filter((f) => f.key in LONG_FUNCTIONS && f.lines > LONG_FUNCTIONS[f.key])
      .map((f) => `${f.key}: ${f.lines} lines (listed at ${LONG_FUNCTIONS[f.key]})`);
    const gone = Object.keys(LONG_FUNCTIONS).filter((k) => !over.some((f) => f.key === k));
    // A listed function split below 80 lines leaves the list too (so the list only ever says what is still long).
    expect({ unlisted, grown, gone }).toEqual({ unlisted: [], grown: [], gone: [] });
  });
});

/**
 * Functions still longer than 80 lines (file:name -> body lines), each to be split when next changed. New code never
 * joins this list: split the function instead.
 */
const LONG_FUNCTIONS: Record<string, number> = {
  'activities/gates/parsers/coverage.ts:parseLcov': 100,
  'workflows/loop/agent.ts:runAgentPhase': 96,
  'core/detectors/validation-bypass.ts:detectValidationBypass': 91,
  'dev/dev-server.ts:startDevServer': 91,
  'activities/gates/parsers/junit.ts:parseXml': 86,
};

/** Every function, method or arrow function under src whose body spans more than 80 lines, as `file:name`. */
function longFunctions(): { key: string; lines: number }[] {
  const out: { key: string; lines: number }[] = [];
  for (const file of sources()) {
    const sf = ts.createSourceFile(file, fs.readFileSync(path.join(SRC, file), 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (n: ts.Node): void => {
      if (ts.isFunctionLike(n) && 'body' in n && n.body) {
        const body = n.body as ts.Node;
        const lines =
          sf.getLineAndCharacterOfPosition(body.getEnd()).line -
          sf.getLineAndCharacterOfPosition(body.getStart(sf)).line +
          1;
        if (lines > 80) out.push({ key: `${file.split(path.sep).join('/')}:${functionName(n)}`, lines });
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

/** A function's own name, else the name of what it is assigned to (`const f = () => ...`, `{ f: () => ... }`). */
function functionName(n: ts.Node): string {
  const own = (n as { name?: ts.Node }).name;
  if (own && ts.isIdentifier(own)) return own.text;
  const parent = n.parent as { name?: ts.Node } | undefined;
  if (parent?.name && (ts.isIdentifier(parent.name) || ts.isStringLiteral(parent.name))) return parent.name.text;
  return '<anonymous>';
}

/**
 * CLI files that still reach into activities, each for a local operation with no Temporal in it. The list may only
 * shrink: `ralph hook` takes its rollback checkpoint in the agent's process, and `ralph checkpoints prune` maintains
 * the checkpoint store the workers write.
 */
// (hook.ts loads activities/workspace/checkpoint with a lazy require, only when it takes a checkpoint.)
const CLI_EXCEPTIONS = ['cli/commands/checkpoints.ts -> activities/workspace/prune.ts'];
