import { html } from '../../../src/console/html';
import { qualityChart, routingPanel } from '../../../src/console/pages';
import type { LoopState } from '../../../src/core/loop-types';
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

describe('routingPanel', () => {
  it('shows the running agent, the handoff chain in order with each reason, and why a chain stopped', () => {
    const s = {
      routing: {
        agent: 'security',
        domain: 'security',
        chain: {
          agents: ['dns', 'cloud_architect', 'security'],
          links: [
            { from: 'dns', to: 'cloud_architect', reason: 'needs a VPC design', iteration: 1 },
            { from: 'cloud_architect', to: 'security', reason: 'review the IAM policy', iteration: 2 },
          ],
          stopped: { error: 'MaxHandoffsExceeded', detail: 'cycle dns→security', iteration: 3 },
        },
      },
    } as unknown as LoopState;
    const page = String(routingPanel(s));
    expect(page).toContain('dns → cloud_architect → security');
    expect(page).toContain('review the IAM policy');
    expect(page).toContain('MaxHandoffsExceeded');
    expect(String(routingPanel({} as LoopState))).toBe('');
  });
});
