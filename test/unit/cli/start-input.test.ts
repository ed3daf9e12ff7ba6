import { buildLoopInput, StartOptions } from '../../../src/cli/input/start-options';

const opts = (o: Record<string, unknown>): StartOptions =>
  StartOptions.parse({ prompt: 'p', workspace: '/w', script: '/w/s.json', check: 'true', ...o });

describe('ralph start anti-laziness flags', () => {
  it('leaves the layer at its defaults when no flag is given', () => {
    expect(buildLoopInput(opts({}), '/').persistence).toBeUndefined();
  });

  it('turns the layer off with --no-anti-laziness and sets the hook policy and best-output target', () => {
    expect(buildLoopInput(opts({ antiLaziness: false }), '/').persistence).toEqual({ enabled: false });
    expect(buildLoopInput(opts({ hookPolicy: 'deny', bestOutput: 'branch' }), '/').persistence).toEqual({
      hooks: { policy: 'deny' },
      bestOutput: { restore: 'branch' },
    });
  });

  it('names the flag of a bad value', () => {
    expect(() => buildLoopInput(opts({ hookPolicy: 'maybe' }), '/')).toThrow(
      /persistence\.hooks\.policy.*--hook-policy/,
    );
    expect(() => buildLoopInput(opts({ bestOutput: 'cloud' }), '/')).toThrow(/--best-output/);
  });
});

describe('ralph start --max-questions', () => {
  it('sets questions.max, and names the flag of a bad value', () => {
    expect(buildLoopInput(opts({}), '/').questions).toBeUndefined();
    expect(buildLoopInput(opts({ maxQuestions: '0' }), '/').questions).toEqual({ max: 0 });
    expect(() => buildLoopInput(opts({ maxQuestions: '-2' }), '/')).toThrow(
      /input\.questions\.max: must be 0 or more \(0 turns asking off\) \(--max-questions\)/,
    );
  });
});
