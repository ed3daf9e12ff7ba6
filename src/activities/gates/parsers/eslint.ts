import { unparsed, type GateItem, type ParsedGateOutput } from '../../../core/gates';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * Parses `eslint -f json` output: an array of per-file results. `errors` and `warnings` are the totals (the files'
 * `errorCount`/`warningCount`, never fewer than the messages read), `suppressed` counts `suppressedMessages`
 * (eslint-disable comments: informative, never counted), and each message becomes an item (code = rule id, or
 * `fatal` for a parsing error). Noise before the array (`npm run`'s banner) or after it is skipped.
 *
 * Empty output, no array, an array cut short or entries without `filePath`/`messages` fail closed: ESLint prints
 * its crashes (no config file...) as text and exits 2. It never throws.
 */
export function parseEslintJson(text: string): ParsedGateOutput {
  try {
    return parseEslintText(text);
  } catch (err) {
    return unparsed(`eslint parser failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function parseEslintText(text: string): ParsedGateOutput {
  if (typeof text !== 'string') return unparsed('eslint output is not text');
  if (text.trim() === '') return unparsed('eslint printed nothing: expected the JSON array of `eslint -f json`');
  const found = findJsonArray(text);
  if (!found.ok) return unparsed(found.why);

  const items: GateItem[] = [];
  let errors = 0;
  let warnings = 0;
  let suppressed = 0;
  for (const [index, result] of found.value.entries()) {
    if (!isObj(result) || typeof result.filePath !== 'string' || !Array.isArray(result.messages)) {
      return unparsed(`eslint JSON entry ${index} has no filePath/messages: not \`eslint -f json\` output`);
    }
    const file = result.filePath;
    let fileErrors = 0;
    let fileWarnings = 0;
    for (const m of result.messages) {
      if (!isObj(m)) return unparsed(`eslint JSON entry ${index} (${file}) has a message that is not an object`);
      // Severity 2 is an error, 1 a warning; a fatal (parsing) error is an error whatever its severity says.
      const isError = m.severity === 2 || m.fatal === true;
      if (isError) fileErrors++;
      else fileWarnings++;
      items.push({
        file,
        line: num(m.line),
        column: num(m.column),
        code: str(m.ruleId) ?? (m.fatal === true ? 'fatal' : undefined),
        severity: isError ? 'error' : 'warning',
        message: str(m.message) ?? '(no message)',
      });
    }
    errors += Math.max(fileErrors, num(result.errorCount) ?? 0);
    warnings += Math.max(fileWarnings, num(result.warningCount) ?? 0);
    suppressed += Array.isArray(result.suppressedMessages) ? result.suppressedMessages.length : 0;
  }
  return { parsed: true, errors, warnings, suppressed, items };
}

type Found = { ok: true; value: unknown[] } | { ok: false; why: string };

/**
 * The JSON array in ESLint's output. It is printed on one line, so candidates start a line with `[`; each is tried
 * up to the end of its line, then up to the last `]` of the text (a pretty-printed copy), so trailing noise is fine.
 */
function findJsonArray(text: string): Found {
  let lastError: string | undefined;
  let offset = 0;
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    if (!line.startsWith('[')) continue;
    const ends = [start + line.length, text.lastIndexOf(']') + 1];
    for (const end of ends) {
      if (end <= start) continue;
      try {
        const value: unknown = JSON.parse(text.slice(start, end));
        if (Array.isArray(value)) return { ok: true, value };
      } catch (err) {
        lastError = err instanceof Error ? err.message : String(err);
      }
    }
  }
  if (lastError) return { ok: false, why: `eslint JSON does not parse (${lastError}): output truncated or corrupted` };
  const first = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return { ok: false, why: `no JSON array in eslint output (was it run with -f json?): ${clip(first.trim())}` };
}

const clip = (s: string): string => (s.length > 200 ? `${s.slice(0, 200)}…` : s);
