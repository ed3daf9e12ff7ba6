import { finishBench } from '../../../bench/verdict';

describe('finishBench', () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  it('prints every measured target and, last, that all were met; the exit code stays 0', () => {
    const lines: string[] = [];
    expect(finishBench('loop', { p50: true, p95: true, layer: undefined }, (l) => lines.push(l))).toBe(true);
    expect(lines).toEqual(['  target p50: met', '  target p95: met', 'bench:loop: all 2 targets met']);
    expect(process.exitCode).toBeUndefined();
  });

  it('ends with the MISS line naming the missed targets and sets exit code 1', () => {
    const lines: string[] = [];
    expect(finishBench('detection', { recall: false, p95: true, cost: false }, (l) => lines.push(l))).toBe(false);
    expect(lines.at(-1)).toBe('MISS bench:detection: 2 of 3 targets missed (recall, cost)');
    expect(lines).toContain('  target recall: MISSED');
    expect(process.exitCode).toBe(1);
  });

  it('says when a partial run measured no target', () => {
    const lines: string[] = [];
    expect(finishBench('detection', { recall: undefined }, (l) => lines.push(l))).toBe(true);
    expect(lines).toEqual(['bench:detection: no target measured in this run']);
  });
});
