import path from 'node:path';
import { loadAgentProfiles } from '../../../src/activities/routing';
import { buildRoutingIndex, classify } from '../../../src/core/routing';

interface Labelled {
  tasks: { label: string; text: string }[];
}
const labelled = require('../../fixtures/routing/labelled.json') as Labelled;

describe('routing accuracy on the labelled set', () => {
  it('routes >= 85% of the labelled tasks to the right domain and never routes a general task', async () => {
    const { profiles, warnings } = await loadAgentProfiles({
      workspace: __dirname,
      dir: path.join(__dirname, '../../fixtures/routing/agents'),
    });
    expect(warnings).toEqual([]);
    const index = buildRoutingIndex(profiles);
    expect(labelled.tasks.length).toBeGreaterThanOrEqual(100);
    const wrong: string[] = [];
    let routedGeneral = 0;
    for (const t of labelled.tasks) {
      const c = classify(t.text, index);
      const predicted = c.route ? c.domain : 'general';
      if (t.label === 'general' && c.route) routedGeneral++;
      if (predicted !== t.label) wrong.push(`${t.label} → ${predicted}: ${t.text}`);
    }
    const accuracy = 1 - wrong.length / labelled.tasks.length;
    expect({ accuracy: accuracy >= 0.85, wrong }).toEqual({ accuracy: true, wrong: expect.any(Array) });
    expect(routedGeneral).toBe(0);
  });
});
