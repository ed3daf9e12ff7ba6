/**
 * Codex's `apply_patch` format, read for the hook: which files a patch adds, updates, moves or deletes, and the text a
 * file has after (or had before) one. Codex sends it as its `apply_patch` tool (the patch in `tool_input.command`) or
 * as a shell command with the patch in a heredoc (`apply_patch <<'PATCH' … PATCH`). Pure.
 *
 *     *** Begin Patch
 *     *** Update File: src/sum.js
 *     *** Move to: src/add.js          (optional)
 *     @@ function sum                  (a hunk; its header is optional)
 *      context line
 *     -removed line
 *     +added line
 *     *** Add File: NOTES.md           (each line of the new file after a +)
 *     +hello
 *     *** Delete File: old.txt
 *     *** End Patch
 */

/** One hunk of an update: the lines it replaces (context and removed) and the lines it leaves (context and added). */
export interface PatchHunk {
  old: string[];
  new: string[];
}

/** One file of a patch. */
export type PatchFile =
  | { kind: 'add'; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; moveTo?: string; hunks: PatchHunk[] };

const FILE_HEADER = /^\*\*\* (Add|Delete|Update) File: (.+)$/;

/** The files of a patch, in order; [] when the text holds no `*** Begin Patch` block. */
export function parsePatch(text: string): PatchFile[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const begin = lines.findIndex((l) => l.trim() === '*** Begin Patch');
  if (begin < 0) return [];
  const out: PatchFile[] = [];
  let i = begin + 1;
  while (i < lines.length && lines[i].trim() !== '*** End Patch') {
    const m = FILE_HEADER.exec(lines[i].trim());
    i++;
    if (!m) continue;
    const path = m[2].trim();
    const body: string[] = [];
    while (i < lines.length && !FILE_HEADER.test(lines[i].trim()) && lines[i].trim() !== '*** End Patch')
      body.push(lines[i++]);
    if (m[1] === 'Delete') out.push({ kind: 'delete', path });
    else if (m[1] === 'Add')
      out.push({ kind: 'add', path, content: body.map((l) => (l.startsWith('+') ? l.slice(1) : l)).join('\n') + '\n' });
    else out.push(updateOf(path, body));
  }
  return out;
}

function updateOf(path: string, body: string[]): PatchFile {
  let moveTo: string | undefined;
  const hunks: PatchHunk[] = [];
  let hunk: PatchHunk | undefined;
  for (const l of body) {
    if (l.startsWith('*** Move to: ')) moveTo = l.slice('*** Move to: '.length).trim();
    else if (l.startsWith('@@')) hunks.push((hunk = { old: [], new: [] }));
    else if (l.startsWith('*** End of File')) continue;
    else {
      if (!hunk) hunks.push((hunk = { old: [], new: [] }));
      if (l.startsWith('-')) hunk.old.push(l.slice(1));
      else if (l.startsWith('+')) hunk.new.push(l.slice(1));
      else {
        // A context line (its leading space; an empty line is an empty context line).
        hunk.old.push(l.slice(1));
        hunk.new.push(l.slice(1));
      }
    }
  }
  return {
    kind: 'update',
    path,
    ...(moveTo ? { moveTo } : {}),
    hunks: hunks.filter((h) => h.old.length || h.new.length),
  };
}

/** The patch of a shell command that runs `apply_patch` with it (a heredoc, or one quoted argument); else undefined. */
export function patchOfCommand(command: string): string | undefined {
  const heredoc =
    /(?:^|[\s;&|(])apply_patch\s*<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1[^\n]*\n([\s\S]*?)\n[ \t]*\2[ \t]*(?:\n|$)/.exec(
      command,
    );
  if (heredoc) return heredoc[3];
  const quoted = /(?:^|[\s;&|(])apply_patch\s+(['"])(\*\*\* Begin Patch[\s\S]*?\*\*\* End Patch\s*)\1/.exec(command);
  return quoted?.[2];
}

/** The files a patch writes (added, updated, moved to) and deletes (deleted, moved from), as written in it. */
export function patchTouched(text: string): { path: string; action: 'write' | 'delete' }[] {
  return parsePatch(text).flatMap((f) =>
    f.kind === 'delete'
      ? [{ path: f.path, action: 'delete' as const }]
      : f.kind === 'update' && f.moveTo
        ? [
            { path: f.path, action: 'delete' as const },
            { path: f.moveTo, action: 'write' as const },
          ]
        : [{ path: f.path, action: 'write' as const }],
  );
}

/** Where `needle` starts in `hay` at or after `from`: exact lines first, then ignoring trailing, then all white space. */
function seek(hay: string[], needle: string[], from: number): number {
  for (const eq of [
    (a: string, b: string) => a === b,
    (a: string, b: string) => a.trimEnd() === b.trimEnd(),
    (a: string, b: string) => a.trim() === b.trim(),
  ])
    for (let i = from; i + needle.length <= hay.length; i++) if (needle.every((l, j) => eq(hay[i + j], l))) return i;
  return -1;
}

/**
 * The text an update leaves of `current` (`reverse`: the text it had before, from the text after); undefined when a
 * hunk does not match, as codex would refuse the patch. The result ends with a newline, as codex writes it.
 */
export function applyUpdate(current: string, hunks: readonly PatchHunk[], reverse = false): string | undefined {
  const lines = current.replace(/\n$/, '').split('\n');
  if (current === '') lines.length = 0;
  let at = 0;
  for (const h of hunks) {
    const [from, to] = reverse ? [h.new, h.old] : [h.old, h.new];
    if (!from.length) {
      lines.push(...to);
      at = lines.length;
      continue;
    }
    const i = seek(lines, from, at);
    if (i < 0) return undefined;
    lines.splice(i, from.length, ...to);
    at = i + to.length;
  }
  return lines.join('\n') + '\n';
}
