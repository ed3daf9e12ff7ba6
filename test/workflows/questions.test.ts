/**
 * Questions on a real dev server: a scripted agent asks (a `<question>` block, or a `STATUS: BLOCKED` status block), a
 * question gate opens with the question, its options and the iteration's diff; the answer (`ralph answer`, the plain
 * `temporal workflow signal --name answer`, or the client) goes into the next prompt and the loop goes on. The limit
 * (`questions.max`), and PDARE's clarification opening the same gate.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import execa from 'execa';
import { Harness, checkFileExists, scriptedLoop, tempWorkspace, temporalPath } from '../helpers/env';
import { recordHistory } from '../helpers/histories';
import { readHookLog } from '../../src/state/hook-log';
import { registry } from '../../src/telemetry/metrics';

const CLI = path.resolve(__dirname, '../../dist/src/cli/index.js');

let h: Harness;
beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const promptOf = (ws: string, loopId: string, n: number): string =>
  fs.readFileSync(
    path.join(ws, '.ralph', 'loops', loopId, 'iterations', String(n).padStart(3, '0'), 'prompt.md'),
    'utf8',
  );

/** Runs the built `ralph` CLI as a subprocess (async, so the in-process worker keeps running). */
async function ralph(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await execa(process.execPath, [CLI, ...args], {
    reject: false,
    timeout: 60_000,
    env: { TEMPORAL_ADDRESS: '', TEMPORAL_NAMESPACE: '' },
  });
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

const ASK = '<question>\nShould `sum` keep the v1 behaviour or switch to v2?\n- keep v1\n- switch to v2\n</question>';

describe('questions', () => {
  it('a scripted agent asks; the gate shows the question, options and diff; `ralph answer` resumes with the answer in the next prompt', async () => {
    // The check already passes after iteration 1: a question never accepts work, so the gate opens anyway.
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      {
        iterations: [
          [{ write: 'done.txt', content: 'draft' }, { print: ASK }],
          [{ write: 'done.txt', content: 'v1' }, { promise: 'COMPLETE' }],
        ],
      },
    );
    const id = await h.startLoop(
      scriptedLoop(ws, { completion: { command: 'node check.js', promise: 'COMPLETE', checkOn: 'every-iteration' } }),
    );
    const s = await h.waitFor(id, (st) => st.pendingGate !== undefined);
    expect(promptOf(ws, id, 1)).toContain('Questions left: 3 of 3.');
    expect(s.status).toBe('awaiting_human');
    expect(s.pendingGate).toMatchObject({
      id: 'question@1',
      reason: 'question',
      options: ['answer', 'approve', 'reject', 'abort'],
      question: {
        text: 'Should `sum` keep the v1 behaviour or switch to v2?',
        options: ['keep v1', 'switch to v2'],
        source: 'agent',
        diff: expect.stringContaining('1 added'),
      },
    });
    expect(s.pendingGate!.details).toContain('done.txt');
    // Not a claim and not a check: the iteration is a question, and the check never ran.
    expect(s.records[0]).toMatchObject({
      n: 1,
      outcome: 'question',
      question: expect.stringContaining('v1 behaviour'),
    });
    expect(s.records[0].check).toBeUndefined();
    expect(s.records[0].detections ?? []).toEqual([]);
    expect(s.questions).toMatchObject({ max: 3, asked: 1, answered: 0 });

    // `ralph status` shows the question and the command that answers it.
    const st = await ralph(['status', id, '--address', h.env.address]);
    expect(st.stdout).toContain('human gate question@1 (question): The agent asks (iteration 1): Should `sum` keep');
    expect(st.stdout).toContain('    2. switch to v2');
    expect(st.stdout).toContain(`ralph answer ${id} "your answer"`);
    expect(st.stdout).toContain('questions: 1 asked of 3 allowed, 0 answered');

    const r = await ralph([
      'answer',
      id,
      'Keep v1: clients depend on it.',
      '--by',
      'alice',
      '--address',
      h.env.address,
    ]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^answered loop .* as alice: answer applied to gate question@1/);

    const result = await h.result(id);
    expect(result).toMatchObject({ status: 'accepted', acceptedBy: 'check', iterations: 2 });
    const p2 = promptOf(ws, id, 2);
    expect(p2).toContain('## Answer from alice');
    expect(p2).toContain('> Should `sum` keep the v1 behaviour or switch to v2?');
    expect(p2).toContain('Keep v1: clients depend on it.');
    expect(p2).toContain('Questions left: 2 of 3.');

    const end = await h.status(id);
    expect(end.questions).toMatchObject({ asked: 1, answered: 1 });
    expect(end.questions!.log[0]).toMatchObject({ decision: 'answer', by: 'alice', waitMs: expect.any(Number) });
    // The audit trail has the question and its answer with the wait; the metrics count both.
    const audit = readHookLog(path.join(ws, '.ralph'), id).filter((e) => e.type === 'question');
    expect(audit.map((e) => e.outcome)).toEqual(['asked', 'answered']);
    expect(audit[1]).toMatchObject({ by: 'alice', durationMs: expect.any(Number) });
    const metrics = await registry.metrics();
    expect(metrics).toMatch(/ralph_questions_total\{source="agent"\} [1-9]/);
    expect(metrics).toMatch(/ralph_question_answer_seconds_count\{decision="answer"\} [1-9]/);
    // The report lists the question, the decision, who took it and the wait.
    const report = fs.readFileSync(path.join(ws, '.ralph', 'loops', id, 'report.md'), 'utf8');
    expect(report).toContain('## Questions\n\n1 asked (limit 3), 1 answered.');
    expect(report).toMatch(
      /- iteration 1 \(agent\): Should `sum` keep the v1 behaviour .* → answer by alice after .*: Keep v1/,
    );
    await recordHistory(h, id, 'question-answer');
  });

  it('questions.max: beyond the limit the block is read as text and the agent is told why; reject works at the gate', async () => {
    const ws = tempWorkspace({ 'check.js': 'process.exit(1)' }, { default: [{ print: ASK }] });
    const id = await h.startLoop(scriptedLoop(ws, { maxIterations: 1, questions: { max: 1 } }));
    await h.waitFor(id, (st) => st.pendingGate?.reason === 'question');
    await h.signal(id, 'reject', { guidance: 'Decide yourself.', extraIterations: 1, by: 'bob' });
    const s = await h.waitFor(id, (st) => st.pendingGate?.reason === 'max_iterations');
    expect(s.records.map((r) => r.outcome)).toEqual(['question', 'continue']);
    // The second question opened no gate: the iteration ran its check like any other.
    expect(s.records[1].check).toMatchObject({ passed: false });
    expect(s.questions).toMatchObject({ max: 1, asked: 1 });
    expect(s.questions!.log[0]).toMatchObject({ decision: 'reject', by: 'bob' });
    const p2 = promptOf(ws, id, 2);
    expect(p2).toContain('Decide yourself.');
    expect(p2).toContain('You have asked all 1 question this loop allows');
    expect(s.pendingFeedback.join('\n')).toMatch(/limit of 1 question is used up, so the `<question>` block was read/);
    // `ralph answer` says clearly when there is no question to answer, or no answer.
    const notAQuestion = await ralph(['answer', id, 'whatever', '--address', h.env.address]);
    expect(notAQuestion.code).toBe(1);
    expect(notAQuestion.stderr).toMatch(/gate max_iterations@2 does not offer answer/);
    const noText = await ralph(['answer', id, '--address', h.env.address]);
    expect(noText).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`no answer given: ralph answer ${id} "your answer"`),
    });
    await h.signal(id, 'abort', { by: 'bob' });
    expect(await h.result(id)).toMatchObject({ status: 'aborted', iterations: 2 });
  });

  it('a status block with STATUS: BLOCKED asks too; answered with `temporal workflow signal --name answer`, approved at the next', async () => {
    const blocked = [
      'I cannot go on.',
      '---RALPH_STATUS---',
      'STATUS: BLOCKED',
      'EXIT_SIGNAL: false',
      'RECOMMENDATION: The spec says sum returns a string but test/sum.test.js expects a number: which one is right?',
      '---END_RALPH_STATUS---',
    ].join('\n');
    const ws = tempWorkspace({ 'check.js': 'process.exit(1)' }, { default: [{ print: blocked }] });
    const id = await h.startLoop(scriptedLoop(ws));
    const s = await h.waitFor(id, (st) => st.pendingGate !== undefined);
    expect(s.pendingGate!.question).toMatchObject({
      text: 'The spec says sum returns a string but test/sum.test.js expects a number: which one is right?',
      source: 'agent',
    });
    await promisify(execFile)(temporalPath(), [
      'workflow',
      'signal',
      '--workflow-id',
      id,
      '--name',
      'answer',
      '--input',
      JSON.stringify({ text: 'The test is right: return a number.', by: 'carol', requestId: 'q-1' }),
      '--address',
      h.env.address,
    ]);
    const s2 = await h.waitFor(id, (st) => st.pendingGate?.id === 'question@2');
    const p2 = promptOf(ws, id, 2);
    expect(p2).toContain('## Answer from carol');
    expect(p2).toContain('The test is right: return a number.');
    expect(s2.questions).toMatchObject({ asked: 2, answered: 1 });
    await h.signal(id, 'approve', { by: 'carol', reason: 'good as it is' });
    expect(await h.result(id)).toMatchObject({ status: 'accepted', acceptedBy: 'human', by: 'carol', iterations: 2 });
  });

  it('a question that comes with a deleted test opens the regression gate, with the question shown, not counted', async () => {
    const tests =
      "const m = require('./math');\ntest('adds', () => m.add(2, 3) === 5);\ntest('multiplies', () => m.mul(2, 3) === 6);\n";
    const ws = tempWorkspace(
      {
        'check.js': 'process.exit(1)',
        'math.js': 'exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a + b;\n',
        'math.test.js': tests,
      },
      {
        iterations: [
          [
            {
              write: 'math.test.js',
              content: "const m = require('./math');\ntest('adds', () => m.add(2, 3) === 5);\n",
            },
            { print: ASK },
          ],
        ],
      },
    );
    await execa('git', ['init', '-q', '-b', 'main'], { cwd: ws });
    fs.writeFileSync(path.join(ws, '.gitignore'), '.ralph/\n');
    await execa('git', ['add', '-A'], { cwd: ws });
    await execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init'], { cwd: ws });
    const id = await h.startLoop(scriptedLoop(ws));
    const s = await h.waitFor(id, (st) => st.pendingGate !== undefined);
    expect(s.records[0]).toMatchObject({ outcome: 'question' });
    expect(s.records[0].detections).toContain('test_deletion');
    expect(s.pendingGate!.reason).toBe('regression');
    expect(s.pendingGate!.details).toContain('The agent also asked:\nShould `sum` keep the v1 behaviour');
    expect(s.questions).toBeUndefined();
    await h.signal(id, 'abort', { by: 'eve' });
    expect(await h.result(id)).toMatchObject({ status: 'aborted' });
  });

  it("PDARE's ask_clarification opens the same gate with the diagnosis as the question", async () => {
    // Iteration 1 removes an export the task never mentions (feature_removal, a warning): PDARE diagnoses
    // specification ambiguity and, instead of only adapting the prompt, asks a human.
    const ws = tempWorkspace(
      {
        'check.js': checkFileExists('done.txt'),
        'lib.js': 'exports.sum = (a, b) => a + b;\nexports.legacyTotal = (xs) => xs.reduce((a, b) => a + b, 0);\n',
      },
      {
        iterations: [
          [{ write: 'lib.js', content: 'exports.sum = (a, b) => a + b;\n' }, { print: 'Simplified lib.js.' }],
          [{ write: 'done.txt', content: 'ok' }],
        ],
      },
    );
    const id = await h.startLoop(
      scriptedLoop(ws, { prompt: 'Make `node check.js` exit 0.', completion: { command: 'node check.js' } }),
    );
    const s = await h.waitFor(id, (st) => st.pendingGate !== undefined);
    expect(s.records[0].detections).toContain('feature_removal');
    expect(s.pendingGate).toMatchObject({
      id: 'question@1',
      reason: 'question',
      title: 'PDARE asks for clarification at iteration 1',
      question: { source: 'pdare', text: expect.stringContaining('specification_ambiguity') },
    });
    expect(s.pendingGate!.question!.text).toContain('legacyTotal');
    await h.signal(id, 'answer', { text: 'legacyTotal must stay: restore it.', by: 'dave' });
    expect(await h.result(id)).toMatchObject({ status: 'accepted', acceptedBy: 'check', iterations: 2 });
    const p2 = promptOf(ws, id, 2);
    expect(p2).toContain('## Answer from dave');
    expect(p2).toContain('legacyTotal must stay: restore it.');
    await recordHistory(h, id, 'pdare-clarification');
    expect((await h.status(id)).questions!.log[0]).toMatchObject({ source: 'pdare', decision: 'answer' });
  });
});
