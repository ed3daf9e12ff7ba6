import fs from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { HISTORIES_DIR } from '../helpers/histories';
import { quietRuntime, workflowBundle } from '../helpers/env';

const files = fs.existsSync(HISTORIES_DIR) ? fs.readdirSync(HISTORIES_DIR).filter((f) => f.endsWith('.json')) : [];

describe('ralphLoop replay', () => {
  it('has recorded histories of the main scenarios committed', () => {
    expect(files.sort()).toEqual(
      expect.arrayContaining([
        'complete-at-3.json',
        'gate-approve.json',
        'gate-reject-abort.json',
        'pause-resume.json',
        'usage-limit.json',
        'plain-cli-approve.json',
        'continue-as-new-last-run.json',
        // With the anti-laziness layer (patch anti-laziness-v1): rollback at a regression gate, best-output restore.
        'regression-reject-rollback.json',
        'best-output-restore.json',
        // ralphProject: child loops per task, a timeout retried with more time; a block, then an operator's unblock.
        'project-five-tasks.json',
        'project-block-unblock.json',
        // Automatic routing (patch routing-v1): a dns → cloud_architect → security handoff chain.
        'routing-handoff-chain.json',
        // Routing v2 (patch routing-v2-calibrated): the calibrated model, and a profile budget that hands back to
        // the base agent.
        'routing-budget.json',
        // Routing v3 (patch routing-v3-model): the v3 model routes a security task to its profile.
        'routing-v3-model.json',
        // Routing v4 (patch routing-v4-model, asked at the start): the v4 model routes a security task to its profile.
        'routing-v4-model.json',
        // Routing v5 (patch routing-v5-model, asked at the start after routing-v4-model): the v5 model routes it.
        'routing-v5-model.json',
        // Routing v6 (patch routing-v6-model, asked at the start after routing-v5-model): the v6 model routes it.
        'routing-v6-model.json',
        // Routing v7 (patch routing-v7-model, asked at the start after routing-v6-model): v6's weights with the sense
        // rule route it.
        'routing-v7-model.json',
        // Routing v8 (patch routing-v8-model, asked at the start after routing-v7-model): the v8 weights with v7's
        // rules route it.
        'routing-v8-model.json',
        // Routing v9 (patch routing-v9-model, asked at the start after routing-v8-model): v8's weights with v9's sense
        // rules route it.
        'routing-v9-model.json',
        // Routing v10 (patch routing-v10-model, asked at the start after routing-v9-model): v8's weights with v10's
        // sense rules and security words route it.
        'routing-v10-model.json',
        // Routing v13 (patch routing-v13-model, asked at the start after routing-v10-model): v8's weights with the
        // rules of v11 to v13 (escalation leads, attack payloads, more everyday and trade words) route it.
        'routing-v13-model.json',
        // Routing v14 (patch routing-v14-model, asked at the start after routing-v13-model): v8's weights with v14's
        // rules (logged incidents of a trade as records, cluster-cost tools as cloud words, more worlds and words).
        'routing-v14-model.json',
        // Routing v15 (patch routing-v15-model, asked at the start after routing-v14-model): v14 with users' and
        // staff's words for a trade's work.
        'routing-v15-model.json',
        // Routing v16 (patch routing-v16-model, asked at the start after routing-v15-model): v15 with more of
        // testers', users' and staff's words for a trade's work.
        'routing-v16-model.json',
        // Routing v17 (patch routing-v17-model, asked at the start after routing-v16-model): v16 where small work that
        // is only a constraint of docs or testing work no longer makes a task small, with more developers' jargon.
        'routing-v17-model.json',
        // Routing v18 (patch routing-v18-model, asked at the start after routing-v17-model): v17 where SRE's zones are
        // a cloud's and a lockout is one of security's everyday words, with more of the trades' words.
        'routing-v18-model.json',
        // Routing v21 (patch routing-v21-model, asked at the start after routing-v18-model): v18 with narrower
        // technical worlds and more everyday words, a command quoted alone read as its name, more of the trades' words.
        'routing-v21-model.json',
        // Routing v24 (patch routing-v24-model, asked at the start after routing-v21-model): v21 with a product
        // element's quoted name read as the product's, data's migrations and SRE's escalations in their own sense, REST
        // an API's, a server's mail backend's beside what goes wrong with it, a trade's tests its own.
        'routing-v24-model.json',
        // Routing v25 (patch routing-v25-model, asked at the start after routing-v24-model): v24 where a product
        // element's quoted name is no evidence of a domain's world, a UI's toasts, a trade's paperwork and tests.
        'routing-v25-model.json',
        // Routing v26 (patch routing-v26-model, asked at the start after routing-v25-model): v25 where a command named
        // in backticks is a product element, a vault a secrets manager's, a build software's.
        'routing-v26-model.json',
        // Routing v29 (patch routing-v29-model, asked at the start after routing-v26-model): v28's rules with weights
        // of its own, refitted on every split read until v28 was judged.
        'routing-v29-model.json',
        // Fused iterations (patch fused-iteration-v1): detection pass and check inside the agent's activity; one
        // whose check was cut short by a killed worker and retried without running the agent again.
        'fused-complete-at-3.json',
        'fused-check-retried.json',
        // Verification (patch verification-v1): a tampering gate with its evidence (diff per file, failure excerpt).
        'tampered-gate-evidence.json',
        // Questions (patch questions-v1): the agent asks, a question gate opens, `ralph answer` resumes the loop.
        'question-answer.json',
        // PDARE's ask_clarification (feature removal) opening the question gate, answered through the client.
        'pdare-clarification.json',
        // A project's child loop asks (patch child-gate-notice-v1: it tells the project when its gate opens and
        // closes); the project's details show the question until the child is answered.
        'project-child-question.json',
        'project-child-question--T1--a1.json',
        // A status query completed a workflow task while the startRouting local activity's result was in: the code
        // after it (the first persist, which asked the quality/cost patch) ran in the next task (replay-race.test.ts).
        'query-split-after-local-activity.json',
        // The same, under patches-at-start-v1 and persist-activity-v1 (state.json written by a normal activity).
        'query-split-patches-at-start.json',
        // A routed loop under both patches: the v3 model without asking its patch, the profile loaded by an activity.
        'routing-persist-activity.json',
      ]),
    );
  });

  it('replays every recorded history with the current workflow code without nondeterminism', async () => {
    quietRuntime();
    const histories = files.map((f) => ({
      workflowId: path.basename(f, '.json'),
      history: historyFromJSON(JSON.parse(fs.readFileSync(path.join(HISTORIES_DIR, f), 'utf8'))),
    }));
    const results = [];
    for await (const r of Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, histories))
      results.push(r);
    expect(results).toHaveLength(files.length);
    for (const r of results)
      expect({ id: r.workflowId, error: r.error?.message }).toEqual({ id: r.workflowId, error: undefined });
  });
});
