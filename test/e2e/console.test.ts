import fs from 'node:fs';
import path from 'node:path';
import execa from 'execa';
import type { Browser, Page } from 'playwright-core';
import { connectClient } from '../../src/client';
import { ConnectionConfig } from '../../src/config/connection';
import { startConsole } from '../../src/console/server';
import { readHookLog } from '../../src/state/hook-log';
import { createLogger } from '../../src/telemetry/logger';
import { registry } from '../../src/telemetry/metrics';
import { Harness, scriptedLoop, tempWorkspace } from '../helpers/env';
import { artifactDir, launchChromium } from '../helpers/chromium';

const TOKEN = 'console-test-token-0123456789';
const SECRET = 'sk-test-SECRET-never-shown-4f9a1c';

const RUNNER = `const tests = [];
global.test = (n, f) => tests.push([n, f]);
global.expect = (a) => ({ toBe: (b) => { if (a !== b) throw new Error('expected ' + b + ', got ' + a); } });
require('./math.test.js');
let failed = 0;
for (const [n, f] of tests) { try { f(); } catch (e) { failed++; console.log('FAIL ' + n + ': ' + e.message); } }
if (!tests.length) { console.log('no tests'); process.exit(1); }
process.exit(failed ? 1 : 0);
`;
const MATH_BUGGY = 'exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a + b;\n';
const MATH_FIXED = 'exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b;\n';
const MATH_TESTS = `const m = require('./math');
test('adds', () => { expect(m.add(2, 3)).toBe(5); });
test('multiplies', () => { expect(m.mul(2, 3)).toBe(6); });
test('multiplies by zero', () => { expect(m.mul(4, 0)).toBe(0); });
`;
const ADD_TESTS_ONLY = `const m = require('./math');
test('adds', () => { expect(m.add(2, 3)).toBe(5); });
`;

let h: Harness;
let browser: Browser;
let consoleUrl: string;
let closeConsole: () => Promise<void>;
let serverStopped = false;
const shots = artifactDir('console');
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });

beforeAll(async () => {
  [h, browser] = await Promise.all([Harness.start(), launchChromium()]);
  const connection = ConnectionConfig.parse({ address: h.env.address, taskQueue: h.taskQueue });
  const c = await startConsole({
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    client: () => connectClient(connection),
    confirmMs: 10_000,
    temporalTimeoutMs: 3000,
    logger: createLogger({ level: 'silent' }),
  });
  consoleUrl = c.url;
  closeConsole = c.close;
});
afterAll(async () => {
  await browser?.close();
  await closeConsole?.();
  if (!serverStopped) await h?.stop();
});

async function gitInit(ws: string): Promise<void> {
  const env = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
  await execa('git', ['init', '-q', '-b', 'main'], { cwd: ws });
  fs.writeFileSync(path.join(ws, '.gitignore'), '.ralph/\n');
  await execa('git', ['add', '-A'], { cwd: ws });
  await execa('git', ['commit', '-q', '-m', 'init'], { cwd: ws, env });
}

/** Every file under a folder, concatenated (state files, logs, artifacts). */
function allText(dir: string): string {
  let out = '';
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out += allText(p);
    else out += fs.readFileSync(p, 'utf8');
  }
  return out;
}

describe('ralph console', () => {
  it('refuses every request without the token, and serves one with it', async () => {
    const plain = await fetch(`${consoleUrl}/`);
    expect(plain.status).toBe(401);
    const browserLike = await fetch(`${consoleUrl}/loops/x`, { headers: { accept: 'text/html' } });
    expect(browserLike.status).toBe(401);
    expect(await browserLike.text()).toContain('a console token is required');
    const post = await fetch(`${consoleUrl}/loops/x/approve`, { method: 'POST', body: 'by=me' });
    expect(post.status).toBe(401);
    const wrong = await fetch(`${consoleUrl}/`, { headers: { authorization: 'Bearer wrong-token' } });
    expect(wrong.status).toBe(401);
    const ok = await fetch(`${consoleUrl}/`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('<h1>Loops</h1>');
    // A POST with the token but without the CSRF token is refused too.
    const noCsrf = await fetch(`${consoleUrl}/loops/x/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'by=me',
    });
    expect(noCsrf.status).toBe(403);
  });

  it('shows a pending gate with the deleted tests by name; reject with guidance from the browser continues the loop', async () => {
    const ws = tempWorkspace(
      { 'run-tests.js': RUNNER, 'math.js': MATH_BUGGY, 'math.test.js': MATH_TESTS },
      {
        iterations: [
          [{ write: 'math.test.js', content: ADD_TESTS_ONLY }, { evidence: ['math.test.js'] }, { promise: 'DONE' }],
          [{ write: 'math.js', content: MATH_FIXED }, { evidence: ['math.js'] }, { promise: 'DONE' }],
        ],
      },
    );
    await gitInit(ws);
    const input = scriptedLoop(ws, {
      completion: { command: 'node run-tests.js', promise: 'DONE' },
      gates: {
        runOn: 'every-iteration',
        gates: [{ name: 'tests', kind: 'custom', command: 'node run-tests.js', format: 'exit-code' }],
      },
      maxIterations: 4,
    });
    input.agent = { ...input.agent!, env: { OPENAI_API_KEY: SECRET } };
    // Started through src/client, as the CLI does: its codec keeps the secret out of history.
    const client = await connectClient(ConnectionConfig.parse({ address: h.env.address, taskQueue: h.taskQueue }));
    const id = `console-${Date.now()}`;
    await client.workflow.start('ralphLoop', { taskQueue: h.taskQueue, workflowId: id, args: [input] });
    await h.waitFor(id, (s) => s.pendingGate !== undefined);

    const page = await browser.newPage();
    const login = await page.goto(`${consoleUrl}/`);
    expect(login?.status()).toBe(401);
    await page.fill('#token', TOKEN);
    await page.fill('#operator', 'alice');
    await page.click('#login');
    await page.waitForSelector('#loops');
    const row = page.locator(`tr.loop-row[data-loop="${id}"]`);
    await expect(row.textContent()).resolves.toContain('yes');
    // Awaiting-human loops come first.
    await expect(page.locator('tr.loop-row').first().getAttribute('data-loop')).resolves.toBe(id);
    await shot(page, '01-loops-awaiting-human');

    await row.locator('a').click();
    await page.waitForSelector('#pending-gate');
    await shot(page, '02-pending-gate');
    const deleted = await page.locator('#deleted-tests li').allTextContents();
    expect(deleted).toEqual(['math.test.js: multiplies', 'math.test.js: multiplies by zero']);
    await expect(page.locator('#pending-gate').textContent()).resolves.toContain('test_deletion');
    await expect(page.locator('#diff-summary').textContent()).resolves.toContain('1 modified');
    await expect(page.locator('#quality-chart').count()).resolves.toBe(1);

    await page.fill('#guidance', 'Never delete failing tests: fix mul in math.js instead.');
    await page.click('#reject');
    await page.waitForSelector('#flash');
    const flash = await page.locator('#flash').textContent();
    expect(flash).toContain('reject by alice (console): applied');
    await shot(page, '03-after-reject');

    const result = await h.result(id);
    expect(result).toMatchObject({ status: 'accepted', acceptedBy: 'check', iterations: 2 });
    await page.goto(`${consoleUrl}/loops/${id}`);
    await expect(page.locator('#result').textContent()).resolves.toContain('ended accepted');
    await expect(page.locator('#timeline tr[data-iteration="2"]').count()).resolves.toBe(1);
    await expect(page.locator('#signals').textContent()).resolves.toContain('alice (console)');
    // The quality chart marks the regressed iteration and the best one.
    const marks = await page
      .locator('#quality-chart g.point')
      .evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-iteration'), g.textContent?.replace(/\s+/g, ' ')]));
    expect(marks.map(([n, t]) => [n, /REGRESSION/.test(t ?? ''), /BEST/.test(t ?? '')])).toEqual([
      ['1', true, false],
      ['2', false, true],
    ]);
    await shot(page, '04-loop-continued-and-accepted');

    // The worker (in this process) counted the regression by type.
    const scrape = await registry.metrics();
    fs.writeFileSync(path.join(artifactDir('metrics'), 'console-loop-scrape.txt'), scrape);
    expect(scrape).toMatch(/^ralph_regressions_total\{type="test_deletion"\} 1$/m);
    expect(scrape).toMatch(/^ralph_human_decisions_total\{decision="reject"\} 1$/m);

    // The decision is in the loop's audit trail, with who decided and the guidance.
    const stateDir = path.join(ws, '.ralph');
    const decision = readHookLog(stateDir, id).find((e) => e.type === 'decision');
    expect(decision).toMatchObject({ by: 'alice (console)', outcome: 'applied' });
    expect(decision!.detail).toContain('Never delete failing tests');

    // The agent's secret is nowhere: page, state files and logs, history payloads.
    expect(await page.content()).not.toContain(SECRET);
    expect(allText(stateDir)).not.toContain(SECRET);
    const history = await h.client.workflow.getHandle(id).fetchHistory();
    expect(JSON.stringify(history)).not.toContain(SECRET);
    expect(Buffer.from(JSON.stringify(history)).toString('base64')).not.toContain(
      Buffer.from(SECRET).toString('base64'),
    );
    await page.close();
    await client.connection.close();
  });

  it('shows a tampering gate at a glance: the coloured per-file diff and the assertion line (screenshot in docs)', async () => {
    const sumTest = `const assert = require('node:assert');
const { sum } = require('../src/sum');
assert.strictEqual(sum(2, 2), 4, 'sum(2,2) should be 4');
assert.strictEqual(sum(1, 5), 6, 'sum(1,5) should be 6');
console.log('ok');
`;
    const ws = tempWorkspace(
      {
        'package.json': JSON.stringify({ name: 'sum', private: true, scripts: { test: 'node test/sum.test.js' } }),
        'src/sum.js': 'exports.sum = (a, b) => (a === b ? a + b : b);\n',
        'test/sum.test.js': sumTest,
      },
      {
        iterations: [
          [
            { write: 'test/sum.test.js', content: sumTest.replace("6, 'sum(1,5) should be 6'", "5, 'sum(1,5) is 5'") },
            { promise: 'DONE' },
          ],
        ],
      },
    );
    await gitInit(ws);
    const id = await h.startLoop(
      scriptedLoop(ws, {
        prompt: 'Fix src/sum.js so that npm test passes.',
        completion: { command: 'npm test', promise: 'DONE' },
        maxIterations: 2,
      }),
    );
    await h.waitFor(id, (s) => s.pendingGate !== undefined, 90_000);
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    await page
      .context()
      .addCookies([
        { name: 'ralph_token', value: TOKEN, url: consoleUrl, httpOnly: true, sameSite: 'Strict', secure: true },
      ]);
    await page.goto(`${consoleUrl}/loops/${id}`);
    await page.waitForSelector('#pending-gate #protected-diff');
    await expect(page.locator('#pending-gate').textContent()).resolves.toContain('tampered_verification');
    const file = page.locator('#protected-diff .diff-file[data-path="test/sum.test.js"]');
    await expect(file.locator('tr.diff-del td.code').allTextContents()).resolves.toEqual([
      "-assert.strictEqual(sum(1, 5), 6, 'sum(1,5) should be 6');",
    ]);
    await expect(file.locator('tr.diff-add td.code').allTextContents()).resolves.toEqual([
      "+assert.strictEqual(sum(1, 5), 5, 'sum(1,5) is 5');",
    ]);
    // Coloured: removed lines on red, added on green (the console's CSS, as the browser computes it).
    type Styles = { getComputedStyle(e: unknown): { backgroundColor: string } };
    const bg = (sel: string) =>
      file
        .locator(sel)
        .first()
        .evaluate((el) => (globalThis as unknown as Styles).getComputedStyle(el).backgroundColor);
    await expect(bg('tr.diff-del td.code')).resolves.toBe('rgb(255, 235, 233)');
    await expect(bg('tr.diff-add td.code')).resolves.toBe('rgb(218, 251, 225)');
    await expect(page.locator('#check-failure mark').allTextContents()).resolves.toEqual([
      'AssertionError [ERR_ASSERTION]: sum(1,5) should be 6',
      '5 !== 6',
    ]);
    await expect(page.locator('#check-failure').textContent()).resolves.not.toContain('Node.js v20');
    // The gate from its title to the end of the diff: what a reviewer judges.
    const top = (await page.locator('#pending-gate').boundingBox())!;
    const end = (await page.locator('#protected-diff').boundingBox())!;
    const clip = { x: top.x, y: top.y, width: top.width, height: end.y + end.height + 8 - top.y };
    await page.screenshot({ path: path.join(shots, '06-tampering-gate.png'), clip, fullPage: true });
    // The docs' picture (docs/images/tampering-gate.png) is refreshed only when asked: RALPH_DOCS_IMAGES=1.
    if (process.env.RALPH_DOCS_IMAGES === '1')
      await page.screenshot({
        path: path.resolve(__dirname, '../../docs/images/tampering-gate.png'),
        clip,
        fullPage: true,
      });
    await h.signal(id, 'abort', { by: 'reviewer' });
    await page.close();
  });

  it("answers the agent's question from the browser: the answer reaches the next prompt and the loop goes on", async () => {
    const ask =
      '<question>\nThe spec says v2 but the tests pin v1: which API version do I keep?\n- keep v1\n- move to v2\n</question>';
    const ws = tempWorkspace(
      { 'check.js': "process.exit(require('fs').existsSync('done.txt') ? 0 : 1)" },
      { iterations: [[{ write: 'notes.md', content: 'looked at the API' }, { print: ask }], [{ write: 'done.txt' }]] },
    );
    const id = await h.startLoop(scriptedLoop(ws));
    await h.waitFor(id, (s) => s.pendingGate?.reason === 'question');

    const page = await browser.newPage();
    await page.goto(`${consoleUrl}/`);
    await page.fill('#token', TOKEN);
    await page.fill('#operator', 'erin');
    await page.click('#login');
    await page.waitForSelector('#loops');
    await page.goto(`${consoleUrl}/loops/${id}`);
    await page.waitForSelector('#pending-gate');
    await expect(page.locator('#question-text').textContent()).resolves.toContain(
      'The spec says v2 but the tests pin v1: which API version do I keep?',
    );
    await expect(page.locator('#question-options li').allTextContents()).resolves.toEqual(['keep v1', 'move to v2']);
    await expect(page.locator('#question-diff').textContent()).resolves.toContain('1 added');
    await shot(page, 'q1-question-gate');

    await page.fill('#answer-text', 'Keep v1 and add v2 next to it.');
    await page.click('#answer');
    await page.waitForSelector('#flash');
    await expect(page.locator('#flash').textContent()).resolves.toContain('answer by erin (console): applied');
    await shot(page, 'q2-after-answer');

    expect(await h.result(id)).toMatchObject({ status: 'accepted', acceptedBy: 'check', iterations: 2 });
    const prompt = fs.readFileSync(path.join(ws, '.ralph/loops', id, 'iterations/002/prompt.md'), 'utf8');
    expect(prompt).toContain('## Answer from erin (console)');
    expect(prompt).toContain('Keep v1 and add v2 next to it.');
    await page.close();
  });

  it('keeps showing the last data, read-only under a banner, while Temporal is unreachable', async () => {
    const id = await h.startLoop(
      scriptedLoop(tempWorkspace({ 'check.js': 'process.exit(1)' }, { default: [] }), {
        maxIterations: 1,
      }),
    );
    await h.waitFor(id, (s) => s.pendingGate !== undefined);
    const page = await browser.newPage();
    await page
      .context()
      .addCookies([
        { name: 'ralph_token', value: TOKEN, url: consoleUrl, httpOnly: true, sameSite: 'Strict', secure: true },
      ]);
    await page.goto(`${consoleUrl}/loops/${id}`);
    await page.waitForSelector('#pending-gate');
    await h.stopWorker();
    await h.env.teardown();
    serverStopped = true;
    await page.goto(`${consoleUrl}/loops/${id}`);
    await expect(page.locator('#unreachable').textContent()).resolves.toContain('Temporal is unreachable');
    await expect(page.locator('#pending-gate').count()).resolves.toBe(1);
    await expect(page.locator('#approve').isDisabled()).resolves.toBe(true);
    await shot(page, '05-temporal-unreachable');
    await page.close();
  });
});
