/**
 * Helpers for gate parser tests: the tool output captured once under test/fixtures/gates/<tool>/, deterministic
 * garbage, and the tables every parser must pass (it never throws, and fails closed on what it cannot read).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { GateParser } from '../../src/core/gates';

const GATE_FIXTURES = path.resolve(__dirname, '../fixtures/gates');

/** Reads test/fixtures/gates/<tool>/<name> as text. */
export function fixture(tool: string, name: string): string {
  return fs.readFileSync(path.join(GATE_FIXTURES, tool, name), 'utf8');
}

/** Returns a reader of one tool's fixtures: `fixturesOf('jest')('pass.json')`. */
export function fixturesOf(tool: string): (name: string) => string {
  return (name) => fixture(tool, name);
}

/** Deterministic bytes that are not any tool's output. */
export function noise(n: number): string {
  let x = 0x2545f491;
  return Array.from({ length: n }, () => String.fromCharCode((x = (x * 1103515245 + 12345) >>> 0) % 256)).join('');
}

/** Deterministic pseudo-random text of `length` characters of `alphabet` (mulberry32), so a failure reproduces. */
export function garbage(seed: number, length: number, alphabet: string): string {
  let s = seed;
  const next = (): number => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}

/** What {@link itNeverThrows} feeds a parser besides its fixed inputs. */
export interface NeverThrowsInputs {
  /** Inputs tried as they are, non-strings included (what a caller might pass by mistake). */
  inputs: unknown[];
  /** Characters of the 200 pseudo-random texts tried: the tool's own syntax, so they get past the first checks. */
  alphabet: string;
  /** A fixture whose every prefix, cut every `step` characters, is tried (output of a run killed mid-write). */
  prefixesOf: { tool: string; name: string; step: number };
}

/**
 * Adds a test that feeds `parse` fixed inputs, 200 pseudo-random texts and cut-off prefixes of a fixture, and checks
 * that it never throws and always returns a well-formed result, with a reason whenever it did not parse.
 */
export function itNeverThrows(parse: GateParser, o: NeverThrowsInputs): void {
  it('never throws, whatever it is given', () => {
    const inputs = [...o.inputs];
    for (let seed = 1; seed <= 200; seed++) inputs.push(garbage(seed, seed * 3, o.alphabet));
    const text = fixture(o.prefixesOf.tool, o.prefixesOf.name);
    for (let cut = 0; cut < text.length; cut += o.prefixesOf.step) inputs.push(text.slice(0, cut));
    for (const input of inputs) {
      const out = parse(input as string);
      expect(typeof out.parsed).toBe('boolean');
      expect(Array.isArray(out.items)).toBe(true);
      if (!out.parsed) expect(out.parseError).toEqual(expect.any(String));
    }
  });
}

/**
 * Adds a test per garbage input (per parser and input when given several parsers) that checks the parser does not
 * throw and fails closed: not parsed, with a reason.
 */
export function itFailsClosedOnGarbage(parsers: GateParser | GateParser[], inputs: string[]): void {
  const check = (parse: GateParser, text: string): void => {
    const r = parse(text);
    expect(r.parsed).toBe(false);
    expect(r.parseError).toBeTruthy();
  };
  if (!Array.isArray(parsers)) {
    it.each(inputs)('never throws and fails closed on garbage %#', (text) => check(parsers, text));
    return;
  }
  it.each(inputs.flatMap((g, i) => parsers.map((p) => [`${p.name} on garbage ${i}`, p, g] as const)))(
    'never throws and fails closed: %s',
    (_name, parse, text) => check(parse, text),
  );
}
