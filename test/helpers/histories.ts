/**
 * Recorded workflow histories for replay tests. `RALPH_RECORD_HISTORIES=1 npx jest test/workflows test/e2e` (re)writes
 * them under test/workflows/histories/; otherwise recording is a no-op and the committed files are what replay uses.
 * They are captured with `temporal workflow show --output json`, the format users attach to bug reports.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Harness, temporalPath } from './env';

/** Folder of the committed histories. */
export const HISTORIES_DIR = path.join(__dirname, '..', 'workflows', 'histories');

/** Saves the loop's (latest run) history as `<name>.json` when recording is on. */
export async function recordHistory(h: Harness, workflowId: string, name: string): Promise<void> {
  if (process.env.RALPH_RECORD_HISTORIES !== '1') return;
  const { stdout } = await promisify(execFile)(
    temporalPath(),
    ['workflow', 'show', '--workflow-id', workflowId, '--address', h.env.address, '--output', 'json'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  fs.mkdirSync(HISTORIES_DIR, { recursive: true });
  fs.writeFileSync(path.join(HISTORIES_DIR, `${name}.json`), stdout);
}
