import { defaultAntiLazinessConfig } from '../../../src/config/anti-laziness-config';
import { selectBest } from '../../../src/core/best-output';
import type { TrajectoryPoint } from '../../../src/core/anti-laziness-types';

const cfg = defaultAntiLazinessConfig().bestOutput;
const traj = (qs: number[], verified: boolean[] = []): TrajectoryPoint[] =>
  qs.map((quality, i) => ({ n: i + 1, quality, verified: verified[i] ?? false, checkpoint: `iter-${i + 1}-post` }));

describe('selectBest', () => {
  it('selects the peak, not the final iteration, and says why (60, 85, 83, 80)', () => {
    expect(selectBest(traj([60, 85, 83, 80]), cfg)).toEqual({
      iteration: 2,
      quality: 85,
      verified: false,
      checkpoint: 'iter-2-post',
      reason: 'best quality 85% at iteration 2, not final (iteration 4: 80%)',
    });
  });

  it('says so when the final iteration is the best', () => {
    expect(selectBest(traj([60, 70, 80, 90], [false, false, false, true]), cfg)?.reason).toBe(
      'final iteration 4 is the best (quality 90%, verified)',
    );
  });

  it('prefers verified iterations over higher unverified ones', () => {
    const b = selectBest(traj([95, 80, 75], [false, true, true]), cfg);
    expect(b).toMatchObject({ iteration: 2, quality: 80, verified: true });
    expect(b?.reason).toBe('best quality 80% at iteration 2 (verified), not final (iteration 3: 75%)');
  });

  it('returns nothing when no iteration reaches the threshold', () => {
    expect(selectBest(traj([10, 50, 69]), cfg)).toBeUndefined();
    expect(selectBest(traj([10, 50, 69]), { ...cfg, threshold: 50 })?.iteration).toBe(3);
  });

  it('only considers verified iterations when verification is required', () => {
    expect(selectBest(traj([90, 85]), { ...cfg, requireVerification: true })).toBeUndefined();
    expect(selectBest(traj([90, 85], [false, true]), { ...cfg, requireVerification: true })?.iteration).toBe(2);
  });

  it('breaks ties in favour of the later iteration', () => {
    expect(selectBest(traj([80, 90, 90, 70]), cfg)?.iteration).toBe(3);
  });

  it('skips points without a checkpoint or with a critical regression', () => {
    const t = traj([80, 95, 99]);
    delete t[1].checkpoint;
    t[2].regression = true;
    expect(selectBest(t, cfg)?.iteration).toBe(1);
  });

  it('returns nothing when selection is off or the trajectory is empty', () => {
    expect(selectBest(traj([90]), { ...cfg, enabled: false })).toBeUndefined();
    expect(selectBest([], cfg)).toBeUndefined();
  });

  describe('regret', () => {
    // A fixed table of random-ish trajectories (Park-Miller generator, fixed seed: products stay exact in doubles).
    let seed = 42;
    const next = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const table = Array.from({ length: 200 }, () => {
      const len = 1 + Math.floor(next() * 10);
      return Array.from({ length: len }, (_, i) => ({
        n: i + 1,
        quality: Math.floor(next() * 101),
        verified: next() < 0.3,
        ...(next() < 0.9 ? { checkpoint: `c${i + 1}` } : {}),
        ...(next() < 0.1 ? { regression: true } : {}),
      }));
    });
    const configs = [cfg, { ...cfg, threshold: 0 }, { ...cfg, requireVerification: true }];

    it('is 0: no eligible candidate beats the choice, by brute force over 600 cases', () => {
      let chosen = 0;
      for (const c of configs)
        for (const t of table) {
          const eligible = t.filter(
            (p) =>
              p.checkpoint !== undefined &&
              !p.regression &&
              p.quality >= c.threshold &&
              (!c.requireVerification || p.verified),
          );
          const pool = eligible.some((p) => p.verified) ? eligible.filter((p) => p.verified) : eligible;
          const b = selectBest(t, c);
          if (!pool.length) {
            expect(b).toBeUndefined();
            continue;
          }
          chosen++;
          const top = Math.max(...pool.map((p) => p.quality));
          expect(b?.quality).toBe(top);
          expect(b?.iteration).toBe(Math.max(...pool.filter((p) => p.quality === top).map((p) => p.n)));
          for (const p of pool) expect(p.quality).toBeLessThanOrEqual(b!.quality);
        }
      expect(chosen).toBeGreaterThan(100);
    });
  });
});
