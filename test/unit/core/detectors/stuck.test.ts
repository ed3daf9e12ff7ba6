import { defaultAntiLazinessConfig } from '../../../../src/config/anti-laziness-config';
import type { IterationFingerprint } from '../../../../src/core/anti-laziness-types';
import { detectPlateau, detectStuck, normaliseError, shortHash } from '../../../../src/core/detectors/stuck';

/** FNV-1a 64 over UTF-8, the textbook way (BigInt), to check the limb arithmetic against. */
function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(text)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}

describe('shortHash', () => {
  it.each([
    ['', 'cbf29ce484222325'],
    ['a', 'af63dc4c8601ec8c'],
    ['foobar', '85944171f73967e8'],
  ])('gives the published FNV-1a 64 vector for %j', (text, hash) => {
    expect(shortHash(text)).toBe(hash);
  });

  it.each(['hello world', 'café ✓', '😀 emoji', 'x'.repeat(10_000), 'line\nbreak\ttab', '\u0000\u00ff\u0100'])(
    'matches a BigInt reference implementation for %#',
    (text) => {
      expect(shortHash(text)).toBe(fnv1a64(text));
      expect(shortHash(text)).toMatch(/^[0-9a-f]{16}$/);
    },
  );

  it('gives different hashes to texts that differ by one character', () => {
    expect(shortHash('expected 7 received 6')).not.toBe(shortHash('expected 7 received 5'));
  });
});

// Two runs of the same failing jest suite, as the check prints them: colours, timings, pids and temp dirs differ.
const ESC = String.fromCharCode(27);
const jestRun = (o: {
  ms: number;
  time: string;
  tmp: string;
  pid: number;
  at: string;
  addr: string;
  colour: boolean;
}) => {
  const red = (s: string) => (o.colour ? `${ESC}[1m${ESC}[31m${s}${ESC}[39m${ESC}[22m` : s);
  return [
    `[${o.at}] worker pid ${o.pid} started, cache in ${o.tmp}/jest_cache`,
    `${red(' FAIL ')} test/math.test.js (${o.time} s)`,
    '  math',
    `    ✕ multiplies two numbers (${o.ms} ms)`,
    '',
    '  ● math › multiplies two numbers',
    '',
    '    expect(received).toBe(expected) // Object.is equality',
    '',
    `    Expected: ${red('7')}`,
    `    Received: ${red('6')}`,
    '',
    '    >  8 |     expect(mul(2, 3)).toBe(7);',
    '         |                       ^',
    '',
    '      at Object.<anonymous> (test/math.test.js:8:23)',
    `      at Promise.then.completed (${o.tmp}/node_modules/jest-circus/build/utils.js:298:28)`,
    '      at new Promise (<anonymous>)',
    `    native frame at ${o.addr}`,
    '',
    'Test Suites: 1 failed, 1 total',
    'Tests:       1 failed, 1 total',
    `Time:        ${o.time} s`,
    'Ran all test suites.',
  ].join('\n');
};
const run1 = {
  ms: 3,
  time: '0.512',
  tmp: '/tmp/jest-a1b2c3',
  pid: 4242,
  at: '2024-05-01T12:03:44.123Z',
  addr: '0x7ffe1234abcd',
  colour: true,
};
const run2 = {
  ms: 12,
  time: '1.87',
  tmp: '/tmp/jest-9f8e7d',
  pid: 31337,
  at: '2024-05-02T08:00:01.999Z',
  addr: '0x7ffd99990000',
  colour: false,
};

describe('normaliseError', () => {
  it('gives two runs of the same jest failure the same text and hash', () => {
    const a = normaliseError(jestRun(run1));
    const b = normaliseError(jestRun(run2));
    expect(a).toBe(b);
    expect(shortHash(a)).toBe(shortHash(b));
    expect(a).toContain('expected: 7 received: 6');
    expect(a).toContain('fail test/math.test.js');
    expect(a).not.toContain(ESC);
    expect(a).not.toContain('jest-circus');
  });

  it.each([
    ['a different received value', jestRun(run1).replace('Received: ', 'Received: 1')],
    ['a different test file', jestRun(run1).replace(/math\.test/g, 'mul.test')],
    ['a different error location', jestRun(run1).replace('>  8 |', '>  9 |')],
    ['a different message', jestRun(run1).replace('Object.is equality', 'deep equality')],
  ])('keeps %s apart', (_what, other) => {
    expect(shortHash(normaliseError(other))).not.toBe(shortHash(normaliseError(jestRun(run1))));
  });

  it.each([
    ['ISO timestamps', 'at 2024-01-02T03:04:05.678+01:00 boom', 'at <time> boom'],
    ['dates and clock times', 'on 2024/01/02 12:03:44.123 boom', 'on <date> <time> boom'],
    ['written-out dates', 'Mon Jan 8 2024 boom', '<date> boom'],
    ['epoch milliseconds', 'started 1795322991852', 'started <time>'],
    ['durations in parentheses', 'ok (5 ms) and (0.00s)', 'ok (<dur>) and (<dur>)'],
    ['durations after `in`', 'Done in 1.23s.', 'done in <dur>.'],
    ['jest summary times', 'Time:        0.5 s', 'time: <dur>'],
    ['pids', 'pid 1234 / pid=99 / node[4321]: boom', 'pid <n> / pid <n> / node[<n>]: boom'],
    ['Linux temp dirs, keeping the path below', "open '/tmp/tmp-xyz123/src/a.ts'", "open '<tmp>/src/a.ts'"],
    ['macOS temp dirs', 'in /var/folders/x1/ab_cd/T/jest_q/a.ts', 'in <tmp>/a.ts'],
    ['Windows temp dirs', 'in C:\\Users\\me\\AppData\\Local\\Temp\\tmp-1\\a.ts', 'in <tmp>\\a.ts'],
    ['hex addresses and hashes', 'at 0x7ffe1234 commit abc1234def', 'at <hex> commit <hex>'],
    ['UUIDs', 'id 123e4567-e89b-12d3-a456-426614174000', 'id <uuid>'],
    ['stack frames', 'Error: boom\n    at foo (src/a.ts:1:2)\n    at src/b.ts:3:4\nnext', 'error: boom next'],
    [
      'Go goroutine numbers and frames',
      'goroutine 17 [running]:\n\t/x/a.go:12 +0x1d\nmain',
      'goroutine <n> [running]: main',
    ],
    ['ANSI colours and extra whitespace', `${ESC}[31m  Error:\n\n  Boom ${ESC}[0m`, 'error: boom'],
  ])('replaces %s', (_what, input, expected) => {
    expect(normaliseError(input)).toBe(expected);
  });

  it.each([
    ['English words made of hex letters', 'defaced facade', 'defaced facade'],
    ['plain numbers', 'expected 1234567 received 7654321', 'expected 1234567 received 7654321'],
    ['file:line of an error location', 'src/auth.ts:42:7 - error TS2322', 'src/auth.ts:42:7 - error ts2322'],
    ['paths that only contain `tmp`', 'see /work/tmp/build.log', 'see /work/tmp/build.log'],
    ['small array indices', 'expected [1] got [2]', 'expected [1] got [2]'],
  ])('keeps %s', (_what, input, expected) => {
    expect(normaliseError(input)).toBe(expected);
  });
});

const cfg = defaultAntiLazinessConfig().stuck;
const fp = (n: number, o: Partial<IterationFingerprint> = {}): IterationFingerprint => ({ n, changed: 1, ...o });
const rules = (fps: IterationFingerprint[], c = cfg): string[] => detectStuck(fps, c).map((d) => d.details);

describe('detectStuck', () => {
  it.each<[string, IterationFingerprint[], RegExp]>([
    [
      'the same error three times with no file changed',
      [1, 2, 3].map((n) => fp(n, { errorSig: 'e1', error: 'expected 7 received 6', changed: 0 })),
      /^Same error 3 iterations in a row: expected 7 received 6 \(iterations 1-3\)/,
    ],
    [
      'the same error three times while the workspace returns to an earlier state',
      [
        fp(4, { errorSig: 'e1', diffSig: 'd1', stateSig: 'A' }),
        fp(5, { errorSig: 'e1', diffSig: 'd2', stateSig: 'B' }),
        fp(6, { errorSig: 'e1', diffSig: 'd3', stateSig: 'A' }),
      ],
      /^Same error 3 iterations in a row/,
    ],
    [
      'the same error three times when one iteration changed nothing',
      [
        fp(1, { errorSig: 'e1', diffSig: 'd1', stateSig: 'A' }),
        fp(2, { errorSig: 'e1', stateSig: 'A', changed: 0 }),
        fp(3, { errorSig: 'e1', diffSig: 'd2', stateSig: 'B' }),
      ],
      /^Same error 3 iterations in a row/,
    ],
    [
      'an identical diff three times',
      [1, 2, 3].map((n) => fp(n, { diffSig: 'd1', stateSig: `s${n}` })),
      /^Identical diff repeated 3 times \(iterations 1-3\)/,
    ],
    [
      'an identical answer three times with no file changed',
      [1, 2, 3].map((n) => fp(n, { outputSig: 'o1', changed: 0 })),
      /^Identical answer repeated 3 times with no file changed/,
    ],
    [
      'A-B-A-B oscillation of the workspace',
      [
        fp(2, { diffSig: 'd0', stateSig: 'S' }),
        ...['X', 'Y', 'X', 'Y'].map((s, i) => fp(i + 3, { diffSig: `d${i + 1}`, stateSig: s })),
      ],
      /^A-B-A-B oscillation between two workspace states over iterations 3-6/,
    ],
    [
      'three iterations that changed no file',
      [1, 2, 3].map((n) => fp(n, { outputSig: `o${n}`, changed: 0 })),
      /^No file changed for 3 iterations \(iterations 1-3\)/,
    ],
  ])('blocks %s', (_what, fps, rule) => {
    const found = detectStuck(fps, cfg);
    const hit = found.find((d) => rule.test(d.details));
    expect(hit).toMatchObject({ type: 'stuck_loop', severity: 'critical', verdict: 'BLOCK' });
    expect(hit?.evidence.length).toBeGreaterThanOrEqual(3);
    for (const f of fps.slice(-3)) expect(hit?.evidence.some((e) => e.startsWith(`iteration ${f.n}:`))).toBe(true);
  });

  it('fires only the rule that matched', () => {
    const found = detectStuck(
      [1, 2, 3].map((n) => fp(n, { diffSig: 'd1', stateSig: `s${n}` })),
      cfg,
    );
    expect(found).toHaveLength(1);
    expect(found[0].evidence).toEqual(['iteration 1: diff d1', 'iteration 2: diff d1', 'iteration 3: diff d1']);
  });

  it('gives at most one detection per rule however long the run', () => {
    const fps = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => fp(n, { errorSig: 'e1', outputSig: 'o1', changed: 0 }));
    const found = rules(fps);
    expect(found).toHaveLength(3);
    expect(found.map((d) => d.split(' ')[0])).toEqual(['Same', 'Identical', 'No']);
  });

  it.each<[string, IterationFingerprint[]]>([
    [
      're-running the tests after a real edit (the error changes)',
      [
        fp(1, { errorSig: 'e1', changed: 0 }),
        fp(2, { errorSig: 'e2', diffSig: 'd1', stateSig: 'B' }),
        fp(3, { errorSig: 'e3', diffSig: 'd2', stateSig: 'C' }),
      ],
    ],
    [
      'the same tool over many files: different diffs, a changing workspace, the same error text and answer',
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) =>
        fp(n, { errorSig: 'e1', error: 'lint failed', diffSig: `d${n}`, stateSig: `s${n}`, outputSig: 'o1' }),
      ),
    ],
    ['the same error only twice', [fp(1, { errorSig: 'e0' }), fp(2, { errorSig: 'e1' }), fp(3, { errorSig: 'e1' })]],
    ['unknown signatures, which never match', [1, 2, 3, 4].map((n) => fp(n))],
    [
      'fewer fingerprints than any rule needs',
      [fp(1, { errorSig: 'e', changed: 0 }), fp(2, { errorSig: 'e', changed: 0 })],
    ],
    [
      'A-B-A-C: a state revisited once is not an oscillation',
      ['A', 'B', 'A', 'C'].map((s, i) => fp(i + 1, { diffSig: `d${i}`, stateSig: s })),
    ],
    ['an identical diff only twice', [fp(1, { diffSig: 'd0' }), fp(2, { diffSig: 'd1' }), fp(3, { diffSig: 'd1' })]],
    [
      'an identical answer while files are changed',
      [1, 2, 3].map((n) => fp(n, { outputSig: 'o1', diffSig: `d${n}`, stateSig: `s${n}` })),
    ],
    [
      'two idle iterations after a productive one',
      [fp(1, { diffSig: 'd1' }), fp(2, { changed: 0, outputSig: 'a' }), fp(3, { changed: 0, outputSig: 'b' })],
    ],
  ])('does not fire on %s', (_what, fps) => {
    expect(detectStuck(fps, cfg)).toEqual([]);
  });

  describe('different errors with no quality progress', () => {
    const failing = (qs: (number | undefined)[], errs = ['e1', 'e2', 'e3']): IterationFingerprint[] =>
      qs.map((quality, i) =>
        fp(i + 4, { errorSig: errs[i], error: `error ${errs[i]}`, diffSig: `d${i}`, stateSig: `s${i}`, quality }),
      );

    it('blocks three failing iterations with three different errors and a flat or falling quality', () => {
      for (const qs of [
        [40, 40, 40],
        [60, 45, 30],
        [50, 50, 49.9],
      ]) {
        const found = detectStuck(failing(qs), cfg);
        expect(found).toHaveLength(1);
        expect(found[0]).toMatchObject({ type: 'stuck_loop', severity: 'critical', verdict: 'BLOCK' });
        expect(found[0].details).toMatch(
          /^3 failing iterations in a row with different errors and no quality progress \(quality .* → .* → .*, iterations 4-6\)/,
        );
        expect(found[0].evidence).toEqual([
          `iteration 4: error e1 (error e1), quality ${qs[0]}`,
          `iteration 5: error e2 (error e2), quality ${qs[1]}`,
          `iteration 6: error e3 (error e3), quality ${qs[2]}`,
        ]);
      }
    });

    it('also blocks when two of the three errors are the same (not all alike)', () => {
      expect(rules(failing([30, 30, 20], ['e1', 'e2', 'e1']))).toEqual([
        expect.stringMatching(/^3 failing iterations in a row with different errors/),
      ]);
    });

    it('counts the step into the window: a first failing iteration that raised the quality is progress', () => {
      const before = (quality: number) => fp(3, { errorSig: 'e0', diffSig: 'd', stateSig: 's', quality });
      // Quality 60 → 85 → 83 → 80: the window's first iteration was progress (the best-output trajectory).
      expect(detectStuck([before(60), ...failing([85, 83, 80])], cfg)).toEqual([]);
      expect(rules([before(90), ...failing([85, 83, 80])])).toEqual([
        expect.stringContaining('(quality 90 → 85 → 83 → 80, iterations 4-6)'),
      ]);
    });

    it.each<[string, IterationFingerprint[]]>([
      ['quality rising at the second iteration', failing([40, 55, 50])],
      ['quality rising at the last iteration', failing([40, 40, 41])],
      ['an unknown quality (no gates ran): nothing measures progress', failing([40, undefined, 30])],
      ['no quality at all (the completion check alone)', failing([undefined, undefined, undefined])],
      ['an iteration that did not fail', [...failing([40, 40]), fp(6, { quality: 40, diffSig: 'd9' })]],
      ['only two failing iterations', failing([40, 40])],
    ])('does not fire on %s', (_what, fps) => {
      expect(detectStuck(fps, cfg)).toEqual([]);
    });

    it('is off at 0, and off for settings resolved before the rule existed (no differentErrors)', () => {
      const fps = failing([40, 40, 40]);
      expect(rules(fps, { ...cfg, differentErrors: 0 })).toEqual([]);
      const old: Partial<typeof cfg> = { ...cfg };
      delete old.differentErrors;
      expect(rules(fps, old as typeof cfg)).toEqual([]);
      expect(rules(fps.slice(1), { ...cfg, differentErrors: 2 })).toHaveLength(1);
      expect(cfg.differentErrors).toBe(3);
    });
  });

  it('follows the configured thresholds and the oscillation switch', () => {
    const idle = [1, 2, 3].map((n) => fp(n, { changed: 0 }));
    expect(rules(idle, { ...cfg, noProgress: 4 })).toEqual([]);
    expect(rules(idle.slice(1), { ...cfg, noProgress: 2 })).toEqual([expect.stringMatching(/^No file changed for 2/)]);
    const abab = ['X', 'Y', 'X', 'Y'].map((s, i) => fp(i + 1, { diffSig: `d${i}`, stateSig: s }));
    expect(rules(abab, { ...cfg, oscillation: false })).toEqual([]);
  });
});

describe('detectPlateau', () => {
  const plateau = defaultAntiLazinessConfig().plateau;

  it.each<[string, number[]]>([
    ['flat after an early gain', [40, 60, 61, 62, 62]],
    ['small ups and downs', [70, 72, 70, 71]],
    ['stuck at zero', [0, 0, 0, 0]],
    ['fractional scores', [55.5, 57.25, 58, 59.9]],
  ])('warns on %s', (_what, qualities) => {
    const d = detectPlateau(qualities, plateau);
    expect(d).toMatchObject({ type: 'quality_plateau', severity: 'warning', verdict: 'WARN' });
    expect(d?.evidence).toHaveLength(3);
    expect(d?.details).toContain(`Quality plateaued at ${qualities[qualities.length - 1]} over the last 3 iterations`);
  });

  it.each<[string, number[]]>([
    ['steady improvement', [50, 60, 70, 80]],
    ['a change of exactly minDelta in the window', [60, 61, 66, 66]],
    ['too few scores (window + 1 needed)', [60, 60, 60]],
    ['a perfect last score', [99, 100, 100, 100]],
    ['no scores', []],
  ])('does not fire on %s', (_what, qualities) => {
    expect(detectPlateau(qualities, plateau)).toBeUndefined();
  });

  it('uses the configured window and minimum delta', () => {
    expect(detectPlateau([60, 61, 62], { window: 2, minDelta: 5 })).toBeDefined();
    expect(detectPlateau([60, 63, 66, 69], { window: 3, minDelta: 2 })).toBeUndefined();
    expect(detectPlateau([60, 63, 66, 69], { window: 3, minDelta: 4 })?.evidence).toEqual([
      'quality 60 → 63 (+3)',
      'quality 63 → 66 (+3)',
      'quality 66 → 69 (+3)',
    ]);
  });
});
