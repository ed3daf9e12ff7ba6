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
