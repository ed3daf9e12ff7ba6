import { parseTsc } from '../../../../../src/activities/gates/parsers/tsc';
import { fixturesOf, itNeverThrows } from '../../../../helpers/parser-fixtures';

const fixture = fixturesOf('tsc');

/** file, line, column, code of each item: what a reader of the gate's report needs to find the diagnostic. */
type Where = [string | undefined, number | undefined, number | undefined, string | undefined];
const where = (text: string): Where[] => parseTsc(text).items.map((i) => [i.file, i.line, i.column, i.code]);

const FAIL_ITEMS: Where[] = [
  ['src/a.ts', 3, 7, 'TS2322'],
  ['src/b.ts', 8, 33, 'TS2322'],
  ['src/b.ts', 9, 18, 'TS2554'],
  ['src/b.ts', 11, 3, 'TS2322'],
];

describe('parseTsc', () => {
  it.each<[string, number, Where[]]>([
    ['pass.txt', 0, []],
    ['empty.txt', 0, []],
    ['fail-plain.txt', 4, FAIL_ITEMS],
    ['fail-pretty.txt', 4, FAIL_ITEMS],
    ['one-error-pretty.txt', 1, [['src/a.ts', 1, 7, 'TS2322']]],
    ['tsconfig-error-plain.txt', 1, [['tsconfig.json', 1, 56, 'TS5023']]],
    ['global-error.txt', 1, [[undefined, undefined, undefined, 'TS5023']]],
  ])('reads %s as %i error(s) with their file, line, column and code', (name, errors, items) => {
    const out = parseTsc(fixture(name));
    expect(out).toMatchObject({ parsed: true, errors, warnings: 0 });
    expect(where(fixture(name))).toEqual(items);
    expect(out.items.every((i) => i.severity === 'error')).toBe(true);
  });

  it.each(['fail-plain.txt', 'fail-pretty.txt'])('keeps the short elaboration under a message in %s', (name) => {
    const messages = parseTsc(fixture(name)).items.map((i) => i.message);
    expect(messages[0]).toBe("Type 'string' is not assignable to type 'number'.");
    expect(messages[3]).toBe(
      [
        "Type '{ a: { b: string; }; }' is not assignable to type '{ a: { b: number; }; }'.",
        "  The types of 'a.b' are incompatible between these types.",
        "    Type 'string' is not assignable to type 'number'.",
      ].join('\n'),
    );
  });

  it('leaves code frames and related information out of pretty messages', () => {
    const messages = parseTsc(fixture('fail-pretty.txt')).items.map((i) => i.message);
    expect(messages[1]).toBe("Type 'string' is not assignable to type 'number'.");
    expect(messages[2]).toBe('Expected 2 arguments, but got 1.');
  });

  it('reads a global diagnostic without a file', () => {
    expect(parseTsc(fixture('global-error.txt')).items).toEqual([
      { code: 'TS5023', severity: 'error', message: "Unknown compiler option '--notAnOption'." },
    ]);
  });

  it.each<[string, string, RegExp]>([
    ['pretty output cut before its summary', fixture('fail-pretty-truncated.txt'), /no "Found N errors" summary/],
    [
      'a summary that counts more errors than were read',
      fixture('fail-pretty.txt').replace(/^.*src\/a\.ts.* - .*error.*$/m, ''),
      /summary reports 4 error\(s\) but 3/,
    ],
    ['a missing compiler', 'sh: 1: tsc: not found\n', /reports a problem: sh: 1: tsc: not found/],
    [
      'a crash without diagnostics',
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n',
      /heap out of memory/,
    ],
  ])('fails closed on %s', (_case, text, reason) => {
    const out = parseTsc(text);
    expect(out).toMatchObject({ parsed: false, items: [] });
    expect(out.parseError).toMatch(reason);
  });

  it('reads CRLF output like LF output', () => {
    expect(where(fixture('fail-plain.txt').replace(/\n/g, '\r\n'))).toEqual(FAIL_ITEMS);
  });

  itNeverThrows(parseTsc, {
    inputs: ['{', 'null', '[]', '\u0000', 'error', 'Found 3 errors.', null, undefined, 42],
    alphabet: 'ab(1,2):- error TS23\n\t{}[]"\\\u001b[91m:',
    prefixesOf: { tool: 'tsc', name: 'fail-pretty.txt', step: 7 },
  });
});
