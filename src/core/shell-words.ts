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
  return new Lexer(cmd).run();
}

/** The lexer's state over one command line; {@link lex} runs it. */
class Lexer {
  readonly segments: Segment[] = [];
  readonly nested: string[] = [];
  private words: string[] = [];
  private redirects: string[] = [];
  private word = '';
  private inWord = false;
  /** What the next word is: a command word, a file written (`>`), or a file read / here-doc delimiter (`<`). */
  private next: 'word' | 'write' | 'read' | 'heredoc' = 'word';
  private readonly heredocs: { delim: string; strip: boolean }[] = [];
  private strip = false;
  private start = 0;
  private pipeNext = false;
  private quote: "'" | '"' | undefined;

  constructor(private readonly cmd: string) {}

  run(): { segments: Segment[]; nested: string[] } {
    for (let i = 0; i < this.cmd.length; i++) i = this.step(i);
    this.endSegment(this.cmd.length, false);
    return { segments: this.segments, nested: this.nested };
  }

  /** Reads the character at `i` (and what belongs to it); returns the index of the last character consumed. */
  private step(i: number): number {
    const cmd = this.cmd;
    const ch = cmd[i];
    if (this.quote === "'") {
      if (ch === "'") this.quote = undefined;
      else this.word += ch;
      return i;
    }
    if (ch === '\\' && i + 1 < cmd.length) {
      if (cmd[i + 1] !== '\n') this.word += cmd[i + 1];
      this.inWord = true;
      return i + 1;
    }
    if ((ch === '$' && cmd[i + 1] === '(' && cmd[i + 2] !== '(') || ch === '`') return this.substitution(i);
    if (this.quote === '"') {
      if (ch === '"') this.quote = undefined;
      else this.word += ch;
      return i;
    }
    if (ch === "'" || ch === '"') {
      this.quote = ch;
      this.inWord = true;
      return i;
    }
    if (ch === '#' && !this.inWord) {
      while (i + 1 < cmd.length && cmd[i + 1] !== '\n') i++;
      return i;
    }
    if (ch === ' ' || ch === '\t') {
      this.endWord();
      return i;
    }
    if (ch === '\n' || ch === ';') return this.separator(i);
    if (ch === '&' && cmd[i + 1] === '>') {
      // `&>file` and `&>>file` write a file; they do not separate commands.
      this.endWord();
      this.next = 'write';
      return i + (cmd[i + 2] === '>' ? 2 : 1);
    }
    if (ch === '&' || ch === '|') {
      const two = cmd[i + 1] === ch;
      this.endSegment(i, ch === '|' && !two);
      if (two || (ch === '|' && cmd[i + 1] === '&')) i++;
      this.start = i + 1;
      return i;
    }
    if (ch === '>' || ch === '<') return this.redirection(i);
    this.word += ch;
    this.inWord = true;
    return i;
  }

  /** `$(...)` or a backtick substitution at `i`: kept in the word, its inside returned in `nested`. */
  private substitution(i: number): number {
    const cmd = this.cmd;
    const backtick = cmd[i] === '`';
    const closing = backtick ? cmd.indexOf('`', i + 1) : this.closeParen(i + 2) - 1;
    const stop = closing < 0 ? cmd.length : closing;
    this.nested.push(cmd.slice(i + (backtick ? 1 : 2), stop));
    this.word += cmd.slice(i, stop + 1);
    this.inWord = true;
    return stop;
  }

  /** Index just past the `)` that closes a `$(` whose content starts at `from`. */
  private closeParen(from: number): number {
    const cmd = this.cmd;
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
  }

  /** A newline or `;`: ends the command; after a newline, the pending here-doc bodies are skipped. */
  private separator(i: number): number {
    const cmd = this.cmd;
    this.endSegment(i, false);
    if (cmd[i] === '\n')
      // Here-doc bodies are data, not commands: skip their lines up to each delimiter.
      for (const h of this.heredocs.splice(0)) {
        for (;;) {
          const eol = cmd.indexOf('\n', i + 1);
          const line = cmd.slice(i + 1, eol < 0 ? cmd.length : eol);
          i = eol < 0 ? cmd.length : eol;
          if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim || eol < 0) break;
        }
      }
    this.start = i + 1;
    return i;
  }

  /** `>`, `>>`, `<`, `<<` (here-doc), `2>`, `>&2`...: what the next word is. */
  private redirection(i: number): number {
    const cmd = this.cmd;
    const ch = cmd[i];
    // A file-descriptor number right before the operator (`2>`) belongs to the redirection.
    if (this.inWord && /^\d+$/.test(this.word)) {
      this.word = '';
      this.inWord = false;
    } else this.endWord();
    if (ch === '<' && cmd[i + 1] === '<' && cmd[i + 2] !== '<') {
      i++;
      this.strip = cmd[i + 1] === '-';
      if (this.strip) i++;
      this.next = 'heredoc';
      return i;
    }
    this.next = ch === '>' ? 'write' : 'read';
    while (cmd[i + 1] === '>' || cmd[i + 1] === '|' || cmd[i + 1] === '<') i++;
    if (cmd[i + 1] === '&') {
      // `>&2`, `2>&1`: a descriptor is duplicated, no file is named.
      i++;
      while (/[\d-]/.test(cmd[i + 1] ?? '')) i++;
      this.next = 'word';
    }
    return i;
  }

  private endWord(): void {
    if (!this.inWord) return;
    if (this.next === 'write') this.redirects.push(this.word);
    else if (this.next === 'heredoc') this.heredocs.push({ delim: this.word, strip: this.strip });
    else if (this.next === 'word') this.words.push(this.word);
    this.next = 'word';
    this.word = '';
    this.inWord = false;
  }

  private endSegment(end: number, pipe: boolean): void {
    this.endWord();
    this.next = 'word';
    if (this.words.length || this.redirects.length) {
      const seg: Segment = {
        words: this.words,
        redirects: this.redirects,
        text: this.cmd.slice(this.start, end).trim(),
      };
      if (this.pipeNext) seg.pipedFrom = this.segments[this.segments.length - 1];
      this.segments.push(seg);
    }
    this.words = [];
    this.redirects = [];
    this.pipeNext = pipe;
  }
}

/** The words of a command line, quotes removed, across all its simple commands (an argv for a single command). */
export function shellWords(cmd: string): string[] {
  return lex(cmd).segments.flatMap((s) => s.words);
}
