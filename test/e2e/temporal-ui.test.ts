/**
 * The Temporal Web UI of a real `temporal server start-dev` (the dev server `ralph dev` runs, UI on its own port) in
 * Chromium: an accepted loop and an aborted one (first seen waiting at its gate). The details page's User Metadata
 * tab shows each loop's summary, details and current details; the workflow list, with the RalphStatus and
 * RalphIteration columns added the way a user adds them, tells the aborted loop from the accepted one (both are
 * COMPLETED to Temporal). Screenshots go to test-artifacts/temporal-ui/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import { connectClient, startLoop } from '../../src/client';
import { ConnectionConfig } from '../../src/config/connection';
import { startDevServer, type DevServer } from '../../src/dev/dev-server';
import { createWorker } from '../../src/workers/worker';
import { artifactDir, launchChromium } from '../helpers/chromium';
import { checkFileExists, quietRuntime, scriptedLoop, tempWorkspace, workflowBundle } from '../helpers/env';

const TASK_QUEUE = 'ralph-ui-test';
const shots = artifactDir('temporal-ui');
/** The User Metadata panel (summary, details, current details) in the 1600x1000 viewport: the part docs show. */
const METADATA_CLIP = { x: 280, y: 315, width: 1300, height: 540 };

let server: DevServer;
let connection: NativeConnection;
let worker: Worker;
let running: Promise<void>;
let client: Client;
let browser: Browser;

beforeAll(async () => {
  quietRuntime();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-ui-'));
  [server, browser] = await Promise.all([startDevServer({ dbFile: path.join(dir, 'temporal.db') }), launchChromium()]);
  connection = await NativeConnection.connect({ address: server.address });
  worker = await createWorker({
    connection,
    namespace: 'default',
    taskQueue: TASK_QUEUE,
    workflowBundle: await workflowBundle(),
    shutdownGraceTime: '5 seconds',
  });
  running = worker.run();
  client = await connectClient(ConnectionConfig.parse({ address: server.address }));
});
afterAll(async () => {
  await browser?.close();
  await client?.connection.close();
  worker?.shutdown();
  await running;
  await connection?.close();
  await server?.stop();
});

/** Opens a loop's details page on the User Metadata tab and returns its text once the current details are there. */
async function metadataTab(page: Page, loopId: string, expected: string): Promise<string> {
  await page.goto(`${server.uiUrl}/namespaces/default/workflows/${loopId}`);
  await page.getByText('User Metadata', { exact: true }).first().click();
  const end = Date.now() + 30_000;
  for (;;) {
    // The UI renders each Markdown field in a frame of its own: read the page and every frame.
    const texts = await Promise.all(
      page.frames().map((f) =>
        f
          .locator('body')
          .innerText()
          .catch(() => ''),
      ),
    );
    const text = texts.join('\n');
    if (text.includes(expected)) return text;
    if (Date.now() > end) {
      await page.screenshot({ path: path.join(shots, `failed-${loopId}.png`), fullPage: true });
      throw new Error(`the details page of ${loopId} never showed "${expected}"; it showed:\n${text.slice(0, 3000)}`);
    }
    await page.waitForTimeout(500);
  }
}

async function untilAtGate(loopId: string): Promise<void> {
  const end = Date.now() + 60_000;
  for (;;) {
    const d = await client.workflow.getHandle(loopId).describe();
    if (d.searchAttributes.RalphAwaitingHuman?.[0] === true) return;
    if (Date.now() > end) throw new Error(`${loopId} never reached its gate`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('the Temporal Web UI of ralph loops', () => {
  it('shows the summary and current details of an accepted and an aborted loop, and the list tells them apart', async () => {
    const ws = tempWorkspace(
      { 'check.js': checkFileExists('done.txt') },
      { iterations: { '2': [{ write: 'done.txt', content: 'x' }] }, default: [{ print: 'working' }] },
    );
    const accepted = await startLoop(
      client,
      scriptedLoop(ws, {
        prompt: 'Create done.txt so the check passes',
        persistence: { detectors: { stuck: false, noFiles: false } },
      }),
      { taskQueue: TASK_QUEUE },
    );
    const stuck = tempWorkspace({ 'check.js': 'process.exit(1)' }, { default: [{ print: 'trying' }] });
    const aborted = await startLoop(
      client,
      scriptedLoop(stuck, {
        prompt: 'Make the impossible check pass',
        maxIterations: 1,
        persistence: { enabled: false },
      }),
      { taskQueue: TASK_QUEUE },
    );
    await client.workflow.getHandle(accepted).result();
    await untilAtGate(aborted);

    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const atGate = await metadataTab(page, aborted, 'Waiting for a human');
    expect(atGate).toContain('Make the impossible check pass');
    expect(atGate).toContain(`ralph approve ${aborted}`);
    expect(atGate).toContain(`ralph abort ${aborted}`);
    await page.screenshot({ path: path.join(shots, 'details-at-gate.png'), fullPage: true });
    await page.screenshot({ path: path.join(shots, 'details-at-gate-panel.png'), clip: METADATA_CLIP });

    await client.workflow.getHandle(aborted).signal('abort', { by: 'alice', reason: 'wrong approach' });
    await client.workflow.getHandle(aborted).result();
    const abortedText = await metadataTab(page, aborted, 'ABORTED by alice after 1 iteration');
    expect(abortedText).toContain('wrong approach');
    expect(abortedText).not.toContain('ACCEPTED');
    await page.screenshot({ path: path.join(shots, 'details-aborted.png'), fullPage: true });
    await page.screenshot({ path: path.join(shots, 'details-aborted-panel.png'), clip: METADATA_CLIP });

    const acceptedText = await metadataTab(page, accepted, 'ACCEPTED by the check after 2 iterations');
    expect(acceptedText).toContain('Create done.txt so the check passes');
    expect(acceptedText).toContain('node check.js');
    await page.screenshot({ path: path.join(shots, 'details-accepted.png'), fullPage: true });
    await page.screenshot({ path: path.join(shots, 'details-accepted-panel.png'), clip: METADATA_CLIP });

    await page.goto(`${server.uiUrl}/namespaces/default/workflows`);
    // As a user would: Configure Columns, add RalphStatus and RalphIteration, drop Run ID and End to make room.
    await page.getByRole('button', { name: 'Configure Columns' }).click();
    const column = (name: string) => page.locator('li', { hasText: new RegExp(`^\\s*${name}\\s*$`) }).locator('button');
    for (const name of ['RalphStatus', 'RalphIteration', 'Run ID', 'End']) await column(name).last().click();
    await page.reload();
    const row = (id: string) => page.locator('tr', { hasText: id });
    await row(aborted).waitFor({ timeout: 30_000 });
    expect(await row(aborted).innerText()).toMatch(/COMPLETED[\s\S]*aborted/);
    expect(await row(accepted).innerText()).toMatch(/COMPLETED[\s\S]*accepted/);
    await page.screenshot({ path: path.join(shots, 'workflow-list.png') });
    await page.screenshot({
      path: path.join(shots, 'workflow-list-rows.png'),
      clip: { x: 280, y: 240, width: 1300, height: 115 },
    });
    await page.close();
  });
});
