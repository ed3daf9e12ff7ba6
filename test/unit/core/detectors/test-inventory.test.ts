import { diffTestInventory, testKey, type TestId } from '../../../../src/core/detectors/test-inventory';

const t = (file: string, name: string): TestId => ({ file, name });
const LOGIN = 'test/unit/auth/login.test.ts';
const email = t(LOGIN, 'should validate email format');
const weak = t(LOGIN, 'should reject weak passwords');
const kept = t(LOGIN, 'should log in');
const other = t('test/unit/auth/logout.test.ts', 'Auth › logout › clears the session');

describe('diffTestInventory', () => {
  it.each<[string, TestId[], TestId[], TestId[]]>([
    ['two tests removed from a file (the seed example)', [email, weak, kept], [kept], [email, weak]],
    ['a whole test file deleted', [email, other], [email], [other]],
    ['one of two same-named tests (it.each) removed', [kept, kept, email], [kept, email], [kept]],
    ['a file losing two tests while gaining one', [email, weak, kept], [kept, t(LOGIN, 'new one')], [email, weak]],
    ['a file losing a test while another file gains one', [email, other], [other, t(other.file, 'extra')], [email]],
  ])('blocks %s', (_what, before, after, deleted) => {
    const r = diffTestInventory(before, after);
    expect(r.deleted).toEqual(deleted);
    expect(r.detection).toMatchObject({ type: 'test_deletion', severity: 'critical', verdict: 'BLOCK' });
    for (const d of deleted) expect(r.detection.details).toContain(testKey(d));
    expect(r.detection.evidence).toEqual(deleted.map(testKey));
  });

  it('names each deleted test as `file: name`, as the escalation prompt shows them', () => {
    const r = diffTestInventory([email, weak, kept], [kept]);
    expect(r.detection.details).toContain(
      'test/unit/auth/login.test.ts: should validate email format; test/unit/auth/login.test.ts: should reject weak passwords',
    );
  });

  it.each<[string, TestId[], TestId[], Partial<Record<'moved' | 'renamed' | 'added', number>>]>([
    ['identical inventories (a refactor that does not touch tests)', [email, weak], [email, weak], {}],
    [
      'a test moved to another file with the same full name',
      [email, weak],
      [weak, t('test/unit/auth/email.test.ts', email.name)],
      { moved: 1 },
    ],
    ['only new tests', [email], [email, weak, other], { added: 2 }],
    ['tests reordered', [email, weak, other], [other, weak, email], {}],
  ])('passes %s', (_what, before, after, counts) => {
    const r = diffTestInventory(before, after);
    expect(r.deleted).toEqual([]);
    expect(r.detection).toMatchObject({ type: 'test_inventory', severity: 'info', verdict: 'PASS', evidence: [] });
    expect(r.moved).toHaveLength(counts.moved ?? 0);
    expect(r.renamed).toHaveLength(counts.renamed ?? 0);
    expect(r.added).toHaveLength(counts.added ?? 0);
  });

  it.each([
    ['in the same file', t(LOGIN, 'rejects malformed emails')],
    ['and moved to another file', t('test/unit/auth/email.test.ts', 'rejects malformed emails')],
  ])('treats a test renamed %s with the same body (whitespace aside) as a rename', (_what, renamedTo) => {
    const body = "() => {\n  expect(validate('nope')).toBe(false);\n}";
    const r = diffTestInventory([email, kept], [renamedTo, kept], {
      before: { [testKey(email)]: body, [testKey(kept)]: 'x' },
      after: { [testKey(renamedTo)]: body.replace(/\n\s*/g, ' '), [testKey(kept)]: 'x' },
    });
    expect(r.renamed).toEqual([{ from: email, to: renamedTo }]);
    expect(r.deleted).toEqual([]);
    expect(r.detection.verdict).toBe('PASS');
  });

  it('prefers a same-file rename when two new tests have the body', () => {
    const elsewhere = t(other.file, 'dup');
    const here = t(LOGIN, 'dup');
    const r = diffTestInventory([email], [elsewhere, here], {
      before: { [testKey(email)]: 'b' },
      after: { [testKey(elsewhere)]: 'b', [testKey(here)]: 'b' },
    });
    expect(r.renamed).toEqual([{ from: email, to: here }]);
    expect(r.added).toEqual([elsewhere]);
  });

  it.each<[string, Record<string, string> | undefined]>([
    ['with a different body', { [testKey(t(LOGIN, 'checks the MX record'))]: 'new body' }],
    ['without bodies to compare', undefined],
  ])('warns, not blocks, when an obsolete test is replaced by a new one in the same file %s', (_what, after) => {
    const replacement = t(LOGIN, 'checks the MX record');
    const r = diffTestInventory(
      [email, kept],
      [kept, replacement],
      after && { before: { [testKey(email)]: 'old body' }, after },
    );
    expect(r.deleted).toEqual([email]);
    expect(r.added).toEqual([replacement]);
    expect(r.detection).toMatchObject({ type: 'test_replaced', severity: 'warning', verdict: 'WARN' });
    expect(r.detection.evidence).toEqual([`deleted ${testKey(email)}`, `added ${testKey(replacement)}`]);
  });

  it('does not take an empty body as proof of a rename', () => {
    const r = diffTestInventory([email], [other], {
      before: { [testKey(email)]: ' ' },
      after: { [testKey(other)]: '' },
    });
    expect(r.renamed).toEqual([]);
    expect(r.detection.verdict).toBe('BLOCK');
  });
});
