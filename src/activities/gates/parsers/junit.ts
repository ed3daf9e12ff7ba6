import { unparsed, type GateItem, type ParsedGateOutput } from '../../../core/gates';

/** One element of an XML document read by {@link parseXml}. */
export interface XmlElement {
  name: string;
  /** Attribute values with entities decoded. */
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Text and CDATA directly inside the element, entities decoded, in document order. */
  text: string;
}

/** What {@link parseXml} returns: the root element, or why the text is not a complete XML document. */
export type XmlResult = { ok: true; root: XmlElement } | { ok: false; error: string };

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the five named XML entities and numeric character references; unknown entities are kept as written. */
export function decodeXmlEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED_ENTITIES[ref] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const NAME = /^[A-Za-z_:][-\w.:]*/;
const ATTR = /\s*([A-Za-z_:][-\w.:]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

/**
 * Reads an XML document into an element tree: a small tolerant reader for machine-written reports (junit, cobertura),
 * not a validating parser. Handles the prolog, DOCTYPE, comments, processing instructions, CDATA, self-closing tags
 * and entities in attributes and text. Returns an error, never throws, when the text is not one complete document:
 * no root element, a tag cut off, an element never closed (truncated output) or closed by the wrong end tag.
 */
export function parseXml(text: string): XmlResult {
  const fail = (error: string): XmlResult => ({ ok: false, error });
  if (typeof text !== 'string') return fail('not text');
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let i = 0;
  const n = text.length;
  /** Adds text to the open element; text outside the root is only tolerated when blank (BOM, line ends). */
  const addText = (s: string): string | undefined => {
    const top = stack[stack.length - 1];
    if (top) top.text += s;
    else if (s.replace(/^\uFEFF/, '').trim()) return s.trim().slice(0, 40);
    return undefined;
  };
  while (i < n) {
    const lt = text.indexOf('<', i);
    const stray = addText(decodeXmlEntities(text.slice(i, lt < 0 ? n : lt)));
    if (stray !== undefined) return fail(`text outside the root element: "${stray}"`);
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end < 0) return fail('truncated: comment not closed');
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      if (end < 0) return fail('truncated: CDATA section not closed');
      if (!stack.length) return fail('CDATA outside the root element');
      addText(text.slice(lt + 9, end));
      i = end + 3;
    } else if (text.startsWith('<?', lt)) {
      const end = text.indexOf('?>', lt + 2);
      if (end < 0) return fail('truncated: processing instruction not closed');
      i = end + 2;
    } else if (text.startsWith('<!', lt)) {
      // DOCTYPE (with an optional internal subset in brackets).
      let j = lt + 2;
      let depth = 0;
      for (; j < n; j++) {
        const c = text[j];
        if (c === '[') depth++;
        else if (c === ']') depth--;
        else if (c === '>' && depth <= 0) break;
      }
      if (j >= n) return fail('truncated: declaration not closed');
      i = j + 1;
    } else if (text[lt + 1] === '/') {
      const m = NAME.exec(text.slice(lt + 2, lt + 2 + 256));
      const end = text.indexOf('>', lt + 2);
      if (!m || end < 0) return fail(`truncated: end tag cut off at offset ${lt}`);
      const top = stack.pop();
      if (!top) return fail(`end tag </${m[0]}> without a start tag`);
      if (top.name !== m[0]) return fail(`<${top.name}> closed by </${m[0]}>`);
      i = end + 1;
    } else {
      const m = NAME.exec(text.slice(lt + 1, lt + 1 + 256));
      if (!m) {
        if (lt + 1 >= n) return fail(`truncated: tag cut off at offset ${lt}`);
        return fail(`malformed tag at offset ${lt}`);
      }
      if (root && !stack.length) return fail(`second root element <${m[0]}>`);
      const el: XmlElement = { name: m[0], attrs: {}, children: [], text: '' };
      let j = lt + 1 + m[0].length;
      for (;;) {
        ATTR.lastIndex = j;
        const a = ATTR.exec(text);
        if (!a) break;
        el.attrs[a[1]] = decodeXmlEntities(a[2] ?? a[3] ?? '');
        j = ATTR.lastIndex;
      }
      while (j < n && /\s/.test(text[j])) j++;
      const selfClosing = text.startsWith('/>', j);
      if (selfClosing) j += 2;
      else if (text[j] === '>') j += 1;
      else if (text.indexOf('>', j) < 0) return fail(`truncated: tag <${el.name}> cut off`);
      else return fail(`malformed attribute in <${el.name}> at offset ${j}`);
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(el);
      else root = el;
      if (!selfClosing) stack.push(el);
      i = j;
    }
  }
  if (stack.length) return fail(`truncated: <${stack.map((e) => e.name).join('><')}> not closed`);
  if (!root) return fail('no XML element found');
  return { ok: true, root };
}

/** Every descendant of `el` named `name`, in document order. Iterative: a deeply nested document cannot overflow. */
export function xmlDescendants(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  const todo: XmlElement[] = [...el.children].reverse();
  for (let e = todo.pop(); e; e = todo.pop()) {
    if (e.name === name) out.push(e);
    for (let k = e.children.length - 1; k >= 0; k--) todo.push(e.children[k]);
  }
  return out;
}

/** The first `file:line[:column]` in a failure's text, skipping frames in node_modules and interpreter internals. */
function locate(text: string): Pick<GateItem, 'file' | 'line' | 'column'> {
  const re = /([\w.@/\\-]*[\w-]\.[A-Za-z]{1,5}):(\d+)(?::(\d+))?/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (/node_modules|[\\/]lib[\\/]python\d|^\/usr\//.test(m[1])) continue;
    return { file: m[1], line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}) };
  }
  return {};
}

/** The first non-blank line of a text, trimmed and bounded. */
const firstLine = (s: string): string => (s.split('\n').find((l) => l.trim()) ?? '').trim().slice(0, 300);

/**
 * Reads a JUnit XML report: pytest `--junitxml`, jest-junit, and other writers of the
 * `<testsuites><testsuite><testcase>` shape (a bare `<testsuite>` root is accepted too; nested suites are walked).
 * A testcase with a `<failure>` or `<error>` child counts as failed (pytest writes collection and fixture errors as
 * `<error>`), one with a `<skipped>` child as skipped (pytest's xfail too), any other as passed. Names are `classname::name`, or
 * just `name` when the classname is empty or repeats the name (jest-junit's default); ids are the same full names,
 * one per testcase. Each failure becomes an item with its message and the first `file:line` of its text.
 * Truncated or malformed XML, or a root that is not a test report, gives `parsed: false`. Never throws.
 */
export function parseJunitXml(text: string): ParsedGateOutput {
  if (typeof text !== 'string' || !text.trim()) return unparsed('empty junit XML report');
  const doc = parseXml(text);
  if (!doc.ok) return unparsed(`junit XML: ${doc.error}`);
  const root = doc.root;
  if (root.name !== 'testsuites' && root.name !== 'testsuite')
    return unparsed(`junit XML: root element is <${root.name}>, expected <testsuites> or <testsuite>`);
  const cases = xmlDescendants(root, 'testcase');
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failedNames: string[] = [];
  const ids: string[] = [];
  const items: GateItem[] = [];
  for (const tc of cases) {
    const name = tc.attrs.name ?? '';
    const cls = tc.attrs.classname ?? '';
    const full = !cls || cls === name ? name : `${cls}::${name}`;
    ids.push(full);
    const bad = tc.children.find((c) => c.name === 'failure' || c.name === 'error');
    if (bad) {
      failed++;
      failedNames.push(full);
      const detail = bad.attrs.message?.trim() ? firstLine(bad.attrs.message) : firstLine(bad.text);
      const line = Number(tc.attrs.line);
      const where = tc.attrs.file
        ? { file: tc.attrs.file, ...(Number.isInteger(line) && line > 0 ? { line } : {}) }
        : locate(bad.text);
      items.push({ ...where, code: bad.name, severity: 'error', message: `${full}${detail ? `: ${detail}` : ''}` });
    } else if (tc.children.some((c) => c.name === 'skipped')) skipped++;
    else passed++;
  }
  return {
    parsed: true,
    errors: failed,
    tests: { total: cases.length, passed, failed, skipped, failedNames, ids },
    items,
  };
}
