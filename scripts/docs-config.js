#!/usr/bin/env node
/**
 * `npm run docs:config`: writes docs/configuration-reference.md from the zod schemas (src/config/reference.ts, run
 * from the build in dist/) and the doc comments of their source (src/config/**.ts, read with the TypeScript compiler's
 * parser), then formats it with Prettier as `npm run lint` expects. `--check` writes nothing and exits 1 when the
 * committed page differs. test/unit/config/reference.test.ts holds the committed page to the same output.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const PAGE = path.join(ROOT, 'docs', 'configuration-reference.md');
const SOURCE = path.join(ROOT, 'src', 'config');

/** Every .ts file under `dir`, sorted (so the index is the same on every machine). */
function sourceFiles(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const p = path.join(dir, e.name);
      return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
    })
    .sort();
}

/** The text of a node's doc comment (`/** ... *\/`), or undefined. */
function docOf(ts, node) {
  const docs = ts.getJSDocCommentsAndTags(node).filter((d) => d.kind === ts.SyntaxKind.JSDoc);
  const last = docs[docs.length - 1];
  const text = last && last.comment !== undefined ? ts.getTextOfJSDocComment(last.comment) : undefined;
  return text && text.trim() ? text.trim() : undefined;
}

const OBJECT_CALLS = new Set(['object', 'strictObject', 'looseObject', 'extend']);

/**
 * Reads the doc comments of the schema source: per `z.object({...})` literal, its keys and each key's comment; per
 * exported constant, its comment. Returns the SchemaDocs that src/config/reference.ts asks.
 */
function schemaDocs(dir = SOURCE) {
  const ts = require('typescript');
  const literals = [];
  const exported = new Map();
  for (const file of sourceFiles(dir)) {
    const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node) => {
      if (ts.isVariableStatement(node) && node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
        const doc = docOf(ts, node);
        for (const d of node.declarationList.declarations)
          if (doc && ts.isIdentifier(d.name) && !exported.has(d.name.text)) exported.set(d.name.text, doc);
      }
      const arg = ts.isCallExpression(node) ? node.arguments[0] : undefined;
      if (
        arg &&
        ts.isObjectLiteralExpression(arg) &&
        ts.isPropertyAccessExpression(node.expression) &&
        OBJECT_CALLS.has(node.expression.name.text)
      ) {
        const keys = [];
        const docs = new Map();
        for (const p of arg.properties) {
          if (!(ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p))) continue;
          const key = ts.isIdentifier(p.name) || ts.isStringLiteral(p.name) ? p.name.text : p.name.getText(sf);
          keys.push(key);
          const doc = docOf(ts, p);
          if (doc) docs.set(key, doc);
        }
        literals.push({ keys, docs });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return {
    field(keys, key) {
      const have = new Set(keys);
      const same = literals.find((l) => l.keys.length === keys.length && l.keys.every((k) => have.has(k)));
      if (same) return same.docs.get(key);
      // An extended object (`.extend`, `.partial`): the literals it was built from, the largest first.
      const parts = literals
        .filter((l) => l.keys.includes(key) && l.keys.every((k) => have.has(k)))
        .sort((a, b) => b.keys.length - a.keys.length);
      return parts.map((l) => l.docs.get(key)).find(Boolean);
    },
    schema(name) {
      return exported.get(name);
    },
  };
}

/**
 * The page as committed: the rendered Markdown, formatted by Prettier with the repository's settings (in a child
 * process: Prettier 3 loads its plugins with dynamic imports, which a jest sandbox refuses).
 */
function renderPage(configReference) {
  const { execFileSync } = require('node:child_process');
  const bin = require.resolve('prettier/bin/prettier.cjs');
  return execFileSync(process.execPath, [bin, '--stdin-filepath', PAGE], {
    input: configReference(schemaDocs()),
    encoding: 'utf8',
    cwd: ROOT,
  });
}

async function main() {
  const check = process.argv.includes('--check');
  const built = path.join(ROOT, 'dist', 'src', 'config', 'reference.js');
  if (!fs.existsSync(built)) {
    console.error(`docs:config: ${path.relative(ROOT, built)} is missing: run \`npm run build\` first`);
    process.exit(1);
  }
  const page = renderPage(require(built).configReference);
  const current = fs.existsSync(PAGE) ? fs.readFileSync(PAGE, 'utf8') : '';
  const rel = path.relative(ROOT, PAGE);
  if (check) {
    if (current === page) return console.log(`${rel} is up to date`);
    console.error(`${rel} differs from the schemas: run \`npm run docs:config\``);
    process.exit(1);
  }
  if (current === page) return console.log(`${rel} is up to date`);
  fs.writeFileSync(PAGE, page);
  console.log(`wrote ${rel}`);
}

module.exports = { schemaDocs, renderPage, PAGE };

if (require.main === module)
  main().catch((e) => {
    console.error(`docs:config: ${e.message}`);
    process.exit(1);
  });
