import { html } from '../../../src/console/html';
import { loopPage, qualityChart, routingPanel } from '../../../src/console/pages';
import { emptyTotals, type LoopState } from '../../../src/core/loop-types';
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

describe('loopPage: a gate with evidence', () => {
  const s: LoopState = {
    loopId: 'l1',
    stateDir: '/ws/.ralph',
    status: 'awaiting_human',
    phase: 'awaiting_human',
    iteration: 1,
    maxIterations: 3,
    agent: 'scripted',
    workspace: '/ws',
    paused: false,
    records: [],
    decisions: [],
    signals: [],
    totals: emptyTotals(),
    pendingFeedback: [],
    run: 0,
    startedAt: '',
    updatedAt: '',
    labels: {},
    pendingGate: {
      id: 'tampered_verification@1',
      reason: 'tampered_verification',
      title: 'Iteration 1: the checks pass only with the agent changes',
      details: 'Original check failure (node-assert): AssertionError [ERR_ASSERTION]: sum(1,5) should be 6 / 5 !== 6',
      options: ['approve', 'reject', 'abort'],
      iteration: 1,
      openedAt: '2026-01-01T00:00:00Z',
      evidence: {
        diff: {
          files: [
            {
              path: 'test/sum.test.js',
              change: 'modified',
              added: 1,
              removed: 1,
              hunks: [
                {
                  oldStart: 3,
                  oldLines: 1,
                  newStart: 3,
                  newLines: 1,
                  lines: ['-assert.strictEqual(sum(1, 5), 6);', "+const key = 'evidence-secret-987654'; // <script>"],
                },
              ],
            },
          ],
          path: '/ws/.ralph/loops/l1/iterations/001/verification/protected.diff',
        },
        failure: {
          runner: 'node-assert',
          headline: 'AssertionError [ERR_ASSERTION]: sum(1,5) should be 6 / 5 !== 6',
          excerpt: '⋮\nAssertionError [ERR_ASSERTION]: sum(1,5) should be 6\n\n5 !== 6',
        },
      },
    },
  };

  it('shows the failure with its headline marked and the coloured diff, escaped and redacted', () => {
    registerSecrets(['evidence-secret-987654']);
    const page = loopPage(s, 'RUNNING', {});
    expect(page).toContain('<div id="check-failure" data-runner="node-assert">');
    expect(page).toContain('<mark>5 !== 6</mark>');
    expect(page).toContain('<h3>Protected files the agent changed (1)</h3>');
    expect(page).toMatch(/<tr class="diff-del"><td class="ln">3<\/td><td class="ln"><\/td><td class="code">-assert/);
    expect(page).toContain('// &lt;script&gt;');
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('evidence-secret-987654');
    expect(page).toContain('tr.diff-add td{background:#dafbe1}');
  });
});
