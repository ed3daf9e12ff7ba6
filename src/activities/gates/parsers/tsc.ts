import { unparsed, type GateItem, type ParsedGateOutput } from '../../../core/gates';

/** `src/a.ts(3,7): error TS2322: Type ...` (`--pretty false`, the default when stdout is not a terminal). */
const PLAIN = /^(.+?)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
/** `src/a.ts:3:7 - error TS2322: Type ...` (`--pretty`, once its colours are stripped). */
const PRETTY = /^(.+?):(\d+):(\d+) - (error|warning|message) (TS\d+): (.*)$/;
/** `error TS5023: Unknown compiler option '--foo'.`: command-line and other global diagnostics have no file. */
const GLOBAL = /^(error|warning|message) (TS\d+): (.*)$/;
/** `Found 4 errors in 2 files.`, `Found 1 error in src/a.ts:3`, `Found 1 error. Watching for file changes.` */
const SUMMARY = /^Found (\d+) errors?\b/;
/** Words that mean the compiler did not run cleanly even though no diagnostic was printed (crash, missing binary). */
const TROUBLE = /\berror\b|not found|not the tsc command|cannot find module|ENOENT|\bkilled\b|out of memory/i;
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
/** Continuation lines (`  The types of 'a.b' are incompatible...`) are kept while the message stays this short. */
const MAX_MESSAGE = 500;

const severityOf = (category: string): GateItem['severity'] =>
  category === 'error' ? 'error' : category === 'warning' ? 'warning' : 'info';

/**
 * Parses `tsc` output, plain (`--pretty false`) or pretty (ANSI colours, code frames, `Found N errors` summary), into
 * one item per diagnostic with file, line, column, code (TS2322) and message (its first line, plus the indented
 * lines that elaborate it when short). Global diagnostics (`error TS5023: ...`) have no file.
 *
 * Output with no diagnostic is a clean run (tsc prints nothing then) unless it mentions an error or a crash. Pretty
 * output always ends with its summary: pretty diagnostics without one, or a summary whose count differs from the
 * diagnostics read, mean the output was cut short, and the parse fails closed. It never throws.
 */
export function parseTsc(text: string): ParsedGateOutput {
  try {
    return parseTscText(text);
  } catch (err) {
    return unparsed(`tsc parser failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function parseTscText(text: string): ParsedGateOutput {
  if (typeof text !== 'string') return unparsed('tsc output is not text');
  const lines = text.replace(ANSI, '').split(/\r?\n/);
  const items: GateItem[] = [];
  let current: GateItem | undefined;
  let pretty = false;
  let summaryCount: number | undefined;

  for (const line of lines) {
    const plain = PLAIN.exec(line);
    const fancy = plain ? null : PRETTY.exec(line);
    const located = plain ?? fancy;
    if (located) {
      pretty ||= fancy !== null;
      const [, file, ln, col, category, code, message] = located;
      current = { file, line: Number(ln), column: Number(col), code, severity: severityOf(category), message };
      items.push(current);
      continue;
    }
    const global = GLOBAL.exec(line);
    if (global) {
      current = { code: global[2], severity: severityOf(global[1]), message: global[3] };
      items.push(current);
      continue;
    }
    const summary = SUMMARY.exec(line);
    if (summary) summaryCount = (summaryCount ?? 0) + Number(summary[1]);
    // Indented lines right under a diagnostic elaborate it; a blank line ends it (a pretty code frame follows).
    if (current && /^\s+\S/.test(line)) {
      const longer = `${current.message}\n${line.trimEnd()}`;
      if (longer.length <= MAX_MESSAGE) current.message = longer;
      continue;
    }
    current = undefined;
  }

  const errors = items.filter((i) => i.severity === 'error').length;
  const warnings = items.filter((i) => i.severity === 'warning').length;
  if (summaryCount !== undefined && summaryCount !== errors) {
    return unparsed(`tsc summary reports ${summaryCount} error(s) but ${errors} diagnostic(s) were read: output cut?`);
  }
  if (pretty && summaryCount === undefined) {
    return unparsed('tsc pretty output has diagnostics but no "Found N errors" summary: output truncated');
  }
  if (items.length === 0) {
    const trouble = lines.find((l) => TROUBLE.test(l));
    if (trouble) return unparsed(`tsc printed no diagnostic but reports a problem: ${clip(trouble.trim())}`);
  }
  return { parsed: true, errors, warnings, items };
}

const clip = (s: string): string => (s.length > 200 ? `${s.slice(0, 200)}…` : s);
