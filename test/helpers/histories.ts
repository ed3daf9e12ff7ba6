/**
 * Recorded workflow histories for replay tests. `RALPH_RECORD_HISTORIES=1 npx jest test/workflows` (re)writes them
 * under test/workflows/histories/; otherwise recording is a no-op and the committed files are what replay uses.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Harness } from './env';

/** Folder of the committed histories. */
export const HISTORIES_DIR = path.join(__dirname, '..', 'workflows', 'histories');

/** Saves the loop's history as `<name>.json` when recording is on. */
export async function recordHistory(h: Harness, workflowId: string, name: string): Promise<void> {
  if (process.env.RALPH_RECORD_HISTORIES !== '1') return;
  const history = await h.client.workflow.getHandle(workflowId).fetchHistory();
  fs.mkdirSync(HISTORIES_DIR, { recursive: true });
  fs.writeFileSync(path.join(HISTORIES_DIR, `${name}.json`), JSON.stringify(history));
}
