import { detectCompletionClaim, detectUsageLimit, parseClaimedFiles, tail } from '../../../src/core/claims';

const NOW = Date.UTC(2026, 10, 22, 10, 0, 0);

describe('detectCompletionClaim', () => {
  it.each([
    ['done <promise>COMPLETE</promise>', 'COMPLETE', { claimed: true, via: 'promise' }],
    ['<promise> complete </promise>', 'COMPLETE', { claimed: true, via: 'promise' }],
    ['<promise>NOT YET</promise>', 'COMPLETE', { claimed: false }],
    ['RALPH_STATUS:\nEXIT_SIGNAL: true\n', undefined, { claimed: true, via: 'exit_signal' }],
    ['**EXIT_SIGNAL**: true', undefined, { claimed: true, via: 'exit_signal' }],
    ['EXIT_SIGNAL: false', undefined, { claimed: false }],
    ['I will print EXIT_SIGNAL: true when done', undefined, { claimed: false }],
    ['the promise is <promise>COMPLETE</promise>', undefined, { claimed: false }],
  ])('reads %j with promise %j as %j', (text, promise, expected) => {
    expect(detectCompletionClaim(text, promise)).toEqual(expected);
  });
});

describe('parseClaimedFiles', () => {
  it('reads FILES_CHANGED lines and Evidence bullets, deduplicated, in order', () => {
    const text =
      'FILES_CHANGED: src/a.ts, ./src/b.ts\n## Evidence\n- created: `src/c.ts`\n- src/a.ts\n* modified test/d.test.ts\n## Next\n- not/a/claim.ts';
    expect(parseClaimedFiles(text)).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts', 'test/d.test.ts']);
  });

  it('returns nothing when the text claims no files', () => {
    expect(parseClaimedFiles('I fixed it, trust me.')).toEqual([]);
  });
});

describe('detectUsageLimit', () => {
  it.each([
    ['Claude AI usage limit reached|1795399200', 1795399200 * 1000],
    ['Rate limited. Try again in 20 minutes.', NOW + 20 * 60_000],
    ['Usage limit reached, resets at 2026-11-22T12:30:00Z', Date.UTC(2026, 10, 22, 12, 30)],
    ['5-hour limit reached ∙ resets 3pm', Date.UTC(2026, 10, 22, 15, 0)],
    ['5-hour limit reached ∙ resets 9am', Date.UTC(2026, 10, 23, 9, 0)],
  ])('finds the reset time in %j', (text, resetAt) => {
    expect(detectUsageLimit(text, NOW)?.resetAt).toBe(resetAt);
  });

  it('reports a limit without a reset time when the text names none', () => {
    expect(detectUsageLimit('quota exceeded', NOW)).toEqual({ message: 'quota exceeded' });
  });

  it('ignores text that is not a limit answer', () => {
    expect(detectUsageLimit('All 12 tests passed.', NOW)).toBeUndefined();
  });
});

describe('tail', () => {
  it('keeps short text and cuts long text at a line start', () => {
    expect(tail('abc', 10)).toBe('abc');
    expect(tail('line one\nline two\nline three', 15)).toBe('…line three');
  });
});
