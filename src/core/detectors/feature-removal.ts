/**
 * Feature removal: public symbols an iteration deleted without the task asking for it. An agent that cannot make a
 * function pass its checks may delete the function (and whatever used it); this names what went.
 */
import { detection, type Detection } from '../detections';
import type { FileDiff } from './unified-diff';
import { isTestFile } from './validation-bypass';

const ID = '[A-Za-z_$][\\w$]*';
const jsFunction = new RegExp(
  `^\\s*export\\s+(?:default\\s+)?(?:declare\\s+)?(?:async\\s+)?function\\s*\\*?\\s*(${ID})`,
);
const jsDeclaration = new RegExp(
  `^\\s*export\\s+(?:default\\s+)?(?:declare\\s+)?(?:abstract\\s+)?(?:const\\s+enum|const|let|var|class|interface|type|enum|namespace)\\s+(${ID})`,
);
const cjsExport = new RegExp(`^\\s*(?:module\\.)?exports\\.(${ID})\\s*=(?!=)`);
// Over the joined lines, so a list spread over several lines is read whole.
const exportList = /(?:^|[\n;])\s*export\s+(?:type\s+)?\{([^}]*)\}/g;
const pyDeclaration = /^(?:async\s+)?def\s+([A-Za-z]\w*)\s*\(|^class\s+([A-Za-z]\w*)\s*[(:]/;
const goDeclaration = /^func\s+([A-Z]\w*)\s*[[(]|^func\s*\([^)]*\)\s*([A-Z]\w*)\s*[[(]|^type\s+([A-Z]\w*)[\s[=]/;

/** The names an `export { a, b as c, type D }` list exports (`a`, `c`, `D`). */
function listedNames(list: string): string[] {
  return list
    .split(',')
    .map((item) => {
      const m = new RegExp(`^(?:type\\s+)?(${ID})(?:\\s+as\\s+(${ID}))?$`).exec(item.trim());
      return m ? (m[2] ?? m[1]) : '';
    })
    .filter((name) => name !== '' && name !== 'default');
}

/**
 * Lists the public symbols that these lines of a file declare, by the file's language:
 * - JS/TS: `export [default] [async] function X`, `export const|let|var|class|interface|type|enum|namespace X`,
 *   the names of `export { a, b as c }` lists (also re-exports), `module.exports.X =` and `exports.X =`;
 * - Python: unindented `def x(` and `class X` whose name does not start with `_`;
 * - Go: `func X(`, `func (r T) X(` and `type X` with a capitalised name.
 * Other files declare nothing. Each name once, in order of appearance.
 */
export function exportedSymbols(path: string, lines: string[]): string[] {
  const names: string[] = [];
  if (/\.[cm]?[jt]sx?$/.test(path)) {
    for (const line of lines) {
      const m = jsFunction.exec(line) ?? jsDeclaration.exec(line) ?? cjsExport.exec(line);
      if (m) names.push(m[1]);
    }
    for (const m of lines.join('\n').matchAll(exportList)) names.push(...listedNames(m[1]));
  } else if (/\.pyi?$/.test(path)) {
    for (const line of lines) {
      const m = pyDeclaration.exec(line);
      if (m) names.push(m[1] ?? m[2]);
    }
  } else if (/\.go$/.test(path)) {
    for (const line of lines) {
      const m = goDeclaration.exec(line);
      if (m) names.push(m[1] ?? m[2] ?? m[3]);
    }
  }
  return [...new Set(names)];
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `text` mentions `word` (a name or a file name) as a whole word, ignoring case. */
const mentions = (text: string, word: string): boolean =>
  new RegExp(`(?:^|[^\\w$])${escapeRegExp(word)}(?![\\w$])`, 'i').test(text);

/**
 * Detects removed features: the public symbols ({@link exportedSymbols}) that the removed lines of non-test source
 * files declared and that no added line anywhere in the diff declares again (so a move to another file, or a change
 * of signature, is fine). Whole deleted files count through their removed lines. Left out: test files, files whose
 * path or file name the task mentions, and symbols the task names. Gives a `feature_removal` warning (WARN) with one
 * evidence line per symbol (`src/auth.ts: validateEmail`), or undefined.
 */
export function detectFeatureRemoval(diff: FileDiff[], task: string): Detection | undefined {
  const stillDeclared = new Set(diff.flatMap((f) => exportedSymbols(f.path, f.added)));
  const removed: string[] = [];
  for (const f of diff) {
    if (!f.removed.length || isTestFile(f.path)) continue;
    const base = f.path.slice(f.path.lastIndexOf('/') + 1);
    if (task.toLowerCase().includes(f.path.toLowerCase()) || mentions(task, base)) continue;
    for (const name of exportedSymbols(f.path, f.removed)) {
      const key = `${f.path}: ${name}`;
      if (!stillDeclared.has(name) && !mentions(task, name) && !removed.includes(key)) removed.push(key);
    }
  }
  if (!removed.length) return undefined;
  const n = removed.length;
  return detection(
    'feature_removal',
    'warning',
    `${n} public symbol${n === 1 ? '' : 's'} removed that the task does not ask to remove: ${removed.join('; ')}. ` +
      `Deleting a feature to get the checks through is not a fix: restore it unless the task requires its removal.`,
    removed,
  );
}
