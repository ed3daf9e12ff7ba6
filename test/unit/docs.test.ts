import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const read = (f: string): string => fs.readFileSync(path.join(ROOT, f), 'utf8');
const DOCS = fs
  .readdirSync(path.join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const PAGES = ['README.md', 'ARCHITECTURE.md', 'src/workflows/ARCHITECTURE.md', ...DOCS];

/** The anchors GitHub gives a page's headings (outside code blocks). */
function anchors(file: string): Set<string> {
  const out = new Set<string>();
  let inCode = false;
  for (const line of read(file).split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    else if (!inCode && /^#{1,6} /.test(line))
      out.add(
        line
          .replace(/^#+ /, '')
          .trim()
          .toLowerCase()
          .replace(/[^\p{L}\p{N}_\- ]/gu, '')
          .replace(/ /g, '-'),
      );
  }
  return out;
}

/** The relative Markdown links of a page (code blocks left out). */
const links = (file: string): string[] =>
  [
    ...read(file)
      .replace(/```[\s\S]*?```/g, '')
      .matchAll(/\]\(([^)\s]+)\)/g),
  ]
    .map((m) => m[1])
    .filter((u) => !/^[a-z]+:/.test(u));

describe('docs: the README and the docs pages', () => {
  const readme = read('README.md');

  it('keeps the README a first screen: under 250 lines, with both quick-start commands', () => {
    expect(readme.split('\n').length).toBeLessThan(250);
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm ci && npm test');
  });

  it('links every docs page from the README, and every page says what it is for', () => {
    expect(DOCS.length).toBeGreaterThan(10);
    for (const page of DOCS) {
      expect(readme).toContain(`](${page})`);
      expect(read(page)).toMatch(/^# .+\n\n(<!--.*-->\n\n)?What this page is for: /);
    }
  });

  it('has no broken relative link or anchor in the README, the architecture notes or the docs', () => {
    const broken: string[] = [];
    for (const page of PAGES)
      for (const url of links(page)) {
        const [file, frag] = url.split('#');
        const target = file ? path.normalize(path.join(path.dirname(page), file)) : page;
        if (!fs.existsSync(path.join(ROOT, target))) broken.push(`${page}: ${url} (no such file)`);
        else if (frag && target.endsWith('.md') && !anchors(target).has(frag))
          broken.push(`${page}: ${url} (no such heading)`);
      }
    expect(broken).toEqual([]);
  });
});
