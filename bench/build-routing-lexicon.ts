/**
 * npm run build:routing-lexicon — builds the routing lexicon (src/core/routing/lexicon-weights.ts) from commit
 * subjects of public repositories, labelled by what each project is (bench/routing-lexicon/repos.json): text that
 * real engineers wrote about each domain's work, so the model knows jargon none of our labelled texts contain.
 *
 * - Subjects: `git log --no-merges --format=%s` of each repository (the newest `capPerRepo`), from a folder of clones
 *   (`--mirrors DIR`: `DIR/<owner>+<name>/repo` or `DIR/<owner>/<name>`; `git clone --bare` each repository there).
 * - Label: the repository's domain, except a conventional-commit type that names a domain of its own (docs → docs,
 *   test → testing, ci and build → devops); chores, releases, reverts, dependency bumps and style/refactor commits
 *   are left out, as are subjects of fewer than 3 words.
 * - A token (the v3 model's unigrams and bigrams, ./model-v3.ts textTokens) gets, per domain, its log-lift: log of
 *   P(token | domain) over P(token), with P(token | domain) shrunk toward P(token) by a Dirichlet prior of
 *   PRIOR subjects. Kept: tokens in at least MIN_SUBJECTS subjects and of at least two repositories, with a lift of
 *   at least e^MIN_LIFT in some domain; only the positive lifts are stored.
 * No routing text (training, calibration or held-out) is read here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { normalizeText, textTokens } from '../src/core/routing';

const MIN_SUBJECTS = 5;
const PRIOR = 20;
const MIN_LIFT = 0.7;
const MIN_REPOS = 2;
const MIN_Z = 2;
const KEEP = 0.5;

interface Corpus {
  description: string;
  capPerRepo: number;
  repos: Record<string, string[]>;
}

const root = (): string => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
};

const TYPE_DOMAIN: Record<string, string> = {
  docs: 'docs',
  doc: 'docs',
  test: 'testing',
  tests: 'testing',
  ci: 'devops',
  build: 'devops',
};
const DROP_TYPES = new Set(['chore', 'release', 'revert', 'style', 'refactor', 'deps', 'bump', 'wip', 'merge']);
const NOISE =
  /^(merge|revert|release|bump|update dependency|upgrade dependency|prepare release|v?\d+\.\d+)|\bdependabot\b|\brenovate\b|\bbump (the )?\S+ (from|to)\b|^(initial commit|wip)$/i;

/** The label of one subject in a repository of domain `domain` (undefined: left out), and its text. */
export function labelSubject(subject: string, domain: string): { label: string; text: string } | undefined {
  const s = subject
    .replace(/\s*\(#\d+\)\s*$/, '')
    .replace(/\[[^\]]*\]/g, ' ')
    .trim();
  if (NOISE.test(s)) return undefined;
  const m = /^([a-z]+)(\([^)]*\))?!?:\s*(.*)$/i.exec(s);
  let label = domain;
  let text = s;
  if (m) {
    const type = m[1].toLowerCase();
    if (DROP_TYPES.has(type)) return undefined;
    if (TYPE_DOMAIN[type]) label = TYPE_DOMAIN[type];
    text = m[3];
    if (/deps/i.test(m[2] ?? '')) return undefined;
  }
  if (text.split(/\s+/).length < 3) return undefined;
  return { label, text };
}

function gitDir(mirrors: string, repo: string): string | undefined {
  const [owner, name] = repo.split('/');
  for (const d of [
    path.join(mirrors, `${owner}+${name}`, 'repo'),
    path.join(mirrors, owner, name),
    path.join(mirrors, `${owner}+${name}`),
  ])
    if (fs.existsSync(d)) return d;
  return undefined;
}

/** Builds the lexicon from the corpus; returns it with counts for the record. */
export function buildLexicon(corpus: Corpus, mirrors: string) {
  const domains = Object.keys(corpus.repos);
  const counts = new Map<string, number[]>();
  /** Per token and domain, the repositories whose subjects hold it. */
  const repos = new Map<string, Set<string>[]>();
  const size = domains.map(() => 0);
  const used: Record<string, number> = {};
  const missing: string[] = [];
  for (const [domain, list] of Object.entries(corpus.repos))
    for (const repo of list) {
      const dir = gitDir(mirrors, repo);
      if (!dir) {
        missing.push(repo);
        continue;
      }
      const subjects = execFileSync('git', ['-C', dir, 'log', '--no-merges', '--format=%s'], {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      })
        .split('\n')
        .filter(Boolean);
      let n = 0;
      for (const subject of subjects) {
        if (n >= corpus.capPerRepo) break;
        const l = labelSubject(subject, domain);
        if (!l) continue;
        n++;
        const d = domains.indexOf(l.label);
        size[d]++;
        for (const t of textTokens(normalizeText(l.text))) {
          const row = counts.get(t) ?? domains.map(() => 0);
          row[d]++;
          counts.set(t, row);
          const rs = repos.get(t) ?? domains.map(() => new Set<string>());
          rs[d].add(repo);
          repos.set(t, rs);
        }
      }
      used[repo] = n;
    }
  const total = size.reduce((a, b) => a + b, 0);
  const tokens: Record<string, number[]> = {};
  for (const [t, row] of counts) {
    const n = row.reduce((a, b) => a + b, 0);
    if (n < MIN_SUBJECTS) continue;
    const p = n / total;
    const lifts: number[] = [];
    let best = 0;
    row.forEach((c, d) => {
      // A domain's lift counts only when the token is in subjects of at least MIN_REPOS of its repositories (not
      // one project's idiom) and above chance: MIN_Z standard deviations over the count expected from its share.
      const expected = p * size[d];
      if ((repos.get(t)?.[d].size ?? 0) < MIN_REPOS || (c - expected) / Math.sqrt(expected) < MIN_Z) return;
      const lift = Math.log((c + PRIOR * p) / (size[d] + PRIOR) / p);
      best = Math.max(best, lift);
      if (lift >= KEEP) lifts.push(d, Math.round(lift * 10) / 10);
    });
    if (best >= MIN_LIFT) tokens[t] = lifts;
  }
  return {
    domains,
    tokens,
    built: {
      by: 'bench/build-routing-lexicon.ts (npm run build:routing-lexicon)',
      corpus: 'bench/routing-lexicon/repos.json',
      subjects: Object.fromEntries(domains.map((d, i) => [d, size[i]])),
      repos: Object.keys(used).length,
      missing,
      kept: Object.keys(tokens).length,
      minSubjects: MIN_SUBJECTS,
      prior: PRIOR,
      minLift: MIN_LIFT,
    },
  };
}

function main(): void {
  const at = process.argv.indexOf('--mirrors');
  const mirrors = at > 0 ? process.argv[at + 1] : (process.env.RALPH_LEXICON_MIRRORS ?? '/work/.mirror');
  if (!mirrors || !fs.existsSync(mirrors)) {
    console.error(
      `no clones folder at ${mirrors}: pass --mirrors DIR (a folder of bare clones of the repositories in bench/routing-lexicon/repos.json)`,
    );
    process.exit(2);
  }
  const corpus = JSON.parse(
    fs.readFileSync(path.join(root(), 'bench', 'routing-lexicon', 'repos.json'), 'utf8'),
  ) as Corpus;
  const lex = buildLexicon(corpus, mirrors);
  if (lex.built.missing.length) {
    console.error(`missing clones: ${lex.built.missing.join(', ')} (clone them into ${mirrors})`);
    process.exit(2);
  }
  const out = path.join(root(), 'src', 'core', 'routing', 'lexicon-weights.ts');
  fs.writeFileSync(
    out,
    '/**\n * The routing lexicon: written by bench/build-routing-lexicon.ts (`npm run build:routing-lexicon`), not by hand.\n' +
      ' * Per token, pairs of (index into `domains`, log-lift) where its log-lift is at least ' +
      String(KEEP) +
      ', in commit\n' +
      ' * subjects of public repositories labelled by domain (bench/routing-lexicon/repos.json). See ./model-v4.ts. One\n' +
      ' * JSON string, parsed on first use: a workflow bundle holds it for every loop, and a string on one line is the\n' +
      ' * smallest form of it there.\n */\n' +
      `export const ROUTING_LEXICON_JSON =\n  ${JSON.stringify(JSON.stringify(lex))};\n`,
  );
  try {
    // Prettier puts the string in single quotes (no escaped double quotes: the smallest form).
    execFileSync(path.join(root(), 'node_modules', '.bin', 'prettier'), ['--write', out], { stdio: 'ignore' });
  } catch {
    // Formatting is cosmetic: the file is valid TypeScript either way.
  }
  console.log(JSON.stringify(lex.built, null, 2));
  console.log(`→ ${out}`);
}

if (require.main === module) main();
