import { buildPrompt, FEEDBACK_HEADING, GUIDANCE_HEADING, MAX_FEEDBACK_CHARS } from '../../../src/core/prompt';
import { feedbackFor } from '../../../src/core/feedback';

describe('buildPrompt', () => {
  it('puts task, position, guidance, feedback and the claim format in the prompt', () => {
    const p = buildPrompt({
      task: 'Do X',
      loopId: 'l',
      iteration: 2,
      maxIterations: 5,
      feedback: ['check failed'],
      guidance: 'use Y',
      promise: 'DONE',
      checkCommand: 'npm test',
    });
    expect(p).toContain('# Task\n\nDo X');
    expect(p).toContain('iteration 2 of at most 5');
    expect(p).toContain(`${GUIDANCE_HEADING}\n\nuse Y`);
    expect(p).toContain(`${FEEDBACK_HEADING}\n\n- check failed`);
    expect(p).toContain('`<promise>DONE</promise>`');
    expect(p).toContain('`npm test`');
  });

  it('bounds the feedback section so prompts do not bloat', () => {
    const p = buildPrompt({ task: 't', loopId: 'l', iteration: 1, maxIterations: 1, feedback: ['x'.repeat(50_000)] });
    expect(p.length).toBeLessThan(MAX_FEEDBACK_CHARS + 2000);
    expect(p).toContain('(truncated)');
  });
});

describe('feedbackFor', () => {
  const base = { claimed: false, agentExitCode: 0, iterationTimeoutSeconds: 60, promiseOnly: false };
  it('rejects a false completion claim with the check output', () => {
    const f = feedbackFor({
      ...base,
      claimed: true,
      check: { command: 'npm test', passed: false, exitCode: 1, outputTail: '2 failing' },
    });
    expect(f[0]).toMatch(
      /^TASK COMPLETION REJECTED\. You claimed the task was done, but the completion check `npm test` failed \(exit code 1\)/,
    );
    expect(f[0]).toContain('2 failing');
  });

  it('explains timeouts and agent exit codes', () => {
    expect(feedbackFor({ ...base, agentTimedOut: true })[0]).toMatch(/timed out after 60s/);
    expect(feedbackFor({ ...base, agentExitCode: 3, agentOutputTail: 'boom' })[0]).toMatch(
      /exited with code 3\.\nLast output:\nboom/,
    );
  });

  it('says nothing when nothing went wrong', () => {
    expect(feedbackFor({ ...base, check: { command: 'c', passed: true, exitCode: 0, outputTail: '' } })).toEqual([]);
  });
});
