import { parseNpmAuditJson } from '../../../../../src/activities/gates/parsers/npm-audit';
import { fixturesOf, itFailsClosedOnGarbage, noise } from '../../../../helpers/parser-fixtures';

const fixture = fixturesOf('npm-audit');

const zero = { info: 0, low: 0, moderate: 0, high: 0, critical: 0 };

describe('parseNpmAuditJson', () => {
  it.each([
    ['vulnerable.json', 'critical', { ...zero, high: 1, critical: 2 }, 3],
    ['clean.json', 'none', zero, 0],
    // npm 6: counts are vulnerable paths (minimist twice), items are advisories.
    ['v6-vulnerable.json', 'high', { ...zero, low: 3, high: 1 }, 3],
  ])('reads %s: max severity %s', (file, maxSeverity, counts, items) => {
    const r = parseNpmAuditJson(fixture(file));
    expect(r.parsed).toBe(true);
    expect(r.audit).toEqual({ maxSeverity, counts });
    expect(r.items).toHaveLength(items);
  });

  it('makes an item of each vulnerable package, most severe first, with its advisories and what it is vulnerable via', () => {
    expect(parseNpmAuditJson(fixture('vulnerable.json')).items).toEqual([
      {
        code: 'GHSA-xvch-5gv4-984h GHSA-vh95-rmgr-6w4m',
        severity: 'error',
        message: 'minimist <=0.2.3 || 1.0.0 - 1.2.5 (critical): Prototype Pollution in minimist',
      },
      { severity: 'error', message: 'mkdirp 0.4.1 - 0.5.1 (critical): via minimist' },
      {
        code: 'GHSA-p6mc-m468-83gw GHSA-35jh-r3h4-6jhm GHSA-29mw-wpgm-hmr9',
        severity: 'error',
        message:
          'lodash <=4.17.20 (high): Prototype Pollution in lodash; Command Injection in lodash; Regular Expression Denial of Service (ReDoS) in lodash',
      },
    ]);
  });

  it('makes an item of each npm 6 advisory', () => {
    expect(parseNpmAuditJson(fixture('v6-vulnerable.json')).items).toEqual([
      { code: 'GHSA-35jh-r3h4-6jhm', severity: 'error', message: 'lodash <4.17.21 (high): Command Injection' },
      { code: 'GHSA-p6mc-m468-83gw', severity: 'warning', message: 'lodash <4.17.19 (low): Prototype Pollution' },
      {
        code: 'GHSA-vh95-rmgr-6w4m',
        severity: 'warning',
        message: 'minimist <0.2.1 || >=1.0.0 <1.2.3 (low): Prototype Pollution',
      },
    ]);
  });

  it('never reports less than the vulnerabilities map shows', () => {
    const doc = JSON.parse(fixture('vulnerable.json'));
    doc.metadata.vulnerabilities = { ...zero, total: 0 };
    expect(parseNpmAuditJson(JSON.stringify(doc)).audit).toEqual({
      maxSeverity: 'critical',
      counts: { ...zero, high: 1, critical: 2 },
    });
    delete doc.metadata;
    expect(parseNpmAuditJson(JSON.stringify(doc)).audit?.maxSeverity).toBe('critical');
  });

  it.each([
    ['no-lockfile.json', /npm audit failed: ENOLOCK: This command requires an existing lockfile/],
    ['endpoint-refused.json', /npm audit failed: 405 Method Not Allowed/],
    ['vulnerable-truncated.json', /not complete JSON/],
    ['empty.txt', /empty/],
  ])('fails closed on %s', (file, reason) => {
    const r = parseNpmAuditJson(fixture(file));
    expect(r.parsed).toBe(false);
    expect(r.parseError).toMatch(reason);
  });

  it.each([
    [
      'an unknown severity',
      '{"auditReportVersion":2,"vulnerabilities":{"a":{"severity":"severe"}}}',
      /vulnerability a has no known severity/,
    ],
    [
      'a count that is not a number',
      '{"auditReportVersion":2,"vulnerabilities":{},"metadata":{"vulnerabilities":{"high":"1"}}}',
      /metadata.vulnerabilities.high/,
    ],
    ['a future report version', '{"auditReportVersion":3,"vulnerabilities":{}}', /unsupported auditReportVersion 3/],
    ['an unknown shape', '{"ok":true}', /neither/],
  ])('fails closed on %s', (_name, text, reason) => {
    const r = parseNpmAuditJson(text);
    expect(r.parsed).toBe(false);
    expect(r.parseError).toMatch(reason);
  });

  itFailsClosedOnGarbage(parseNpmAuditJson, [
    '',
    '{',
    'null',
    '[]',
    '<a',
    '"x"',
    '{"vulnerabilities":[]}',
    '{"advisories":null}',
    noise(4096),
  ]);
});
