import {
  ROUTING_DEFAULTS,
  addContext,
  agentNameProblem,
  breakerOpen,
  buildRoutingIndex,
  classify,
  closeIfCooled,
  closedBreaker,
  extendChain,
  newChain,
  parseHandoff,
  parseRoutingLog,
  recordFailure,
  repeatingTail,
  routePayloadProblem,
  routedSections,
  routingStats,
  routingStatusLines,
  newRoutingState,
  RoutingTracker,
  scanSecrets,
  screenHandoff,
  shouldSwitch,
  summariseContext,
  type BreakerState,
  type Classification,
  type ContextEntry,
  type HandoffChain,
  type RoutingLogEntry,
} from '../../../src/core/routing';

const profiles = [
  { name: 'security_specialist', domain: 'security', keywords: ['pentest'] },
  { name: 'sre_principal', domain: 'reliability', keywords: [] },
  { name: 'finops_agent', domain: 'finops', keywords: [] },
  { name: 'technical_writer', domain: 'docs', keywords: [] },
  { name: 'dns_specialist', domain: 'dns', keywords: ['dns', 'mx record', 'spf', 'dkim'], weights: { dns: 4 } },
  { name: 'frontend_dev', domain: 'ui', keywords: [] },
];
const index = buildRoutingIndex(profiles);

describe('classify', () => {
  // [what, text, domain, routed, profile]
  const cases: [string, string, string, boolean, string | undefined][] = [
    [
      'a security review',
      'Review this Python code for security issues and fix any injection vulnerabilities',
      'security',
      true,
      'security_specialist',
    ],
    ['the weather (general, nothing matches)', "What's the weather?", 'general', false, undefined],
    ['a short domain task stays with the base agent (complexity)', 'Fix XSS', 'security', false, 'security_specialist'],
    [
      'an alias domain (reliability → sre)',
      'Define SLOs for the checkout service and set up alerting on the error budget burn rate',
      'sre',
      true,
      'sre_principal',
    ],
    [
      "a profile's own domain and weighted keywords",
      'Configure the DNS zone with MX records, SPF and DKIM for the new mail domain of the company',
      'dns',
      true,
      'dns_specialist',
    ],
    [
      'no profile for the domain: base agent',
      'Write a Spark job that joins the clickstream with the orders dataset and computes conversion per campaign',
      'data',
      false,
      undefined,
    ],
    [
      // v3 reads "Add jest tests" as testing (v2 had frontend on top); split with frontend, under 0.70 either way.
      'a text split between two domains is not routed',
      'Add jest tests for the React dashboard component and its CSS layout with snapshot tests and mocks',
      'testing',
      false,
      undefined,
    ],
    [
      'camelCase humps are words, acronyms are not split',
      'Harden the AuthController against CSRF and add GraphQL depth limits to prevent exploit attempts',
      'security',
      true,
      'security_specialist',
    ],
  ];
  it.each(cases)('%s', (_what, text, domain, routed, profile) => {
    const c = classify(text, index);
    expect(c.domain).toBe(domain);
    expect(c.route).toBe(routed);
    expect(c.profile).toBe(profile);
    expect(c.confidence).toBeGreaterThanOrEqual(0);
    expect(c.confidence).toBeLessThanOrEqual(1);
    expect(c.complexity).toBeGreaterThanOrEqual(1);
    expect(c.complexity).toBeLessThanOrEqual(10);
    expect(c.why.length).toBeGreaterThan(0);
  });

  it('routes only above both thresholds, which are configurable', () => {
    const text = 'Review this Python code for security issues and fix any injection vulnerabilities';
    const c = classify(text, index);
    expect(c.confidence).toBeGreaterThan(0.7);
    expect(c.complexity).toBeGreaterThan(3);
    // Only above: a threshold equal to the confidence does not route.
    expect(classify(text, index, { minConfidence: c.confidence, minComplexity: 3 }).route).toBe(false);
    expect(classify(text, index, { minConfidence: c.confidence, minComplexity: 3 }).decidedBy).toBe('minConfidence');
    expect(classify(text, index, { minConfidence: 0.7, minComplexity: 9 }).route).toBe(false);
    expect(classify(text, index, { minConfidence: 0.7, minComplexity: 9 }).why.join(' ')).toMatch(/complexity/);
  });

  it('counts a multi-word keyword once and lets it use up its words (sql injection is not data)', () => {
    const c = classify('Find the SQL injection in the login form handler and fix it properly', index);
    expect(c.matched.security).toContain('sql injection');
    expect(c.matched.data ?? []).not.toContain('sql');
  });

  it('is deterministic: the same text gives the same verdict', () => {
    const t = 'Optimize our Azure costs: find idle resources and rightsizing opportunities and estimate savings';
    expect(classify(t, index)).toEqual(classify(t, index));
  });

  it('gives longer, multi-domain work a higher complexity', () => {
    const short = classify('Fix the login', index).complexity;
    const long = classify(
      'Design and implement the migration of the billing service to Kubernetes, harden the authentication, and ' +
        'document the rollout and the new monitoring dashboards for the on-call team',
      index,
    ).complexity;
    expect(short).toBeLessThan(4);
    expect(long).toBeGreaterThan(short + 3);
  });
});

describe('shouldSwitch', () => {
  const cls = (domain: string, confidence: number, confidences: Record<string, number>): Classification => ({
    domain,
    confidence,
    complexity: 5,
    confidences: { [domain]: confidence, ...confidences },
    matched: {},
    route: confidence > 0.7,
    decidedBy: confidence > 0.7 ? 'routed' : 'minConfidence',
    model: 'calibrated',
    why: [],
  });
  // [what, current, next, switch]
  const cases: [string, string | undefined, Classification, boolean][] = [
    ['first routing follows the routing rule', undefined, cls('finops', 0.8, {}), true],
    ['same domain: stay', 'finops', cls('finops', 0.95, {}), false],
    ['general never replaces a specialist', 'finops', cls('general', 0, {}), false],
    ['new domain not above 0.70', 'finops', cls('security', 0.7, { finops: 0.1 }), false],
    ['new domain less than 0.20 above the current one', 'finops', cls('security', 0.85, { finops: 0.7 }), false],
    ['exactly 0.20 above switches', 'finops', cls('security', 0.9, { finops: 0.7 }), true],
    ['clear new domain switches', 'finops', cls('security', 0.88, { finops: 0.2 }), true],
  ];
  it.each(cases)('%s', (_what, current, next, expected) => {
    const v = shouldSwitch(current ? { domain: current } : undefined, next);
    expect(v.switch).toBe(expected);
    expect(v.reason).toBeTruthy();
  });

  it('switches finops → security on real texts ("make it secure" after cost work)', () => {
    const first = classify('Optimize our Azure costs: find idle resources and estimate the monthly savings', index);
    const second = classify(
      'Now make it secure: harden the storage accounts, encrypt the data and apply least privilege',
      index,
    );
    expect(first.domain).toBe('finops');
    expect(shouldSwitch({ domain: first.domain }, second).switch).toBe(true);
  });
});

describe('parseHandoff', () => {
  const limit = { maxHandoffContextChars: 200 };
  // [what, output, expected]
  const cases: [string, string, ReturnType<typeof parseHandoff>][] = [
    ['no declaration', 'All done.\n<promise>DONE</promise>', { found: false }],
    [
      'a tag',
      'Work.\n<handoff target="cloud_architect" reason="DNS done">MX records set.</handoff>',
      { found: true, ok: true, handoff: { target: 'cloud_architect', reason: 'DNS done', context: 'MX records set.' } },
    ],
    [
      'a fenced block with multi-line context',
      'x\n```handoff\ntarget: security_specialist\nreason: harden it\ncontext:\nline one\nline two\n```\n',
      {
        found: true,
        ok: true,
        handoff: { target: 'security_specialist', reason: 'harden it', context: 'line one\nline two' },
      },
    ],
    [
      'the last declaration counts',
      '<handoff target="a" reason="r1">c1</handoff> then ```handoff\ntarget: b\nreason: r2\ncontext: c2\n```',
      { found: true, ok: true, handoff: { target: 'b', reason: 'r2', context: 'c2' } },
    ],
    [
      'single-quoted attributes',
      "<handoff target='dns' reason='records'>ctx</handoff>",
      { found: true, ok: true, handoff: { target: 'dns', reason: 'records', context: 'ctx' } },
    ],
  ];
  it.each(cases)('parses %s', (_what, output, expected) => {
    expect(parseHandoff(output, limit)).toEqual(expected);
  });

  // [what, output, error fragment]
  const bad: [string, string, RegExp][] = [
    ['a path-traversal target', '<handoff target="../etc" reason="x">c</handoff>', /invalid agent name/],
    ['an upper-case target', '<handoff target="Security" reason="x">c</handoff>', /\^\[a-z_\]\+\$/],
    ['a missing target', '<handoff reason="x">c</handoff>', /empty/],
    ['a missing reason', '<handoff target="dns">c</handoff>', /no reason/],
    [
      'too much context',
      `<handoff target="dns" reason="x">${'a'.repeat(201)}</handoff>`,
      /201 characters; at most 200/,
    ],
    ['a reason too long', `<handoff target="dns" reason="${'r'.repeat(501)}">c</handoff>`, /at most 500/],
  ];
  it.each(bad)('refuses %s', (_what, output, error) => {
    const r = parseHandoff(output, limit);
    expect(r).toMatchObject({ found: true, ok: false });
    expect((r as { error: string }).error).toMatch(error);
  });
});

describe('agentNameProblem', () => {
  it.each(['security', 'cloud_architect', 'a'])('accepts %s', (n) => expect(agentNameProblem(n)).toBeUndefined());
  it.each(['', '../x', 'a/b', 'Sec', 'dns1', 'a-b', 'a.md', 'x'.repeat(65)])('rejects %p', (n) =>
    expect(agentNameProblem(n)).toBeDefined(),
  );
});

describe('scanSecrets', () => {
  // [kind, text containing a secret, the secret]
  const cases: [string, string][] = [
    ['aws_access_key', 'key AKIAIOSFODNN7EXAMPLE here'],
    ['aws_secret_key', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
    ['github_token', 'use ghp_abcdefghijklmnopqrstuvwxyz0123456789 to push'],
    ['github_token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz'],
    ['slack_token', 'xoxb-123456789012-abcdefghijkl'],
    ['openai_key', 'OPENAI=sk-proj-abcdefghijklmnopqrstuvwx1234'],
    ['anthropic_key', 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz'],
    ['stripe_key', 'sk_live_abcdefghijklmnop1234'],
    ['google_api_key', 'AIzaSyA1234567890abcdefghijklmnopqrstuv'],
    ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
    ['bearer_token', 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz.123'],
    ['url_credentials', 'postgres://admin:hunter22@db.internal:5432/app'],
    ['assigned_secret', 'password = "correct-horse-battery"'],
    ['private_key', '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----'],
    ['private_key', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA'],
  ];
  it.each(cases)('finds and redacts a %s', (kind, text) => {
    const r = scanSecrets(`before ${text} after`);
    expect(r.findings.map((f) => f.kind)).toContain(kind);
    expect(r.redacted).toContain(`[REDACTED:${kind}]`);
    expect(r.redacted.startsWith('before ')).toBe(true);
  });

  it.each([
    'Rotate the API key in the vault; the token lives in $GITHUB_TOKEN',
    'password = <your password>',
    'token: ${{ secrets.NPM_TOKEN }}',
    'The JWT must be validated with the issuer key.',
    'sk-short',
  ])('leaves ordinary text alone: %p', (text) => {
    expect(scanSecrets(text)).toEqual({ findings: [], redacted: text });
  });
});

describe('screenHandoff', () => {
  const h = { target: 'security', reason: 'harden', context: 'deploy key: ghp_abcdefghijklmnopqrstuvwxyz0123456789' };
  it('redacts secrets by default', () => {
    const r = screenHandoff(h, ROUTING_DEFAULTS);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.handoff.context).toBe('deploy key: [REDACTED:github_token]');
      expect(r.redacted).toHaveLength(1);
    }
  });
  it('refuses the handoff with secrets: refuse', () => {
    const r = screenHandoff(h, { secrets: 'refuse' });
    expect(r).toMatchObject({ ok: false });
    expect(!r.ok && r.error).toMatch(/refused: its context holds 1 secret \(github_token\)/);
  });
  it('passes clean context unchanged', () => {
    expect(screenHandoff({ ...h, context: 'clean' }, ROUTING_DEFAULTS)).toEqual({
      ok: true,
      handoff: { ...h, context: 'clean' },
      redacted: [],
    });
  });
});

describe('extendChain', () => {
  const rules = { maxHandoffs: 5, cycleRepeats: 3 };
  const run = (agents: string[], r = rules): { chain: HandoffChain; stoppedAt?: number } => {
    let chain = newChain(agents[0]);
    for (let i = 1; i < agents.length; i++) {
      const v = extendChain(chain, { target: agents[i], reason: `to ${agents[i]}` }, i, r);
      chain = v.chain;
      if (!v.ok) return { chain, stoppedAt: i };
    }
    return { chain };
  };

  it('records a three-agent chain with reasons', () => {
    const { chain, stoppedAt } = run(['dns', 'cloud_architect', 'security']);
    expect(stoppedAt).toBeUndefined();
    expect(chain.agents).toEqual(['dns', 'cloud_architect', 'security']);
    expect(chain.links.map((l) => `${l.from}>${l.to}:${l.reason}`)).toEqual([
      'dns>cloud_architect:to cloud_architect',
      'cloud_architect>security:to security',
    ]);
  });

  it('stops an A→B→A→B ping-pong at 5 handoffs with MaxHandoffsExceeded, keeping the last valid iteration', () => {
    const { chain, stoppedAt } = run(['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']);
    expect(stoppedAt).toBe(6);
    expect(chain.links).toHaveLength(5);
    expect(chain.stopped).toMatchObject({ error: 'MaxHandoffsExceeded', iteration: 6 });
    expect(chain.stopped!.detail).toMatch(/more than 5 handoffs .*cycling/);
    expect(chain.lastValidIteration).toBe(6);
  });

  it('detects a cycle before the limit when the limit is higher', () => {
    const { chain, stoppedAt } = run(['a', 'b', 'a', 'b', 'a', 'b', 'a'], { maxHandoffs: 20, cycleRepeats: 3 });
    expect(stoppedAt).toBe(6);
    expect(chain.stopped!.detail).toMatch(/cycle a → b repeated 3 times/);
  });

  it('detects A→B→A→B with cycleRepeats 2', () => {
    expect(run(['a', 'b', 'a', 'b', 'a'], { maxHandoffs: 20, cycleRepeats: 2 }).stoppedAt).toBe(4);
  });

  it('does not call a chain that visits agents again without repeating a cycle', () => {
    expect(run(['a', 'b', 'c', 'a', 'd']).stoppedAt).toBeUndefined();
  });

  it('stops a long chain of distinct agents at the configured limit', () => {
    const r = run(['a', 'b', 'c', 'd'], { maxHandoffs: 2, cycleRepeats: 3 });
    expect(r.stoppedAt).toBe(3);
    expect(r.chain.links).toHaveLength(2);
  });

  it('ignores a handoff to the current agent', () => {
    const v = extendChain(newChain('a'), { target: 'a', reason: 'x' }, 1, rules);
    expect(v).toMatchObject({ ok: false, error: 'InvalidHandoff' });
  });

  it('finds the repeating tail', () => {
    expect(repeatingTail(['x', 'a', 'b', 'a', 'b'], 2)).toEqual(['a', 'b']);
    expect(repeatingTail(['a', 'a', 'a'], 3)).toBeUndefined();
    expect(repeatingTail(['a', 'b', 'c', 'a', 'b', 'c'], 2)).toEqual(['a', 'b', 'c']);
  });
});

describe('summariseContext', () => {
  const e = (agent: string, n: number, len: number) => ({
    agent,
    iteration: n,
    reason: `why ${n}`,
    text: 'x'.repeat(len),
  });

  it.each([200, 500, 1000, 4000])('stays within %i characters', (limit) => {
    const entries = [e('dns', 1, 3000), e('cloud', 2, 3000), e('security', 3, 3000)];
    const s = summariseContext(entries, limit);
    expect(s.length).toBeLessThanOrEqual(limit);
    expect(s).toContain('### security (iteration 3): why 3');
  });

  it('keeps everything when it fits, oldest first', () => {
    const s = summariseContext([e('dns', 1, 10), e('cloud', 2, 10)], 4000);
    expect(s.indexOf('### dns')).toBeLessThan(s.indexOf('### cloud'));
    expect(s).toContain('x'.repeat(10));
    expect(s).not.toContain('omitted');
  });

  it('gives the newest entry the most room and notes omitted ones', () => {
    const s = summariseContext([e('a', 1, 5000), e('b', 2, 5000), e('c', 3, 5000), e('d', 4, 5000)], 600);
    expect(s).toMatch(/earlier agents? omitted/);
    const body = (agent: string) => (s.split(`### ${agent}`)[1] ?? '').split('###')[0].length;
    expect(body('d')).toBeGreaterThan(body('c'));
  });

  it('is empty without entries', () => expect(summariseContext([], 1000)).toBe(''));

  it('keeps the newest 10 entries', () => {
    let list: ContextEntry[] = [];
    for (let i = 1; i <= 12; i++) list = addContext(list, e('a', i, 1));
    expect(list.map((x) => x.iteration)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('builds the routed prompt sections: instructions (clipped), then context', () => {
    const s = routedSections('Be careful.'.repeat(10), '## Context from previous agents\n\nctx', 50);
    expect(s).toHaveLength(2);
    expect(s[0].startsWith('## Specialist instructions')).toBe(true);
    expect(s[0].length).toBeLessThanOrEqual('## Specialist instructions\n\n'.length + 50);
    expect(routedSections(undefined, '', 50)).toEqual([]);
  });
});

describe('circuit breaker', () => {
  const rules = { breakerFailures: 3, breakerWindowSeconds: 300, breakerCooldownSeconds: 600 };
  const min = 60_000;
  const fail = (s: BreakerState, at: number) => recordFailure(s, at, rules);

  it('opens on the 3rd failure within 5 minutes and closes after 10', () => {
    let s = closedBreaker();
    s = fail(s, 0).state;
    s = fail(s, 2 * min).state;
    const third = fail(s, 4 * min);
    expect(third.opened).toBe(true);
    s = third.state;
    expect(breakerOpen(s, 4 * min)).toBe(true);
    expect(breakerOpen(s, 13 * min)).toBe(true);
    expect(closeIfCooled(s, 13 * min).closed).toBe(false);
    expect(breakerOpen(s, 14 * min)).toBe(false);
    const c = closeIfCooled(s, 14 * min);
    expect(c).toEqual({ state: { failures: [], opened: 1 }, closed: true });
  });

  it('does not open when the failures are spread over more than 5 minutes', () => {
    let s = closedBreaker();
    for (const t of [0, 3, 6, 9, 12]) {
      const r = fail(s, t * min);
      expect(r.opened).toBe(false);
      s = r.state;
    }
  });

  it('ignores failures while open', () => {
    let s = closedBreaker();
    for (const t of [0, 1, 2]) s = fail(s, t * min).state;
    const r = fail(s, 3 * min);
    expect(r.opened).toBe(false);
    expect(r.state).toBe(s);
  });
});

describe('routingStats', () => {
  const at = '2026-01-01T00:00:00Z';
  const entries: RoutingLogEntry[] = [
    { at, event: 'decision', loopId: 'l1', domain: 'security', suggested: 'sec', chosen: 'sec' },
    { at, event: 'load', loopId: 'l1', chosen: 'sec', ok: true, loadMs: 4 },
    { at, event: 'handoff', loopId: 'l1', from: 'sec', to: 'sre' },
    { at, event: 'load', loopId: 'l1', chosen: 'sre', ok: false, reason: 'not_found' },
    { at, event: 'decision', loopId: 'l2', domain: 'general' },
    { at, event: 'decision', loopId: 'l2', domain: 'finops', suggested: 'fin', chosen: 'fin' },
    { at, event: 'switch', loopId: 'l2', from: 'general', to: 'finops' },
    { at, event: 'load', loopId: 'l2', chosen: 'fin', ok: true, loadMs: 10 },
    { at, event: 'override', loopId: 'l2', suggested: 'fin', chosen: 'sec' },
    { at, event: 'breaker_open', loopId: 'l2', level: 'critical' },
  ];

  it('computes the dashboard figures', () => {
    const s = routingStats(entries);
    expect(s).toMatchObject({
      tasks: 2,
      decisions: 3,
      routed: 2,
      loads: 3,
      loadSuccessRate: 0.667,
      loadErrors: { not_found: 1 },
      loadLatencyMs: { p50: 4, p95: 10, p99: 10 },
      handoffs: 1,
      handoffsPerTask: 0.5,
      switches: 1,
      switchFrequency: 0.333,
      overrides: 1,
      accuracy: 0.5,
      breakerOpened: 1,
    });
    expect(s.byAgent.find((a) => a.agent === 'sre')).toEqual({ agent: 'sre', loads: 1, failures: 1 });
  });

  it('is all zeros without entries', () => {
    expect(routingStats([])).toMatchObject({ tasks: 0, loadSuccessRate: 0, accuracy: 0, handoffsPerTask: 0 });
  });

  it('parses JSONL, skipping broken lines', () => {
    const text = entries.map((e) => JSON.stringify(e)).join('\n') + '\n{"half":\nnot json\n{"event":1}\n';
    const r = parseRoutingLog(text);
    expect(r.entries).toEqual(entries);
    expect(r.skipped).toBe(3);
  });
});

describe('routePayloadProblem', () => {
  it.each([
    [{ agent: 'security_specialist', by: 'ana' }, undefined],
    [{ agent: 'base' }, undefined],
    [undefined, /needs a payload/],
    [{}, /needs "agent"/],
    [{ agent: '../x' }, /invalid agent name/],
    [{ agent: 'sec', reason: 7 }, /"reason" must be a string/],
  ])('%p', (payload, problem) => {
    const p = routePayloadProblem(payload);
    if (problem) expect(p).toMatch(problem);
    else expect(p).toBeUndefined();
  });
});

describe('RoutingTracker', () => {
  const t = (profs = profiles) => new RoutingTracker({ ...ROUTING_DEFAULTS }, 'l1', profs);
  const SEC = 'Review this Python code for security issues and fix any injection vulnerabilities';

  it('routes, keeps the agent while the domain stays, and switches with context when it changes', () => {
    const r = t();
    expect(r.decide(1, SEC, 0)).toMatchObject({ agent: 'security_specialist', reason: 'routed' });
    r.ranIteration(1, 'security_specialist', 'fixed the injection in db.py');
    expect(r.decide(2, SEC, 1)).toMatchObject({ agent: 'security_specialist', reason: 'kept' });
    const cost = 'Optimize our Azure costs: find idle resources and rightsizing opportunities and estimate savings';
    expect(r.decide(3, cost, 2)).toMatchObject({ agent: 'finops_agent', reason: 'switch' });
    expect(r.state.context.map((c) => c.text)).toEqual(['fixed the injection in db.py']);
    expect(r.takeLog().map((e) => e.event)).toEqual(['decision', 'decision', 'switch', 'decision']);
  });

  it('lets a handed-off agent run while the task stays in its domain, and stops a ping-pong', () => {
    const r = t();
    r.decide(1, SEC, 0);
    const h = (target: string) => ({ ok: true as const, handoff: { target, reason: 'r', context: 'c' }, redacted: 0 });
    expect(r.handoff(1, h('sre_principal'), 0).accepted).toBe(true);
    expect(r.decide(2, SEC, 0)).toMatchObject({ agent: 'sre_principal', reason: 'handoff' });
    expect(r.decide(3, SEC, 0)).toMatchObject({ agent: 'sre_principal', reason: 'kept' });
    expect(r.handoff(3, h('nobody'), 0)).toMatchObject({ accepted: false, note: expect.stringMatching(/no profile/) });
  });

  it('applies an override once, ignores a duplicate and an invalid one', () => {
    const r = t();
    expect(r.requestOverride({ agent: 'finops_agent', requestId: 'x' }, 'now').applied).toBe(true);
    expect(r.requestOverride({ agent: 'finops_agent', requestId: 'x' }, 'now').applied).toBe(false);
    expect(r.requestOverride({ agent: '../x' }, 'now').applied).toBe(false);
    expect(r.decide(1, SEC, 0)).toMatchObject({ agent: 'finops_agent', reason: 'override' });
    expect(r.decide(2, SEC, 0)).toMatchObject({ agent: 'finops_agent', reason: 'kept' });
    expect(r.takeLog().find((e) => e.event === 'override')).toMatchObject({
      suggested: 'security_specialist',
      chosen: 'finops_agent',
    });
  });

  it('falls back to the base agent on failed loads and opens the breaker on the third', () => {
    const r = t();
    const fail = { ok: false, loadMs: 1, reason: 'not_found', warning: 'missing' };
    for (let i = 1; i <= 2; i++) {
      r.decide(i, SEC, i * 1000);
      expect(r.loaded(i, 'security_specialist', fail, i * 1000).opened).toBe(false);
      expect(r.state.agent).toBeUndefined();
    }
    r.decide(3, SEC, 3000);
    expect(r.loaded(3, 'security_specialist', fail, 3000).opened).toBe(true);
    expect(r.decide(4, SEC, 4000)).toMatchObject({ agent: undefined, reason: 'breaker_open' });
    expect(r.closeBreaker(3000 + 600_000)).toBe(true);
    expect(r.decide(5, SEC, 700_000)).toMatchObject({ agent: 'security_specialist', reason: 'routed' });
    expect(routingStatusLines(r.state)[0]).toMatch(/^routing: security_specialist \(domain security/);
  });

  it('starts from what a project passes in and hands it on', () => {
    const r = new RoutingTracker(
      { ...ROUTING_DEFAULTS },
      'l2',
      profiles,
      newRoutingState({
        agent: 'finops_agent',
        domain: 'finops',
        context: [{ agent: 'finops_agent', iteration: 1, text: 'cut 30%' }],
      }),
    );
    expect(
      r.decide(1, 'Now make it secure: harden the storage, encrypt the data and apply least privilege', 0),
    ).toMatchObject({ agent: 'security_specialist', reason: 'switch' });
    expect(r.sections('INSTR').join('\n')).toContain('cut 30%');
    expect(r.carryOut()).toMatchObject({ agent: 'security_specialist', domain: 'security' });
  });
});
