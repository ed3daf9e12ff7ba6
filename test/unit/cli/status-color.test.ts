import { useColor } from '../../../src/cli/run-command';

describe('ralph status colours', () => {
  it('colours a terminal unless NO_COLOR is set or TERM is dumb; --color and --no-color win', () => {
    expect(useColor(undefined, { isTTY: true }, {})).toBe(true);
    expect(useColor(undefined, { isTTY: false }, {})).toBe(false);
    expect(useColor(undefined, {}, {})).toBe(false);
    expect(useColor(undefined, { isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(useColor(undefined, { isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(useColor(true, { isTTY: false }, { NO_COLOR: '1' })).toBe(true);
    expect(useColor(false, { isTTY: true }, {})).toBe(false);
  });
});
