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

  it('keeps error classes in one errors.ts per layer at most (config, client)', () => {
    const bad = sources()
      .filter((f) => /^(config|client)[/\\]/.test(f) && !f.endsWith(`${path.sep}errors.ts`))
      .filter((f) => /\bexport class \w+Error extends Error\b/.test(fs.readFileSync(path.join(SRC, f), 'utf8')));
    expect(bad).toEqual([]);
  });
});
