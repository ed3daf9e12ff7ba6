import { html } from '../../../src/console/html';
import { qualityChart } from '../../../src/console/pages';
import { registerSecrets } from '../../../src/telemetry/logger';

describe('qualityChart', () => {
  it('draws one point per iteration and marks the best one and the regressions', () => {
    const svg = qualityChart(
      [
        { n: 1, quality: 40, verified: false },
        { n: 2, quality: 85, verified: true },
        { n: 3, quality: 60, verified: false },
        { n: 4, quality: 70, verified: false, regression: true },
      ],
      { iteration: 2, quality: 85, verified: true, checkpoint: 'iter-002-post', reason: 'best' },
    ).value;
    expect(svg.match(/<g class="point"/g)).toHaveLength(4);
    expect(svg.match(/>BEST</g)).toHaveLength(1);
    expect(svg).toMatch(/data-iteration="2">[\s\S]*?BEST/);
    // Iteration 3 dropped 25 points; iteration 4 had a critical regression.
    expect(svg.match(/REGRESSION/g)).toHaveLength(2);
  });

  it('says so when nothing was measured', () => {
    expect(qualityChart([]).value).toContain('No quality measurements yet');
  });
});

describe('html', () => {
  it('escapes interpolated values and redacts secrets from them', () => {
    registerSecrets(['page-secret-123456']);
    expect(html`<p>${'<script>x</script> page-secret-123456'}</p>`.value).toBe(
      '<p>&lt;script&gt;x&lt;/script&gt; [REDACTED]</p>',
    );
  });
});
