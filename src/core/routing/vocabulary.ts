/**
 * The built-in routing vocabulary: the domains every workspace knows and the weighted keywords that point to them.
 * Profiles add keywords (and new domains) on top. Weights: 3 = names the domain on its own ("xss", "kubernetes"),
 * 2 = strong hint ("endpoint", "dashboard"), 1 = weak hint shared with other work ("token", "page").
 */

/** The built-in domains; `general` is what a task with no clear domain gets (the base agent runs). */
export const Domains = {
  security: 'security',
  sre: 'sre',
  frontend: 'frontend',
  backend: 'backend',
  data: 'data',
  devops: 'devops',
  docs: 'docs',
  testing: 'testing',
  finops: 'finops',
  general: 'general',
} as const;
/** One of {@link Domains}. */
export type BuiltinDomain = (typeof Domains)[keyof typeof Domains];

/** Other names a profile may give a built-in domain (`domain: reliability` is `sre`). */
export const DOMAIN_ALIASES: Readonly<Record<string, BuiltinDomain>> = {
  reliability: 'sre',
  ui: 'frontend',
  api: 'backend',
  infra: 'devops',
  infrastructure: 'devops',
  documentation: 'docs',
  tests: 'testing',
  qa: 'testing',
  cost: 'finops',
  appsec: 'security',
};

/** One keyword and how much a match adds to its domain's score. */
export interface WeightedKeyword {
  term: string;
  weight: number;
}

const w = (weight: number, terms: string): WeightedKeyword[] =>
  terms
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .map((term) => ({ term, weight }));

/** Keywords of each built-in domain (but `general`, which nothing points to). */
export const BUILTIN_VOCABULARY: Readonly<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>> = {
  security: [
    ...w(3, 'security, secure, vulnerability, vulnerabilities, xss, csrf, sql injection, injection, cve, owasp'),
    ...w(
      3,
      'pentest, penetration test, threat model, secrets, secret scanning, encryption, encrypt, hardening, harden',
    ),
    ...w(3, 'authentication, authorization, rbac, privilege escalation, sanitize, sanitise, sast, dast, exploit'),
    ...w(3, 'content security policy, least privilege, audit log, security audit, brute force, access control'),
    ...w(3, 'open redirect, signature verification, lockout, exploitable, ssrf, rce'),
    ...w(2, 'auth, oauth, jwt, tls, ssl, certificate, password, credential, credentials, permission, permissions'),
    ...w(2, 'csp, mfa, 2fa'),
    ...w(1, 'token, tokens, login, session, cookie, review, leak, leakage, signature, signatures, dependencies'),
  ],
  sre: [
    ...w(3, 'sre, reliability, slo, sla, sli, error budget, incident, postmortem, on-call, oncall, alerting, alert'),
    ...w(3, 'observability, latency, uptime, outage, runbook, failover, chaos, circuit breaker, p99, p95'),
    ...w(3, 'capacity planning, memory leak, backoff, graceful degradation'),
    ...w(2, 'monitoring, metrics, prometheus, grafana, tracing, opentelemetry, retry, retries, timeout, timeouts'),
    ...w(2, 'throttling, rate limit, rate limiting, load test, capacity, resilience, availability, degradation'),
    ...w(2, 'heap, restarts, paging'),
    ...w(1, 'logs, logging, performance, slow, pods'),
  ],
  frontend: [
    ...w(3, 'frontend, front-end, ui, ux, react, vue, angular, svelte, css, tailwind, responsive, accessibility'),
    ...w(3, 'a11y, component, components, dom, swiftui, storybook, dark mode'),
    ...w(2, 'button, modal, form, layout, page, screen, dashboard, view, chart, html, style, styles, animation'),
    ...w(2, 'navbar, sidebar, tooltip, dropdown, browser'),
    ...w(1, 'display, render, click, font, color, icon'),
  ],
  backend: [
    ...w(3, 'backend, back-end, rest, graphql, grpc, endpoint, endpoints, microservice, server-side, webhook'),
    ...w(3, 'orm, express, fastify, django, flask, spring, resolver, idempotency'),
    ...w(2, 'api, middleware, route, routes, controller, request, response, pagination, queue, cache, redis'),
    ...w(2, 'status code'),
    ...w(1, 'json, payload, validation, business logic, handler, server, service, worker, http'),
  ],
  data: [
    ...w(3, 'data pipeline, etl, elt, warehouse, data warehouse, sql, postgres, postgresql, mysql, schema migration'),
    ...w(3, 'bigquery, snowflake, spark, pandas, dbt, airflow, kafka, parquet, data model, analytics'),
    ...w(2, 'database, query, queries, table, tables, index, indexes, migration, dataset, csv, aggregation, join'),
    ...w(2, 'report, reports'),
    ...w(1, 'records, rows, column, columns'),
  ],
  devops: [
    ...w(3, 'devops, ci, cd, ci/cd, pipeline, docker, dockerfile, kubernetes, k8s, helm, terraform, ansible'),
    ...w(3, 'infrastructure, infra, deploy, deployment, github actions, container, containers, dns, nginx'),
    ...w(3, 'load balancer, docker compose, containerize, cron, cronjob, cronjobs, runners, mx record'),
    ...w(2, 'release, provision, cluster, vpc, subnet, image, registry, environment, staging, production, rollout'),
    ...w(2, 'rollback, iam, caching'),
    ...w(1, 'server, config, yaml, script, build, aws, azure, gcp, cloud, vm'),
  ],
  docs: [
    ...w(3, 'docs, documentation, document, readme, tutorial, guide, changelog, docstring, docstrings, tsdoc, jsdoc'),
    ...w(3, 'api reference, user guide, how-to'),
    ...w(2, 'explain, write-up, wiki, comments, markdown, diagram, examples, onboarding, openapi, parameter'),
    ...w(2, 'parameters, step by step'),
    ...w(1, 'describe, typo, wording'),
  ],
  testing: [
    ...w(3, 'test, tests, testing, unit test, unit tests, integration test, e2e, end-to-end, jest, pytest, vitest'),
    ...w(3, 'mocha, cypress, playwright, coverage, test suite, flaky, fixture, fixtures, mock, mocks, tdd'),
    ...w(3, 'regression test'),
    ...w(2, 'assert, assertion, assertions, specs, snapshot test, test case, test cases, reproduces, reproduce'),
    ...w(1, 'verify, spec'),
  ],
  finops: [
    ...w(3, 'finops, cost, costs, billing, budget, spend, spending, reserved instances, savings plan, rightsizing'),
    ...w(3, 'right-size, cost optimization, cost allocation, chargeback, pricing, cloud bill, cheapest'),
    ...w(2, 'expensive, cheaper, savings, usage report, tagging, forecast, cost center, bill, invoice'),
    ...w(1, 'money, dollars, price'),
  ],
};

/**
 * Words that make a task more complex: each one adds to the complexity score (design and cross-cutting work takes
 * more than a lookup).
 */
export const COMPLEXITY_TERMS: readonly string[] = (
  'implement, design, architecture, migrate, migration, refactor, integrate, integration, optimize, optimise, ' +
  'audit, review, harden, build, debug, investigate, across, end-to-end, pipeline, distributed, scale, automate, ' +
  'setup, set up, configure, add, fix, create, write, update, document, analyse, analyze, compute, deploy, ' +
  'provision, validate, convert, replace, reduce, split, port, stream, containerize'
)
  .split(',')
  .map((t) => t.trim());

/**
 * Keywords the calibrated model (routing v2) adds to {@link BUILTIN_VOCABULARY}: the jargon of real issue titles and
 * pull requests (tools, attack classes, failure modes, services), written per domain from what each specialist works
 * on, and grown only from misses on the training split (never the held-out one). Loops recorded with routing v1 keep
 * the v1 vocabulary, so they replay alike.
 */
export const VOCABULARY_V2: Readonly<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>> = {
  security: [
    ...w(
      3,
      'credential stuffing, captcha, fingerprinting, pkce, frame ancestors, mtls, debug endpoint, non root, impersonate',
    ),
    ...w(
      3,
      'read only root filesystem, exif, ldap, parameterized queries, introspection, query depth, openssl, signed urls',
    ),
    ...w(3, 'user enumeration, plaintext, at rest, failed attempts, abuse, bcrypt, hash, clickjacking'),
    ...w(3, 'idor, xxe, path traversal, directory traversal, mass assignment, deserialization'),
    ...w(3, 'snyk, codeql, hsts, cors, samesite, httponly, clickjacking'),
    ...w(3, 'session fixation, argon2, scrypt, webauthn, saml'),
    ...w(3, 'replay attack, key rotation, signing keys, signing key'),
    ...w(3, 'audit trail, attacker, malicious, pentest findings, bug bounty, waf, vuln, vulns, breached, breach'),
    ...w(3, 'privilege, privileges, unauthenticated, unauthorized, impersonation, spoofing, phishing, gdpr'),
    ...w(3, 'secret manager, secrets manager, kms, vault, nosniff, x frame options, allowlist, denylist, escaping'),
    ...w(3, 'sanitization, xsrf, cross site, remote code execution, insecure, leaked, exposed'),
    ...w(2, 'api key, api keys, bearer, roles, role, tenant, tenants'),
    ...w(2, 'hash, passwords, redirect uri, scopes, scope, untrusted'),
    ...w(1, 'keys, key, headers, expire, expiry, mask, masking, admin'),
  ],
  sre: [
    ...w(3, 'evicted, memory pressure, priorityclass, queue depth, keepalive, intermittent, error budget policy'),
    ...w(3, 'certificate expiry, drain, freeze, 502s, monitor'),
    ...w(3, 'slos, burn rate, p50, pagerduty, opsgenie, on call'),
    ...w(3, 'incident review, mttr, mttd, load shedding, thundering herd'),
    ...w(3, 'liveness, readiness, health check, health checks, probes, probe, uptime check'),
    ...w(3, 'saturation, consumer lag'),
    ...w(
      3,
      'connection pool, graceful shutdown, sigterm, drain, leader election, high availability, disaster recovery',
    ),
    ...w(3, 'rto, rpo, sentry, new relic, jaeger, red metrics, golden signals, apdex, escalation, paged'),
    ...w(3, 'alert fatigue, jitter, crashloop, crashloopbackoff, sev1, sev2'),
    ...w(2, 'datadog, 503, 502, 504, spikes, spike, crash, crashes, restart, replicas'),
    ...w(2, 'traffic, headroom, degraded, degrade, stalls, stall, scale out, autoscale, dashboards'),
    ...w(1, 'load, peak, hours, instances, nodes, node, errors'),
  ],
  frontend: [
    ...w(
      3,
      'hamburger menu, android, toast, progress bar, widget, font display, web fonts, accordion, jank, breadcrumb',
    ),
    ...w(
      3,
      'autocomplete, debouncing, time to interactive, landing page, syntax highlighting, date range picker, picker',
    ),
    ...w(3, 'local storage, lazy load, below the fold, chrome'),
    ...w(3, 'next js, nextjs, nuxt, sveltekit, hydration, lcp, web vitals, aria, screen reader'),
    ...w(3, 'keyboard navigation, focus trap, skeleton, spinner, lightbox, drawer'),
    ...w(3, 'zustand, hooks, jsx, sass, scss, figma'),
    ...w(3, 'viewport, media query, flexbox, z index, webpack, vite'),
    ...w(3, 'pwa, service worker, safari, firefox, sticky header'),
    ...w(3, 'infinite scroll, virtualize, virtualized, rerender, onpush, change detection'),
    ...w(3, 'jquery, drag and drop, hover, theme, contrast, typography, empty state'),
    ...w(3, 'client side, frontend, ui kit, tailwind css, css modules, styled components, mobile web'),
    ...w(2, 'mobile, touch, swipe, scroll, scrolling, flicker, flickers, images, image, menu, focus'),
    ...w(2, 'banner, avatar, badge, gallery, cart, feed, keyboard, click, ios'),
    ...w(1, 'visual, input, inputs, header'),
  ],
  backend: [
    ...w(
      3,
      '409, background worker, retry queue, iso 8601, message consumer, job runner, business rules, third party api',
    ),
    ...w(2, 'conflict, discount codes, kafka topic, rate limited'),
    ...w(3, 'nestjs, rails, laravel, koa, hapi, dataloader'),
    ...w(3, 'cursor pagination, idempotent, dead letter queue, dlq, message broker, sqs, rabbitmq'),
    ...w(3, 'celery, sidekiq, websocket, websockets, serializer, crud'),
    ...w(3, 'http api, api endpoint, request body, response body, json schema'),
    ...w(3, 'monolith, microservices'),
    ...w(3, 'api gateway, webhooks, handlers, http handler, http client'),
    ...w(2, '400, 404, 500, 429, status codes'),
    ...w(2, 'provider, stripe, email, emails, messages, message, consumer, typed'),
    ...w(1, 'service, services, requests, responses, get, patch, delete, client'),
  ],
  data: [
    ...w(
      3,
      'dagster, rolling average, reporting layer, drop duplicates, rollups, bulk load, reconcile, slowly changing, dimension',
    ),
    ...w(2, 'normalise, normalize, raw rows, airflow task, copy'),
    ...w(3, 'dag, dags, backfill, scd, fact table, dimension table'),
    ...w(3, 'data mart, mart, lakehouse, data lake, iceberg, delta lake, glue, athena, redshift, metabase'),
    ...w(3, 'tableau, power bi, debezium, cdc, change data capture, flink, beam'),
    ...w(3, 'cte, materialized view, explain analyze, query plan, seq scan'),
    ...w(3, 'composite index, clickhouse, dataframe, notebook, jupyter, feature table'),
    ...w(3, 'feature store, row counts, dedupe, ingestion'),
    ...w(3, 'dau, kpi, funnel, sort keys, dist keys, partitions, partitioned, watermarks, event time'),
    ...w(2, 'metric definition, metrics definition, churn, retention, lifetime value, revenue'),
    ...w(2, 'events table, lineage, warehouse model, nulls, not null, schema'),
    ...w(1, 'daily, weekly, monthly, export, exports, model, models, s3'),
  ],
  devops: [
    ...w(3, 'cloud sql, private ip, automated backups, reproducible images, apt packages, digest pinned'),
    ...w(2, 'pinned, digest'),
    ...w(3, 'gitlab ci, circleci, argo cd, argocd, flux, gitops, kustomize, pulumi, cloudformation, cdk'),
    ...w(3, 'ecs, gke, aks, fargate, cloud run, gcr, artifact registry'),
    ...w(3, 'self hosted runners, build cache, tfstate, state backend'),
    ...w(3, 'lets encrypt, nomad, systemd'),
    ...w(3, 'autoscaling, configmap, manifests, canary'),
    ...w(3, 'flagger, spinnaker, cosign'),
    ...w(3, 'workflow file, release pipeline, deploys, deploy job, provisioning, dockerfiles, compose, k3s'),
    ...w(2, 'sbom, images, nat gateway, upgrade, runner'),
    ...w(2, 'pods, nodes, helm chart, terraform module, vms, ci build, builds, clusters, accounts'),
    ...w(1, 'pipelines, services, github, gitlab, jobs, job'),
  ],
  docs: [
    ...w(3, 'faq, help center, inline comments, explainer, translate, architecture docs'),
    ...w(3, 'architecture decision record, migration guide, glossary'),
    ...w(3, 'handbook, docs site, docusaurus, mkdocs, sphinx, redoc, style guide, man page, help text, help texts'),
    ...w(3, 'javadoc, typedoc, rustdoc, walkthrough, mermaid'),
    ...w(3, 'knowledge base, troubleshooting page, documented, undocumented, doc'),
    ...w(2, 'page, pages, examples, sample, samples, manual'),
    ...w(2, 'explain, explains'),
    ...w(1, 'wording, text, texts, write, rewrite, section, link'),
    // "A changelog-style summary" names a form, not documentation work.
    ...w(1, 'changelog style'),
  ],
  testing: [
    ...w(3, 'integration tests, branch coverage, fake timers, parameterized test, httptest, axe, golden tests, golden'),
    ...w(3, 'property based, hypothesis'),
    ...w(3, 'mutation testing, stryker, golden file, parametrize, table driven, smoke test, smoke tests'),
    ...w(3, 'quarantine, test isolation, factories, test double, stub, stubs'),
    ...w(3, 'testng, rspec, minitest, chai, sinon, nock'),
    ...w(3, 'msw, percy, fuzzing, fuzzer, bdd'),
    ...w(3, 'cucumber, gherkin, acceptance tests, test plan, qa, assertions, flakiness, sandbox tests'),
    ...w(2, 'regression, reproduce, reproduces, sleeps, shard, parallel, deterministic'),
    ...w(1, 'edge cases, cases, inputs, suite'),
  ],
  finops: [
    ...w(
      3,
      'infrequent access, storage class, cost per tenant, utilized, node pools, tagging policy, reserved capacity',
    ),
    ...w(3, 'saas vendor, unused seats, arm instances, price performance, gpu spend, committed use, sustained use'),
    ...w(2, 'pausing, office hours, seats, unused, preprod, saving'),
    ...w(3, 'kubecost, showback, aws bill, invoice, egress costs, edp'),
    ...w(3, 'enterprise discount, idle resources, cost per, anomaly'),
    ...w(3, 'oversized, overprovisioned'),
    ...w(3, 'cost explorer, untagged, commitment, commitments, committed spend, cost drivers'),
    ...w(3, 'utilization report, coverage report'),
    ...w(2, 'tags, tagged, bill, monthly cost, savings, cheaper, spend, charges'),
    ...w(2, 'gpu spend, retention cost, idle, nights, turn off, waste'),
    ...w(1, 'month, quarter, dollars'),
  ],
};

/** Work words the calibrated model adds to {@link COMPLEXITY_TERMS}. */
export const COMPLEXITY_TERMS_V2: readonly string[] = (
  'isolate, rotate, patch, scope, restrict, lock down, profile, tune, measure, shard, parametrize, ' +
  'backfill, partition, dedupe, model, schedule, forecast, estimate, quarantine, upgrade, ' +
  'consolidate, extract, version, propagate, sign, publish, generate, explain, rewrite, instrument, alert, page'
)
  .split(',')
  .map((t) => t.trim());

/**
 * Keywords routing v10 adds to v2's vocabulary: security's names for weakness classes and advisories ("CWE-22", a
 * GHSA id, ".. traversal sequences", zip slip) and for unsafe comparison and loading (constant-time compare, timing
 * attacks, yaml's safe_load). Only v10 reads them, so loops recorded with v2 to v9 replay alike.
 */
export const VOCABULARY_V10: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    security: [
      ...w(3, 'cwe, ghsa, traversal, zip slip, constant time, timing attack, timing attacks, timing safe'),
      ...w(3, 'safe load, safeloader, code execution, arbitrary code'),
    ],
  };

/**
 * Keywords routing v11 adds to v10's: the trades' names for what they do that v10's vocabulary missed (Jenkins for
 * CI, an ADR or a godoc overview for docs, structured logging and Loki for SRE, freshness checks for data, visual
 * regression for testing, Infracost for FinOps) and yaml's SafeLoader as normalized text spells it ("safe loader").
 */
export const VOCABULARY_V11: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    security: [...w(3, 'safe loader, realpath')],
    devops: [...w(3, 'jenkins, jenkinsfile')],
    docs: [...w(3, 'adr, adrs, godoc, package overview')],
    sre: [...w(3, 'structured logging, structured logs, json logging, loki, correlation id, correlation ids')],
    data: [...w(3, 'freshness, freshness check, freshness checks')],
    testing: [...w(3, 'visual regression, screenshot tests, shared examples')],
    finops: [...w(3, 'infracost')],
  };

/**
 * Keywords routing v12 adds to v11's: more of the trades' names (architecture notes for docs; Espresso,
 * XCTest, QCheck and mocked clients for testing; ETags, sparse fieldsets and soft deletes for backend; buildx and
 * multi-arch images for devops; golden records and entity resolution for data).
 */
export const VOCABULARY_V12: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    docs: [...w(3, 'architecture notes')],
    testing: [...w(3, 'espresso, xctest, xcuitest, qcheck, mocked, property tests, property based tests')],
    backend: [...w(3, 'etag, etags, if none match, sparse fieldsets, soft delete, soft deletes')],
    devops: [...w(3, 'buildx, multi arch')],
    data: [...w(3, 'golden record, fuzzy match, record linkage, entity resolution')],
  };

/**
 * Keywords routing v13 adds to v12's: the plain words people outside a trade use for its work, as testers and
 * colleagues write bug reports and requests ("throw lots of generated inputs at it", "compare screenshots", "wakes
 * someone up", "99.9 %", "someone else's invoice loads", "publish it to PyPI", "works on my machine", "one query per
 * row"), and the forms of a trade's verbs the keyword pass does not derive ("backfilled").
 */
export const VOCABULARY_V13: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    testing: [
      ...w(3, 'generated inputs, random inputs, compare screenshots, screenshots compared, screenshot comparison'),
      ...w(2, 'automated checks, catch it before, catches it before, test data builders, factory, factories'),
    ],
    sre: [
      ...w(3, 'wakes someone up, wake someone up, wakes someone, wake someone, 99 9, 99 95, 99 99, nines'),
      ...w(2, 'reliable, how reliable, every few minutes, eating into, request id, request ids'),
    ],
    security: [
      ...w(3, 'log in as customer, log in as any, login as any, someone else s, another company s, other company s'),
      ...w(3, 'different company, another tenant, can be reused, reused link, token check, connection string'),
      ...w(2, 'stack trace, who used it'),
    ],
    data: [...w(3, 'backfilled, bi tool, mixpanel, amplitude, numbers didn t load, report every morning')],
    devops: [
      ...w(3, 'pypi, npm publish, preview links, preview deployments, preview environments'),
      ...w(3, 'running locally, run locally, one command, local setup'),
    ],
    backend: [
      ...w(3, 'partial updates, partial update, a page at a time, one query per, one sql query per, n 1, n 1 queries'),
      ...w(2, 'same moment, at the same time, both saved, both assignments'),
    ],
    frontend: [...w(3, 'squished, overlap each other, smaller screens, small screens, search box, letters lag')],
    finops: [...w(3, 'costing what, cluster bill, cloud bill, share of the bill')],
  };

/**
 * Routing v14's keywords: the words of a dbt model's incremental load (its fact tables, late-arriving rows, the
 * lookback window), and what plain-language reports say of a weakness, a broken page and a cluster's cost.
 */
export const VOCABULARY_V14: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    data: [
      ...w(3, 'late arriving, lookback, lookback window, incremental filter, incremental model, fct, stg'),
      ...w(2, 'bi report'),
    ],
    security: [
      ...w(3, 'logged out, still logged in, reset link, reset links, encrypted, delete other, other people s'),
    ],
    frontend: [
      ...w(3, 'js bundle, javascript bundle, client bundle, bundle size, locale pack, address bar, browser tab'),
    ],
    docs: [...w(3, 'install md, install instructions, broken links, getting started page')],
    backend: [...w(3, 'whoever saves last, last write wins, enqueued')],
    testing: [...w(3, 'passes locally, fails in ci')],
    devops: [...w(3, 'test server, test servers, nightly build, nightly builds')],
    finops: [...w(3, 'renewal quote, billable, costing us, credits ran out')],
  };

/**
 * Routing v15's keywords: what users and staff say of a trade's work when they describe a symptom or ask for a change
 * in their own words (a site that goes down, a page that hits the database hundreds of times, a script in a review
 * that pops up for every visitor, a test run on every pull request, what we pay for hosts we no longer use).
 */
export const VOCABULARY_V15: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    sre: [
      ...w(3, 'log format, json logs, log pipeline, logs in one place, searchable logs, hang forever, hangs forever'),
      ...w(3, 'no timeout, without a timeout, error rates, response times, 99 5, 99 0, site is down, site was down'),
      ...w(2, 'falls over, fell over, can t keep up, burning through'),
    ],
    security: [
      ...w(3, 'critical advisory, shared admin login, share one admin login, only the permissions, cyber'),
      ...w(3, 'every visitor gets, everyone viewing, script tag, password was changed, didn t change it'),
    ],
    backend: [...w(3, 'hits the database, in the background and, built in the background, rest query')],
    data: [
      ...w(
        3,
        'nightly import, reload the missing, missing days, malformed files, rows appear twice, totals are doubled',
      ),
    ],
    devops: [...w(3, 'every pull request, block the merge, extra env, env variables in the chart, tags variable')],
    docs: [...w(3, 'installation instructions, write that up, what their columns mean')],
    frontend: [...w(3, 'template placeholders, pops in, sticky header, inline validation')],
    finops: [...w(3, 'we pay for, why are we paying, seat counts, team plans')],
  };

/**
 * Routing v16's keywords: more of what testers, users and staff say of a trade's work in their own words (a PIN hashed
 * with MD5, a page that jumps back to the top, a job that stops without telling anyone, a price that keeps showing the
 * old value, numbers re-pulled for the affected days, prebuilt binaries on the releases page, code samples in a
 * quickstart, automatic checks so old features don't quietly break, a cost split by namespace and billed back).
 */
export const VOCABULARY_V16: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    security: [
      ...w(3, 'md5, sha1 hash, plain md5, live stripe key, keys out of the code, key in the repo'),
      ...w(3, 'secret in the repo, permission to read and change, fewer permissions'),
      ...w(3, 'asks for too many permissions, really log out, after logging out, pressed back after'),
      ...w(3, 'reset token, token is reusable, link again still, upload directory, parent folder'),
      ...w(3, 'escape the, ex employees, offboard, offboards, offboarded, paste html, html into, same pin'),
      ...w(3, 'wrong tries, lock after, not logged in, inject sql, raw database error, another customer s'),
      ...w(3, 'another branch s, someone else s'),
    ],
    sre: [
      ...w(3, 'all systems operational, watching your servers, overloaded, servers overloaded'),
      ...w(3, 'add a page when, page when, page us when, restart commands, who to call, dies at'),
      ...w(3, 'hanging indefinitely, never returns, hang indefinitely, nagios, run longer than'),
      ...w(3, 'running longer than, give up quickly, try again later, error emails, smarter alerts'),
      ...w(3, 'fewer alerts, alert fatigue, only in production, only on production, without telling anyone'),
      ...w(3, 'hasn t finished by, alerts us if, alert us if'),
    ],
    frontend: [
      ...w(3, 'jumps back to the top, page jumps, lose my place, mb of javascript, first load, ticked again'),
      ...w(3, 'box is ticked, tab labels, cut off, wrap or shrink, per row, mockup, different heights'),
      ...w(3, 're renders, keystroke, every keystroke, with a finger, touchscreen, touch screen'),
      ...w(3, 'overlaps content, landscape, keep what they typed, form empties, go back a step'),
    ],
    backend: [
      ...w(3, 'spent twice, double spend, at the same second, old price, ignores the, sign in with google'),
      ...w(3, 'google account, sign in with their google, cart key, should be a 404, should return 404'),
      ...w(3, 'should be 404, answers 204, cache prices, looks the price up, generic 500, 500 error, a 500'),
    ],
    data: [
      ...w(3, 'quarantine, checks to the pipeline, watermark, streaming job, re pull, data volume'),
      ...w(3, 'affected days, by hand every, automated pipeline, keep history, keeping history'),
      ...w(3, 'current values'),
    ],
    devops: [
      ...w(3, 'as code, rebuild it, prebuilt binaries, releases page, binaries, environments match'),
      ...w(3, 'only on live, settings differ, staging copy, on every merge, signed and uploaded'),
      ...w(3, 'app stores automatically, app store automatically'),
    ],
    docs: [
      ...w(3, 'code samples, quickstart, example request and response, reference they can browse'),
      ...w(3, 'list of environment variables, configuration page says, add comments to, comments to the'),
    ],
    testing: [
      ...w(3, 'automatic checks, automated checks, quietly break, still returns what, what the app expects'),
      ...w(3, 'expected totals, example orders, checked against it automatically'),
    ],
    finops: [...w(3, 'cost split by, billed back, bill back, s3 standard, glacier, lifecycle')],
  };

/**
 * Routing v17's keywords: developers' jargon of a trade that no split before had (sqlc, a Marvin attack in cargo
 * audit, Snowflake's resource monitors, a warm shutdown on SIGTERM, an incremental materialization, a Terraform state
 * file's lock).
 */
export const VOCABULARY_V17: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    backend: [
      ...w(3, 'sqlc, hand written sql, sqlc generated, stream the csv, row by row instead, select related'),
      ...w(3, 'prefetch related, joinedload, eagerly load, loads every line item lazily'),
    ],
    security: [
      ...w(3, 'rustsec, cargo audit, marvin attack, dependabot backlog, dependabot alerts, reachability'),
      ...w(3, 'th utext, interpolated into the, sort column comes straight from'),
    ],
    finops: [...w(3, 'seat assignments, licences nobody, licenses nobody, snowflake credits, resource monitor')],
    docs: [
      ...w(3, 'error code reference, cause and fix, chapter, describe when each, changelog for'),
      ...w(3, 'call out the breaking'),
    ],
    sre: [
      ...w(3, 'warm shutdown, sigterm, in flight tasks, drop in flight, exponential backoff, full jitter'),
      ...w(3, 'retry budget, hammers the server, histograms, route template'),
    ],
    testing: [...w(3, 'pact, consumer contracts, consumer contract')],
    data: [...w(3, 'check functions, data quality rules, incremental materialization, incremental strategy')],
    devops: [...w(3, 'remote state, state file, state locking, s3 backend')],
  };

/**
 * Routing v18's keywords: more of what developers, testers and staff say of a trade's work (a loader that refetches on
 * window focus, a logo that looks blurry, leavers who can still log in, a code from your phone as well as the password,
 * asynq's delayed tasks, a W3C traceparent, a bulkhead, a CONTRIBUTING.md, salting a skewed key, cibuildwheel, RI
 * coverage, tests that prove both sides still agree on a message format).
 */
export const VOCABULARY_V18: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    frontend: [
      ...w(3, 'shouldrevalidate, refetches loader data, window focus, looks blurry, blurry, covers half of'),
      ...w(3, 'colour blind, color blind, red versus green, don t line up, doesn t line up, flashes'),
      ...w(3, 'no longer fit, onto a second line'),
    ],
    security: [
      ...w(3, 'string interpolation inside, session cookie secure, samesite, leavers can still'),
      ...w(3, 'bank details in a column, who else is able to download, code from your phone'),
      ...w(3, 'as well as the password, made a popup, popup appear, no login at all, straight in'),
      ...w(3, 'upload a file that, server would then run, two factor, two fa, failed logins'),
    ],
    backend: [
      ...w(3, 'asynq, delayed tasks, upsert in batches, ecto multi, atomically, lazily loads'),
      ...w(3, 'one query with a join, duplicate entries between pages, at the same moment, same moment'),
      ...w(3, 'exchange rate, keeping the rate, takes about 30 seconds, account manager s name'),
      ...w(3, 'one stock service, same rules'),
    ],
    sre: [
      ...w(3, 'traceparent, consumer spans, bulkhead, starve, opentelemetry, otlp, head sampling'),
      ...w(3, 'hang the client forever, read timeout, went down twice, slower since last, plan for more'),
      ...w(3, 'allowed per month, already burned'),
    ],
    docs: [...w(3, 'reference page for, contributing md, written up in comments, written up')],
    data: [
      ...w(3, 'salt the key, skews, sessionize, figures never loaded, counted twice, fewer rows than normal'),
      ...w(3, 'stock snapshot'),
    ],
    devops: [
      ...w(3, 'cibuildwheel, trusted publishing, publish wheels, non root user, throw away and rebuild'),
      ...w(3, 'build machine, whatever runs our builds'),
    ],
    finops: [...w(3, 'cost center, tflint rule, ri coverage, expiring reservations')],
    testing: [...w(3, 'prove both still agree, message format')],
  };

/**
 * Routing v19's keywords: the words of v18's held-out splits' testers, users and developers, read after v18 was
 * judged on them (Alertmanager, the OOM killer, an SVG's onload attribute, DNS rebinding, unknown JSON properties,
 * Retry-After, a paid seat nobody uses, reservation coverage, a DAG's logical date, CrashLoopBackOff, Homebrew...).
 */
export const VOCABULARY_V19: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    sre: [
      ...w(3, 'alertmanager, non actionable, oom killer, tight loop, drag the whole, outage on the'),
      ...w(3, 'be watching to catch'),
    ],
    security: [
      ...w(3, 'onload attribute, svg with an, metadata service, dns rebinding, sign its webhooks, fake order'),
      ...w(3, 'believes whatever, whole leaderboard, without me touching'),
    ],
    backend: [
      ...w(3, 'unknown properties, unknown json fields, retry after, sqlalchemy query, both are told'),
      ...w(3, 'invalidated on update, push them a message, paginate get'),
    ],
    finops: [
      ...w(3, 'paid seat, seat usage, reservation coverage, runner spend, monitoring subscriptions'),
      ...w(3, 'custom metrics we didn'),
    ],
    data: [...w(3, 'logical date, recalculated to the new, active user model, appointment history')],
    devops: [
      ...w(3, 'homebrew, crashloopbackoff, configmap, leaving heroku, identical setup, copy for previews'),
      ...w(3, 'deploying be a single, reset itself to a clean'),
    ],
    docs: [...w(3, 'help article')],
    frontend: [...w(3, 'flickers, snaps back, empty column')],
    testing: [...w(3, 'click through the same, pdfs look right, snapshots with, cargo fuzz, fuzz target')],
  };

/**
 * Routing v20's keywords: the words of v19's held-out splits' developers, maintainers and staff, read after v19 was
 * judged on them (raw SQL an f-string puts user input into, XXE's external entities, an OpenSSH advisory, a shared
 * password on a sticky note, Vector's sampled access logs, histogram quantile labels, an Absinthe mutation, a
 * StreamingResponse, a scoped session, a 413, Drone pushing to ECR, Haddock, SimpleCov, bytes billed, credit burn...).
 */
export const VOCABULARY_V20: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    security: [
      ...w(3, 'parameterize the raw sql, user input straight into, where clause, external entities, dtds'),
      ...w(3, 'openssh advisory, html file instead of, opened as a web page, shared password, sticky note'),
      ...w(3, 'their own login, get into the crm, access should be cut off'),
    ],
    sre: [
      ...w(3, 'vector toml, sample 2xx, quantile labels, histograms, crawl every morning'),
      ...w(3, 'what got slow, alert emails, nearly all are noise, how many web orders are failing, root cause'),
      ...w(3, 'trace anything'),
    ],
    backend: [
      ...w(3, 'absinthe, resolver, streamingresponse, stream rows, scoped session, goes negative'),
      ...w(3, 'first confirmation should, keep the numbers for a minute, blank page on the way back, never picked up'),
      ...w(3, '413, paging items through, duplicate of the last item'),
    ],
    data: [
      ...w(3, 'postcodes, marketing dataset, clean them on the way in, never made it into the warehouse'),
      ...w(3, 'converting to the new format, recalculating back to, year on year'),
    ],
    devops: [
      ...w(3, 'ecr, drone, short sha, containerise, containerize, putting the website live, run the linter'),
      ...w(3, 'allowed to merge'),
    ],
    docs: [...w(3, 'haddock, module header, worked example, openapi reference')],
    testing: [...w(3, 'simplecov, never exercises, add cases for, replace the snapshots, browser tests')],
    finops: [...w(3, 'bytes billed, credit burn, auto suspend, invoice keeps growing, plan allowance')],
  };

/**
 * Routing v21's keywords: the words of v20's held-out splits, read after v20 was judged on them (a phone that stayed
 * logged in after a password change, an ownership check, CBC suites, PLEG and NotReady, label cardinality, a standalone
 * component, AsSplitQuery's cartesian product, an exhausted pool, an attribution model, SCD2, Airbyte, ArgoCD's
 * ignoreDifferences, KDoc, proptest, cross-AZ transfer, showback).
 */
export const VOCABULARY_V21: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    security: [...w(3, 'stayed logged in, change the id in the url, ownership check, cbc, cipher policy, tls 1 0')],
    testing: [
      ...w(3, 'came back for the third time, find out before customers, proptest, commutative, get it to 80'),
      ...w(3, 'package coverage'),
    ],
    sre: [...w(3, 'pleg, notready, kubelet, quorum, cardinality guard, prometheus label')],
    frontend: [...w(3, 'standalone component, looks squashed, squashed on phones, make it look right')],
    backend: [
      ...w(3, 'changes just vanish, edit the same ticket at once, assplitquery, cartesian product, pool exhausted'),
      ...w(3, 'release the client, lifecycle listener, another flush, ordered list of ids, updates positions'),
    ],
    data: [
      ...w(3, 'looker, attribution model, utm source, scd2, cohort analysis, golden customer table, airbyte'),
      ...w(3, 'without a full reset, resolution time, sliceable'),
    ],
    devops: [...w(3, 'argocd, outofsync, ignoredifferences')],
    docs: [...w(3, 'kdoc, write proper notes, user facing release notes, plain language')],
    finops: [...w(3, 'cross az, data transfer line, ingestion charges, showback, credit consumption')],
  };

/**
 * Routing v22's keywords: the words of v21's held-out splits, read after v21 was judged on them (enumerating accounts
 * by a reset endpoint's messages, tokens kept in plaintext, an upload trusted by its MIME type, a phishing email in a
 * shop's name, React DevTools, photos that jump around as the page loads, a stale closure, a transactional outbox,
 * QuickCheck and insta, reserved instance coverage, donors who give again).
 */
export const VOCABULARY_V22: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    security: [
      ...w(3, 'enumerate accounts, different messages for known, plaintext, pepper, magic bytes, mime type'),
      ...w(3, 'cookieless domain, re enter their card details, change the number at the end, other children s marks'),
    ],
    frontend: [
      ...w(3, 're rendering, react devtools, jump around, in landscape, slides over the, stale closure, useeffect'),
    ],
    backend: [
      ...w(3, 'transactional outbox, empty body, expected 422, one row at a time, batch loading, increasing wait'),
      ...w(3, 'labels come out'),
    ],
    docs: [...w(3, 'jsdoc for, show up on hover, self hosting guide, sunset date, reword it')],
    testing: [...w(3, 'quickcheck property, insta snapshot, dst transitions, leap day')],
    finops: [...w(3, 'reserved instance coverage, new reservations, steady baseline')],
    data: [...w(3, 'give again within, campaign that brought, sensor readings, null or negative')],
    devops: [...w(3, 'put live without switching, pushes an update')],
  };

/**
 * Routing v23's keywords: the words of v22's held-out splits, read after v22 was judged on them (a test that relies on
 * unsynchronized clocks, an injectable parameter, an SVG avatar with a script inside, etcd's database size limit,
 * OOMKilled pods, an exhausted connection pool, a print stylesheet, LookML, PostGIS, a help page's instructions).
 */
export const VOCABULARY_V23: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    testing: [
      ...w(3, 'unsynchronized clocks, fails intermittently, fake clock, machine s timezone, round trip property'),
      ...w(3, 'data driven spec, kotest'),
    ],
    data: [...w(3, 'end up as separate, shapefiles, postgis, drive catchment, lookml, step sensors, emr step')],
    security: [
      ...w(3, 'svg as my avatar, script inside, is injectable, prepared statements, guess the id, sqlmap'),
      ...w(
        3,
        'check the caller belongs, f strings straight from, secret tokens, asterisks, without asking for any login',
      ),
      ...w(3, 'vault inject, secrets job'),
    ],
    sre: [
      ...w(3, 'database size limit, defrag, etcd, oomkilled, evicting neighbours, node health'),
      ...w(3, 'only found out from, anyone internal seemed to notice'),
    ],
    frontend: [...w(3, 'wrap badly, print stylesheet, page break, sit right on top of, chromebooks')],
    backend: [
      ...w(3, 'pool size, pool exhaustion, pool has been exhausted, exhausts the connection pool, connection leak'),
      ...w(3, 'gateway timeout, spawn blocking, blocks the runtime, pg pool, aren t released, bulk sku import api'),
      ...w(3, 'per row errors, date filter client side'),
    ],
    docs: [
      ...w(3, 'help page for, update the instructions, changes file, examples are old, this is a writing task'),
      ...w(3, 'tsdoc comments, conceptual doc'),
    ],
    devops: [...w(3, 'fail fast')],
  };

/**
 * Routing v24's keywords: the words of v23's held-out splits, read after v23 was judged on them (logins from Tor exit
 * nodes, an apt repo, optimistic locking, a GenServer's mailbox, an /incident slash command, Pinia, under-replicated
 * partitions, certificate pinning, spot node groups, Math.random() invite codes, a Gradle version catalog, Log4Shell,
 * Testcontainers, card testing, orphaned EBS snapshots, prevent_destroy, zeroizing a key buffer, Fluent Bit).
 */
export const VOCABULARY_V24: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    security: [
      ...w(3, 'tor exit nodes, forced resets, certificate pinning, math random, random bytes, guessable, log4shell'),
      ...w(3, 'log4j core, signed expiring links, card testing, stolen cards, pen testers, served back executable'),
      ...w(3, 'zeroize, key buffer, only the two of us can get in, code by text message'),
    ],
    devops: [
      ...w(3, 'deb packaging, apt repo, version catalog, without taking the site down, onto the app store'),
      ...w(3, 'prevent destroy, terraform apply, msi installer, self contained'),
    ],
    backend: [
      ...w(3, 'optimistic locking, overselling, genserver, mailbox grows, ktor, all or nothing, orphaned line items'),
      ...w(3, 'half a transfer, cache invalidation, database is rejecting'),
    ],
    sre: [
      ...w(3, 'postmortem draft, mitigated by rolling back, slash command, assign commander, under replicated'),
      ...w(3, 'records every error, per endpoint error metrics, error rate dashboards, keep an eye on it'),
      ...w(3, 'warn us before, fluent bit, drop this to info'),
    ],
    frontend: [...w(3, 'vuex, pinia, spill out of the boxes, alt text, chips wrap, nowrap')],
    finops: [...w(3, 'interruptible, ebs snapshots')],
    data: [...w(3, 'one clean list, spot trends')],
    testing: [...w(3, 'device matrix, ui test for, testcontainers, needs a test')],
    docs: [...w(3, 'install page says')],
  };

/**
 * Routing v25's keywords: the words of v24's held-out splits, read after v24 was judged on them (SQL built in an
 * f-string, hmac.compare_digest, an Origin reflected with credentials, logins that never run out, a base image pinned
 * by digest, a reproducible build, Reserved VM Instances, RI utilization, hexdocs, freezegun, a GenServer under a
 * supervisor, an error budget burned, a shop owner's "text me when the site stops working").
 */
export const VOCABULARY_V25: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    security: [
      ...w(3, 'f string sql, straight into the f string, anyone who has the link, compare digest, leaks timing'),
      ...w(3, 'reflects any origin, uploading a php file, only take real pictures, lock it down so only'),
      ...w(3, 'logins never run out, old logins stop working, trust boundaries, stride per component'),
    ],
    data: [...w(3, 'three spreadsheets into one, on its own every night, which days of the week, headers only')],
    docs: [...w(3, 'fix the wording, write down how, hexdocs')],
    sre: [
      ...w(3, 'telemetry to prometheus, when the site stops working, whole error budget, pausing feature rollouts'),
    ],
    devops: [
      ...w(
        3,
        'fix the package, as a dependency on ubuntu, base image by digest, build reproducible, reproducible build',
      ),
      ...w(3, 'by hand over ftp, runs the same everywhere, release asset, xcframework'),
    ],
    testing: [...w(3, 'automated tests that, freezegun, freeze the clock')],
    finops: [...w(3, 'burning money, reserved vm instances, ri utilization, unused reservations')],
    backend: [
      ...w(3, 'in one transaction, isn t rolled back, counters to ets, seconds to show the, under a supervisor'),
      ...w(3, 'axum handler, flush batches'),
    ],
    frontend: [...w(3, 'squished and stretched, look normal')],
  };

/**
 * Routing v26's keywords: the words of v25's held-out splits and of the two blind splits after them, read after v25
 * was judged on them (APP_DEBUG in production, bottom sheets and insets, a seq scan, a Kafka topic's data contract,
 * DocC, cargo-llvm-cov, committed use discounts, guessable gift-card codes, SELECT ... FOR UPDATE, a blocking
 * dispatcher, Monoid laws, a design token, IAM roles instead of long-lived keys, a credits grant burning out).
 */
export const VOCABULARY_V26: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    security: [
      ...w(3, 'app debug is true, leak env vars, request path unsanitized, read arbitrary files, only 6 digits'),
      ...w(3, 'redeeming gift cards, people who leave can t get in, password for our payment account'),
      ...w(3, 'code is public on github, lock people out after, too many wrong passwords, pops up little windows'),
      ...w(3, 'trusts the x user id, act as any account, full stripe secret key, redact it, long lived aws access key'),
      ...w(3, 'still getting into the admin page'),
    ],
    frontend: [
      ...w(3, 'bottom sheet, nav bar insets, won t redraw, cards don t stack, grid cols, three line menu'),
      ...w(3, 'does nothing on iphones, design token, hard coded color'),
    ],
    backend: [
      ...w(3, 'streams a csv, tenant scoped, ef core calls, for update'),
      ...w(3, 'blocking dispatcher, jdbc calls, empty json body, wipes the user s, full table scan, fix the preload'),
      ...w(3, 'returns records that haven t changed, two inserts in one transaction'),
    ],
    data: [
      ...w(3, 'data contract for, schema registry entry, write the same date s records, duplicate inserts'),
      ...w(3, 'combines donations from, matched across all three, yearly summary of how long, google forms responses'),
    ],
    devops: [
      ...w(3, 'publish to our apt repository, cache created in the first job, down for about five minutes'),
      ...w(3, 'only person who can put website changes live, push an update safely'),
    ],
    docs: [
      ...w(3, 'docc catalog, getting started article, snippets in the, lack imports, example is missing'),
      ...w(3, 'document every endpoint, what the fields mean'),
    ],
    testing: [
      ...w(3, 'quarantined it, find the real cause in the test, coverage not uploaded, cargo llvm cov, monoid laws'),
      ...w(3, 'quickcheck properties, phpunit data providers, xctest, check automatically that the main things'),
      ...w(3, 'automatic practice run, checks that run automatically, catch mistakes in the money math'),
    ],
    finops: [
      ...w(3, 'ri coverage, reservations are going unused, cuds, credits grant, paying for more than we need'),
      ...w(3, 'burning through it'),
    ],
    sre: [
      ...w(3, 'drops container log lines, metrics report zero drops, dropped log rate, fluentd to vector'),
      ...w(3, 'nobody knew for an hour, warned when things start going wrong, website is slow or erroring'),
    ],
  };

/**
 * Routing v27's keywords: the words of v26's two held-out splits, read after v26 was judged on them (R's vignettes and
 * pkgdown, an architecture overview, cumulative layout shift, a crashlooping CoreDNS, child spans and trace headers,
 * passkeys and hardware keys, a secret key in the bundle, convertible RIs, a pool's checkout timeout, a Windows runner).
 */
export const VOCABULARY_V27: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    security: [
      ...w(3, 'passkey, passkeys, hardware keys, reuse passwords, password reuse, old password'),
      ...w(3, 'enforce webauthn'),
    ],
    sre: [...w(3, 'crashlooping, child spans, trace headers, propagate trace, dns timeouts, traces are useless')],
    frontend: [...w(3, 'cls, cumulative layout shift, layout shift, reserved height, aria label, unlabeled buttons')],
    docs: [...w(3, 'vignette, vignettes, pkgdown, architecture overview, overview page')],
    testing: [...w(3, 'quickcheck, property test')],
    finops: [...w(3, 'convertible ris, warehouse credits, rightsize the node pool')],
    backend: [
      ...w(3, 'checkout timeout, client side evaluation, translates to sql, payment gateway, pool is exhausted'),
      ...w(3, 'sit in executing, memory leaks in the http, whole csv, sockets pile up'),
    ],
    devops: [...w(3, 'by ftp, fails to link, nightlies job, windows runner, fails compiling, bootstrapping')],
    data: [...w(3, 'one report showing, merge them with, export donations')],
  };

/**
 * Routing v28's keywords: the words of v27's two held-out splits, read after v27 was judged on them (brute-forced
 * logins, Actuator endpoints, a bot token pushed to a public repo, a PIN that never locks out, leavers who keep access,
 * Key Vault, trace context, Grafana Loki, self-resolving overnight pages, labels spilling out of their boxes, a sqlx
 * pool, stale cursors, a needless preload, depends_on_past, NuGet symbol packages, a Nix flake, an exec format error,
 * snapshot tests and reference images).
 */
export const VOCABULARY_V28: Readonly<Partial<Record<Exclude<BuiltinDomain, 'general'>, readonly WeightedKeyword[]>>> =
  {
    security: [
      ...w(3, 'brute forced, lock down actuator, actuator endpoints, bot token, pushed it once, locked me out'),
      ...w(3, 'never locked me out, typed my pin wrong, lose access, still sign in, clear text, cleartext'),
      ...w(3, 'roll the key, key vault, purge it from'),
    ],
    sre: [
      ...w(3, 'trace context, grafana loki, self resolve, waking on call, overnight on call, non critical overnight'),
    ],
    frontend: [...w(3, 'spill out of, zoom pages, covers half the, run over the logo')],
    backend: [
      ...w(
        3,
        'connection pooling, database pool, sqlx, stale cursors, fix the race, full preload, unnecessary preload',
      ),
      ...w(3, 'notifications arrive hours late, sits on processing, takes almost a minute'),
    ],
    data: [...w(3, 'depends on past, flag the mismatches, off from the register')],
    devops: [
      ...w(
        3,
        'nuget, symbol packages, sourcelink, nix flake, exec format error, parallel shards, provisioned on merge',
      ),
    ],
    testing: [...w(3, 'snapshot tests, reference images, branches that are never hit, test cases for')],
  };

/**
 * The built-in vocabulary of routing v1 (the keyword model), v2 (the calibrated models v2 to v9: v1 plus v2's
 * keywords), v3 (routing v10: v2 plus {@link VOCABULARY_V10}), v4 (routing v11: v3 plus {@link VOCABULARY_V11}), v5
 * (routing v12: v4 plus {@link VOCABULARY_V12}) or v6 (routing v13: v5 plus {@link VOCABULARY_V13}).
 */
export function builtinVocabulary(
  version: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20 | 21,
): Readonly<Record<string, readonly WeightedKeyword[]>> {
  if (version === 1) return BUILTIN_VOCABULARY;
  const out: Record<string, WeightedKeyword[]> = {};
  for (const [d, kws] of Object.entries(BUILTIN_VOCABULARY)) out[d] = [...kws];
  for (const [d, kws] of Object.entries(VOCABULARY_V2)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 3) for (const [d, kws] of Object.entries(VOCABULARY_V10)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 4) for (const [d, kws] of Object.entries(VOCABULARY_V11)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 5) for (const [d, kws] of Object.entries(VOCABULARY_V12)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 6) for (const [d, kws] of Object.entries(VOCABULARY_V13)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 7) for (const [d, kws] of Object.entries(VOCABULARY_V14)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 8) for (const [d, kws] of Object.entries(VOCABULARY_V15)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 9) for (const [d, kws] of Object.entries(VOCABULARY_V16)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 10) for (const [d, kws] of Object.entries(VOCABULARY_V17)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 11) for (const [d, kws] of Object.entries(VOCABULARY_V18)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 12) for (const [d, kws] of Object.entries(VOCABULARY_V19)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 13) for (const [d, kws] of Object.entries(VOCABULARY_V20)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 14) for (const [d, kws] of Object.entries(VOCABULARY_V21)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 15) for (const [d, kws] of Object.entries(VOCABULARY_V22)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 16) for (const [d, kws] of Object.entries(VOCABULARY_V23)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 17) for (const [d, kws] of Object.entries(VOCABULARY_V24)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 18) for (const [d, kws] of Object.entries(VOCABULARY_V25)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 19) for (const [d, kws] of Object.entries(VOCABULARY_V26)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 20) for (const [d, kws] of Object.entries(VOCABULARY_V27)) out[d] = [...(out[d] ?? []), ...kws];
  if (version >= 21) for (const [d, kws] of Object.entries(VOCABULARY_V28)) out[d] = [...(out[d] ?? []), ...kws];
  return out;
}
