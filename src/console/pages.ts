/**
 * The console's pages, rendered on the server as plain HTML (no build step, no client script): the loops list, a
 * loop's page (timeline, quality chart, gates, interventions, the pending human gate and its decision forms), a
 * project's task table with the unblock form, and the login page. Every value is escaped and redacted by {@link html}.
 */
import type { LoopSummary, ProjectSummary } from '../client';
import type { HumanGate, IterationRecord, LoopState } from '../core/loop-types';
import { numbersHeader, numbersRows } from '../core/gate-numbers';
import type { ProjectState } from '../core/project-machine';
import type { LoopFlag } from '../core/stats';
import { childGateCommands, type ChildGate } from '../core/child-gates';
import type { BestOutput, TrajectoryPoint } from '../core/anti-laziness-types';
import { sandboxLine } from '../core/sandbox';
import { describeBinding } from '../core/hosts';
import { QUALITY_DROP, trajectoryOf } from '../core/report';
import type { GateEvidence } from '../core/verification/evidence';
import { diffHtml, EVIDENCE_CSS, failureHtml } from '../core/verification/evidence-render';
import { escapeHtml, html, raw, type Html } from './html';

/** What every page needs besides its content. */
export interface PageContext {
  /** Set while Temporal doesn't answer: the page shows cached data, read-only, under a banner. */
  unreachable?: { since: string; error: string; cachedAt?: string };
  /** CSRF token for the page's forms. */
  csrf?: string;
  /** One-line result of the last action, shown once. */
  flash?: { ok: boolean; text: string };
  /** The operator's name (from login), prefilled as "decided by". */
  operator?: string;
  /** Seconds between automatic reloads (0: none). */
  refresh?: number;
}

const STYLE = raw(`
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f8fa}
header{background:#24292f;color:#fff;padding:8px 16px;display:flex;gap:16px;align-items:center}
header a{color:#fff;text-decoration:none;font-weight:600}
main{padding:16px;max-width:1200px}
table{border-collapse:collapse;background:#fff;width:100%;margin:8px 0}
th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#eaeef2}
.banner{background:#fff8c5;border:1px solid #d4a72c;padding:8px 12px;margin:8px 0}
.flash-ok{background:#dafbe1;border:1px solid #4ac26b;padding:8px 12px;margin:8px 0}
.flash-err{background:#ffebe9;border:1px solid #ff8182;padding:8px 12px;margin:8px 0}
.gate{background:#fff;border:2px solid #bf8700;padding:12px;margin:12px 0}
.badge{display:inline-block;padding:1px 6px;border-radius:8px;background:#eaeef2;font-size:12px}
.awaiting_human{background:#bf8700;color:#fff}.accepted{background:#1a7f37;color:#fff}
.failed,.aborted{background:#cf222e;color:#fff}.running{background:#0969da;color:#fff}
.pass{color:#1a7f37}.fail{color:#cf222e;font-weight:600}
form.inline{display:inline-block;margin:4px 8px 4px 0;vertical-align:top;background:#f6f8fa;padding:8px;border:1px solid #d0d7de}
textarea{width:320px;height:60px}
pre{white-space:pre-wrap;background:#f6f8fa;padding:8px;border:1px solid #d0d7de}
${EVIDENCE_CSS}`);

/** Wraps content in the page layout: header, banner, flash. */
export function layout(title: string, ctx: PageContext, body: Html): string {
  const u = ctx.unreachable;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>${title} · ralph console</title>
        ${ctx.refresh ? html`<meta http-equiv="refresh" content="${ctx.refresh}" />` : ''}
        <style>
          ${STYLE}
        </style>
      </head>
      <body>
        <header><a href="/">ralph console</a><span>${title}</span></header>
        <main>
          ${
            u
              ? html`<div class="banner" role="alert" id="unreachable">
                  Temporal is unreachable since ${u.since} (${u.error}): showing data from
                  ${u.cachedAt ?? 'nothing cached'}, read-only. Actions are disabled until it answers again.
                </div>`
              : ''
          }
          ${
            ctx.flash
              ? html`<div class="${ctx.flash.ok ? 'flash-ok' : 'flash-err'}" role="status" id="flash">
                  ${ctx.flash.text}
                </div>`
              : ''
          }
          ${body}
        </main>
      </body>
    </html>`.value;
}

const badge = (status: string | undefined): Html =>
  html`<span class="badge ${status ?? ''}">${(status ?? 'unknown').replace(/_/g, ' ')}</span>`;

const enc = encodeURIComponent;

/** Filters of the loops list, as the query string carries them. */
export interface LoopFilters {
  status?: string;
  agent?: string;
  awaiting?: boolean;
}

const STATUS_CHOICES = ['running', 'awaiting_human', 'paused', 'sleeping', 'accepted', 'aborted', 'failed'];

/** The loops list: awaiting-human first, then newest first; filters; projects below. */
export function loopsPage(loops: LoopSummary[], projects: ProjectSummary[], f: LoopFilters, ctx: PageContext): string {
  const sorted = [...loops].sort(
    (a, b) =>
      Number(b.awaitingHuman && b.workflowStatus === 'RUNNING') -
        Number(a.awaitingHuman && a.workflowStatus === 'RUNNING') || b.startTime.localeCompare(a.startTime),
  );
  const waiting = sorted.filter((l) => l.awaitingHuman && l.workflowStatus === 'RUNNING').length;
  return layout(
    'loops',
    ctx,
    html`<h1>Loops</h1>
      <p id="waiting-count">${waiting} loop${waiting === 1 ? '' : 's'} waiting for a human decision.</p>
      <form method="get" action="/">
        <label
          >status
          <select name="status">
            <option value="">any</option>
            ${STATUS_CHOICES.map(
              (s) => html`<option value="${s}" ${f.status === s ? raw('selected') : ''}>${s}</option>`,
            )}
          </select></label
        >
        <label>agent <input name="agent" value="${f.agent ?? ''}" size="12" /></label>
        <label
          ><input type="checkbox" name="awaiting" value="1" ${f.awaiting ? raw('checked') : ''} /> awaiting human
          only</label
        >
        <button type="submit">filter</button>
      </form>
      <table id="loops">
        <tr>
          <th>loop</th>
          <th>status</th>
          <th>iteration</th>
          <th>agent</th>
          <th>quality</th>
          <th>cost</th>
          <th>awaiting human</th>
          <th>workflow</th>
          <th>started</th>
        </tr>
        ${sorted.map(
          (l) =>
            html`<tr class="loop-row" data-loop="${l.loopId}">
              <td><a href="/loops/${enc(l.loopId)}">${l.loopId}</a></td>
              <td>${badge(l.status)}</td>
              <td>${l.iteration ?? ''}</td>
              <td>${l.agent ?? ''}</td>
              <td>${l.quality === undefined ? '' : `${l.quality}%`}</td>
              <td>${l.costUsd === undefined ? '' : `$${l.costUsd.toFixed(2)}`}</td>
              <td>${l.awaitingHuman && l.workflowStatus === 'RUNNING' ? html`<strong>yes</strong>` : ''}</td>
              <td>${l.workflowStatus.toLowerCase()}</td>
              <td>${l.startTime}</td>
            </tr>`,
        )}
      </table>
      ${sorted.length ? '' : html`<p>No loops match.</p>`}
      <h2>Projects</h2>
      <table id="projects">
        <tr>
          <th>project</th>
          <th>workflow</th>
          <th>started</th>
        </tr>
        ${projects.map(
          (p) =>
            html`<tr>
              <td><a href="/projects/${enc(p.projectId)}">${p.projectId}</a></td>
              <td>${p.workflowStatus.toLowerCase()}</td>
              <td>${p.startTime}</td>
            </tr>`,
        )}
      </table>`,
  );
}

/** Points of the trajectory that regressed: a critical regression, or a drop of ≥ QUALITY_DROP points. */
function regressedAt(t: TrajectoryPoint[], i: number): boolean {
  return !!t[i].regression || (i > 0 && t[i - 1].quality - t[i].quality >= QUALITY_DROP);
}

/** The quality trajectory as an inline SVG line chart, with the BEST point and REGRESSION points marked. */
export function qualityChart(t: TrajectoryPoint[], best?: BestOutput): Html {
  if (!t.length) return html`<p id="quality-chart">No quality measurements yet (quality gates have not run).</p>`;
  const W = 640;
  const H = 220;
  const pad = 36;
  const x = (i: number): number => (t.length === 1 ? W / 2 : pad + (i * (W - 2 * pad)) / (t.length - 1));
  const y = (q: number): number => H - pad - (Math.max(0, Math.min(100, q)) / 100) * (H - 2 * pad);
  const line = t.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.quality).toFixed(1)}`).join(' ');
  return html`<svg
    id="quality-chart"
    role="img"
    aria-label="quality trajectory"
    width="${W}"
    height="${H}"
    viewBox="0 0 ${W} ${H}"
    style="background:#fff;border:1px solid #d0d7de"
  >
    ${[0, 50, 100].map(
      (q) =>
        html`<line x1="${pad}" x2="${W - pad}" y1="${y(q)}" y2="${y(q)}" stroke="#eaeef2" /><text
            x="4"
            y="${y(q) + 4}"
            font-size="11"
          >
            ${q}%</text
          >`,
    )}
    <path d="${line}" fill="none" stroke="#0969da" stroke-width="2" />
    ${t.map((p, i) => {
      const isBest = best?.iteration === p.n;
      const reg = regressedAt(t, i);
      return html`<g class="point" data-iteration="${p.n}">
        <circle
          cx="${x(i)}"
          cy="${y(p.quality)}"
          r="${isBest ? 7 : 4}"
          fill="${reg ? '#cf222e' : isBest ? '#1a7f37' : '#0969da'}"
        >
          <title>iteration ${p.n}: ${p.quality}%${p.verified ? ' verified' : ''}</title>
        </circle>
        <text x="${x(i)}" y="${H - 12}" font-size="11" text-anchor="middle">${p.n}</text>
        ${
          isBest
            ? html`<text x="${x(i)}" y="${y(p.quality) - 12}" font-size="11" text-anchor="middle" fill="#1a7f37"
                >BEST</text
              >`
            : ''
        }
        ${
          reg
            ? html`<text x="${x(i)}" y="${y(p.quality) + 20}" font-size="11" text-anchor="middle" fill="#cf222e">
                REGRESSION
              </text>`
            : ''
        }
      </g>`;
    })}
  </svg>`;
}

const gatesCell = (r: IterationRecord): Html =>
  html`${(r.gates ?? []).map(
    (g) =>
      html`<div class="${g.passed ? 'pass' : 'fail'}">
        ${g.passed ? '✓' : '✗'} ${g.name}: ${g.actual}${g.expected ? ` (want ${g.expected})` : ''}
      </div>`,
  )}${r.check ? html`<div class="${r.check.passed ? 'pass' : 'fail'}">check ${r.check.passed ? 'passed' : 'failed'}</div>` : ''}`;

/** The deleted tests a gate is about: from the regressions of its iteration, else from its details text. */
export function deletedTestsFor(s: LoopState): string[] {
  const gate = s.pendingGate;
  if (!gate) return [];
  const fromRegressions = (s.persistence?.regressions ?? [])
    .filter((r) => r.iteration === gate.iteration)
    .flatMap((r) => r.deletedTests ?? []);
  return [...new Set(fromRegressions)];
}

/** The approve, reject and abort forms a gate offers (disabled while Temporal is unreachable). */
function gateForms(s: LoopState, ctx: PageContext): Html {
  const gate = s.pendingGate!;
  const disabled = ctx.unreachable ? raw('disabled') : '';
  const hidden = html`<input type="hidden" name="_csrf" value="${ctx.csrf ?? ''}" /><input
      type="hidden"
      name="gateId"
      value="${gate.id}"
    />`;
  const by = html`<label>decided by <input name="by" value="${ctx.operator ?? ''}" size="12" required /></label>`;
  return html`${gate.options.includes('answer') ? answerForm(s, ctx, hidden) : ''}${
    gate.options.includes('approve')
      ? html`<form class="inline" method="post" action="/loops/${enc(s.loopId)}/approve">
          ${hidden} ${by}<br /><label>reason <input name="reason" size="30" /></label><br />
          <button type="submit" id="approve" ${disabled}>Approve</button>
        </form>`
      : ''
  }
  ${
    gate.options.includes('reject')
      ? html`<form class="inline" method="post" action="/loops/${enc(s.loopId)}/reject">
          ${hidden} ${by}<br />
          <label>guidance for the agent<br /><textarea name="guidance" id="guidance"></textarea></label><br />
          <label>extra iterations <input name="extraIterations" type="number" min="1" max="10000" size="4" /></label
          ><br />
          <label>reason <input name="reason" size="30" /></label><br />
          <button type="submit" id="reject" ${disabled}>Reject with guidance</button>
        </form>`
      : ''
  }
  ${
    gate.options.includes('abort')
      ? html`<form class="inline" method="post" action="/loops/${enc(s.loopId)}/abort">
          ${hidden} ${by}<br /><label>reason <input name="reason" size="30" /></label><br />
          <button type="submit" id="abort" ${disabled}>Abort</button>
        </form>`
      : ''
  }`;
}

/** A gate's evidence: the original check's failure (from its first error), then the protected files' diff, coloured. */
function evidencePanel(e: GateEvidence | undefined): Html {
  if (!e) return html``;
  const n = e.diff ? e.diff.files.length + (e.diff.omittedFiles ?? 0) : 0;
  return html`${
    e.failure
      ? html`<h3>Original check failure</h3>
          <div id="check-failure" data-runner="${e.failure.runner}">${raw(failureHtml(e.failure, escapeHtml))}</div>`
      : ''
  }
  ${
    e.diff?.files.length
      ? html`<h3>Protected files the agent changed (${n})</h3>
          <div id="protected-diff">${raw(diffHtml(e.diff, escapeHtml))}</div>`
      : ''
  }`;
}

/** A regression or stuck-loop gate's before/after numbers (tests, coverage, type and lint errors). */
function numbersTable(g: HumanGate['numbers']): Html | string {
  const rows = g ? numbersRows(g) : [];
  if (!g || !rows.length) return '';
  return html`<h3>Numbers</h3>
    <table id="gate-numbers">
      <tr>
        ${numbersHeader(g).map((h) => html`<th>${h}</th>`)}
      </tr>
      ${rows.map(
        (r) =>
          html`<tr>
            ${r.map((c) => html`<td>${c}</td>`)}
          </tr>`,
      )}
    </table>`;
}

/** A question gate's answer form: the answer goes into the agent's next prompt and the loop goes on. */
function answerForm(s: LoopState, ctx: PageContext, hidden: Html): Html {
  const disabled = ctx.unreachable ? raw('disabled') : '';
  return html`<form class="inline" method="post" action="/loops/${enc(s.loopId)}/answer" id="answer-form">
    ${hidden}<label>answered by <input name="by" value="${ctx.operator ?? ''}" size="12" required /></label><br />
    <label
      >your answer (goes into the agent's next prompt)<br /><textarea
        name="text"
        id="answer-text"
        required
      ></textarea></label
    ><br />
    <button type="submit" id="answer" ${disabled}>Answer</button>
  </form>`;
}

/** A question gate's question and the options the agent listed. */
function questionPanel(s: LoopState): Html {
  const q = s.pendingGate?.question;
  if (!q) return html``;
  const left = s.questions ? Math.max(0, s.questions.max - s.questions.asked) : undefined;
  return html`<h3>${q.source === 'pdare' ? 'PDARE asks for clarification' : 'The agent asks'}</h3>
    <blockquote id="question-text"><pre>${q.text}</pre></blockquote>
    ${
      q.options.length
        ? html`<h3>Options the agent listed</h3>
            <ol id="question-options">
              ${q.options.map((o) => html`<li>${o}</li>`)}
            </ol>`
        : ''
    }
    <p id="question-diff">${q.diff}</p>
    ${left !== undefined ? html`<p>questions left in this loop: ${left} of ${s.questions!.max}</p>` : ''}`;
}

function gatePanel(s: LoopState, ctx: PageContext): Html {
  const gate = s.pendingGate;
  if (!gate) return html``;
  const record = s.records.find((r) => r.n === gate.iteration) ?? s.records[s.records.length - 1];
  const deleted = deletedTestsFor(s);
  const failing = (record?.gates ?? []).filter((g) => !g.passed);
  const c = record?.changes;
  return html`<section class="gate" id="pending-gate">
    <h2>Waiting for you: ${gate.title}</h2>
    <p>
      gate <code>${gate.id}</code> · reason <strong>${gate.reason}</strong> · opened ${gate.openedAt} at iteration
      ${gate.iteration} · rejections so far: <strong id="rejection-count">${s.totals.rejections ?? 0}</strong>${
        s.rejectionStreak ? ` (${s.rejectionStreak} in a row)` : ''
      }
    </p>
    ${questionPanel(s)}
    ${
      deleted.length
        ? html`<h3>Deleted tests (${deleted.length})</h3>
            <ul id="deleted-tests">
              ${deleted.map((t) => html`<li>${t}</li>`)}
            </ul>`
        : ''
    }
    ${
      failing.length
        ? html`<h3>Failing gates</h3>
            <ul id="failing-gates">
              ${failing.map((g) => html`<li>${g.name}: ${g.actual}${g.expected ? ` (want ${g.expected})` : ''}</li>`)}
            </ul>`
        : ''
    }
    ${numbersTable(gate.numbers)}
    ${
      c
        ? html`<h3>Diff of iteration ${record!.n}</h3>
            <p id="diff-summary">${c.added} added, ${c.modified} modified, ${c.deleted} deleted</p>
            <ul>
              ${c.files.slice(0, 20).map((f) => html`<li><code>${f}</code></li>`)}
            </ul>`
        : ''
    }
    ${evidencePanel(gate.evidence)}
    <details open>
      <summary>details</summary>
      <pre>${gate.details}</pre>
    </details>
    ${gateForms(s, ctx)}
  </section>`;
}

/** A loop's page. */
/** The loop's routing: the agent running now, its domain, and the handoff chain with each handoff's reason. */
export function routingPanel(s: LoopState): Html | '' {
  const r = s.routing;
  if (!r) return '';
  const chain = r.chain;
  return html`<section id="routing">
    <h2>Routing</h2>
    <p>
      agent <strong>${r.agent ?? 'base'}</strong> · domain ${r.domain} · handoff chain
      <strong id="handoff-chain">${chain.agents.join(' → ')}</strong>${
        chain.stopped ? html` · <strong>stopped</strong>: ${chain.stopped.error} (${chain.stopped.detail})` : ''
      }
    </p>
    ${
      chain.links.length
        ? html`<table id="handoffs">
            <tr>
              <th>iteration</th>
              <th>from</th>
              <th>to</th>
              <th>reason</th>
            </tr>
            ${chain.links.map(
              (l) =>
                html`<tr>
                  <td>${l.iteration}</td>
                  <td>${l.from}</td>
                  <td>${l.to}</td>
                  <td>${l.reason}</td>
                </tr>`,
            )}
          </table>`
        : ''
    }
  </section>`;
}

export function loopPage(s: LoopState, workflowStatus: string, ctx: PageContext, flags: LoopFlag[] = []): string {
  const p = s.persistence;
  return layout(
    s.loopId,
    ctx,
    html`${loopHeader(s, workflowStatus)} ${s.host ? html`<p id="host">${describeBinding(s.host) ?? ''}</p>` : ''}
      ${s.sandbox ? html`<p id="sandbox" class="${s.sandbox.state === 'enforced' ? 'ok' : 'warn'}">${sandboxLine(s.sandbox)}</p>` : ''}
      ${flagsPanel(flags)} ${routingPanel(s)} ${gatePanel(s, ctx)}
      <h2>Quality trajectory</h2>
      ${qualityChart(trajectoryOf(s), p?.best)} ${p?.best ? html`<p>best: ${p.best.reason}</p>` : ''}
      ${timelineTable(s)} ${interventionsPanel(s)} ${signalsTable(s)}`,
  );
}

/** The loop's flags (`ralph flag`: accepted work that was bad after all), when, by whom and why. */
function flagsPanel(flags: LoopFlag[]): Html | '' {
  if (!flags.length) return '';
  return html`<section id="flags">
    <h2>Flagged (${flags.length}): a false negative in <code>ralph stats</code></h2>
    <ul>
      ${flags.map((f) => html`<li>${f.at} by ${f.by ?? 'unknown'}: ${f.reason}</li>`)}
    </ul>
  </section>`;
}

/** Where the loop stands: status, phase, iteration, agent, workspace, totals, result, pending guidance. */
function loopHeader(s: LoopState, workflowStatus: string): Html {
  const t = s.totals;
  return html`<h1>${s.loopId}</h1>
    <p>
      ${badge(s.status)} phase <strong id="phase">${s.phase}</strong> · iteration
      <strong id="iteration">${s.iteration}</strong>/${s.maxIterations} · agent ${s.agent} · workflow
      ${workflowStatus.toLowerCase()}
    </p>
    <p>
      workspace <code>${s.workspace}</code> · started ${s.startedAt} · updated
      ${s.updatedAt}${s.run ? ` · run ${s.run + 1}` : ''}
    </p>
    ${
      t && t.iterations !== undefined
        ? html`<p id="totals">
            checks ${t.checksPassed} passed / ${t.checksFailed} failed · gate runs ${t.gateRuns ?? 0} · rejections
            ${t.rejections ?? 0} · human gates ${t.humanGates} · tokens ${t.inputTokens} in / ${t.outputTokens} out ·
            cost $${t.costUsd.toFixed(2)}
          </p>`
        : ''
    }
    ${
      s.result
        ? html`<p id="result">
            <strong>ended ${s.result.status}</strong>: ${s.result.reason}${s.result.by ? ` (by ${s.result.by})` : ''}
          </p>`
        : ''
    }
    ${s.pendingGuidance ? html`<p id="pending-guidance">guidance for the next prompt: ${s.pendingGuidance}</p>` : ''}`;
}

/** Every iteration, newest first: outcome, verdict, quality, gates, detections, changes, level, duration. */
function timelineTable(s: LoopState): Html {
  return html`<h2>Iterations</h2>
    <table id="timeline">
      <tr>
        <th>n</th>
        <th>outcome</th>
        <th>verdict</th>
        <th>quality</th>
        <th>gates / check</th>
        <th>detections</th>
        <th>changes</th>
        <th>level</th>
        <th>duration</th>
      </tr>
      ${[...s.records].reverse().map(
        (r) =>
          html`<tr data-iteration="${r.n}">
            <td>${r.n}</td>
            <td>${r.outcome}${r.rejected ? ' (claim rejected)' : ''}</td>
            <td>${r.verdict ?? ''}</td>
            <td>${r.quality === undefined ? '' : `${r.quality}%`}</td>
            <td>${gatesCell(r)}</td>
            <td>${(r.detections ?? []).join(', ')}</td>
            <td>${r.changes ? `+${r.changes.added} ~${r.changes.modified} -${r.changes.deleted}` : ''}</td>
            <td>${r.level ?? ''}</td>
            <td>${(r.durationMs / 1000).toFixed(1)} s</td>
          </tr>`,
      )}
    </table>`;
}

/** The regressions and the recent flagged events of the anti-laziness layer. */
function interventionsPanel(s: LoopState): Html {
  const p = s.persistence;
  return html`<h2>Interventions</h2>
    ${
      p?.regressions.length
        ? html`<table id="regressions">
            <tr>
              <th>id</th>
              <th>iteration</th>
              <th>types</th>
              <th>severity</th>
              <th>summary</th>
              <th>recovery</th>
            </tr>
            ${p.regressions.map(
              (r) =>
                html`<tr>
                  <td>${r.id}</td>
                  <td>${r.iteration}</td>
                  <td>${r.types.join(', ')}</td>
                  <td>${r.severity}</td>
                  <td>${r.summary}</td>
                  <td>${r.recovery}</td>
                </tr>`,
            )}
          </table>`
        : html`<p>No regressions.</p>`
    }
    ${
      p?.recent.length
        ? html`<table id="events">
            <tr>
              <th>iteration</th>
              <th>type</th>
              <th>verdict</th>
              <th>details</th>
            </tr>
            ${p.recent.map(
              (e) =>
                html`<tr>
                  <td>${e.iteration}</td>
                  <td>${e.type}</td>
                  <td>${e.verdict}</td>
                  <td>${e.details}</td>
                </tr>`,
            )}
          </table>`
        : ''
    }`;
}

/** The human decisions and signals the loop received, newest first. */
function signalsTable(s: LoopState): Html {
  return html`<h2>Decisions and signals</h2>
    <table id="signals">
      <tr>
        <th>at</th>
        <th>signal</th>
        <th>by</th>
        <th>result</th>
      </tr>
      ${[...s.signals].reverse().map(
        (e) =>
          html`<tr>
            <td>${e.at}</td>
            <td>${e.name}</td>
            <td>${e.by ?? ''}</td>
            <td>${e.applied ? 'applied' : 'ignored'}: ${e.note}${e.reason ? ` · reason: ${e.reason}` : ''}</td>
          </tr>`,
      )}
    </table>`;
}

/** A project's child loops waiting at a human gate: what each asks, a link to answer it, and the CLI command. */
function childGatesPanel(gates: ChildGate[]): Html | '' {
  if (!gates.length) return '';
  return html`<section class="gate" id="child-gates">
    <h2>Waiting for you (the project goes on once answered)</h2>
    ${gates.map(
      (c) =>
        html`<div class="child-gate" data-loop="${c.loopId}">
          <p>
            task <strong>${c.taskId}</strong> (attempt ${c.attempt}) · loop
            <a href="/loops/${enc(c.loopId)}">${c.loopId}</a> · gate <code>${c.gate.id}</code> · reason
            <strong>${c.gate.reason}</strong>
          </p>
          <blockquote class="child-gate-ask">
            <pre>${c.gate.question ? c.gate.question.text : c.gate.title}</pre>
          </blockquote>
          <p>
            Answer on <a href="/loops/${enc(c.loopId)}#pending-gate">the loop's page</a>, or:
            ${childGateCommands(c.loopId, c.gate).map((cmd) => html`<br /><code>${cmd}</code>`)}
          </p>
        </div>`,
    )}
  </section>`;
}

/**
 * A project's page: where it stands, its child loops waiting at a human gate, its task table, the blocked tasks with
 * their reasons and an unblock form.
 */
export function projectPage(
  p: ProjectState,
  workflowStatus: string,
  ctx: PageContext,
  childGates: ChildGate[] = [],
): string {
  const blocked = p.tasks.filter((t) => t.status === 'blocked');
  const disabled = ctx.unreachable ? raw('disabled') : '';
  return layout(
    p.projectId,
    ctx,
    html`<h1>${p.projectId}</h1>
      <p>
        ${badge(p.status)} · workflow ${workflowStatus.toLowerCase()} · PRD <code>${p.prdFile}</code> · ${p.attemptsRun}
        attempts
      </p>
      ${childGatesPanel(childGates)}
      <h2>Tasks</h2>
      <table id="tasks">
        <tr>
          <th>id</th>
          <th>title</th>
          <th>complexity</th>
          <th>status</th>
          <th>attempts</th>
          <th>last attempt</th>
          <th>block reason</th>
        </tr>
        ${p.tasks.map((t) => {
          const last = t.attempts[t.attempts.length - 1];
          return html`<tr data-task="${t.id}">
            <td>${t.id}</td>
            <td>${t.title}</td>
            <td>${t.complexity}</td>
            <td>${badge(t.status)}</td>
            <td>${t.attempts.length}</td>
            <td>
              ${
                last
                  ? html`<a href="/loops/${enc(last.loopId)}">${last.loopId}</a> ${last.outcome ?? 'running'}
                      (${last.timeoutSeconds} s)`
                  : ''
              }
            </td>
            <td>${t.blockReason ?? ''}${t.blockDetails ? `: ${t.blockDetails}` : ''}</td>
          </tr>`;
        })}
      </table>
      <h2>Blocked tasks (${blocked.length})</h2>
      ${blocked.map(
        (t) =>
          html`<form class="inline" method="post" action="/projects/${enc(p.projectId)}/unblock">
            <input type="hidden" name="_csrf" value="${ctx.csrf ?? ''}" />
            <input type="hidden" name="taskId" value="${t.id}" />
            <strong>${t.id}</strong> ${t.title}<br />blocked:
            ${t.blockReason ?? ''}${t.blockDetails ? ` (${t.blockDetails})` : ''}<br />
            <label>decided by <input name="by" value="${ctx.operator ?? ''}" size="12" required /></label><br />
            <label>timeout (s) <input name="timeoutSeconds" type="number" min="1" size="6" /></label><br />
            <label>reason <input name="reason" size="30" /></label><br />
            <button type="submit" ${disabled}>Unblock ${t.id}</button>
          </form>`,
      )}
      <h2>Operator commands</h2>
      <ul>
        ${[...p.commands]
          .reverse()
          .map(
            (c) =>
              html`<li>
                ${c.at} ${c.name}${c.by ? ` by ${c.by}` : ''}: ${c.applied ? 'applied' : 'refused'} (${c.note})
              </li>`,
          )}
      </ul>`,
  );
}

/** The login page: token and the operator's name. */
export function loginPage(ctx: PageContext & { error?: string }): string {
  return layout(
    'login',
    ctx,
    html`<h1>Log in</h1>
      <p>
        Enter the console token (printed by <code>ralph console</code> at start, or set with --token /
        RALPH_CONSOLE_TOKEN).
      </p>
      ${ctx.error ? html`<div class="flash-err" role="alert">${ctx.error}</div>` : ''}
      <form method="post" action="/login">
        <input type="hidden" name="_csrf" value="${ctx.csrf ?? ''}" />
        <label>token <input type="password" name="token" id="token" autocomplete="off" required /></label><br />
        <label>your name <input name="operator" id="operator" required /></label><br />
        <button type="submit" id="login">Log in</button>
      </form>`,
  );
}

/** A plain error page (not found, refused). */
export function errorPage(title: string, message: string, ctx: PageContext): string {
  return layout(
    title,
    ctx,
    html`<h1>${title}</h1>
      <p id="error">${message}</p>
      <p><a href="/">back to the loops</a></p>`,
  );
}
