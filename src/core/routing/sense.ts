/**
 * Routing v7's sense rule: a specialist's everyday words need the specialist's technical world. Products use "alert",
 * "incident", "on-call", "SLA", "outage", "password", "security" and "test" in their own sense ("an incident report
 * form for dog walkers", "an on-call roster view so nurses can swap nights", "a 'security question' step in a kids'
 * quiz", "Test score is not adding up"); a model that reads words gives these texts the specialist. When every keyword
 * a domain matched is one of its everyday words and the text names nothing of the domain's technical world (a server,
 * a metric, a page to on-call, an attacker, a test suite...), the domain's probability counts as `general`, as v5's
 * rule does for FinOps without a cloud word. Keywords that name a domain on their own ("PagerDuty", "XSS", "pytest",
 * a profile's own keyword) keep it. Pure: matched on the normalized text (lower case, punctuation as spaces).
 */

/** The everyday words of the domains the rule covers (keywords as the keyword pass reports them, singular). */
export const EVERYDAY_WORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  sre: new Set([
    'on call',
    'alert',
    'incident',
    'sla',
    'outage',
    'hour',
    'downtime',
    'availability',
    'escalation',
    'shift',
    'roster',
    'rota',
    'uptime',
    'status page',
    'stall',
  ]),
  security: new Set([
    'password',
    'security',
    'admin',
    'authentication',
    'secret',
    'login',
    'account',
    'permission',
    'access',
    'token',
    'pin',
    'verification',
    'fraud',
    'privacy',
    'certificate',
  ]),
  testing: new Set(['test']),
  devops: new Set(['pipeline', 'runner']),
};

const words = (...xs: string[]): RegExp => new RegExp(`\\b(?:${xs.join('|')})\\b`);

/** Security's technical world (v7, v8). */
const SECURITY_WORLD: readonly string[] = [
  'vulnerab\\w*',
  'cve',
  'ghsa',
  'xss',
  'csrf',
  'ssrf',
  'inject\\w*',
  'sql',
  'owasp',
  'exploit\\w*',
  'attack\\w*',
  'hash\\w*',
  'bcrypt',
  'argon\\w*',
  'encrypt\\w*',
  'tls',
  'ssl',
  'https',
  'jwt',
  'oauth',
  'oidc',
  'saml',
  'sso',
  'mfa',
  '2fa',
  'totp',
  'sessions?',
  'cookies?',
  'cors',
  'csp',
  'headers?',
  'saniti[sz]\\w*',
  'escap\\w*',
  'brute\\w*',
  'rate limit\\w*',
  'audit\\w*',
  'leak\\w*',
  'expos\\w*',
  'harden\\w*',
  'api keys?',
  'credentials?',
  'privilege\\w*',
  'rbac',
  'authori[sz]\\w*',
  'idor',
  'rotat\\w*',
  'revok\\w*',
  'penetration',
  'pentest',
  'threat\\w*',
  'scann\\w*',
  'dependabot',
  'snyk',
  'trivy',
  'gitleaks',
  'trufflehog',
  'plain ?text',
  'enumerat\\w*',
  '(?:be|been|easily|easy to|hard to) guess\\w*',
  'guessable',
  'guess\\w* (?:someone|another|other|the (?:id|number|code|password|link|url))',
  'anyone',
  'anonymous\\w*',
  'unauthenticated',
  'unauthori[sz]ed',
  'attacker\\w*',
  'redirect\\w*',
  'phish\\w*',
  'fake',
  'steal\\w*',
  'stolen',
  'database',
  'scripts?',
  'siem',
  'guard ?duty',
  'security (?:hub|txt|policy|headers?|review|scan\\w*|audit)',
  'disclosure',
  'thousands of',
  'logged in forever',
  'stay logged in',
  'exactly as (?:they|it) (?:typed|was typed)',
  'dig it out',
  'without (?:being|logging|login)',
  'someone else',
  'other (?:users|customers|people|patients)',
  '(?:is|are|was|were) registered',
  'response times?',
  'broker',
  'firewall',
  'ports?',
  'secrets? (?:manager|management|scanning|in)',
  'by changing the',
  'any (?:staff|user|logged in|one)\\w*',
  'expir\\w*',
  'renew\\w*',
  'domains?',
  'x509',
  'acme',
  'cert ?manager',
  '(?:lets|let s) encrypt',
];

/** Testing's technical world (v7, v8). */
const TESTING_WORLD: readonly string[] = [
  'tests',
  'unit',
  'integration',
  'e2e',
  'end to end',
  'suites?',
  'specs?',
  'flaky',
  'flakes?',
  'mocks?',
  'mocking',
  'fixtures?',
  'asserts?',
  'assertions?',
  'coverage',
  'jest',
  'pytest',
  'junit',
  'rspec',
  'vitest',
  'mocha',
  'cypress',
  'playwright',
  'selenium',
  'snapshots?',
  'regressions?',
  'ci',
  'harness',
  'stubs?',
  'fuzz\\w*',
  'property based',
  'load test\\w*',
  'contract',
  'tdd',
  'test (?:cases?|runs?|runners?|data|results?|fails?|failures?|passes|starts|for|that|which|env\\w*|double|suite|setup)',
  '(?:write|writes|writing|every|each|failing|broken|flaky) (?:a |an |one )?test',
  'testing',
  'qa',
  'race condition',
  'bug',
];

/** SRE's technical world (v7, v8). */
const SRE_WORLD: readonly string[] = [
  'services?',
  'servers?',
  'production',
  'prod',
  'uptime',
  'latency',
  'p9\\d',
  'error rates?',
  'slos?',
  'slis?',
  'error budgets?',
  'pager ?duty',
  'opsgenie',
  'grafana',
  'prometheus',
  'alert ?manager',
  'pingdom',
  'exporters?',
  'scrapes?',
  'flapping',
  'noisy',
  'noise',
  'synthetic',
  'pag(?:ed|ing)',
  'pages? (?:on ?call|oncall|someone|whoever|the|us|me|them|out)',
  'pager',
  'thresholds?',
  'game day',
  'zones?',
  'dns',
  'data ?dog',
  'metrics?',
  'heartbeats?',
  'dashboards?',
  'logs',
  'logging',
  'log (?:lines?|files?|levels?|shipping|aggregation|retention|volume|messages?)',
  '(?:error|access|server|app|application|system|structured|json) logs?',
  'tracing',
  'traces',
  'otel',
  'telemetry',
  'kubernetes',
  'k8s',
  'pods?',
  'nodes?',
  'clusters?',
  'deploy\\w*',
  'rollbacks?',
  'load balancer\\w*',
  'databases?',
  'db',
  'queues?',
  'kafka',
  'redis',
  'cpu',
  'memory',
  'disk',
  '5\\d\\d',
  '5xx',
  'health ?checks?',
  'runbooks?',
  'post ?mortems?',
  'status page',
  'api',
  'endpoints?',
  'workers?',
  'timeouts?',
  'retries',
  'circuit breakers?',
  'response times?',
  'sre',
  'monitor\\w*',
  'observability',
  '(?:site|website|app|portal|service|system|server|stream|api|gateway|checkout|platform) (?:is |was |went |goes |keeps going |keeps |kept )?(?:down|offline|crash\\w*)',
  '(?:went|goes|going|go|was|is) (?:down|offline)',
  'offline',
  'crash\\w*',
  'outages? (?:on|of|at|in) (?:the|our)',
  'write ?ups?',
  'timeline',
  'contributing factors',
  'who (?:was|is) (?:responsible|in charge)',
  'severity',
  'incident (?:commander|process|response|review|channel|management)',
  'escalat\\w*',
  'woken',
  'wakes?',
  '(?:on call|oncall) (?:engineers?|handoff|rotation|schedule|person|team)',
  'person on call',
  'whoever is on',
  '(?:automatic|automated) (?:warnings?|warning emails?)',
  'failover',
  'redundan\\w*',
  'backups?',
  'restore',
  'gateway',
  '(?:the|our) (?:platform|infrastructure)',
];

/** DevOps's technical world (v7 to v18). */
const DEVOPS_WORLD: readonly string[] = [
  'ci',
  'cd',
  'github',
  'gitlab',
  'jenkins',
  'circle ?ci',
  'buildkite',
  'actions?',
  'workflows?',
  'jobs?',
  'builds?',
  'deploy\\w*',
  'releases?',
  'docker\\w*',
  'containers?',
  'images?',
  'k8s',
  'kubernetes',
  'helm',
  'terraform',
  'ya?ml',
  'artifacts?',
  'cach\\w*',
  'branch\\w*',
  'merg\\w*',
  'commits?',
  'pull requests?',
  'prs?',
  'registry',
  'lint\\w*',
  'tests?',
  'self hosted',
  'hosted',
  'ec2',
  'aws',
  'gcp',
  'azure',
  'cloud',
  'servers?',
  'machines?',
  'vms?',
  'cpu',
  'memory',
  'disk',
  'concurren\\w*',
  'minutes',
  'slow\\w*',
  'fail\\w*',
  'flaky',
  'broken',
  'green',
];

/** What each covered domain's technical world sounds like, on the normalized text. */
const TECHNICAL_WORLD: Readonly<Record<string, RegExp>> = {
  sre: words(...SRE_WORLD),
  security: words(...SECURITY_WORLD),
  devops: words(...DEVOPS_WORLD),
  testing: words(...TESTING_WORLD),
};

/** A keyword as the everyday list holds it: a plural `s` dropped ("alerts" → "alert", not "sla" or "access"). */
const singular = (k: string): string => (k.length > 3 && k.endsWith('s') && !k.endsWith('ss') ? k.slice(0, -1) : k);

/**
 * Routing v9's everyday words: v7's, plus testing's "mock" and "coverage" (a driving school's mock test, an insurer's
 * coverage level) and data's words for an application's own tables, exports and warehouses (a CSV export of what the
 * screen shows, a warehouse's bins), which a product uses without any data engineering.
 */
export const EVERYDAY_WORDS_V9: Readonly<Record<string, ReadonlySet<string>>> = {
  ...EVERYDAY_WORDS,
  security: new Set([...EVERYDAY_WORDS.security, 'audit trail', 'audit log']),
  testing: new Set(['test', 'mock', 'coverage']),
  data: new Set(['csv', 'export', 'excel', 'spreadsheet', 'column', 'table', 'query', 'querie', 'warehouse']),
};

/** Security's technical world in v9: v7's, where an audit is a security one (not a product's record of who did what). */
const SECURITY_WORLD_V9: readonly string[] = [
  ...SECURITY_WORLD.filter((w) => w !== 'audit\\w*'),
  'security audit\\w*',
  'audit\\w* (?:of |the |our |for )?(?:code|dependenc\\w*|permissions?|access|auth\\w*|logins?|security|admin\\w*|roles?|keys?|secrets?|privileges?)',
  '(?:admin|privileged|root|sudo) (?:actions?|access|operations?)',
  'soc ?2',
  'iso ?27001',
  'hipaa',
  'pci',
  'gdpr',
  'complian\\w*',
  'tamper\\w*',
  'immutable',
  'append only',
  'forensic\\w*',
  'siem',
];

/** Testing's technical world in v9: v7's, without the words v9 also reads in their everyday sense. */
const TESTING_WORLD_V9: readonly string[] = [
  ...TESTING_WORLD.filter((w) => w !== 'mocks?' && w !== 'coverage' && !w.startsWith('test (?:')),
  'test (?:cases?|runs?|runners?|data|fails?|failures?|passes|starts|for|that|which|env\\w*|double|suite|setup)',
  '(?<!mock )test results?',
  'mocks',
  'mocked',
  'mock (?:out|the|an?|servers?|apis?|services?|clients?|data|objects?|functions?|modules?|class\\w*|database|db|http|network|clock|time|implementations?|responses?|calls?)',
  '(?:code|test|line|branch|statement) coverage',
  'coverage (?:reports?|thresholds?|gates?|targets?|badges?|tools?|drops?|dropped|percentages?|numbers?|to \\d+|of (?:the|our|this) (?:code|module|package|service|tests?|parser|library|codebase))',
  'coverage (?:on|of|for|in|across|is|at|above|below|from|under)',
  'xc ?ui ?tests?',
  'xctest',
  'espresso',
  'detox',
  'robolectric',
  'testng',
  'nunit',
  'xunit',
  'phpunit',
  'minitest',
  'capybara',
  'kotest',
  'spock',
  'codecov',
  'coveralls',
  'jacoco',
  'istanbul',
  'nyc',
  'lcov',
];

/** Data engineering's technical world (v9): pipelines, warehouses' tooling, formats, batch and BI. */
const DATA_WORLD: readonly string[] = [
  'etl',
  'elt',
  'pipelines?',
  'dbt',
  'spark',
  'pyspark',
  'airflow',
  'dagster',
  'prefect',
  'luigi',
  'snowflake',
  'bigquery',
  'redshift',
  'databricks',
  'synapse',
  'athena',
  'presto',
  'trino',
  'hive',
  'glue',
  'kafka',
  'kinesis',
  'flink',
  'beam',
  'parquet',
  'avro',
  'orc',
  'delta',
  'iceberg',
  'lakes?',
  'lakehouse',
  'data (?:warehouse|lake|models?|quality|pipelines?|engineer\\w*|team|platform|catalog|contracts?|marts?|loads?|sets?|sources?|feeds?)',
  'datasets?',
  'dwh',
  'olap',
  'star schema',
  'fact tables?',
  'dimension\\w*',
  'scd',
  'partition\\w*',
  'backfill\\w*',
  'ingest\\w*',
  'cdc',
  'debezium',
  'fivetran',
  'airbyte',
  'stitch',
  'looker',
  'tableau',
  'metabase',
  'superset',
  'power bi',
  'bi',
  'dashboards?',
  'analytics',
  'analysts?',
  'sql',
  'postgres\\w*',
  'mysql',
  'databases?',
  'schemas?',
  'migrations?',
  's3',
  'gcs',
  'buckets?',
  'nightly',
  'daily',
  'hourly',
  'batch\\w*',
  'cron\\w*',
  'jobs?',
  'dags?',
  'joins?',
  'aggregat\\w*',
  'dedup\\w*',
  'window functions?',
  'materiali[sz]\\w*',
  'pandas',
  'polars',
  'notebooks?',
  'jupyter',
  'duckdb',
  'clickhouse',
  'millions? of (?:rows|records)',
  'upserts?',
  'merge into',
  'staging tables?',
  'raw (?:tables?|layer|zone|schema)',
  // Data quality and consolidation, in plain words: a data task whatever it is called.
  'great expectations',
  'duplicat\\w*',
  'dedup\\w*',
  'cleans?',
  'cleaning',
  'cleanup',
  'consolidat\\w*',
  'combin\\w*',
  'into one',
  'from (?:each|every|all|different|several|many|dozens)',
  '(?:different|inconsistent|mixed) (?:formats?|ways|spellings?|capitali[sz]ation)',
  'ways?',
  'land(?:s|ed|ing)? in',
  '(?:appears?|show(?:s|ing)? up|listed) (?:twice|two|three|several|multiple|more than once)',
];

/**
 * What a product's own sense of data's words sounds like (v9): a download or export of what it shows, or a
 * warehouse of goods. Data's everyday words count as everyday only in a text that says one of these.
 */
const DATA_PRODUCT_SENSE_WORDS: readonly string[] = [
  'csv',
  'exports?',
  'exporting',
  'excel',
  'xlsx',
  'spreadsheets?',
  'downloads?',
  'bins?',
  'putaway',
  'picking',
  'pick lists?',
  'pallets?',
  'shel(?:f|ves)',
  'aisles?',
  'forklifts?',
  'stock',
  'docks?',
  'shipments?',
  'couriers?',
];
const DATA_PRODUCT_SENSE = words(...DATA_PRODUCT_SENSE_WORDS);

const TECHNICAL_WORLD_V9: Readonly<Record<string, RegExp>> = {
  ...TECHNICAL_WORLD,
  security: words(...SECURITY_WORLD_V9),
  testing: words(...TESTING_WORLD_V9),
  data: words(...DATA_WORLD),
};

/**
 * Routing v10's everyday words: v9's, plus SRE's "monitor" (a wine shop's cellar monitor page), docs' "page" and
 * "link" (a product's countdown page, a pre-save link), backend's HTTP verb "get" (patrons get a token) and data's
 * "daily", "weekly" and "monthly" beside a warehouse of goods (average daily sales per SKU).
 */
export const EVERYDAY_WORDS_V10: Readonly<Record<string, ReadonlySet<string>>> = {
  ...EVERYDAY_WORDS_V9,
  sre: new Set([...EVERYDAY_WORDS_V9.sre, 'monitor']),
  docs: new Set(['page', 'link']),
  backend: new Set(['get']),
  data: new Set([...EVERYDAY_WORDS_V9.data, 'daily', 'weekly', 'monthly']),
};

/** SRE's technical world in v10: v7's, where a monitor is one of a system's (not a product's page or screen). */
const SRE_WORLD_V10: readonly string[] = [
  ...SRE_WORLD.filter((w) => w !== 'monitor\\w*'),
  'monitoring',
  'monitored',
  'monitors? (?:for|on|that|which|when|to|the|our|its|every|each|all|and alert\\w*)',
  '(?:uptime|synthetic|health|http|api|cron|heartbeat|service|server|status|latency|error|queue|disk|cpu|memory|endpoint|ping|black ?box) monitors?',
];

/** Docs' technical world (v10): documentation, its sites, tools and parts. */
const DOCS_WORLD: readonly string[] = [
  'docs?',
  'documentation',
  'documented',
  'undocumented',
  'readmes?',
  'wiki\\w*',
  'changelogs?',
  'release notes',
  'docstrings?',
  'tutorials?',
  'guides?',
  'how ?tos?',
  'faqs?',
  'help (?:center|centre|pages?|articles?|texts?)',
  'knowledge base',
  '(?:api )?references?',
  'markdown',
  'mdx',
  'md',
  'rst',
  'sphinx',
  'mkdocs',
  'docusaurus',
  'redoc',
  'swagger',
  'openapi',
  'jsdoc',
  'tsdoc',
  'typedoc',
  'javadoc',
  'rustdoc',
  'godoc',
  'man pages?',
  'examples?',
  'comments?',
  'explain\\w*',
  '(?:broken|dead|stale|outdated) links?',
  'anchors?',
  'headings?',
  'table of contents',
  'toc',
  'diagrams?',
  'mermaid',
  'contributing',
  'handbook',
  'manual',
  'glossary',
  'adrs?',
  'typos?',
  'wording',
  'screenshots?',
  'onboarding',
  'describ\\w*',
  'data dictionar\\w*',
  '(?:configuration|config) options',
];

/** Backend's technical world (v10): a server's APIs, handlers, stores and queues. */
const BACKEND_WORLD: readonly string[] = [
  'apis?',
  'endpoints?',
  'routes?',
  'rest',
  'http\\w*',
  'graphql',
  'grpc',
  'servers?',
  'server side',
  'services?',
  'microservices?',
  'handlers?',
  'controllers?',
  'middleware',
  'requests?',
  'responses?',
  'status codes?',
  '[45]\\d\\d',
  'json',
  'payloads?',
  'orm',
  'databases?',
  'db',
  'sql',
  'quer(?:y|ies)',
  'cach\\w*',
  'redis',
  'queues?',
  'workers?',
  'webhooks?',
  'backend',
  'django',
  'rails',
  'flask',
  'fastapi',
  'express',
  'spring',
  'laravel',
  'nestjs',
  'params?',
  'parameters?',
  'query strings?',
  'headers?',
  'urls?',
  'curl',
  // Concurrency in the server's own logic ("two people book the last seat at the same moment").
  'race\\w*',
  'same (?:moment|time|instant|second)',
  'concurren\\w*',
  'simultaneous\\w*',
  'transactions?',
  'lock\\w*',
  'idempoten\\w*',
];

/** Data engineering's technical world in v10: v9's, where "daily" and the like name a batch (not daily sales). */
const DATA_WORLD_V10: readonly string[] = [
  ...DATA_WORLD.filter((w) => w !== 'nightly' && w !== 'daily' && w !== 'hourly'),
  '(?:nightly|daily|hourly|weekly|monthly) (?:jobs?|loads?|runs?|batch\\w*|snapshots?|partitions?|syncs?|aggregat\\w*|refresh\\w*|imports?|ingest\\w*|dags?|etl|elt|exports? to|dumps?|extracts?|rollups?)',
  'nightly',
  'hourly',
];

/** Goods in a warehouse or a shop (v10): beside them "daily" is a rate of sales, not a batch. */
const GOODS_WORDS: readonly string[] = [
  'stock',
  'skus?',
  'on hand',
  'in stock',
  'stock levels?',
  'reorder\\w*',
  'bins?',
  'pallets?',
  'shel(?:f|ves)',
  'aisles?',
];
const GOODS = words(...GOODS_WORDS);
/** Data's calendar words, everyday in v10 only beside {@link GOODS}. */
const CALENDAR_WORDS: ReadonlySet<string> = new Set(['daily', 'weekly', 'monthly']);

/** What a product's own sense of data's words sounds like in v10: v9's, plus a shop's stock units. */
const DATA_PRODUCT_SENSE_V10 = words(...DATA_PRODUCT_SENSE_WORDS, ...GOODS_WORDS);

const TECHNICAL_WORLD_V10: Readonly<Record<string, RegExp>> = {
  ...TECHNICAL_WORLD_V9,
  sre: words(...SRE_WORLD_V10),
  docs: words(...DOCS_WORLD),
  backend: words(...BACKEND_WORLD),
  data: words(...DATA_WORLD_V10),
};

/**
 * Routing v11's everyday words: v10's, plus data's "report" beside a product's own export or download ("Export
 * reports to CSV: a button on each report page downloads it"). Its worlds are v10's.
 */
export const EVERYDAY_WORDS_V11: Readonly<Record<string, ReadonlySet<string>>> = {
  ...EVERYDAY_WORDS_V10,
  data: new Set([...EVERYDAY_WORDS_V10.data, 'report']),
};

/** Data's world in v11: v10's, plus one definition of a metric for everyone ("each defines 'active user' differently"). */
const DATA_WORLD_V11: readonly string[] = [
  ...DATA_WORLD_V10,
  'differently',
  '(?:single )?source of truth',
  'shared (?:\\w+ )?tables?',
  'metric definitions?',
];

/**
 * Security's world in v11: v9's, where what expires is a credential (a token, a session, a TLS certificate), not a
 * vaccination certificate or a voucher, and a scan looks for weaknesses (not a scanned document).
 */
const SECURITY_WORLD_V11: readonly string[] = [
  ...SECURITY_WORLD_V9.filter((w) => w !== 'expir\\w*' && w !== 'scann\\w*'),
  // A scan for weaknesses, not a scanned document or barcode.
  '(?:vulnerabilit\\w*|security|dependency|secrets?|container|image|code|ports?|virus|malware|sast|dast|trivy|snyk|grype) scan\\w*',
  'scann(?:er|ers|ing) (?:for|the|our|all|every|each|images?|dependenc\\w*|repos?|code|containers?|ports?)',
  'scanned (?:for|by)',
  '(?:tokens?|sessions?|certs?|certificates?|passwords?|keys?|links?|cookies?|jwts?|credentials?|secrets?|otps?|codes?) (?:\\w+ ){0,2}expir\\w*',
  'expir\\w* (?:tokens?|sessions?|certs?|certificates?|passwords?|keys?|links?|cookies?|jwts?|credentials?|secrets?|otps?|codes?)',
  '(?:tls|ssl|https|x509|acme|domain) (?:\\w+ ){0,3}expir\\w*',
  'expiry',
];

const TECHNICAL_WORLD_V11: Readonly<Record<string, RegExp>> = {
  ...TECHNICAL_WORLD_V10,
  security: words(...SECURITY_WORLD_V11),
  data: words(...DATA_WORLD_V11),
};

/**
 * Routing v12's everyday words: v11's, plus SRE's "capacity" (a museum's tickets per half hour, a class's seats) and
 * security's "session" and "signature" (a tattoo session, a signed consent form), outside their technical worlds.
 */
export const EVERYDAY_WORDS_V12: Readonly<Record<string, ReadonlySet<string>>> = {
  ...EVERYDAY_WORDS_V11,
  sre: new Set([...EVERYDAY_WORDS_V11.sre, 'capacity']),
  security: new Set([...EVERYDAY_WORDS_V11.security, 'session', 'signature']),
};

/**
 * Security's world in v12: v11's, where a session is a login's (a session cookie, token or timeout, a user's session)
 * and a signature is checked (a signature header, verifying a signature, a signed URL or payload).
 */
const SECURITY_WORLD_V12: readonly string[] = [
  ...SECURITY_WORLD_V11.filter((w) => w !== 'sessions?'),
  'session (?:tokens?|cookies?|ids?|fixation|hijack\\w*|timeouts?|expir\\w*|stores?|management|invalidat\\w*|lifetime|length|keys?)',
  '(?:login|user|users|auth\\w*|admin|browser|web|active|stale|existing|idle|concurrent|their|other) sessions?',
  'signature (?:headers?|checks?|verification|validation|mismatch\\w*)',
  '(?:verif\\w*|check\\w*|validat\\w*) (?:the |its |their |a |every |each )?(?:\\w+ )?signatures?',
  'signed (?:urls?|cookies?|tokens?|payloads?|requests?|webhooks?|commits?|releases?|artifacts?|images?)',
];

/** SRE's world in v12: v10's, plus a system under load ("falls over when 30,000 students log in at 9am"). */
const SRE_WORLD_V12: readonly string[] = [
  ...SRE_WORLD_V10,
  'falls? over',
  'fell over',
  'falling over',
  'peaks?',
  'traffic',
  'concurren\\w*',
  'scal(?:e|es|ing) (?:up|out|down)',
  'thousands of',
  '\\d{1,3} \\d{3}',
];

const TECHNICAL_WORLD_V12: Readonly<Record<string, RegExp>> = {
  ...TECHNICAL_WORLD_V11,
  sre: words(...SRE_WORLD_V12),
  security: words(...SECURITY_WORLD_V12),
};

/** Routing v13's everyday words: v12's, plus docs' "section" (a lot page's provenance section). Its worlds are v12's. */
export const EVERYDAY_WORDS_V13: Readonly<Record<string, ReadonlySet<string>>> = {
  ...EVERYDAY_WORDS_V12,
  docs: new Set([...EVERYDAY_WORDS_V12.docs, 'section']),
};

/**
 * Security's world in v14: v12's, plus what a plain-language report of a weakness names: the researcher who found it,
 * the inside of the network a fetch reaches, the script file an upload runs, the advisory a bump answers, an unsigned
 * token, a signing salt, a reset link, a session that outlives logging out.
 */
const SECURITY_WORLD_V14: readonly string[] = [
  ...SECURITY_WORLD_V12,
  'researchers?',
  'localhost',
  '(?:internal|private|inside (?:our|the|your)) networks?',
  'php',
  'advisor(?:y|ies)',
  'unsigned',
  'salts?',
  'reset links?',
  'logged out',
  'still logged in',
];

/** SRE's world in v14: v12's, plus the engineers on call ("shows the engineers who is on call this week"). */
const SRE_WORLD_V14: readonly string[] = [...SRE_WORLD_V12, 'engineers? (?:\\w+ ){0,3}on call', 'on call engineers?'];

/** Docs' world in v14: v10's, plus a docs site's "Getting Started" page. */
const DOCS_WORLD_V14: readonly string[] = [...DOCS_WORLD, 'getting started'];

/** Testing's world in v14: v9's, plus Go's test command and a test helper ("go test -race flags a data race"). */
const TESTING_WORLD_V14: readonly string[] = [...TESTING_WORLD_V9, 'go test', 'test helpers?'];

const TECHNICAL_WORLD_V14: Readonly<Record<string, RegExp>> = {
  ...TECHNICAL_WORLD_V12,
  security: words(...SECURITY_WORLD_V14),
  sre: words(...SRE_WORLD_V14),
  docs: words(...DOCS_WORLD_V14),
  testing: words(...TESTING_WORLD_V14),
};

/** Routing v14's everyday words: v13's. Its worlds are v12's with more of security, SRE, docs and testing. */
export const EVERYDAY_WORDS_V14: Readonly<Record<string, ReadonlySet<string>>> = EVERYDAY_WORDS_V13;

/** Routing v15's everyday words and worlds: v14's (v15 adds keywords only). */
export const EVERYDAY_WORDS_V15: Readonly<Record<string, ReadonlySet<string>>> = EVERYDAY_WORDS_V14;

/** Routing v16's everyday words and worlds: v15's (v16 adds keywords only). */
export const EVERYDAY_WORDS_V16: Readonly<Record<string, ReadonlySet<string>>> = EVERYDAY_WORDS_V15;

/** Which routing version's sense rule to apply: v7 (and v8), v9 to v16 (`false` is v7, `true` v9). */
/**
 * SRE's world in v18: v14's, where a zone is a cloud's or a cluster's (an availability zone, a zonal disk), not any
 * zone (an exclusion zone, a delivery zone, a time zone).
 */
const SRE_WORLD_V18: readonly string[] = [
  ...SRE_WORLD_V14.filter((w) => w !== 'zones?'),
  '(?:availability|aws|gcp|azure|cloud|az|us|eu|primary|secondary|single|multi|multiple) zones?',
  'multi ?zone',
  'zonal',
];

const TECHNICAL_WORLD_V18: Readonly<Record<string, RegExp>> = {
  ...TECHNICAL_WORLD_V14,
  sre: words(...SRE_WORLD_V18),
};

/**
 * Routing v18's everyday words: v16's, and a lockout of security's (a locksmith's emergency lockout, a machine's
 * lockout/tagout). Its worlds are v14's with SRE's zones a cloud's.
 */
export const EVERYDAY_WORDS_V18: Readonly<Record<string, ReadonlySet<string>>> = {
  ...EVERYDAY_WORDS_V16,
  security: new Set([...EVERYDAY_WORDS_V16.security, 'lockout', 'lockouts']),
};

/**
 * SRE's world in v19: v18's, where a severity or a dashboard alone is not SRE's (a circus's rigging incidents get a
 * severity, a beekeeper's dashboard), logs are a system's (the logs, a service's logs, what the logs show; not "a
 * vessel logs a catch"), a service is a system's (our payment service, a service that is down; not a transit service
 * alert or an annual service contract) and a freeze is a deploy's (a code freeze) or a screen's (freezes for minutes),
 * not a gym membership's.
 */
const SRE_WORLD_V19: readonly string[] = [
  ...SRE_WORLD_V18.filter((w) => w !== 'severity' && w !== 'dashboards?' && w !== 'logs' && w !== 'services?'),
  '(?:the|our|a|each|every|one|that|this|which|downstream|upstream|backend|web|micro|payment|payments|auth|api|checkout|search|billing|core|internal|critical|dependent|other|grpc|http) services?',
  'services? (?:is|are|was|were|went|goes|keeps|kept|down|latency|health|level|levels|mesh|discovery|accounts?|maps?|owners?|dependenc\\w*|calls?|restarts?|crash\\w*|times? out|timing out|errors?|logs|metrics|dashboards?|availability|uptime)',
  '(?:code|deploy\\w*|change|release|merge|production|prod) freezes?',
  '(?:freez\\w*|froze|frozen|hangs?|hung) for (?:\\w+ ){0,2}(?:seconds|minutes)',
  '(?:the|our|its|their|these|those|session|error|access|server|app|container|pod|service|request|system|debug|nginx|worker|job) logs',
  'logs (?:show|showed|shows|say|said|says|are|were|from|for|of|into|to|at|in)',
];

/**
 * DevOps's world in v19: v7's, where a job or a deploy is software's (a CI job, deploying the app to staging, deploying
 * automatically on merge, a canary deploy, a Kubernetes deployment's pods), not a trade's (deploying portable toilets
 * to a festival, a taxidermist's "deploy to client" status, an organ restorer's jobs), plus FTP uploads and pushes to
 * main (how a small shop deploys by hand).
 */
const DEVOPS_WORLD_V19: readonly string[] = [
  ...DEVOPS_WORLD.filter((w) => w !== 'jobs?' && w !== 'deploy\\w*'),
  '(?:ci|cd|build|deploy|release|nightly|cron|docker|github|gitlab|jenkins) jobs?',
  'jobs? (?:in|on) (?:ci|the pipeline|github|gitlab|jenkins)',
  'deploy\\w* (?:to|on|onto|from|in|into) (?:staging|production|prod|dev|k8s|kubernetes|aws|gcp|azure|heroku|fly|vercel|netlify|render|the cluster|the servers?|our servers?|ecs|lambda|cloud run|each (?:env|environment)|every (?:env|environment))',
  'deploy\\w* (?:the |our |a |an |each |every |new |it |them )?(?:\\w+ ){0,2}(?:app|apps|api|apis|service|services|site|sites|website|portal|server|servers|image|images|build|builds|release|releases|version|stack|chart|lambda|function|functions|frontend|backend|container|containers|worker|workers|code|changes)',
  'deploy\\w* (?:it |them )?(?:automatically|safely|on (?:merge|push|tag))',
  '(?:automatically|auto) deploy\\w*',
  '(?:app|api|service|site|server|code|blue green|canary|rolling|zero downtime|preview|staging|production|prod|manual|automatic|automated|continuous|helm|k8s|kubernetes) deploy\\w*',
  'deploy (?:keys?|scripts?|steps?|targets?|pipelines?|previews?|button|freeze)',
  'deployments? (?:to|of|on|in|pipeline|config\\w*|manifests?|yaml|script|process|fail\\w*|time|frequency|target|strategy)',
  'push\\w* to (?:main|master)',
  'ftp\\w*',
  'sftp',
  'pods?',
];

/**
 * Docs' world in v19: v14's, where a guide or a how-to is documentation's (a setup guide, a short written guide, a
 * guide on how to add a language, a how-to page), not a trade's (glacier guides, working out how to run a waiting list).
 */
const DOCS_WORLD_V19: readonly string[] = [
  ...DOCS_WORLD_V14.filter((w) => w !== 'guides?' && w !== 'how ?tos?'),
  '(?:user|users|style|setup|install\\w*|migration|upgrade|getting started|quick ?start|developer|developers|contributor|contributors|admin|deployment|reference|api|how ?to|step by step|troubleshooting|integration|usage|beginner s?|operator s?|field|writing) guides?',
  'guides? (?:to|for|on|about|that explains?|explaining|covering|describing) (?:the |our |a |an )?(?:\\w+ )?(?:api|apis|sdk|cli|library|setup|install\\w*|configur\\w*|using|setting|writing|upgrad\\w*|migrat\\w*|deploy\\w*|plugin|plugins|endpoint|endpoints|feature|features|module|package|tool|service|app|integration)',
  '(?:short|written|proper|quick|simple|brief|detailed|full|complete|printable|one page|illustrated) guides?',
  'guides? (?:on|for|about) how',
  'how ?to (?:guides?|pages?|articles?|docs?|sections?|recipes?)',
  '(?:a|an|the|our|new) how ?tos?',
  'how ?tos? (?:for|on|about)',
];

/**
 * Frontend's world (v19, the first with frontend's everyday words): the web's and apps' UI, its frameworks, parts
 * and tools. Fruit pickers, a horse's feed and a safari are not a date picker, a news feed or the Safari browser.
 */
const FRONTEND_WORLD_V19: readonly string[] = [
  'css',
  'scss',
  'sass',
  'tailwind',
  'html',
  'dom',
  'jsx',
  'tsx',
  'react',
  'vue',
  'svelte',
  'angular',
  'next ?js',
  'nuxt',
  'solid ?js',
  'ember',
  'jquery',
  'browsers?',
  'chrome',
  'firefox',
  'webkit',
  'ui',
  'ux',
  'frontend',
  'front end',
  'client side',
  'web ?app',
  'spa',
  'pages?',
  'screens?',
  'views?',
  'buttons?',
  'forms?',
  'modals?',
  'dialogs?',
  'dropdowns?',
  'inputs?',
  'fields?',
  'layout',
  'render\\w*',
  'rerender\\w*',
  'styles?',
  'styling',
  'themes?',
  'dark mode',
  'fonts?',
  'icons?',
  'tooltips?',
  'responsive',
  'mobile',
  'viewport',
  'scroll\\w*',
  'click\\w*',
  'tap\\w*',
  'hover\\w*',
  'date ?pickers?',
  'colou?r ?pickers?',
  'file ?pickers?',
  'time ?pickers?',
  'widgets?',
  'storybook',
  'vite',
  'webpack',
  'hooks?',
  'props?',
  'state',
  'components? (?:library|tree|tests?|props?|state)',
  'swiftui',
  'jetpack',
  'compose',
  'flutter',
  'android',
  'ios',
  'accessib\\w*',
  'a11y',
  'aria',
  'keyboard',
  'animation\\w*',
  'charts? (?:library|js|component)',
  'chart ?js',
  'd3',
  'recharts',
  'echarts',
  'highcharts',
  'svg',
  'canvas',
  'dashboard',
  'sidebar',
  'navbar',
  'header',
  'footer',
  'menu',
  'tabs?',
  'carousel',
  'infinite scroll',
];

/**
 * Security's world in v19: v14's, plus a key that is a credential (an SSH or signing key, a key for the payment
 * account, a key exchange, a leaked key), not a locksmith's restricted key or a renamed config field.
 */
const SECURITY_WORLD_V19: readonly string[] = [
  ...SECURITY_WORLD_V14,
  'ssh',
  'bastion',
  'key exchange',
  'ed25519',
  'rsa',
  'ecdsa',
  'gpg',
  'pgp',
  'kms',
  'leak\\w*',
  '(?:public|private|signing|encryption|ssh|gpg|pgp|host|license|licence|master|root|stripe|aws|gcp|azure|payment|openai|webhook|ssl|tls) keys?',
  'keys? (?:for|to) (?:our|the|their|a|an) (?:\\w+ ){0,2}(?:account|accounts|api|service|server|servers|database|bucket|provider)',
];

const TECHNICAL_WORLD_V19: Readonly<Record<string, RegExp>> = {
  ...TECHNICAL_WORLD_V18,
  sre: words(...SRE_WORLD_V19),
  devops: words(...DEVOPS_WORLD_V19),
  docs: words(...DOCS_WORLD_V19),
  frontend: words(...FRONTEND_WORLD_V19),
  security: words(...SECURITY_WORLD_V19),
};

/**
 * Routing v19's everyday words: v18's, plus SRE's log (a vessel logs a catch) and freeze (a membership freeze),
 * DevOps's deploy, deployment and job (deploying toilets to a festival, a restorer's jobs), docs' guide and how-to,
 * frontend's picker, feed and safari (fruit pickers, horse feed, a safari lodge: frontend's first everyday words) and
 * security's key (a locksmith's restricted key). Each counts only outside its domain's v19 world.
 */
export const EVERYDAY_WORDS_V19: Readonly<Record<string, ReadonlySet<string>>> = {
  ...EVERYDAY_WORDS_V18,
  sre: new Set([...EVERYDAY_WORDS_V18.sre, 'log', 'logs', 'logged', 'freeze']),
  devops: new Set([...EVERYDAY_WORDS_V18.devops, 'deploy', 'deployed', 'deploying', 'deployment', 'job']),
  docs: new Set([...EVERYDAY_WORDS_V18.docs, 'guide', 'how to']),
  frontend: new Set(['picker', 'feed', 'safari']),
  security: new Set([...EVERYDAY_WORDS_V18.security, 'key']),
};

/**
 * Routing v21's worlds: v19's, where a threshold alone is not SRE's (a thermostat app's `AlertThreshold` setting); an
 * alert threshold on a system still names the system, its metric or its pager.
 */
const TECHNICAL_WORLD_V21: Readonly<Record<string, RegExp>> = {
  ...TECHNICAL_WORLD_V19,
  sre: words(...SRE_WORLD_V19.filter((w) => w !== 'thresholds?')),
};

/** Data's words a trade uses for its own records in v21 (a barrel migration, a lot's lineage, a backfill crew). */
const DATA_TRADE_WORDS_V21: ReadonlySet<string> = new Set(['migration', 'lineage', 'backfill', 'dedupe', 'retention']);

/** Routing v21's everyday words: v19's, plus data's {@link DATA_TRADE_WORDS_V21}. */
export const EVERYDAY_WORDS_V21: Readonly<Record<string, ReadonlySet<string>>> = {
  ...EVERYDAY_WORDS_V19,
  data: new Set([...EVERYDAY_WORDS_V19.data, ...DATA_TRADE_WORDS_V21]),
};

/**
 * Data's world in v23: v11's, where a migration is data's or a schema's (a data migration, a warehouse migration), not a
 * trade's (the migration of hive records), and Hive is Apache's (Hive tables, the metastore), not a beekeeper's.
 */
const DATA_WORLD_V23: readonly string[] = [
  ...DATA_WORLD_V11.filter((w) => w !== 'migrations?' && w !== 'hive'),
  '(?:data|schema|warehouse|table|database|db|etl|pipeline|dbt|snowflake|bigquery|redshift) migrations?',
  'migrations? (?:of|from|to) (?:the |our )?(?:data|warehouse|tables?|schemas?|database|db|snowflake|bigquery|redshift|dbt|pipelines?)',
  '(?:one off|alembic|django|rails|flyway|liquibase|sql|knex|prisma|ecto|sequelize|typeorm) migrations?',
  'migrations? (?:that|which|to) (?:moves?|copies|copy|converts?|convert|backfills?|backfill)',
  'alembic',
  'flyway',
  'liquibase',
  'apache hive',
  'hive (?:tables?|metastore|quer\\w*|sql|partitions?|on)',
];

const TECHNICAL_WORLD_V23: Readonly<Record<string, RegExp>> = {
  ...TECHNICAL_WORLD_V21,
  data: words(...DATA_WORLD_V23),
};

/**
 * Routing v23's everyday words: v21's, plus data's record beside a trade's word of {@link DATA_TRADE_WORDS_V21} (the
 * migration of hive records keeps a queen's lineage). Its worlds are v21's.
 */
export const EVERYDAY_WORDS_V23: Readonly<Record<string, ReadonlySet<string>>> = {
  ...EVERYDAY_WORDS_V21,
  data: new Set([...EVERYDAY_WORDS_V21.data, 'record', 'records']),
};

/**
 * SRE's world in v24: v21's, where an escalation is an incident's or a pager's (an escalation policy, escalated to the
 * on-call engineer, an alert that escalated), not how a ticket reached a team ("Escalation from the front desk") or a
 * trade's chain of command ("escalation to the foreman").
 */
const SRE_WORLD_V24: readonly string[] = [
  ...SRE_WORLD_V19.filter((w) => w !== 'thresholds?' && w !== 'escalat\\w*'),
  'escalation (?:polic\\w*|paths?|chains?|rules?|levels?|tiers?|steps?|matrix|schedules?)',
  'escalat\\w* (?:to|from) (?:the |an? |our )?(?:on ?call|oncall|secondary|primary|pager\\w*|sre|incident|sev\\w*|p[0-3])',
  '(?:auto|automatic\\w*|pager ?duty|opsgenie|alert|incident) escalat\\w*',
  '(?:it|page|alert|incident)s? (?:was |were |is |gets? |got )?escalat\\w*',
];

/**
 * Backend's world in v24: v10's, where REST is an API's (a REST endpoint, RESTful), not a pilot's ten hours' rest, and
 * what goes wrong with a server's mail and messages names the server's work (sent twice or not at all, out of order,
 * retried from a background job, consumed from a stream, an email provider).
 */
const BACKEND_WORLD_V24: readonly string[] = [
  ...BACKEND_WORLD.filter((w) => w !== 'rest'),
  'rest (?:apis?|endpoints?|calls?|services?|clients?|interfaces?|resources?|routes?|controllers?|requests?|handlers?|layer)',
  'restful',
  // What goes wrong with a server's mail and messages: sent twice or never, out of order, retried, queued.
  'twice',
  'duplicat\\w*',
  'double\\w*',
  'retr(?:y|ies|ied|ying)',
  'retryable',
  'enqueu\\w*',
  'background',
  'jobs?',
  'consum\\w*',
  'offsets?',
  'rpc',
  'streams?',
  'deadlines?',
  '(?:wrong|out of) order',
  '(?:only|exactly|at least|at most) once',
  'not at all',
  'verif\\w*',
  '(?:two|2|three|several|multiple) (?:\\w+ ){0,3}(?:emails|messages)',
  'smtp',
  'sendgrid',
  'mailgun',
  'postmark',
  'ses',
  'bounc\\w*',
  'deliverab\\w*',
];

/** What a trade tests (a rind swab, a chimney's smoke draw, a learner's driving test): not software's tests (v24). */
const TRADE_TEST =
  '(?<!(?:swab|draw|driving|driver s|blood|soil|water|eye|hearing|drug|pregnancy|covid|emissions?|mot|pressure|dye|road|theory|spelling|tuning|taste|allergy|patch|rind|urine|dna|breath|fitness|vision|placement|entrance|practice|skin|gas|radon|asbestos|moisture|damp|hydrostatic|ph|stool|sight|hair|sweat|tb|iq|aptitude|personality|sobriety|paternity|chemistry|biology|physics|maths?|history|reading|french|spanish|german|english|piano|music|exam|mock|swim\\w*|belt|grading) )';

/**
 * Testing's world in v24: v14's, where tests and test results are software's, not a trade's ({@link TRADE_TEST}: a
 * cheese cave's rind swab test results, a learner driver's mock tests), and a contract is a contract test's (not a
 * piano tuner's annual service contract).
 */
const TESTING_WORLD_V24: readonly string[] = [
  ...TESTING_WORLD_V14.filter((w) => w !== 'tests' && w !== '(?<!mock )test results?' && w !== 'contract'),
  `${TRADE_TEST}tests`,
  `${TRADE_TEST}test results?`,
  'contract (?:tests?|testing)',
  'consumer driven',
  'pact',
];

const TECHNICAL_WORLD_V24: Readonly<Record<string, RegExp>> = {
  ...TECHNICAL_WORLD_V23,
  testing: words(...TESTING_WORLD_V24),
  sre: words(...SRE_WORLD_V24),
  backend: words(...BACKEND_WORLD_V24),
};

/**
 * Routing v24's everyday words: v23's, plus backend's rest, email and message (ten hours' rest between shifts, a
 * monthly stock email to dealers, a gift message box at a flower shop's checkout), each counting only outside backend's
 * v24 world. Its worlds: SRE's escalation an incident's, backend's REST an API's, testing's tests software's.
 */
export const EVERYDAY_WORDS_V24: Readonly<Record<string, ReadonlySet<string>>> = {
  ...EVERYDAY_WORDS_V23,
  backend: new Set([...EVERYDAY_WORDS_V23.backend, 'rest', 'email', 'emails', 'message', 'messages']),
};

/**
 * Frontend's world in v25: v19's, plus a toast that is a UI's (a toast notification, an error toast, toasts stacking
 * up), not a cooper's toast level.
 */
const FRONTEND_WORLD_V25: readonly string[] = [
  ...FRONTEND_WORLD_V19,
  'toasts? (?:notifications?|messages?|components?|popups?|pop ups?|containers?|library|provider|stack\\w*|position\\w*)',
  '(?:a|an|the|success|error|warning|info) toasts?',
  'toasts',
  'toastr',
  'sonner',
  'snackbars?',
];

/**
 * What a trade's paperwork is called (v25): a species permit's docs, a buyer's ID docs, a shipment's customs docs. Docs
 * so named are the trade's, not documentation.
 */
const PAPERWORK =
  '(?:permit|id|identity|kyc|visa|supporting|legal|insurance|medical|shipping|customs|tax|vehicle|proof|licen[cs]e|travel|loan|mortgage|signed|scanned|compliance|planning|adoption|consent|vet|vaccination|ownership|title|export|import) ';

/** Docs' world in v25: v19's, where docs named by a trade's paperwork ({@link PAPERWORK}) are not documentation. */
const DOCS_WORLD_V25: readonly string[] = [...DOCS_WORLD_V19.filter((w) => w !== 'docs?'), `(?<!${PAPERWORK})docs?`];

/** v25's trade tests: v24's, plus a seed bank's, a mill's, a lab's and a workshop's (germination, purity, tensile...). */
const TRADE_TEST_V25 = TRADE_TEST.replace(
  '|grading) )',
  '|grading|germination|viability|purity|tensile|hardness|flame|burn|fertility|milk|grape|brix|seed|smog|bloodwork|gait|temperament|spot|sniff|patch test|allergen|ripeness|moisture content|calibration certificate) )',
);

/** Testing's world in v25: v24's, with more of a trade's tests ({@link TRADE_TEST_V25}). */
const TESTING_WORLD_V25: readonly string[] = [
  ...TESTING_WORLD_V24.filter((w) => w !== `${TRADE_TEST}tests` && w !== `${TRADE_TEST}test results?`),
  `${TRADE_TEST_V25}tests`,
  `${TRADE_TEST_V25}test results?`,
];

/** Routing v25's worlds: v24's, with frontend's toasts a UI's, docs named by a trade's paperwork not documentation. */
const TECHNICAL_WORLD_V25: Readonly<Record<string, RegExp>> = {
  ...TECHNICAL_WORLD_V24,
  testing: words(...TESTING_WORLD_V25),
  frontend: words(...FRONTEND_WORLD_V25),
  docs: words(...DOCS_WORLD_V25),
};

/**
 * Routing v25's everyday words: v24's, plus frontend's toast (a barrel's toast level) and docs' doc and docs (a species
 * permit's docs), each counting only outside its domain's v25 world.
 */
export const EVERYDAY_WORDS_V25: Readonly<Record<string, ReadonlySet<string>>> = {
  ...EVERYDAY_WORDS_V24,
  frontend: new Set([...EVERYDAY_WORDS_V24.frontend, 'toast']),
  docs: new Set([...EVERYDAY_WORDS_V24.docs, 'doc', 'docs']),
};

/**
 * Frontend's world in v26: v25's, where a toast is a UI's only when it names one (an error toast, a toast
 * notification, showing a toast), not "a toast sign-up page" for a club's dinner.
 */
const FRONTEND_WORLD_V26: readonly string[] = [
  ...FRONTEND_WORLD_V25.filter((w) => w !== '(?:a|an|the|success|error|warning|info) toasts?' && w !== 'toasts'),
  '(?:success|error|warning|info|confirmation|undo) toasts?',
  '(?:show\\w*|display\\w*|pop\\w*|fire\\w*|trigger\\w*|dismiss\\w*|render\\w*) (?:a |an |the )?toasts?',
  'toasts (?:stack\\w*|overlap\\w*|appear\\w*|disappear\\w*|pile\\w*|cover\\w*)',
  'toasts? (?:never|doesn t|does not|won t|stays?|goes away|disappears?|closes?|auto\\w*|dismiss\\w*|timeouts?)',
  'auto ?dismiss\\w*',
];

/**
 * DevOps's world in v26: v19's, where a build is software's (the build, a CI build, a Docker build, a build that
 * fails, build and deploy), not a verb ("build the deploy checklist for each fireworks show").
 */
const DEVOPS_WORLD_V26: readonly string[] = [
  ...DEVOPS_WORLD_V19.filter((w) => w !== 'builds?'),
  '(?:the|our|a|ci|nightly|release|docker|container|image|gradle|maven|webpack|vite|production|prod|debug|broken|failing|green|red|reproducible|incremental|clean|cached|local|android|ios|xcode|msbuild|cmake|bazel|cargo|wasm|native|arm|arm64|x86) builds?',
  'builds? (?:is|are|was|were|fails?|failed|failing|breaks?|broke|broken|times?|timed|cache\\w*|steps?|pipelines?|scripts?|system|tool\\w*|config\\w*|matrix|agents?|servers?|artifacts?|logs?|output|number|ids?|flags?|args?|image|stage|job|jobs|status|badge|on|for|with)',
  'build(?:s|ing)? (?:and|&) (?:test|push|deploy|publish|release)\\w*',
  'builds',
  '(?:conan|nix|cargo|go|npm|yarn|pnpm|dotnet|swift|zig|stack|cabal|mix|sbt|make|bazel|buck|gradle|maven|docker) build',
  '(?:packages?|modules?|targets?|projects?|crates?) (?:that )?build(?! (?:the|a|an|our) )',
];

/**
 * Security's world in v26: v19's, where a vault is a secrets manager (HashiCorp Vault, secrets in Vault, a Vault
 * policy), not a bank's vault door or an escape room's vault puzzle, and a renewal is a certificate's, a key's or a
 * token's, not a service contract's.
 */
const SECURITY_WORLD_V26: readonly string[] = [
  ...SECURITY_WORLD_V19.filter((w) => w !== 'renew\\w*'),
  '(?:cert|certs|certificates?|tls|ssl|acme|let s encrypt|letsencrypt|key|keys|token|tokens|secret|secrets|credential|credentials|lease|leases) (?:\\w+ )?renew\\w*',
  'renew\\w* (?:the |our |a |an |its |their |expir\\w* )?(?:cert|certs|certificates?|tls|ssl|keys?|tokens?|secrets?|credentials?|leases?)',
  'auto ?renew\\w*',
  'hashicorp',
  'vault (?:secrets?|tokens?|polic\\w*|agent|inject\\w*|paths?|kv|transit|unseal\\w*|approle|server|cluster|namespaces?|role|roles|auth|lease\\w*|dynamic)',
  '(?:in|from|into|to|via|with|using) (?:the |our |a )?(?:legacy |old |new |central |shared )?vault',
  'vault (?:logs|logging|leaks?|exposes?|prints?|stores?|keeps?)',
  'aes',
  'aes \\d+',
  'ecb',
  'gcm',
  'nonces?',
  'encrypt\\w*',
  'decrypt\\w*',
  'ciphers?',
];

const TECHNICAL_WORLD_V26: Readonly<Record<string, RegExp>> = {
  ...TECHNICAL_WORLD_V25,
  frontend: words(...FRONTEND_WORLD_V26),
  devops: words(...DEVOPS_WORLD_V26),
  security: words(...SECURITY_WORLD_V26),
};

/**
 * Routing v26's everyday words: v25's, plus DevOps's build (build the checklist) and security's vault (a vault door's
 * annual service certificate), each counting only outside its domain's v26 world.
 */
export const EVERYDAY_WORDS_V26: Readonly<Record<string, ReadonlySet<string>>> = {
  ...EVERYDAY_WORDS_V25,
  devops: new Set([...EVERYDAY_WORDS_V25.devops, 'build']),
  security: new Set([...EVERYDAY_WORDS_V25.security, 'vault']),
};

/**
 * Backend's world in v27: v24's, where a handler is a server's (an HTTP or request handler, a route's, a webhook's, an
 * error handler), not any callback ("a map of handlers" for a CLI's commands, completion handlers in a network client),
 * and a client is a server's client (pushed to over a channel or a socket, polling).
 */
const BACKEND_WORLD_V27: readonly string[] = [
  ...BACKEND_WORLD_V24.filter((w) => w !== 'handlers?'),
  'channels?',
  '(?:long )?polling',
  'web ?sockets?',
  'server sent events',
  'sse',
  '(?:http|https|request|requests|route|routes|api|rest|grpc|rpc|webhook|webhooks|lambda|endpoint|endpoints|error|errors|exception|exceptions|middleware|axum|express|fastify|koa|hono|actix|gin|echo|fiber|flask|django|rails|spring|sinatra|plug|phoenix|controller|upload|uploads|message|messages|event|events|queue|job|jobs|websocket|socket|server|servers) handlers?',
  'handlers? (?:for|of|on) (?:the |a |an |each |every )?(?:\\w+ )?(?:routes?|endpoints?|requests?|webhooks?|apis?|events?|messages?|queues?|jobs?|uploads?)',
  'handlers? (?:returns?|returned|responds?|panics?|throws?|leaks?|blocks?|hangs?|times? out)',
];

/**
 * Docs' world in v27: v25's, where a changelog is a project's (a changelog entry, the CHANGELOG, a changelog for a
 * release or a version), not a trade's record of what changed ("a changelog of each couple's guest list"), and wording
 * is a text's in documentation, not an order's.
 */
const DOCS_WORLD_V27: readonly string[] = [
  ...DOCS_WORLD_V25.filter((w) => w !== 'changelogs?' && w !== 'wording'),
  'change ?logs? (?:entr\\w*|files?|md|sections?|lines?|items?|notes?|generat\\w*|tool\\w*|bot|format\\w*|for (?:the |our |this |a |an |each |every )?(?:\\w+ )?(?:releases?|versions?|v ?\\d\\w*|\\d[\\w ]*|packages?|librar\\w*|crates?|gems?|modules?|plugins?|sdks?|apps?|projects?|repos?|prs?|pull requests?|tags?))',
  '(?:project s|package s|library s|repo s|keep a|conventional|release|github|auto\\w*|missing|empty|outdated|stale|broken) change ?logs?',
  '(?:add|update|write|fix|edit|generate|regenerate|publish)\\w* (?:the |a |an |our )?(?:\\w+ )?change ?logs?',
  'change ?logs?\\b.*\\b(?:releases?|versions?|v ?\\d\\w*|\\d+ \\d+|entr(?:y|ies)|tags?)',
  '(?:releases?|versions?|v ?\\d\\w*|\\d+ \\d+)\\b.*\\bchange ?logs?',
  'change ?logs? (?:is|are|was|were|says?|mentions?|lists?|misses|omits?|has|have|doesn t|does not)',
];

/**
 * Security's world in v27: v26's, plus a break-in and how it happens (someone got into an account, a member portal
 * hacked, passwords reused, credential stuffing), and passkeys and hardware keys: a studio's logins in a break-in are
 * security's.
 */
const SECURITY_WORLD_V27: readonly string[] = [
  ...SECURITY_WORLD_V26,
  '(?:got|get|gets|getting|broke|break|breaks|breaking|logged|logging) (?:in to|into) (?:\\w+ ){0,3}(?:accounts?|portals?|admin\\w*|dashboards?|site|website|app|inbox\\w*|emails?|systems?|backend|panels?|profiles?)',
  'hack\\w*',
  'compromis\\w*',
  'breach\\w*',
  'account takeovers?',
  'takeovers?',
  'credential stuffing',
  '(?:reuse|reuses|reused|reusing) (?:\\w+ ){0,2}passwords?',
  'passwords? (?:reuse\\w*|leak\\w*|dump\\w*|spray\\w*|brute\\w*)',
  'brute ?forc\\w*',
  'pass ?keys?',
  'web ?authn',
  'hardware (?:security )?keys?',
  'phish\\w*',
  'stolen',
  'unauthori[sz]ed',
  'impersonat\\w*',
];

/**
 * SRE's world in v27: v24's, plus a system that is slow (an app slow every morning, a site that slows to a crawl), not
 * a game's power-up that slows falling words.
 */
const SRE_WORLD_V27: readonly string[] = [
  ...SRE_WORLD_V24,
  '(?:app|apps|site|sites|website|websites|system|systems|server|servers|service|services|api|apis|page|pages|database|db|portal|dashboard|checkout|backend|cluster|queue|network|wifi|platform|tool|software) (?:\\w+ ){0,3}(?:slow\\w*|sluggish)',
  'slow\\w* (?:to a crawl|right down|every|at peak|during|whenever|under load|for (?:everyone|all|users|customers))',
  '(?:stops?|stopped|stopping) responding',
  'errors? out',
];

const TECHNICAL_WORLD_V27: Readonly<Record<string, RegExp>> = {
  ...TECHNICAL_WORLD_V26,
  sre: words(...SRE_WORLD_V27),
  backend: words(...BACKEND_WORLD_V27),
  docs: words(...DOCS_WORLD_V27),
  security: words(...SECURITY_WORLD_V27),
};

/**
 * Routing v27's everyday words: v26's, plus SRE's slow (a game's power-up that slows falling words), backend's handler
 * and client (a map of a CLI's command handlers, completion handlers in a network client), docs' changelog, wording and
 * translate (a calligrapher's changelog of a couple's guest list and wording, volunteers who help translate an app),
 * each counting only outside its domain's v27 world.
 */
export const EVERYDAY_WORDS_V27: Readonly<Record<string, ReadonlySet<string>>> = {
  ...EVERYDAY_WORDS_V26,
  sre: new Set([...EVERYDAY_WORDS_V26.sre, 'slow']),
  backend: new Set([...EVERYDAY_WORDS_V26.backend, 'handler', 'handlers', 'client']),
  docs: new Set([...EVERYDAY_WORDS_V26.docs, 'changelog', 'changelogs', 'wording', 'translate']),
};

/**
 * SRE's world in v28: v27's, where an app's logs are its log files, not the app logging each batch of a farm ("the app
 * logs each batch"), a peak is traffic's or load's (peak traffic, at peak), not a kiln's peak temperature, and a load is
 * a system's (under load, the Black Friday load, pages slow to load), not a kiln's load weight.
 */
const LOGS_VERB_V28 = '(?! (?:each|every|all|any|when|how|who|what|which|whether)\\b)';
const SRE_LOGS_V28 = [
  '(?:error|access|server|app|application|system|structured|json) logs?',
  '(?:the|our|its|their|these|those|session|error|access|server|app|container|pod|service|request|system|debug|nginx|worker|job) logs',
];
const SRE_WORLD_V28: readonly string[] = [
  ...SRE_WORLD_V27.filter((w) => !SRE_LOGS_V28.includes(w) && w !== 'peaks?'),
  ...SRE_LOGS_V28.map((w) => `${w}${LOGS_VERB_V28}`),
  'peak (?:traffic|load|hours?|times?|usage|qps|rps|requests?|concurrency|periods?|memory|cpu|season|days?)',
  '(?:at|during|over|before|after) (?:the )?peaks?',
  'peaks? (?:in|of) (?:traffic|load|latency|errors?|cpu|memory|requests?)',
  'load (?:tests?|testing|rehears\\w*|spikes?|shedding|averages?|balanc\\w*|times?|drills?)',
  '(?:high|heavy|peak|under|server|cpu|system|traffic|extra|black friday) load',
  'black friday',
  '(?:takes?|took|taking) (?:\\w+ ){0,4}to load',
  '(?:slow|slowly|fails?|failing|won t|doesn t|never|forever) (?:to )?load',
];

/**
 * Testing's world in v28: v25's, where a harness is a test harness, not a rope-access crew's harness, and a safety
 * test is a trade's ({@link TRADE_TEST_V28}).
 */
const TRADE_TEST_V28 = TRADE_TEST_V25.replace('(?:swab|', '(?:safety|swab|');
const TESTING_WORLD_V28: readonly string[] = [
  ...TESTING_WORLD_V25.filter((w) => w !== 'harness').map((w) => w.split(TRADE_TEST_V25).join(TRADE_TEST_V28)),
  '(?:test|testing|fuzz\\w*|benchmark\\w*) harness\\w*',
  'harness\\w* (?:for|that|which) (?:the |our )?(?:tests?|suite|fuzz\\w*|integration)',
];

/**
 * Docs' world in v28: v27's, with writing a changelog ("tips for writing a changelog") and keep-a-changelog's format
 * written as one word.
 */
const DOCS_WORLD_V28: readonly string[] = [
  ...DOCS_WORLD_V27,
  'writ\\w* (?:the |a |an |our |good |better )?change ?logs?',
  'keepachangelog',
];

/**
 * Security's world in v28: v27's, where "anyone" is anyone who can reach what they should not (anyone can read,
 * download or sign in), not anyone who can look up a dive certificate; plus a key vault, a secret in the git history,
 * a password in clear text, a token pushed to a public repo, people locked out or still able to sign in.
 */
const SECURITY_WORLD_V28: readonly string[] = [
  ...SECURITY_WORLD_V27.filter((w) => w !== 'anyone'),
  'anyone (?:can|could|with|who) (?:\\w+ ){0,3}(?:access\\w*|read\\w*|see\\w*|view\\w*|download\\w*|sign\\w*|log\\w*|get\\w*|open\\w*|edit\\w*|delet\\w*|call\\w*|use\\w*|chang\\w*|reset\\w*|impersonat\\w*|steal\\w*|guess\\w*|unzip\\w*|extract\\w*|decompil\\w*|has|have|find\\w*|post\\w*|upload\\w*|send\\w*|submit\\w*|forg\\w*|hit\\w*|take\\w*|grab\\w*)',
  'key ?vault',
  '(?:purg\\w*|scrub\\w*|remov\\w*|rewrit\\w*|clean\\w*) (?:it |them )?(?:\\w+ ){0,3}git history',
  '(?:clear|plain) ?text',
  'public (?:repo\\w*|git\\w*)',
  'repo\\w* is public',
  'pushed (?:it|them|the \\w+|our \\w+)',
  'lock\\w* (?:me|them|us|you|people|users|members|staff) out',
  'lose access',
  'still (?:sign|log|get) in',
  'leavers?',
  'former (?:staff|employees?|members?)',
];

const TECHNICAL_WORLD_V28: Readonly<Record<string, RegExp>> = {
  ...TECHNICAL_WORLD_V27,
  sre: words(...SRE_WORLD_V28),
  testing: words(...TESTING_WORLD_V28),
  docs: words(...DOCS_WORLD_V28),
  security: words(...SECURITY_WORLD_V28),
};

/**
 * Routing v28's everyday words: v27's, plus SRE's load, peak and hours (a kiln's load weight and peak temperature, the
 * hours between harvest and delivery), testing's
 * harness (a rope-access crew's harness) and docs' "changelog for" (a reed changelog for each student's chanter), each
 * counting only outside its domain's v28 world.
 */
export const EVERYDAY_WORDS_V28: Readonly<Record<string, ReadonlySet<string>>> = {
  ...EVERYDAY_WORDS_V27,
  sre: new Set([...EVERYDAY_WORDS_V27.sre, 'load', 'peak', 'hours']),
  testing: new Set([...EVERYDAY_WORDS_V27.testing, 'harness']),
  docs: new Set([...EVERYDAY_WORDS_V27.docs, 'changelog for']),
};

export type SenseVersion = 7 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 18 | 19 | 21 | 23 | 24 | 25 | 26 | 27 | 28;

/** Each version's everyday words and technical worlds. */
const SENSE_WORDS: Readonly<Record<SenseVersion, Readonly<Record<string, ReadonlySet<string>>>>> = {
  7: EVERYDAY_WORDS,
  9: EVERYDAY_WORDS_V9,
  10: EVERYDAY_WORDS_V10,
  11: EVERYDAY_WORDS_V11,
  12: EVERYDAY_WORDS_V12,
  13: EVERYDAY_WORDS_V13,
  14: EVERYDAY_WORDS_V14,
  15: EVERYDAY_WORDS_V15,
  16: EVERYDAY_WORDS_V16,
  18: EVERYDAY_WORDS_V18,
  19: EVERYDAY_WORDS_V19,
  21: EVERYDAY_WORDS_V21,
  23: EVERYDAY_WORDS_V23,
  24: EVERYDAY_WORDS_V24,
  25: EVERYDAY_WORDS_V25,
  26: EVERYDAY_WORDS_V26,
  27: EVERYDAY_WORDS_V27,
  28: EVERYDAY_WORDS_V28,
};
const SENSE_WORLDS: Readonly<Record<SenseVersion, Readonly<Record<string, RegExp>>>> = {
  7: TECHNICAL_WORLD,
  9: TECHNICAL_WORLD_V9,
  10: TECHNICAL_WORLD_V10,
  11: TECHNICAL_WORLD_V11,
  12: TECHNICAL_WORLD_V12,
  13: TECHNICAL_WORLD_V12,
  14: TECHNICAL_WORLD_V14,
  15: TECHNICAL_WORLD_V14,
  16: TECHNICAL_WORLD_V14,
  18: TECHNICAL_WORLD_V18,
  19: TECHNICAL_WORLD_V19,
  21: TECHNICAL_WORLD_V21,
  23: TECHNICAL_WORLD_V23,
  24: TECHNICAL_WORLD_V24,
  25: TECHNICAL_WORLD_V25,
  26: TECHNICAL_WORLD_V26,
  27: TECHNICAL_WORLD_V27,
  28: TECHNICAL_WORLD_V28,
};

/** The everyday words of a version's sense rule, by domain. */
export const everydayWordsOf = (v: SenseVersion): Readonly<Record<string, ReadonlySet<string>>> => SENSE_WORDS[v];

/**
 * Whether `domain`'s evidence in a text is only its everyday words used outside its technical world (v7; v9 and v10
 * with their words and worlds): some keyword matched it, every keyword it matched is an everyday word ({@link
 * EVERYDAY_WORDS}, {@link EVERYDAY_WORDS_V9}, {@link EVERYDAY_WORDS_V10}), and the normalized text names nothing of
 * the domain's technical world. Data's words count as everyday only beside a product's own sense of them (v9, v10).
 * False for the domains the rule does not cover.
 */
export function everydayOnly(
  domain: string,
  matched: readonly string[] | undefined,
  norm: string,
  version: SenseVersion | boolean = 7,
): boolean {
  const v = version === true ? 9 : version === false ? 7 : version;
  const everyday = SENSE_WORDS[v][domain];
  const world = SENSE_WORLDS[v][domain];
  if (!everyday || !world || !matched?.length) return false;
  if (!matched.every((k) => everyday.has(singular(k)) || everyday.has(k))) return false;
  // v23: a record is everyday only beside a trade's word.
  if (
    v >= 23 &&
    domain === 'data' &&
    matched.some((k) => k === 'record' || k === 'records') &&
    !matched.some((k) => DATA_TRADE_WORDS_V21.has(k))
  )
    return false;
  const trade = v >= 21 && domain === 'data' && matched.some((k) => DATA_TRADE_WORDS_V21.has(k));
  if (domain === 'data' && v >= 9 && !trade && !(v >= 10 ? DATA_PRODUCT_SENSE_V10 : DATA_PRODUCT_SENSE).test(norm))
    return false;
  if (domain === 'data' && v >= 10 && matched.some((k) => CALENDAR_WORDS.has(k)) && !GOODS.test(norm)) return false;
  return !world.test(norm);
}
