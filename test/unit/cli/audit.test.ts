import type { HookLogEntry } from '../../../src/state/hook-log';
import { filterHookLog, parseSince, parseTypes } from '../../../src/cli/commands/audit';

const entry = (type: HookLogEntry['type'], at: string): HookLogEntry => ({
  at,
  loopId: 'l',
  type,
  name: type,
  outcome: 'ok',
});

describe('ralph audit filters', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');

  it.each([
    ['90s', now - 90_000],
    ['15m', now - 15 * 60_000],
    ['2h', now - 2 * 3_600_000],
    ['3d', now - 3 * 86_400_000],
    ['2026-01-01T10:00:00Z', Date.parse('2026-01-01T10:00:00Z')],
  ])('reads --since %s', (since, expected) => {
    expect(parseSince(since, now)).toBe(expected);
  });

  it('refuses a --since that is neither a duration nor a time, saying what works', () => {
    expect(() => parseSince('yesterday', now)).toThrow(/duration \(90s, 15m, 2h, 3d\) or an ISO time/);
  });

  it('refuses unknown --type kinds, naming the valid ones', () => {
    expect(parseTypes('gate,decision')).toEqual(['gate', 'decision']);
    expect(() => parseTypes('gate,nope')).toThrow(/--type nope: unknown; use one or more of agent, check, gate/);
  });

  it('keeps the entries of the given kinds at or after the given time', () => {
    const log = [
      entry('gate', '2026-01-01T09:00:00Z'),
      entry('gate', '2026-01-01T11:00:00Z'),
      entry('decision', '2026-01-01T11:30:00Z'),
    ];
    expect(filterHookLog(log, { types: ['gate'], since: parseSince('2h', now) })).toEqual([log[1]]);
    expect(filterHookLog(log, {})).toEqual(log);
  });
});
