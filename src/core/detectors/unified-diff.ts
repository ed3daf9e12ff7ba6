/**
 * A parser for `git diff` output (unified format), reduced to what the detectors need: per file, the lines added and
 * removed. Pure: the activity that runs git passes the text in.
 *
 * Kept instead of `diff`'s `parsePatch` (8.0.x), which reads git's output only in part: a rename without hunks and a
 * binary file come back with no file name at all, and C-quoted names (`"caf\303\251.ts"`) keep their escapes, so
 * the detectors would lose exactly the files a cheat likes to touch. Core also imports no packages.
 */

/** The changed lines of one file, without their `+`/`-` prefix. */
export interface FileDiff {
  /** Repo-relative path: the new path, or the old one for a deleted file. */
  path: string;
  added: string[];
  removed: string[];
  /** 1-based line number in the new file of each `added` line, when known (parsed diffs have them). */
  addedLineNumbers?: number[];
}

const hunkHeader = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Undoes git's C-style quoting of a path (`"caf\\303\\251.ts"`) and drops the tab git appends to names with spaces. */
function unquote(raw: string): string {
  const p = raw.replace(/\t[^"]*$/, '');
  if (!(p.length > 1 && p.startsWith('"') && p.endsWith('"'))) return p;
  // Octal escapes are the bytes of UTF-8 text: rebuild a percent-encoded string and decode it in one go.
  const escapes: Record<string, string> = { n: '\n', t: '\t', a: '\x07', b: '\b', f: '\f', r: '\r', v: '\v' };
  const encoded = p
    .slice(1, -1)
    .replace(/\\([0-7]{3})|\\(.)|([^\\]+)/g, (_m, octal?: string, esc?: string, plain?: string) =>
      octal
        ? `%${parseInt(octal, 8).toString(16).padStart(2, '0')}`
        : encodeURIComponent(plain ?? escapes[esc ?? ''] ?? esc ?? ''),
    );
  try {
    return decodeURIComponent(encoded);
  } catch {
    return p.slice(1, -1);
  }
}

/** Reads the path of a `---`/`+++` line: null for `/dev/null`, else unquoted without its `a/`/`b/` prefix. */
function headerPath(raw: string): string | null {
  const p = unquote(raw);
  return p === '/dev/null' ? null : p.replace(/^[ab]\//, '');
}

/**
 * Parses the text of `git diff` (any number of files; renames, binary files, mode changes and `\ No newline` markers
 * included). Hunk line counts decide where a hunk ends, so removed lines that look like headers (`--- x`) stay lines.
 */
export function parseUnifiedDiff(text: string): FileDiff[] {
  const files: FileDiff[] = [];
  let current: FileDiff | null = null;
  let oldLeft = 0;
  let newLeft = 0;
  let newLine = 0;
  let oldPath: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (current && (oldLeft > 0 || newLeft > 0)) {
      const tag = line[0];
      if (tag === '+') {
        current.added.push(line.slice(1));
        current.addedLineNumbers?.push(newLine++);
        newLeft--;
        continue;
      }
      if (tag === '-') {
        current.removed.push(line.slice(1));
        oldLeft--;
        continue;
      }
      if (tag === ' ' || line === '') {
        newLine++;
        oldLeft--;
        newLeft--;
        continue;
      }
      if (tag === '\\') continue;
    }
    if (line.startsWith('\\')) continue;
    if (line.startsWith('diff --git ')) {
      const m = /^diff --git (?:"?a\/)(.*?)"? (?:"?b\/)(.*?)"?$/.exec(line);
      current = { path: m ? (headerPath(m[2]) ?? m[2]) : line.slice(11), added: [], removed: [], addedLineNumbers: [] };
      oldPath = m ? m[1] : null;
      files.push(current);
      oldLeft = newLeft = 0;
      continue;
    }
    if (!current) continue;
    if (line.startsWith('rename to ')) current.path = unquote(line.slice(10));
    else if (line.startsWith('--- ')) oldPath = headerPath(line.slice(4)) ?? oldPath;
    else if (line.startsWith('+++ ')) current.path = headerPath(line.slice(4)) ?? oldPath ?? current.path;
    else {
      const h = hunkHeader.exec(line);
      if (h) {
        oldLeft = h[1] === undefined ? 1 : Number(h[1]);
        newLine = Number(h[2]);
        newLeft = h[3] === undefined ? 1 : Number(h[3]);
      }
    }
  }
  return files;
}
