/**
 * The one shell tokenizer: splits a command line into simple commands and their words, as a POSIX shell reads them
 * (quotes, escapes, comments, redirections, here-docs, `$(...)`). Pure. Used by the risk rules (what a tool call's
 * command runs and writes) and by the CLI (`--command "node agent.js --flag"` into argv).
 */

/** One simple command of a command line, and the one it is piped from (`a | b`: b's `pipedFrom` is a). */
export interface Segment {
  words: string[];
  /** Files its output is redirected to (`>`, `>>`, `&>`, `2>`...). */
  redirects: string[];
  text: string;
  pipedFrom?: Segment;
}

/**
 * Splits a command line into simple commands at `&&`, `||`, `;`, `|`, `&` and newlines, with quotes removed from
 * words (a POSIX-ish lexer: single quotes literal, double quotes and backslashes escaping, `#` comments, here-doc
 * bodies skipped). The inside of `$(...)` and backticks is returned in `nested`, to be judged as commands of its own.
 */
export function lex(cmd: string): { segments: Segment[]; nested: string[] } {
  const segments: Segment[] = [];
  const nested: string[] = [];
  let words: string[] = [];
  let redirects: string[] = [];
  let word = '';
  let inWord = false;
  /** What the next word is: a command word, a file written (`>`), or a file read / here-doc delimiter (`<`). */
  let next: 'word' | 'write' | 'read' | 'heredoc' = 'word';
  const heredocs: { delim: string; strip: boolean }[] = [];
  let strip = false;
  let start = 0;
  let pipeNext = false;

  const endWord = (): void => {
    if (!inWord) return;
    if (next === 'write') redirects.push(word);
    else if (next === 'heredoc') heredocs.push({ delim: word, strip });
    else if (next === 'word') words.push(word);
    next = 'word';
    word = '';
    inWord = false;
  };
  const endSegment = (end: number, pipe: boolean): void => {
    endWord();
    next = 'word';
    if (words.length || redirects.length) {
      const seg: Segment = { words, redirects, text: cmd.slice(start, end).trim() };
      if (pipeNext) seg.pipedFrom = segments[segments.length - 1];
      segments.push(seg);
    }
    words = [];
    redirects = [];
    pipeNext = pipe;
  };
  /** Index just past the `)` that closes a `$(` whose content starts at `from`. */
  const closeParen = (from: number): number => {
    let depth = 1;
    let q: string | undefined;
    for (let j = from; j < cmd.length; j++) {
      const ch = cmd[j];
      if (q) {
        if (ch === q) q = undefined;
        else if (ch === '\\' && q === '"') j++;
      } else if (ch === "'" || ch === '"') q = ch;
      else if (ch === '(') depth++;
      else if (ch === ')' && --depth === 0) return j + 1;
    }
    return cmd.length;
  };

  let quote: "'" | '"' | undefined;
  for (let i = 0; i < cmd.length; i++) {
    const ch = cmd[i];
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else word += ch;
      continue;
    }
    if (ch === '\\' && i + 1 < cmd.length) {
      if (cmd[i + 1] !== '\n') word += cmd[i + 1];
      inWord = true;
      i++;
      continue;
    }
    if (ch === '$' && cmd[i + 1] === '(' && cmd[i + 2] !== '(') {
      const end = closeParen(i + 2);
      nested.push(cmd.slice(i + 2, end - 1));
      word += cmd.slice(i, end);
      inWord = true;
      i = end - 1;
      continue;
    }
    if (ch === '`') {
      const end = cmd.indexOf('`', i + 1);
      const stop = end < 0 ? cmd.length : end;
      nested.push(cmd.slice(i + 1, stop));
      word += cmd.slice(i, stop + 1);
      inWord = true;
      i = stop;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = undefined;
      else word += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
      continue;
    }
    if (ch === '#' && !inWord) {
      while (i + 1 < cmd.length && cmd[i + 1] !== '\n') i++;
      continue;
    }
    if (ch === ' ' || ch === '\t') {
      endWord();
      continue;
    }
    if (ch === '\n' || ch === ';') {
      endSegment(i, false);
      if (ch === '\n')
        // Here-doc bodies are data, not commands: skip their lines up to each delimiter.
        for (const h of heredocs.splice(0)) {
          for (;;) {
            const eol = cmd.indexOf('\n', i + 1);
            const line = cmd.slice(i + 1, eol < 0 ? cmd.length : eol);
            i = eol < 0 ? cmd.length : eol;
            if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim || eol < 0) break;
          }
        }
      start = i + 1;
      continue;
    }
    if (ch === '&' && cmd[i + 1] === '>') {
      // `&>file` and `&>>file` write a file; they do not separate commands.
      endWord();
      next = 'write';
      i += cmd[i + 2] === '>' ? 2 : 1;
      continue;
    }
    if (ch === '&' || ch === '|') {
      const two = cmd[i + 1] === ch;
      endSegment(i, ch === '|' && !two);
      if (two || (ch === '|' && cmd[i + 1] === '&')) i++;
      start = i + 1;
      continue;
    }
    if (ch === '>' || ch === '<') {
      // A file-descriptor number right before the operator (`2>`) belongs to the redirection.
      if (inWord && /^\d+$/.test(word)) {
        word = '';
        inWord = false;
      } else endWord();
      if (ch === '<' && cmd[i + 1] === '<' && cmd[i + 2] !== '<') {
        i++;
        strip = cmd[i + 1] === '-';
        if (strip) i++;
        next = 'heredoc';
        continue;
      }
      next = ch === '>' ? 'write' : 'read';
      while (cmd[i + 1] === '>' || cmd[i + 1] === '|' || cmd[i + 1] === '<') i++;
      if (cmd[i + 1] === '&') {
        // `>&2`, `2>&1`: a descriptor is duplicated, no file is named.
        i++;
        while (/[\d-]/.test(cmd[i + 1] ?? '')) i++;
        next = 'word';
      }
      continue;
    }
    word += ch;
    inWord = true;
  }
  endSegment(cmd.length, false);
  return { segments, nested };
}

/** The words of a command line, quotes removed, across all its simple commands (an argv for a single command). */
export function shellWords(cmd: string): string[] {
  return lex(cmd).segments.flatMap((s) => s.words);
}
