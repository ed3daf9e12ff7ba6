/**
 * The routing classifier: scores every domain of a task text from weighted keywords (the built-in vocabulary plus the
 * profiles' own), and decides whether a specialist profile should run. Pure and deterministic (no network, no clock),
 * so a workflow can call it on replay and `ralph route explain` shows exactly what the loop would decide.
 *
 * Why keywords: the design wants classification under 10 ms with no service to go down; weighted keywords are
 * explainable (`why` lists every match) and accurate enough on our labelled set (bench:routing).
 */
import { ROUTING_MODEL_WEIGHTS, routingProbabilities, type RoutingEvidence } from './model';
import { routingProbabilitiesV3, textTokens } from './model-v3';
import { routingProbabilitiesV4 } from './model-v4';
import { V5_CERTAIN, routingModelV5Weights } from './model-v5';
import { routingModelV6Weights } from './model-v6';
import { routingModelV8Weights } from './model-v8';
import { routingModelV29Weights } from './model-v29';
import { everydayOnly, everydayWordsOf, type SenseVersion } from './sense';
import {
  COMPLEXITY_TERMS,
  COMPLEXITY_TERMS_V2,
  DOMAIN_ALIASES,
  Domains,
  builtinVocabulary,
  type WeightedKeyword,
} from './vocabulary';

/** Weight of a learned keyword (a weak hint). */
const LEARNED_WEIGHT = 1;

/** Routing thresholds and limits; every field has a default in {@link ROUTING_DEFAULTS}. */
export interface RoutingRules {
  /** Route only when the primary domain's confidence is above this. */
  minConfidence: number;
  /** Route only when the task's complexity (1-10) is above this. */
  minComplexity: number;
  /** A domain switch needs the new domain this much more confident than the current one (on the same text). */
  switchMargin: number;
  /** Handoffs per chain before `MaxHandoffsExceeded`. */
  maxHandoffs: number;
  /** A block of agents repeated this many times in a row (A→B→A→B→A→B for 3) is a cycle. */
  cycleRepeats: number;
  /** Longest handoff context accepted, in characters. */
  maxHandoffContextChars: number;
  /** Longest shared context put into a prompt, in characters. */
  maxSharedContextChars: number;
  /** Longest specialist instructions put into a prompt, in characters. */
  maxInstructionsChars: number;
  /** What to do with a secret found in handoff context: replace it, or refuse the whole handoff. */
  secrets: 'redact' | 'refuse';
  /** Failures of routed agents within `breakerWindowSeconds` that open the circuit breaker. */
  breakerFailures: number;
  breakerWindowSeconds: number;
  /** How long routing stays off once the breaker opens. */
  breakerCooldownSeconds: number;
}

/** Default routing rules (design: route at > 70 % confidence and complexity > 3, switch at +20 %, 5 handoffs). */
export const ROUTING_DEFAULTS: Readonly<RoutingRules> = {
  minConfidence: 0.7,
  minComplexity: 3,
  switchMargin: 0.2,
  maxHandoffs: 5,
  cycleRepeats: 3,
  maxHandoffContextChars: 8000,
  maxSharedContextChars: 4000,
  maxInstructionsChars: 16_000,
  secrets: 'redact',
  breakerFailures: 3,
  breakerWindowSeconds: 300,
  breakerCooldownSeconds: 600,
};

/** What the classifier needs to know of a profile (no instructions: those are loaded only when it runs). */
export interface ProfileKeywords {
  /** The profile's name (`^[a-z_]+$`), also its file name without `.md`. */
  name: string;
  /** The domain it serves: a built-in one (or an alias of one) or its own. */
  domain: string;
  keywords: readonly string[];
  /** Weights of keywords (default 2); a weight for a keyword not in `keywords` adds it. */
  weights?: Readonly<Record<string, number>>;
}

/** The compiled keyword index of a set of profiles: build once per loop, classify many times. */
export interface RoutingIndex {
  /** How confidences are computed, and with it the vocabulary (v1 for `keywords`, v1 + v2 for `calibrated`). */
  model: ConfidenceModel;
  /** Multi-word terms, longest first, each with the domains it scores and its first word. */
  phrases: { phrase: string; hits: DomainHit[]; first: string }[];
  /** Single-word terms and the domains they score. */
  words: Map<string, DomainHit[]>;
  /** Every domain known (built-in and the profiles' own), sorted. */
  domains: string[];
  /** Profiles by domain, each with its own term set (picks a profile when several serve one domain). */
  profilesByDomain: Map<string, { name: string; terms: Set<string> }[]>;
  complexity: { phrases: string[]; words: Set<string> };
}

interface DomainHit {
  domain: string;
  weight: number;
  /** The profile the keyword came from, if any. */
  profile?: string;
}

/** The classifier's verdict on one text. */
export interface Classification {
  /** The primary domain: the best-scoring one, or `general` when nothing matched. */
  domain: string;
  /** Confidence of the primary domain, 0-1 (0 for `general`): with the calibrated model, the probability it is right. */
  confidence: number;
  /** How much work the text describes, 1-10. */
  complexity: number;
  /** Confidence of every domain that scored (for the switch rule). */
  confidences: Record<string, number>;
  /** Matched keywords per domain. */
  matched: Record<string, string[]>;
  /** Whether a specialist runs: confidence and complexity above the rules' thresholds, and a profile for the domain. */
  route: boolean;
  /**
   * The rule that decided: `routed` (every threshold passed), else the first that failed: `minConfidence`,
   * `minComplexity`, `no_profile` (no profile serves the domain) or `no_match` (no keyword matched).
   */
  decidedBy: 'routed' | 'minConfidence' | 'minComplexity' | 'no_profile' | 'no_match';
  /** How the confidence was computed. */
  model: ConfidenceModel;
  /** The calibrated probability that no specialist fits (`general`), with the calibrated model. */
  general?: number;
  /** The profile chosen for the domain (even when `route` is false: what would run). */
  profile?: string;
  /**
   * v5: the mechanical chore the task leads with (`rename`, `bump`...), which keeps its complexity at most 3; v6 also
   * the small work it names (`cli flag`, `off-by-one`, `unchanged behaviour`, see {@link smallWork}).
   */
  chore?: string;
  /** One clause per reason, for `ralph route explain` and the routing log. */
  why: string[];
}

/** The canonical domain name of a profile's `domain` (aliases resolved, lower-case). */
export function canonicalDomain(domain: string): string {
  const d = domain.trim().toLowerCase();
  return DOMAIN_ALIASES[d] ?? d;
}

/**
 * Lower-cases, splits camelCase humps and turns every non-alphanumeric run into one space, so `AuthController.ts`,
 * `auth-controller` and `auth controller` read alike. A hump is an upper-case letter followed by a lower-case one, so
 * `GraphQL`, `gRPC` and `SwiftUI` stay one word.
 */
export function normalizeText(s: string): string {
  return s
    .replace(/(\p{Ll}|\p{N})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * v27: a word written joined in camel case ("QuickCheck", "OpenTelemetry", "WebAuthn") is read as its parts and as
 * written ("QuickCheck QuickCheck" normalizes to "quick check quickcheck"), so a joined keyword ("quickcheck
 * properties", "opentelemetry", "webauthn") matches the text that spells it in camel case. With `known`, only a joined
 * word the vocabulary knows, whose parts it does not ("BigQuery" is already "big query"), is added.
 */
export function joinedCamelV27(text: string, known?: (joined: string, parts: string) => boolean): string {
  return text.replace(/[A-Za-z0-9]+/g, (t) => {
    const parts = normalizeText(t);
    if (!parts.includes(' ')) return t;
    const joined = t.toLowerCase();
    return !known || known(joined, parts) ? `${t} ${joined}` : t;
  });
}

/**
 * Code hosts, named in nearly every task of every domain ("GitHub", "GitLab"), are not joined: the models' weights
 * were fitted reading them as their parts, and the worlds spell them so ("git ?hub").
 */
const CODE_HOSTS_V27: ReadonlySet<string> = new Set(['github', 'gitlab']);

/** The terms of an index, for {@link joinedCamelV27}: cached per index. */
const TERMS_V27 = new WeakMap<RoutingIndex, { phrases: Set<string>; firsts: Set<string> }>();
const knownJoinedV27 = (index: RoutingIndex): ((joined: string, parts: string) => boolean) => {
  let terms = TERMS_V27.get(index);
  if (!terms) {
    terms = {
      phrases: new Set(index.phrases.map((p) => p.phrase)),
      firsts: new Set(index.phrases.map((p) => p.first)),
    };
    TERMS_V27.set(index, terms);
  }
  const t = terms;
  const knows = (w: string): boolean => forms(w).some((f) => index.words.has(f) || t.firsts.has(f));
  return (joined, parts) =>
    !CODE_HOSTS_V27.has(joined) &&
    knows(joined) &&
    !parts.split(' ').some((w) => index.words.has(w)) &&
    !t.phrases.has(parts) &&
    ![...t.phrases].some((p) => p.startsWith(`${parts} `));
};

/**
 * v27: a number like a status code that counts things ("400 lines", "500 rows", "404 visitors") is no status code: read
 * as "n" before the unit.
 */
const COUNTED_V27 =
  /\b[1-5]\d\d (?=(?:lines?|loc|words?|rows?|records?|items?|pages?|people|persons?|users?|members?|customers?|clients?|characters?|chars?|files?|tests?|times|ms|milliseconds?|seconds?|secs?|minutes?|mins?|hours?|days?|weeks?|kb|mb|gb|px|points?|dollars?|euros?|pounds?|kg|km|miles?|metres?|meters?|steps?|entries|products?|orders?|guests?|tickets?|visitors?|students?|seats?|copies|boxes|bottles|units?|calories|grams?|ml|litres?|liters?)\b)/g;

/**
 * v28: an identifier in camel case whose joined form the vocabulary does not know, and whose parts name no phrase of
 * it and no keyword of weight 2 or more, is a name: read joined only ("LoadProfile" is "loadprofile", no load; a
 * "NetworkClient" no client). A known joined word is read as v27 reads it; a code host keeps its parts, and so does an
 * identifier that names a domain's keyword ("CheckoutFlowTest", "DropdownList", "RestTemplate").
 */
export function identifiersV28(text: string, index: RoutingIndex): string {
  const known = knownJoinedV27(index);
  const terms = TERMS_V27.get(index)!;
  return text.replace(/[A-Za-z0-9]+/g, (t) => {
    const parts = normalizeText(t);
    if (!parts.includes(' ')) return t;
    const joined = t.toLowerCase();
    if (known(joined, parts)) return `${t} ${joined}`;
    const named =
      CODE_HOSTS_V27.has(joined) ||
      forms(joined).some((f) => index.words.has(f) || terms.firsts.has(f)) ||
      parts.split(' ').some((w) => forms(w).some((f) => (index.words.get(f) ?? []).some((h) => h.weight >= 2))) ||
      terms.phrases.has(parts) ||
      [...terms.phrases].some((p) => p.startsWith(`${parts} `) || parts.includes(` ${p}`) || parts.startsWith(`${p} `));
    return named ? t : joined;
  });
}

/** v27: the normalized text a model reads ({@link joinedCamelV27}, {@link COUNTED_V27}). */
export function readNormV27(text: string, known?: (joined: string, parts: string) => boolean): string {
  return normalizeText(joinedCamelV27(text, known)).replace(COUNTED_V27, 'n ');
}

/** The built-in vocabulary a model reads: v1 (`keywords`), v2 (v2 to v9), then one more for each of v10 to v13. */
function vocabularyVersionOf(
  model: ConfidenceModel,
): 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20 | 21 {
  if (model === 'keywords') return 1;
  if (model === 'calibrated-v29' || model === 'calibrated-v28') return 21;
  if (model === 'calibrated-v27') return 20;
  if (model === 'calibrated-v26') return 19;
  if (model === 'calibrated-v25') return 18;
  if (model === 'calibrated-v24') return 17;
  if (model === 'calibrated-v23') return 16;
  if (model === 'calibrated-v22') return 15;
  if (model === 'calibrated-v21') return 14;
  if (model === 'calibrated-v20') return 13;
  if (model === 'calibrated-v19') return 12;
  if (model === 'calibrated-v18') return 11;
  if (model === 'calibrated-v17') return 10;
  if (model === 'calibrated-v16') return 9;
  if (model === 'calibrated-v15') return 8;
  if (model === 'calibrated-v14') return 7;
  if (model === 'calibrated-v13') return 6;
  if (model === 'calibrated-v12') return 5;
  if (model === 'calibrated-v11') return 4;
  if (model === 'calibrated-v10') return 3;
  return 2;
}

/**
 * Builds the keyword index of the built-in vocabulary plus `profiles`. `model` picks the confidence and vocabulary:
 * `calibrated-v6` (default: v5 fitted on one blind split more, with the small-work rule, ./model-v6.ts), `calibrated-v5`
 * (v4's features with weights fitted on more real text, and the certainty rule of complexity, ./model-v5.ts),
 * `calibrated-v4` (the v3 model plus the routing lexicon, ./model-v4.ts), `calibrated-v3` (vocabulary v2, no
 * learned keywords, the v3 model), `calibrated` (routing-v2: vocabulary
 * v2 plus its learned keywords) or `keywords` (routing-v1, for loops recorded before the calibrated model).
 */
export function buildRoutingIndex(
  profiles: readonly ProfileKeywords[] = [],
  model: ConfidenceModel = 'calibrated-v29',
  learned: Readonly<Record<string, readonly string[]>> = ROUTING_MODEL_WEIGHTS.learned,
): RoutingIndex {
  const phrases = new Map<string, DomainHit[]>();
  const words = new Map<string, DomainHit[]>();
  const add = (term: string, hit: DomainHit): void => {
    const t = normalizeText(term);
    if (!t) return;
    const into = t.includes(' ') ? phrases : words;
    const hits = into.get(t) ?? [];
    // One weight per (term, domain): the larger wins, so a profile can raise a built-in keyword but not double it.
    const same = hits.find((h) => h.domain === hit.domain);
    if (same) {
      if (hit.weight > same.weight || (hit.profile && !same.profile)) Object.assign(same, hit);
    } else hits.push({ ...hit });
    // A profile's keyword is more specific than the built-in vocabulary: it no longer scores other built-in domains
    // (a `dns` profile claims "dns" from devops).
    into.set(t, hit.profile ? hits.filter((h) => h.profile || h.domain === hit.domain) : hits);
  };
  const domains = new Set<string>();
  for (const [domain, kws] of Object.entries(builtinVocabulary(vocabularyVersionOf(model))) as [
    string,
    readonly WeightedKeyword[],
  ][]) {
    domains.add(domain);
    for (const k of kws) add(k.term, { domain, weight: k.weight });
  }
  // The calibrated model's learned keywords (words that marked one domain in the training split), weight 1, where
  // the vocabulary does not already score the word.
  if (model === 'calibrated')
    for (const [domain, terms] of Object.entries(learned))
      for (const t of terms) if (!words.has(t) && !phrases.has(t)) add(t, { domain, weight: LEARNED_WEIGHT });
  const profilesByDomain = new Map<string, { name: string; terms: Set<string> }[]>();
  for (const p of [...profiles].sort((a, b) => a.name.localeCompare(b.name))) {
    const domain = canonicalDomain(p.domain);
    if (domain === Domains.general) continue;
    domains.add(domain);
    const terms = new Set<string>();
    const weights = p.weights ?? {};
    for (const k of new Set([...p.keywords, ...Object.keys(weights)])) {
      const weight = weights[k] ?? 2;
      if (!(weight > 0)) continue;
      terms.add(normalizeText(k));
      add(k, { domain, weight, profile: p.name });
    }
    const list = profilesByDomain.get(domain) ?? [];
    list.push({ name: p.name, terms });
    profilesByDomain.set(domain, list);
  }
  const cPhrases: string[] = [];
  const cWords = new Set<string>();
  for (const t of model === 'keywords' ? COMPLEXITY_TERMS : [...COMPLEXITY_TERMS, ...COMPLEXITY_TERMS_V2]) {
    const n = normalizeText(t);
    if (n.includes(' ')) cPhrases.push(n);
    else cWords.add(n);
  }
  return {
    model,
    phrases: [...phrases.entries()]
      .sort((a, b) => b[0].length - a[0].length || a[0].localeCompare(b[0]))
      .map(([phrase, hits]) => ({ phrase, hits, first: phrase.slice(0, phrase.indexOf(' ')) })),
    words,
    domains: [...domains].sort(),
    profilesByDomain,
    complexity: { phrases: cPhrases, words: cWords },
  };
}

const DEFAULT_INDEX = buildRoutingIndex();

/** A built-in domain no keyword matched is shown (and may win) with v3 when its probability is at least this. */
const V3_MIN_SHOWN = 0.05;

/** A word and its singular forms (`policies` → `policie`, `polici`... the index has the real form). */
const forms = (t: string): string[] => {
  const out = [t];
  if (t.length > 3 && t.endsWith('s')) out.push(t.slice(0, -1));
  if (t.length > 4 && t.endsWith('es')) out.push(t.slice(0, -2));
  return out;
};

/** Saturating strength of a score: 3 → 0.71 (one unrivalled domain-naming word routes), 4 → 0.81, 6 → 0.92. */
const strength = (score: number): number => 1 - Math.exp(-score / 2.4);

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
/** A probability in thousandths, never shown as certain (0 or 1): 0.001-0.999. */
const prob3 = (x: number): number => Math.min(0.999, Math.max(0.001, round3(x)));

/** What the keyword pass found: the model's evidence plus what `why` and the profile choice need. */
export interface KeywordPass extends RoutingEvidence {
  matched: Record<string, string[]>;
  profileHits: Map<string, number>;
  complexityTerms: number;
}

/**
 * The keyword pass over a text. A profile's keywords score only for profiles (the built-in domains lose them); each
 * keyword counts once; multi-word keywords match first and use up their words (`sql injection` is security, not
 * data's `sql`); a keyword matches its plural (`endpoints`).
 */
export function keywordPass(text: string, index: RoutingIndex = DEFAULT_INDEX): KeywordPass {
  const plain = normalizeText(text);
  const words = plain ? plain.split(' ').length : 0;
  // v27: joined camel-case words match as written, and counts are no status codes.
  let norm = ` ${
    hasV28Rules(index.model)
      ? normalizeText(identifiersV28(text, index)).replace(COUNTED_V27, 'n ')
      : hasV27Rules(index.model)
        ? readNormV27(text, knownJoinedV27(index))
        : plain
  } `;
  const scores = new Map<string, number>();
  const strong = new Map<string, number>();
  const profileScores = new Map<string, number>();
  const lead = new Map<string, number>();
  const matched: Record<string, string[]> = {};
  const profileHits = new Map<string, number>();
  let terms = 0;
  const hit = (term: string, hits: DomainHit[], at: number): void => {
    terms++;
    for (const h of hits) {
      scores.set(h.domain, (scores.get(h.domain) ?? 0) + h.weight);
      if (at < LEAD_WORDS) lead.set(h.domain, (lead.get(h.domain) ?? 0) + h.weight);
      (matched[h.domain] ??= []).push(term);
      if (h.weight >= 3) strong.set(h.domain, (strong.get(h.domain) ?? 0) + 1);
      if (h.profile) {
        profileHits.set(h.profile, (profileHits.get(h.profile) ?? 0) + h.weight);
        profileScores.set(h.domain, (profileScores.get(h.domain) ?? 0) + h.weight);
      }
    }
  };
  let complexityTerms = 0;
  for (const p of index.complexity.phrases) if (norm.includes(` ${p} `)) complexityTerms++;
  // A phrase (two words or more; its plural changes only its last word) can match only where its first word is one
  // of the text's words, and matches only take words away: the phrases whose first word is not among the text's
  // words are skipped without a search (the same matches, in the same order, at a fraction of the cost).
  const present = new Set(norm.split(' '));
  for (const { phrase, hits, first } of index.phrases) {
    if (!present.has(first)) continue;
    const at = norm.includes(` ${phrase} `) ? ` ${phrase} ` : norm.includes(` ${phrase}s `) ? ` ${phrase}s ` : '';
    if (!at) continue;
    hit(phrase, hits, wordsBefore(norm, norm.indexOf(at)));
    norm = norm.split(at).join(' | ');
  }
  const seen = new Set<string>();
  const cSeen = new Set<string>();
  let pos = -1;
  for (const tok of norm.split(' ')) {
    if (!tok) continue;
    pos++;
    if (tok === '|') continue;
    for (const f of forms(tok)) {
      if (index.complexity.words.has(f) && !cSeen.has(f)) {
        cSeen.add(f);
        complexityTerms++;
      }
      const hits = index.words.get(f);
      if (!hits || seen.has(f)) continue;
      seen.add(f);
      hit(f, hits, pos);
      break;
    }
  }
  return { scores, strong, profileScores, lead, words, terms, matched, profileHits, complexityTerms };
}

/** A text this long or longer counts its jargon for complexity ("Fix XSS" stays a small task). */
const JARGON_MIN_WORDS = 6;
/**
 * With v4, jargon counts from 3 words: real issue titles are short ("Optimize Azure costs", the seed's own example of
 * a task routed to the FinOps agent, is 3 words), and the lexicon tells jargon from plain words.
 */
const JARGON_MIN_WORDS_V4 = 3;

/** Keywords in a text's first words say what the task is ("Write tests for the React hooks" is testing). */
const LEAD_WORDS = 6;

/** Words before character `i` of a normalized text (a matched phrase counts as one). */
const wordsBefore = (norm: string, i: number): number => {
  const before = norm.slice(0, i).trim();
  return before ? before.split(' ').length : 0;
};

/**
 * How a classification's confidence is computed: `calibrated-v29` (the default: v28's rules and vocabulary with its own weights,
 * refitted on every split read until v28 was judged, 15,000 texts, and calibrated on v28's two held-out splits:
 * ./model-v29.ts), `calibrated-v28` (v27 where an identifier naming nothing of the
 * vocabulary is a name, a conventional commit's type names its domain's world, a quoted name before a figure is a
 * product element, SRE's load, peak and hours, testing's harness and docs' "changelog for" count only in their world,
 * and a secret pushed to a public repo is security's, with the words of v27's held-out splits; frozen before its blind
 * splits were measured), `calibrated-v27` (v26 where a word joined in camel case matches as
 * written, a count is no status code, FinOps's own trade words and instance types name the cloud, an idle trailer and a
 * delivery zone do not, a handler, a client, a changelog, wording, translating and slowness count only in their
 * domain's world and a break-in is security's, with the words of v26's held-out splits; frozen before its blind splits
 * were measured), `calibrated-v26` (the default before v29: v25 where a command named in backticks is a
 * product element, a vault a secrets manager's, a renewal a certificate's or a key's, a build software's, a toast a
 * UI's only when it names one, with the words of v25's held-out splits and the two after them), `calibrated-v25` (the default
 * before v26: v24 where a product element's quoted name is no
 * evidence of a domain's world, with more of a game's and a product's elements, a UI's toasts, a trade's paperwork and
 * more of a trade's tests, and v24's held-out splits' words), `calibrated-v24` (the default of session 40 before v25: v23 where an escalation is an incident's, REST an
 * API's, a trade's tests its own, a server's mail and messages backend's only beside what goes wrong with them, with
 * v23's held-out splits' words), `calibrated-v23` (v22 where a migration or Hive is data's only in data's sense),
 * `calibrated-v22` (v21 where a domain whose every keyword is inside a product element's quoted name is `general`;
 * v22 and v23 were never a loop's default), `calibrated-v21` ( v20 where a command quoted alone is
 * its name, not a payload, a threshold alone is not SRE's, a trade's retention or lineage is its own record, with v20's
 * held-out splits' words), `calibrated-v20` (v19 with v19's held-out splits' words; never a loop's default),
 * `calibrated-v19` (v18 with narrower worlds and more everyday words: SRE's severity, dashboards, logs, services and
 * freezes, DevOps's jobs and deploys, docs' guides, frontend's pickers, security's key; never a loop's default),
 * `calibrated-v18` (v17 where SRE's zones are a cloud's,
 * a lockout is one of security's everyday words, with more of developers', testers' and staff's words),
 * `calibrated-v17` (v16 where small work that is only a
 * constraint of docs or testing work does not make a task small, with arrows between versions, a business's security
 * deposits and guards, and more developers' jargon), `calibrated-v16` (v15 with more of testers', users' and staff's
 * words for a trade's work), `calibrated-v15` (v14 with users' and staff's words for a trade's work), `calibrated-v14` (v13 with a logged incident of the
 * trade read as a record, cluster-cost tools as FinOps's cloud words, more of four domains' worlds and more plain words
 * of the trades), `calibrated-v13` (v12 with attack payloads as evidence of their
 * weakness and the plain words testers and colleagues use for a trade's work), `calibrated-v12` (v11 without a
 * ticket's "Support escalation:" lead, with SRE's capacity and security's session and signature as everyday words),
 * `calibrated-v11` (v10 with data's report, a credential's expiry, a scan for weaknesses and more trade names; v11
 * and v12 were never a loop's default), `calibrated-v10` (v9 with more sense words: SRE's monitor, docs'
 * page and link, backend's get, data's calendar words beside goods; and security words for CWE, GHSA, traversal,
 * constant-time compare and safe_load), `calibrated-v9` (v8's weights with v9's sense words: testing's
 * mock and coverage, data's own exports and warehouses of goods, security's audit trail, ./sense.ts), `calibrated-v8` (v6's features
 * refitted, v7's rules, hosted tools as cloud words), `calibrated-v7` (v6 plus the sense rules),
 * `calibrated-v6` (v5 refitted, plus the small-work rule,
 * ./model-v6.ts), `calibrated-v5` (v4's features, weights fitted on more real text,
 * ./model-v5.ts), `calibrated-v4` (v3 plus the routing lexicon's features, ./model-v4.ts),
 * `calibrated-v3` (the v3 model: keyword features plus the text's own
 * words, ./model-v3.ts), `calibrated` (routing-v2: keyword features only, ./model.ts) or `keywords` (routing-v1's
 * keyword ratio). The older ones stay so loops recorded with them replay alike.
 */
export type ConfidenceModel =
  | 'calibrated-v29'
  | 'calibrated-v28'
  | 'calibrated-v27'
  | 'calibrated-v26'
  | 'calibrated-v25'
  | 'calibrated-v24'
  | 'calibrated-v23'
  | 'calibrated-v22'
  | 'calibrated-v21'
  | 'calibrated-v20'
  | 'calibrated-v19'
  | 'calibrated-v18'
  | 'calibrated-v17'
  | 'calibrated-v16'
  | 'calibrated-v15'
  | 'calibrated-v14'
  | 'calibrated-v13'
  | 'calibrated-v12'
  | 'calibrated-v11'
  | 'calibrated-v10'
  | 'calibrated-v9'
  | 'calibrated-v8'
  | 'calibrated-v7'
  | 'calibrated-v6'
  | 'calibrated-v5'
  | 'calibrated-v4'
  | 'calibrated-v3'
  | 'calibrated'
  | 'keywords';

/**
 * Every confidence model by the routing version that introduced it, newest first (`ralph route explain --model v8`
 * classifies as a loop recorded with routing v8 replays).
 */
export const ROUTING_MODEL_VERSIONS: Readonly<Record<string, ConfidenceModel>> = {
  v29: 'calibrated-v29',
  v28: 'calibrated-v28',
  v27: 'calibrated-v27',
  v26: 'calibrated-v26',
  v25: 'calibrated-v25',
  v24: 'calibrated-v24',
  v23: 'calibrated-v23',
  v22: 'calibrated-v22',
  v21: 'calibrated-v21',
  v20: 'calibrated-v20',
  v19: 'calibrated-v19',
  v18: 'calibrated-v18',
  v17: 'calibrated-v17',
  v16: 'calibrated-v16',
  v15: 'calibrated-v15',
  v14: 'calibrated-v14',
  v13: 'calibrated-v13',
  v12: 'calibrated-v12',
  v11: 'calibrated-v11',
  v10: 'calibrated-v10',
  v9: 'calibrated-v9',
  v8: 'calibrated-v8',
  v7: 'calibrated-v7',
  v6: 'calibrated-v6',
  v5: 'calibrated-v5',
  v4: 'calibrated-v4',
  v3: 'calibrated-v3',
  v2: 'calibrated',
  v1: 'keywords',
};

/** Whether a model has v8's rule (a hosted tool's vendor is a cloud word for FinOps) and weights: v8 to v10. */
const hasV8Rules = (model: ConfidenceModel): boolean =>
  model === 'calibrated-v8' ||
  model === 'calibrated-v9' ||
  model === 'calibrated-v10' ||
  model === 'calibrated-v11' ||
  model === 'calibrated-v12' ||
  model === 'calibrated-v13' ||
  model === 'calibrated-v14' ||
  model === 'calibrated-v15' ||
  model === 'calibrated-v16' ||
  model === 'calibrated-v17' ||
  model === 'calibrated-v18' ||
  model === 'calibrated-v19' ||
  model === 'calibrated-v20' ||
  model === 'calibrated-v21' ||
  model === 'calibrated-v22' ||
  model === 'calibrated-v23' ||
  model === 'calibrated-v24' ||
  model === 'calibrated-v25' ||
  model === 'calibrated-v26' ||
  model === 'calibrated-v27' ||
  model === 'calibrated-v28' ||
  model === 'calibrated-v29';
/** Whether a model has v11's rules (FinOps's "project" no cloud word, v11's sense words): v11 and v12. */
const hasV11Rules = (model: ConfidenceModel): boolean =>
  model === 'calibrated-v11' || model === 'calibrated-v12' || hasV13Rules(model);
/** Whether a model has v13's rules (attack payloads, v12's escalation lead): v13 and v14. */
const hasV13Rules = (model: ConfidenceModel): boolean => model === 'calibrated-v13' || hasV14Rules(model);
/** Which version's sense rule (./sense.ts) a model applies: v7 and v8 apply v7's. */
const SENSE_VERSION_OF: Readonly<Partial<Record<ConfidenceModel, SenseVersion>>> = {
  'calibrated-v9': 9,
  'calibrated-v10': 10,
  'calibrated-v11': 11,
  'calibrated-v12': 12,
  'calibrated-v13': 13,
  'calibrated-v14': 14,
  'calibrated-v15': 15,
  'calibrated-v16': 16,
  'calibrated-v17': 16,
  'calibrated-v18': 18,
  'calibrated-v19': 19,
  'calibrated-v20': 19,
  'calibrated-v21': 21,
  'calibrated-v22': 21,
  'calibrated-v23': 23,
  'calibrated-v24': 24,
  'calibrated-v25': 25,
  'calibrated-v26': 26,
  'calibrated-v27': 27,
  'calibrated-v28': 28,
  'calibrated-v29': 28,
};
/** Whether a model has v14's rules (logged incidents, cluster-cost tools, v14's worlds): v14 to v17. */
const hasV14Rules = (model: ConfidenceModel): boolean =>
  model === 'calibrated-v14' || model === 'calibrated-v15' || model === 'calibrated-v16' || hasV17Rules(model);
/** Whether a model has v17's rules (small work that is only a constraint of docs or testing work): v17. */
const hasV17Rules = (model: ConfidenceModel): boolean =>
  model === 'calibrated-v17' || model === 'calibrated-v18' || hasV19Rules(model);
/** Whether a model has v19's rules: v19 to v21. */
const hasV19Rules = (model: ConfidenceModel): boolean =>
  model === 'calibrated-v19' || model === 'calibrated-v20' || hasV21Rules(model);
/** Whether a model has v21's rules (a command named like a payload): v21. */
const hasV21Rules = (model: ConfidenceModel): boolean => model === 'calibrated-v21' || hasV22Rules(model);
/** Whether a model has v22's rules (a product element's quoted name): v22 to v24. */
const hasV22Rules = (model: ConfidenceModel): boolean =>
  model === 'calibrated-v22' || model === 'calibrated-v23' || model === 'calibrated-v24' || hasV25Rules(model);
/**
 * Whether a model has v25's rules (a product element's quoted name is no evidence of a domain's world either, and more
 * of a game's and a product's elements name their element): v25.
 */
const hasV25Rules = (model: ConfidenceModel): boolean => model === 'calibrated-v25' || hasV26Rules(model);
/** Whether a model has v26's rules (a command or subcommand named in backticks is a product element too): v26. */
const hasV26Rules = (model: ConfidenceModel): boolean => model === 'calibrated-v26' || hasV27Rules(model);
/**
 * Whether a model has v27's rules (a joined word matches as written, a count is no status code, FinOps's own trade
 * words and instance types name the cloud, an idle trailer is no idle machine): v27.
 */
const hasV27Rules = (model: ConfidenceModel): boolean => model === 'calibrated-v27' || hasV28Rules(model);
/**
 * Whether a model has v28's rules (an identifier's parts are no keywords unless they name one, a conventional commit's
 * type names its domain's world, a quoted name before a number is a product element): v28.
 */
const hasV28Rules = (model: ConfidenceModel): boolean => model === 'calibrated-v28' || model === 'calibrated-v29';
/** Whether a model has v7's sense rules (./sense.ts), its FinOps everyday words and the move chore: v7 to v9. */
const hasV7Rules = (model: ConfidenceModel): boolean => model === 'calibrated-v7' || hasV8Rules(model);
/** Whether a model has v6's features and rules (small work, the upgrade chore, "compute" as a verb): v6 to v8. */
const hasV6Rules = (model: ConfidenceModel): boolean => model === 'calibrated-v6' || hasV7Rules(model);
/** Whether a model has v5's rules (the certainty rule, chores, FinOps needing a cloud word): v5 to v8. */
const hasV5Rules = (model: ConfidenceModel): boolean => model === 'calibrated-v5' || hasV6Rules(model);

/** Whether a model's confidence is a calibrated probability (v2 and v3). */
export const isCalibrated = (model: ConfidenceModel): boolean => model !== 'keywords';

/** The v1 confidence (before the calibrated model): strength (1 - e^(-score/2.4)) times dominance over the runner-up. */
function keywordConfidences(ranked: [string, number][]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [d, s] of ranked) {
    const rival = ranked.find(([o]) => o !== d)?.[1] ?? 0;
    out[d] = round3(strength(s) * (s / (s + rival / 2)));
  }
  return out;
}

/**
 * FinOps is the cost of cloud and infrastructure: without a word for either, money in a task is the product's own
 * (invoices, prices, taxes, loyalty points), a generalist's work (v5). Cloud providers and services, machines and
 * clusters, storage and traffic, hosted tools and licences, and the FinOps trade's own words; matched on the
 * normalized text, where "BigQuery" is "big query" and "FinOps" is "fin ops".
 */
const CLOUD_WORDS = [
  'aws|gcp|azure|oci|alibaba|hetzner|digitalocean|linode|ovh|cloud\\w*|ec2|s3|rds|aurora|eks|gke|aks|ebs|efs|lambda|fargate|ecs',
  'glacier|big ?query|snowflake|redshift|databricks|data ?dog|splunk|elastic|grafana|new ?relic',
  'instances?|nodes?|node ?pools?|node ?groups?|clusters?|kubernetes|k8s|vms?|virtual machines?|servers?|fleet',
  'buckets?|storage|egress|ingress|bandwidth|cdn|data transfer|nat|gateways?|volumes?|snapshots?|amis?|images?',
  'containers?|pods?|runners?|ci|workloads?|compute|cpus?|gpus?|memory|databases?|dbs?|warehouses?|logs?',
  'retention|infra\\w*|resources?|capacity|autoscal\\w*|rightsiz\\w*|idle|regions?|zones?|environments?|staging',
  'reserved|spot|savings plans?|committed use|commitments?|edp|cur|cost explorer|budgets?|fin ?ops|chargeback|showback',
  'billing exports?|cost (and|&) usage|unit economics',
  'tags?|tagging|accounts?|projects?|subscriptions?|licen[cs]es?|seats?|saas|hosting|llms?|openai|tokens?|usage',
];
const CLOUD_CONTEXT = new RegExp(`\\b(${CLOUD_WORDS.join('|')})\\b`);
/**
 * v8: hosted tools and platforms whose bills, seats and plans are FinOps's too ("The rowing club pays Heroku $250 a
 * month", "our Firebase bill spiked on Firestore reads", "five Vercel Pro seats"), as normalized text spells them.
 */
const HOSTED_V8 =
  /\b(heroku|vercel|netlify|fly io|firebase|firestore|supabase|sentry|jira|confluence|atlassian|jet ?brains|git ?hub (actions|enterprise|copilot|seats?|minutes)|copilot|git ?lab|cloudflare|digital ?ocean|droplets?|dynos?|mongo ?db atlas|planet ?scale|circle ?ci|buildkite|bitbucket|auth0|okta|algolia)\b/;
/**
 * v14: the tools that price a Kubernetes cluster's workloads, and the autoscalers whose requests they price
 * ("Kubecost shows ml-batch requesting three times what it uses; set requests from VPA recommendations"): a cluster's
 * cost named without a cloud word.
 */
const CLUSTER_COST_V14 =
  /\b(kube ?cost|open ?cost|infracost|cloudability|cloud ?health|vpa|vertical pod autoscaler|hpa|requests and limits|resource requests)\b/;
/**
 * v7: the cloud words without "budget" and "account", which a product's own money uses too ("monthly budget limits
 * per spending category", "skip those accounts on the bill run"): what a task FinOps matched only by its everyday
 * words ({@link FINOPS_EVERYDAY}) must name to stay FinOps.
 */
const CLOUD_CONTEXT_V7 = new RegExp(
  `\\b(${[
    ...CLOUD_WORDS.map((w) => w.replace('|budgets?|', '|').replace('|accounts?|', '|')),
    'budget (alerts?|polic\\w*|actions?)|production|sandbox\\w*',
  ].join('|')})\\b`,
);
/**
 * v11: v7's cloud words without "project", which a product's own money uses too ("a yearly budget per restoration
 * project"); a cloud project is still named by its cloud ("the GCP project", "cloud").
 */
const CLOUD_CONTEXT_V11 = new RegExp(CLOUD_CONTEXT_V7.source.replace('|projects?|', '|'));
/**
 * v22: logs are a system's (logs, log ingestion, log groups), not a verb ("flatmates can log shared grocery costs").
 */
const LOGS_V22 =
  'logs|log (?:ingestion|storage|retention|volume|groups?|analytics|data|lines?|events?|index\\w*|archive\\w*)';
const CLOUD_CONTEXT_V22 = new RegExp(CLOUD_CONTEXT.source.replace('|logs?|', `|${LOGS_V22}|`));
const CLOUD_CONTEXT_V22_V11 = new RegExp(CLOUD_CONTEXT_V11.source.replace('|logs?|', `|${LOGS_V22}|`));
/**
 * v27: FinOps's own trade words and the machines it prices name the cloud themselves ("RI utilization dropped after
 * the Graviton migration", "8 p4d instances left running"), and "idle" is a machine's only beside one (an idle trailer
 * is a sauna rental's): v22's cloud words without a bare "idle", with reserved instances, commitments and instance
 * types.
 */
const CLOUD_V27 =
  'ris|ri (?:utili[sz]ation|coverage|purchases?|expir\\w*|recommendations?)|convertible|cuds?|graviton|(?:[a-z]{1,3}\\d[a-z]{0,3}) (?:nano|micro|small|medium|large|metal|\\d*x ?large)|p[345]d?|a100s?|h100s?|gpu hours?|credits? (?:grants?|balance|burn\\w*)';
/** v27: a zone is a cloud's (an availability zone, cross-zone traffic), not a delivery zone. */
const ZONES_V27 =
  '(?:availability|cloud|aws|gcp|azure|multi|cross|inter|single|hosted|dns) zones?|zones? (?:traffic|transfer|redundan\\w*|outages?)';
const cloudV27 = (re: RegExp): RegExp =>
  new RegExp(
    re.source
      .replace(
        '|idle|',
        '|idle(?! (?:one|a|an|for|on|during|between|overnight|while|at|until|in|each|every|all|most|half|two|three|days?|weeks?|nights?|hours?)\\b)|',
      )
      .replace('|zones?|', `|${ZONES_V27}|`)
      .replace(/\)\\b$/, `|${CLOUD_V27})\\b`),
  );
const CLOUD_CONTEXT_V27 = cloudV27(CLOUD_CONTEXT_V22);
const CLOUD_CONTEXT_V27_V11 = cloudV27(CLOUD_CONTEXT_V22_V11);
/** v7: FinOps's everyday words, which a product's own money uses (keywords as the keyword pass reports them). */
const FINOPS_EVERYDAY = new Set([
  'budget',
  'budgets',
  'spend',
  'spending',
  'month',
  'monthly',
  'billing',
  'bill',
  'bills',
  'price',
  'prices',
  'pricing',
  'cost',
  'costs',
  'invoice',
  'invoices',
  'expensive',
  'cheaper',
  'savings',
  'forecast',
  'money',
  'dollars',
  'charges',
]);

/** v27: FinOps's everyday words also include idle (a trailer sits idle) and a calendar's quarter (a quarter peal). */
const FINOPS_EVERYDAY_V27: ReadonlySet<string> = new Set(['idle', 'quarter', 'quarterly', 'annual', 'yearly']);

/**
 * "Compute" as a verb on the product's own figures ("compute the invoice totals", "compute a cost per serving"), not
 * cloud compute: in v6 it alone is no cloud word.
 */
const COMPUTE_VERB = /\bcompute (the|a|an|each|per|its|their|our|invoice|totals?)\b/g;

/**
 * Whether a task names cloud or infrastructure (v5: FinOps routes only then). `v6`: "compute" followed by an article
 * or a figure is the verb ("compute the estimated cost per serving"), not cloud compute.
 */
export function hasCloudContext(text: string, v6 = false, v8 = false, v14 = false, v22 = false, v27 = false): boolean {
  const norm = normalizeText(text);
  return (
    (v27 ? CLOUD_CONTEXT_V27 : v22 ? CLOUD_CONTEXT_V22 : CLOUD_CONTEXT).test(
      v6 ? norm.replace(COMPUTE_VERB, 'calculate $1') : norm,
    ) ||
    (v8 && HOSTED_V8.test(norm)) ||
    (v14 && CLUSTER_COST_V14.test(norm))
  );
}

/**
 * v7: whether FinOps's evidence in a text is only its everyday words ({@link FINOPS_EVERYDAY}: budget, spend, bill,
 * price...) with no cloud word but "budget" or "account" ({@link CLOUD_CONTEXT_V7}): the product's own money.
 */
export function finopsEverydayOnly(
  matched: readonly string[] | undefined,
  text: string,
  v8 = false,
  v11 = false,
  v14 = false,
  v22 = false,
  v27 = false,
): boolean {
  if (!matched?.length || !matched.every((k) => FINOPS_EVERYDAY.has(k) || (v27 && FINOPS_EVERYDAY_V27.has(k))))
    return false;
  const norm = normalizeText(text);
  const cloud = v27 ? CLOUD_CONTEXT_V27_V11 : v22 ? CLOUD_CONTEXT_V22_V11 : v11 ? CLOUD_CONTEXT_V11 : CLOUD_CONTEXT_V7;
  return (
    !cloud.test(norm.replace(COMPUTE_VERB, 'calculate $1')) &&
    !(v8 && HOSTED_V8.test(norm)) &&
    !(v14 && CLUSTER_COST_V14.test(norm))
  );
}

/**
 * Words that, leading a task, make it a mechanical chore (v5): a rename, a version bump, a typo, a reformat. Their
 * names often hold a domain's jargon ("Rename utils/k8s_names.py to utils/resource_names.py", "Rename the auth module
 * to authn") while the work is the base agent's. In every labelled split, all 26 tasks that lead with "rename" and 12
 * of the 15 that lead with "bump" are `general`; the other 3 bumps name a CVE, hence {@link ADVISORY}.
 */
const CHORE_LEADS = new Set(['rename', 'renames', 'renaming', 'bump', 'bumps', 'reformat', 'typo', 'typos']);
/** A bump that names a security advisory is security work, not a chore. */
const ADVISORY = /\b(cve|ghsa|vulnerab\w*|advisory|security)\b/;
/**
 * An upgrade of the application's own framework or library to a version (v6): "Upgrade the Rails app from 7.1 to 7.2
 * and clear the deprecation warnings", "Update clap from v3 to v4". Not an upgrade guide, and not one of
 * infrastructure or the build ({@link UPGRADE_INFRA}: "Upgrade the EKS cluster to 1.29" is devops work). In every
 * labelled split v6 is fitted on, all 16 such tasks are `general`.
 */
const UPGRADE =
  /^(upgrade|upgrades|upgrading|update|updates|updating) (?!(guide|docs|notes|instructions|path)\b).*\bto (\S+ ){0,2}(v ?\d|\d|latest|lts)/;
const UPGRADE_INFRA =
  /\b(clusters?|node ?pools?|nodes?|k8s|kubernetes|eks|gke|aks|terraform|helm|charts?|postgres\w*|mysql|databases?|dbs?|kafka|elasticsearch|redis|runners?|images?|docker|ci|pipelines?|workflows?|actions|ubuntu|debian|alpine|kernel|os|providers?|operators?|istio|nginx|ingress|gradle|maven|webpack|vite|babel|bazel|sbt|build)\b/;
/**
 * v7: a move of the application's runtime or framework from one version to another is the same chore ("Move the API
 * from Node 18 to Node 22 and Express 4 to 5", "Port the tracker from Scala 2.13 to Scala 3"), and "node" before a
 * version is Node.js, not a machine ({@link UPGRADE_INFRA}). In every labelled split, the 7 tasks that lead with
 * move, migrate, port or switch from a version to a version and name no infrastructure are `general`.
 */
const MOVE_UP =
  /^(move|moves|moving|migrate|migrates|migrating|port|ports|porting|switch) .*\bfrom (\S+ ){0,3}(v ?\d|\d)\S* to (\S+ ){0,2}(v ?\d|\d|latest|lts)/;
const NODE_VERSION = /\bnode (js )?v? ?\d+/g;
/** v17: an arrow from a version to a version ("4.2 → 5.1", "v3 -> v4"). */
const VERSION_ARROW = /(\d[\w.]*)\s*(?:→|->|=>|⇒)\s*(v?\d)/g;
/** ...unless it says there is none (v6): "There's no CVE behind this". */
const NO_ADVISORY = /\b(no|not|nothing|without) (a |an |any |known )?(cve|ghsa|vulnerab\w*|advisory|security)\b/;

/**
 * The chore a task leads with (v5), after an issue prefix such as "[Bug]" or "chore(deps):", or undefined. `v6`: a
 * bump that says it has no advisory ("no CVE behind this") stays a chore, and an upgrade to a version is one. `v7`: a
 * move from a version to a version too ({@link MOVE_UP}).
 */
export function choreLead(text: string, v6 = false, v7 = false, v17 = false): string | undefined {
  // v17: an arrow between versions reads "to" ("Upgrade Django 4.2 → 5.1").
  const rest = (v17 ? text.replace(VERSION_ARROW, '$1 to $2') : text)
    .trim()
    .replace(/^(\[[^\]]*\]\s*)+/, '')
    .replace(/^[a-z]+(\([^)]*\))?!?:\s*/i, '');
  const norm = normalizeText(rest);
  const lead = norm.split(' ')[0];
  const infra = UPGRADE_INFRA.test(v7 ? norm.replace(NODE_VERSION, 'nodejs') : norm);
  const upgrade = UPGRADE.test(norm) || (v7 && MOVE_UP.test(norm));
  if (v6 && upgrade && !infra && (!ADVISORY.test(norm) || NO_ADVISORY.test(norm))) return 'upgrade';
  if (!CHORE_LEADS.has(lead)) return undefined;
  if (lead.startsWith('bump') && ADVISORY.test(norm) && !(v6 && NO_ADVISORY.test(norm))) return undefined;
  return lead;
}

/**
 * Small work a task names, whatever domain's words it holds (v6): a command-line flag as the thing to add or change
 * ("Add a --dry-run flag to cleanup_docker_images.sh"), an off-by-one, or unchanged behaviour ("Split the
 * OrderController ... without changing any routes"), or a rename as a clause of its own. In every labelled split v6 is
 * fitted on, all 53 tasks that name a flag so, all 16 off-by-ones, all 23 that promise unchanged behaviour and all 70
 * with a rename clause (67 of them leading with it) are `general`; no specialist task is caught.
 */
const SMALL_WORK: readonly [string, RegExp][] = [
  [
    'cli flag',
    new RegExp(
      [
        // "--dry-run flag", "--verbose option"
        '--[a-z][\\w-]*[`\'"]?\\s+(flag|option|switch|argument|parameter)s?\\b',
        // "an option called --force"
        '\\b(flag|option|switch|argument|parameter)s?\\s+(called\\s+|named\\s+)?[`\'"]?--[a-z]',
        // "add --json", "rename --out", "support an optional --since"
        '\\b(add|adds|adding|support|supports|accept|accepts|honou?r|rename|renames|remove|removes|drop|deprecate|introduce|expose)\\s+(a\\s+|an\\s+|the\\s+|new\\s+|optional\\s+)*[`\'"]?--[a-z]',
        // "add a flag to the import command"
        '\\b(add|adds|adding|new|support|an?)\\s+(\\S+\\s+){0,2}(cli\\s+)?(flag|option)\\b.{0,40}\\b(to|on|for|of|in)\\s+(the\\s+|our\\s+)?(\\S+\\s+){0,3}(script|command|cli|tool|wrapper|subcommand)\\b',
      ].join('|'),
      'i',
    ),
  ],
  ['off-by-one', /off[- ]by[- ]one/i],
  // A rename as a clause of its own ("...; rename it to CheckIn, including a migration"); a leading one is a chore.
  ['rename', /(^|[.;:!?]\s+|,\s+|\band\s+)(then\s+)?rename\b/i],
  [
    'unchanged behaviour',
    new RegExp(
      [
        // "without changing any routes", "without changing any of the current timeouts" (not "without changing anything")
        '\\bwithout (changing|breaking|altering|touching) (?!anything\\b|something\\b)',
        'no (behaviou?r|functional) changes?',
        'behaviou?r[- ]preserving',
        '(keep|keeping|preserv\\w+) (the |its |all |existing |current )*(behaviou?r|public api) (unchanged|the same|intact)',
        // "Behaviour must stay identical", "The output files must be byte-for-byte the same"
        '\\b(behaviou?r|outputs?|results?|responses?|files?)\\s+(must|should|has to|have to|needs? to)\\s+(stay|remain|be)\\s+(byte[- ]for[- ]byte |bit[- ]for[- ]bit |exactly )?(the same|identical|unchanged)\\b',
        // "Every route, status code and response body must stay exactly the same"
        '\\b(must|should|has to|have to|needs? to|will) (stay|remain) (exactly |byte[- ]for[- ]byte |bit[- ]for[- ]bit )?(the same|identical|unchanged)\\b',
        // "keeping every route and response exactly the same"
        '\\bkeep(ing)? (every|all|each|the)\\s+(\\S+\\s+){0,3}(exactly )?(the same|unchanged)\\b',
      ].join('|'),
      'i',
    ),
  ],
];

/**
 * A ticket's lead that says how it reached the team (v12): "Support escalation:", "Customer escalation -",
 * "Escalated:", "Escalation from support:", after a tracker key such as "[ESC-44]" or "PAY-311:".
 */
const ESCALATION_LEAD =
  /^(\s*(\[[^\]]{1,24}\]|[A-Za-z]{2,10}-\d{1,6}:?)\s*)?(support|customer|client|partner|account|sales|l[1-3])?[\s-]*(escalation|escalated)( from [a-z ]{1,24})?\s*[:\u2013\u2014-]\s*/i;

/** The task without an escalation lead ({@link ESCALATION_LEAD}), or the task itself. */
export function withoutEscalationLead(task: string): string {
  const m = ESCALATION_LEAD.exec(task);
  return m && m[0].length < task.length ? task.slice(m[0].length) : task;
}

/**
 * Attack payloads a tester or a user pastes into a bug report (v13), by the weakness they name. Matched on the raw
 * text: the payload's punctuation is its signature.
 */
const PAYLOADS: readonly [string, RegExp][] = [
  ['sql injection', /'\s*(or|and)\s+'?\w+'?\s*=\s*'?\w+|'\s*;\s*drop\s+table|\bunion\s+(all\s+)?select\b/i],
  [
    'xss',
    /<\s*script[^>]*>\s*(alert|prompt|confirm|document\.|fetch|window\.)|\bon(error|load|mouseover|focus)\s*=\s*["']?\s*(alert|prompt|confirm|fetch|document\.)|javascript:\s*(alert|prompt|confirm|document\.)|\b(alert|prompt|confirm)\(\s*(1|document\.(cookie|domain)|'xss'|"xss")\s*\)/i,
  ],
  ['path traversal', /(\.\.[/\\]){2,}|\.\.[/\\](etc|proc|windows|boot)\b|%2e%2e(%2f|%5c|\/)/i],
  ['ssrf', /169\.254\.169\.254|metadata\.google\.internal|\bfd00:ec2::254\b/i],
  [
    'remote code execution',
    /\$\{jndi:|;\s*(rm\s+-rf|cat\s+\/etc\/passwd|curl\s+https?:|wget\s+https?:)|`[^`]*\b(whoami|uname -a)\b[^`]*`|\$\((whoami|id|uname)\)/i,
  ],
  ['template injection', /\{\{\s*\d+\s*\*\s*\d+\s*\}\}|\$\{\s*\d+\s*\*\s*\d+\s*\}/],
];

/**
 * v21's payloads: v13's, where a command quoted alone (`whoami`, "add a `whoami` subcommand") is a command's name; the
 * payload is the command chained after a shell separator or substituted (`; whoami`, `$(whoami)`).
 */
const PAYLOADS_V21: readonly [string, RegExp][] = PAYLOADS.map(([w, re]) =>
  w === 'remote code execution'
    ? [
        w,
        /\$\{jndi:|;\s*(rm\s+-rf|cat\s+\/etc\/passwd|curl\s+https?:|wget\s+https?:)|`[^`]*(?:[;|&]|\$\()\s*(whoami|uname -a)\b[^`]*`|\$\((whoami|id|uname)\)/i,
      ]
    : [w, re],
);

/** The weaknesses named by the attack payloads a task quotes ({@link PAYLOADS}; v21's {@link PAYLOADS_V21}), in order. */
export function payloadWeaknesses(task: string, v21 = false): string[] {
  return (v21 ? PAYLOADS_V21 : PAYLOADS).filter(([, re]) => re.test(task)).map(([w]) => w);
}

/**
 * A product element's quoted name (v22): a name in quotes right before the element it names ("the 'Security Breach'
 * card", "a 'deploy to client' status", "the 'migration season' price badge"), or a chat command (`!budget command`).
 */
const ELEMENT_NAME_V22 =
  /(['"\u2018\u201c`])([^'"\u2019\u201d`]{2,40})['"\u2019\u201d`](\s+(?:[a-z]+\s+)?(?:cards?|commands?|buttons?|badges?|levels?|modes?|status(?:es)?|options?|columns?|fields?|labels?|tabs?|screens?|menus?|checkbox(?:es)?|tags?|toggles?|settings?|categor(?:y|ies)|sections?|plans?|tiers?|perks?|achievements?|skills?|spells?|items?|flows?|filters?|views?|widgets?|reports?|templates?|steps?|stages?|states?|types?|roles?|lists?)\b)|([!/])([a-z][a-z0-9_-]{1,30})(\s+(?:slash\s+|chat\s+|bot\s+)?commands?\b)/giu;

/**
 * v25's product elements: v22's, named in quotes (a name in backticks is code's: a `fail-fast` option), plus a game's (a power-up, a tower, a spell's buff, a boss, a quest, a trap) and a
 * product's (a step's name was v22's; a panel, a page, a tile, a chip, a stamp, a slot).
 */
const ELEMENT_NAME_V25 =
  /(['"\u2018\u201c])([^'"\u2019\u201d`]{2,40})['"\u2019\u201d](\s+(?:[a-z]+\s+)?(?:cards?|commands?|buttons?|badges?|levels?|modes?|status(?:es)?|options?|columns?|fields?|labels?|tabs?|screens?|menus?|checkbox(?:es)?|tags?|toggles?|settings?|categor(?:y|ies)|sections?|plans?|tiers?|perks?|achievements?|skills?|spells?|items?|flows?|filters?|views?|widgets?|reports?|templates?|steps?|stages?|states?|types?|roles?|lists?|power[ -]?ups?|towers?|buffs?|debuffs?|potions?|weapons?|enem(?:y|ies)|boss(?:es)?|quests?|missions?|traps?|upgrades?|abilit(?:y|ies)|units?|panels?|pages?|tiles?|chips?|stamps?|slots?|rooms?|zones?|events?|rewards?|powers?)\b)|([!/])([a-z][a-z0-9_-]{1,30})(\s+(?:slash\s+|chat\s+|bot\s+)?commands?\b)/giu;

/**
 * v26's product elements: v25's, and a command or subcommand named in backticks (the `changelog` subcommand of an
 * internal CLI) like one named with `!` or `/`.
 */
const ELEMENT_NAME_V26 =
  /(['"\u2018\u201c])([^'"\u2019\u201d`]{2,40})['"\u2019\u201d](\s+(?:[a-z]+\s+)?(?:cards?|commands?|buttons?|badges?|levels?|modes?|status(?:es)?|options?|columns?|fields?|labels?|tabs?|screens?|menus?|checkbox(?:es)?|tags?|toggles?|settings?|categor(?:y|ies)|sections?|plans?|tiers?|perks?|achievements?|skills?|spells?|items?|flows?|filters?|views?|widgets?|reports?|templates?|steps?|stages?|states?|types?|roles?|lists?|power[ -]?ups?|towers?|buffs?|debuffs?|potions?|weapons?|enem(?:y|ies)|boss(?:es)?|quests?|missions?|traps?|upgrades?|abilit(?:y|ies)|units?|panels?|pages?|tiles?|chips?|stamps?|slots?|rooms?|zones?|events?|rewards?|powers?)\b)|([!/]|`)([a-z][a-z0-9_-]{1,30})`?(\s+(?:slash\s+|chat\s+|bot\s+)?(?:sub)?commands?\b)/giu;

/**
 * v28's product elements: v26's, and a quoted name before a figure the product shows (a 'latency' number per batch of a
 * farm's harvest, a 'freshness' score).
 */
const ELEMENT_NAME_V28 = new RegExp(
  ELEMENT_NAME_V26.source.replace('|powers?)\\b)', '|powers?|numbers?|figures?|scores?|counts?|totals?|ratings?)\\b)'),
  ELEMENT_NAME_V26.flags,
);

/**
 * v22: a product element's quoted name and the rest of the task, apart (normalized, space-padded): a domain whose every
 * keyword is inside such names ("the 'Security Breach' card", a `!budget` command) has only a name's words. v25 knows
 * more elements ({@link ELEMENT_NAME_V25}), v26 commands named in backticks ({@link ELEMENT_NAME_V26}).
 */
export function elementNames(task: string, v: 22 | 25 | 26 | 28 = 22): { inside: string; outside: string } {
  const names: string[] = [];
  const outside = task.replace(
    v === 28 ? ELEMENT_NAME_V28 : v === 26 ? ELEMENT_NAME_V26 : v === 25 ? ELEMENT_NAME_V25 : ELEMENT_NAME_V22,
    (
      _whole: string,
      _q: string | undefined,
      name: string | undefined,
      rest: string | undefined,
      _bang: string | undefined,
      cmd: string | undefined,
      cmdRest: string | undefined,
    ) => {
      names.push(name ?? cmd ?? '');
      return ` ${rest ?? cmdRest ?? ''} `;
    },
  );
  return { inside: ` ${normalizeText(names.join(' . '))} `, outside: ` ${normalizeText(outside)} ` };
}

/** The small work a task names (v6: {@link SMALL_WORK}), or undefined. */
export function smallWork(text: string): string | undefined {
  return SMALL_WORK.find(([, re]) => re.test(text))?.[0];
}

/** v17: "without breaking ..." is what a change must keep working, not behaviour a refactor keeps. */
const UNCHANGED_V17 = new RegExp(
  (SMALL_WORK.find(([n]) => n === 'unchanged behaviour')![1] as RegExp).source.replace(
    '(changing|breaking|altering|touching)',
    '(changing|altering|touching)',
  ),
  'i',
);

/**
 * v17's small work: v6's, but a flag, an off-by-one or unchanged behaviour named in docs or testing work is what the
 * docs or the tests are about (documenting a flag, testing an off-by-one, tests that keep behaviour), and "without
 * breaking" a thing is a constraint on the change, not a refactor that keeps behaviour.
 */
export function smallWorkV17(text: string, domain: string | undefined): string | undefined {
  const small = smallWork(text);
  if (!small) return undefined;
  if (domain === Domains.docs || domain === Domains.testing) return undefined;
  // Unchanged behaviour is the last kind of small work: no other kind matched.
  if (small === 'unchanged behaviour' && !UNCHANGED_V17.test(text)) return undefined;
  return small;
}

/**
 * A text's complexity: 1 + length (one per 6 words, at most 4) + work words (at most 3) + other domains with real
 * evidence (at most 2) + specialist jargon (calibrated models: distinct keywords that name a domain on their own, and
 * with v4 and v5 the lexicon's jargon of the primary domain; at most 2) + with v5 one for a primary domain at least
 * {@link V5_CERTAIN} probable, capped at 10.
 */
function complexityOf(
  k: KeywordPass,
  ranked: readonly [string, number][],
  calibrated: boolean,
  lexiconJargon: ReadonlyMap<string, number> | undefined,
  jargonMinWords: number,
  certainty?: number,
): number {
  const otherDomains = ranked.filter(([d, s]) => d !== ranked[0]?.[0] && s >= 3).length;
  // The calibrated model also counts specialist jargon (distinct keywords that name a domain on their own): a short,
  // jargon-dense issue title ("IDOR on GET /invoices/:id") is specialist work, a short plain one ("fix the bug") not.
  let jargon = 0;
  if (calibrated && k.words >= jargonMinWords) for (const n of k.strong.values()) jargon += n;
  // v4 also counts the lexicon's jargon of the primary domain (words 4.5x likelier in its projects' commits).
  if (lexiconJargon && k.words >= jargonMinWords && ranked[0]) jargon += lexiconJargon.get(ranked[0][0]) ?? 0;
  return Math.min(
    10,
    1 +
      Math.min(4, Math.ceil(k.words / 6)) +
      Math.min(3, k.complexityTerms) +
      Math.min(2, otherDomains) +
      Math.min(2, jargon) +
      // v5: a domain the model is sure of (from 3 words) is specialist work.
      (certainty !== undefined && k.words >= JARGON_MIN_WORDS_V4 && certainty >= V5_CERTAIN ? 1 : 0),
  );
}

/** What a calibrated model says of a text: every shown domain's probability, `general`'s, and what v4/v5 add. */
interface ModelConfidences {
  confidences: Record<string, number>;
  general: number | undefined;
  lexiconJargon: ReadonlyMap<string, number> | undefined;
  /** v5: finops's probability went to `general` (the task names no cloud or infrastructure). */
  noCloud: boolean;
  /** v7: the domains whose probability went to `general` (only their everyday words, outside their world). */
  everyday: string[];
  /** v22: the domains whose probability went to `general` (every keyword inside a product element's quoted name). */
  named?: string[];
}

/**
 * v22: moves to `general` the probability of every domain whose keywords are all inside a product element's quoted
 * name ({@link elementNames}), and returns those domains.
 */
function namedOnly(
  text: string,
  k: KeywordPass,
  p: { general: number; domains: Map<string, number> },
  v: 22 | 25 | 26 | 28 = 22,
): string[] {
  const named: string[] = [];
  const { inside, outside } = elementNames(text, v);
  if (!inside.trim()) return named;
  for (const [d, q] of p.domains) {
    const ks = k.matched[d];
    if (q > 0 && ks?.length && ks.every((w) => inside.includes(` ${w} `) && !outside.includes(` ${w} `))) {
      p.general += q;
      p.domains.set(d, 0);
      named.push(d);
    }
  }
  return named;
}

/**
 * The calibrated model's probabilities of a text (v2 to v5). `ranked` (the keyword-scored domains) gets the built-in
 * domains the text's words make probable, and is sorted by probability.
 */
/** Which product elements a model knows (v22, v25, v26, v28). */
const elementVersion = (model: ConfidenceModel): 22 | 25 | 26 | 28 =>
  hasV28Rules(model) ? 28 : hasV26Rules(model) ? 26 : hasV25Rules(model) ? 25 : 22;

/** v28: a conventional commit's type and the domain whose world it names (`test(...)`, `docs:`, `ci:`, `build:`). */
const CONVENTIONAL_V28 = /^(tests?|docs|ci|build)(?:\([^)]*\))?!?:\s/i;
const CONVENTIONAL_DOMAIN_V28: Readonly<Record<string, string>> = {
  test: Domains.testing,
  tests: Domains.testing,
  docs: Domains.docs,
  ci: Domains.devops,
  build: Domains.devops,
};
/** v28: the domain a task's conventional-commit type names ({@link CONVENTIONAL_V28}), if it leads with one. */
export function conventionalDomainV28(text: string): string | undefined {
  const m = CONVENTIONAL_V28.exec(text.trim());
  return m ? CONVENTIONAL_DOMAIN_V28[m[1].toLowerCase()] : undefined;
}

/**
 * Whether a task's FinOps evidence is the product's own money (v5: no cloud or infrastructure word; v7: only FinOps's
 * everyday words and no cloud word but "budget" or "account"), with each model's cloud words.
 */
function productMoney(text: string, k: KeywordPass, model: ConfidenceModel): boolean {
  const [v6, v8, v14, v22, v27] = [hasV6Rules, hasV8Rules, hasV14Rules, hasV22Rules, hasV27Rules].map((r) => r(model));
  return (
    !hasCloudContext(text, v6, v8, v14, v22, v27) ||
    (hasV7Rules(model) && finopsEverydayOnly(k.matched[Domains.finops], text, v8, hasV11Rules(model), v14, v22, v27))
  );
}

function modelConfidences(
  text: string,
  k: KeywordPass,
  model: ConfidenceModel,
  ranked: [string, number][],
): ModelConfidences {
  const { scores } = k;
  const tokens = model === 'calibrated' ? [] : textTokens(normalizeText(text));
  const p = hasV6Rules(model)
    ? routingProbabilitiesV4(
        { evidence: k, tokens },
        model === 'calibrated-v29'
          ? routingModelV29Weights()
          : hasV8Rules(model)
            ? routingModelV8Weights()
            : routingModelV6Weights(),
      )
    : model === 'calibrated-v5'
      ? routingProbabilitiesV4({ evidence: k, tokens }, routingModelV5Weights())
      : model === 'calibrated-v4'
        ? routingProbabilitiesV4({ evidence: k, tokens })
        : model === 'calibrated-v3'
          ? routingProbabilitiesV3({ evidence: k, tokens })
          : routingProbabilities(k);
  const lexiconJargon = 'lexicon' in p ? (p as ReturnType<typeof routingProbabilitiesV4>).lexicon.jargon : undefined;
  // v5: FinOps without a cloud or infrastructure word is the product's own money: its probability counts as general.
  let noCloud = false;
  if (hasV5Rules(model) && (p.domains.get(Domains.finops) ?? 0) > 0 && productMoney(text, k, model)) {
    p.general += p.domains.get(Domains.finops)!;
    p.domains.set(Domains.finops, 0);
    noCloud = true;
  }
  // v7: a domain matched only by its everyday words, in a text that names nothing of its technical world, is the
  // product's own sense of them (./sense.ts): its probability counts as general too. v9 reads more words so.
  const everyday: string[] = [];
  if (hasV7Rules(model)) {
    // v25: a product element's quoted name is no evidence of a domain's world, and its words are not the domain's.
    const v27 = hasV27Rules(model);
    const names = hasV25Rules(model) ? elementNames(text, elementVersion(model) as 25 | 26 | 28) : undefined;
    const norm = names ? (v27 ? names.outside.replace(COUNTED_V27, 'n ') : names.outside).trim() : normalizeText(text);
    const outsideNames = (ks: readonly string[] | undefined): readonly string[] | undefined =>
      names ? ks?.filter((w) => !names.inside.includes(` ${w} `) || names.outside.includes(` ${w} `)) : ks;
    const v: SenseVersion = SENSE_VERSION_OF[model] ?? 7;
    // v28: a conventional commit's type names its domain's world ("test(exunit): cover invoice rounding").
    const typed = hasV28Rules(model) ? conventionalDomainV28(text) : undefined;
    for (const d of Object.keys(everydayWordsOf(v))) {
      const q = p.domains.get(d) ?? 0;
      if (q > 0 && d !== typed && everydayOnly(d, outsideNames(k.matched[d]), norm, v)) {
        p.general += q;
        p.domains.set(d, 0);
        everyday.push(d);
      }
    }
  }
  // v22: a domain whose every keyword is inside a product element's quoted name has only the name's words.
  const named = hasV22Rules(model) ? namedOnly(text, k, p, elementVersion(model)) : [];
  const confidences: Record<string, number> = {};
  // v3 scores every built-in domain from the text's words too: one no keyword matched joins when it is probable.
  // Without any keyword match it must also beat `general` (else the text stays `general`, as with v2).
  for (const [d, q] of p.domains)
    if (!scores.has(d) && q >= V3_MIN_SHOWN && (scores.size > 0 || q > p.general)) ranked.push([d, 0]);
  for (const [d] of ranked) confidences[d] = prob3(p.domains.get(d) ?? 0);
  // The primary domain is the most probable one (ties: the higher keyword score, then the name).
  ranked.sort((a, b) => confidences[b[0]] - confidences[a[0]] || b[1] - a[1] || a[0].localeCompare(b[0]));
  return {
    confidences,
    general: prob3(p.general),
    lexiconJargon,
    noCloud,
    everyday,
    ...(named.length ? { named } : {}),
  };
}

/** The confidences of a text: the calibrated model's, or for `keywords` (routing-v1) the keyword ratio. */
function confidencesOf(
  text: string,
  k: KeywordPass,
  model: ConfidenceModel,
  ranked: [string, number][],
): ModelConfidences {
  if (isCalibrated(model)) return modelConfidences(text, k, model, ranked);
  return {
    confidences: keywordConfidences(ranked),
    general: undefined,
    lexiconJargon: undefined,
    noCloud: false,
    everyday: [],
  };
}

/** The `why` lines of the rules that moved a domain's probability to general (v5's FinOps rule, v7's sense rules). */
function senseWhy(
  noCloud: boolean,
  everyday: readonly string[],
  matched: Record<string, string[]>,
  named: readonly string[] = [],
): string[] {
  const out: string[] = [];
  if (noCloud)
    out.push('finops names no cloud or infrastructure (the product’s own money): its probability counts as general');
  for (const d of everyday)
    out.push(
      `${d} matched only everyday words (${(matched[d] ?? []).join(', ')}) and the text names nothing of its ` +
        'technical world (the product’s own sense): its probability counts as general',
    );
  for (const d of named)
    out.push(
      `${d} matched only words of a product element's quoted name (${(matched[d] ?? []).join(', ')}): its ` +
        'probability counts as general',
    );
  return out;
}

/**
 * v14: a person logging an incident of the trade ("when the harbour office logs an incident like a fog delay", "a
 * member logs a swarm incident") records an event: neither SRE's logs nor its incident work. Read as "records".
 */
const LOGGED_INCIDENT = /\blog(?:s|ged|ging)?(?=\s+(?:an?|the|each|every|any)\s+(?:[\w-]+\s+){0,2}incidents?\b)/gi;

/** v14: the task with a logged incident read as recorded ({@link LOGGED_INCIDENT}). */
export function withoutLoggedIncident(task: string): string {
  return task.replace(LOGGED_INCIDENT, 'records');
}

/**
 * v17: a security deposit or a security guard is the business's own (a rental's deposit, a museum's guards): read as
 * "deposit" and "guard". In every split to heldout-fortysecond.json, all 29 tasks that name one are `general`.
 */
const EVERYDAY_SECURITY = /\bsecurity[ -](deposits?|guards?)\b/gi;

/** v17: the task with a security deposit or guard read as a deposit or guard ({@link EVERYDAY_SECURITY}). */
export function withoutEverydaySecurity(task: string): string {
  return task.replace(EVERYDAY_SECURITY, '$1');
}

/**
 * The text a model reads of a task. v12: a support ticket's "Support escalation:" says how it reached the team, not
 * SRE's escalation. v13: an attack payload the task quotes names its weakness (`' OR 1=1 --` is a SQL injection).
 * v14: a logged incident of the trade is recorded ({@link withoutLoggedIncident}).
 */
export function modelText(
  task: string,
  model: ConfidenceModel,
): { text: string; unled: string; payloads: string[]; recorded: boolean } {
  const unled = model === 'calibrated-v12' || hasV13Rules(model) ? withoutEscalationLead(task) : task;
  const recorded = hasV14Rules(model) ? withoutLoggedIncident(unled) : unled;
  const payloads = hasV13Rules(model) ? payloadWeaknesses(task, hasV21Rules(model)) : [];
  const read = hasV17Rules(model) ? withoutEverydaySecurity(recorded) : recorded;
  return {
    text: payloads.length ? `${read} (${payloads.join(', ')})` : read,
    unled,
    payloads,
    recorded: recorded !== unled,
  };
}

/**
 * Classifies a task text.
 *
 * - The keyword pass ({@link keywordPass}) scores every domain.
 * - Confidence (`calibrated`, the default): the routing model's probability that the domain is the right one
 *   (./model.ts: a softmax over the matched domains and `general`, fitted on labelled tasks and calibrated), so 0.7
 *   means right about 70 % of the time. `keywords` is the v1 score, kept so loops recorded before it replay alike.
 * - Complexity: 1 + length (one per 6 words, at most 4) + work words (implement, migrate, audit...: at most 3) + other
 *   domains with real evidence (at most 2) + jargon (at most 2) + with v5 one for a sure domain, capped at 10
 *   ({@link complexityOf}).
 * - Routed when confidence > `minConfidence`, complexity > `minComplexity`, and a profile serves the domain;
 *   `decidedBy` names the rule that decided.
 */
export function classify(
  task: string,
  index: RoutingIndex = DEFAULT_INDEX,
  rules: Pick<RoutingRules, 'minConfidence' | 'minComplexity'> = ROUTING_DEFAULTS,
): Classification {
  const model = index.model;
  const { text, unled, payloads, recorded } = modelText(task, model);
  const k = keywordPass(text, index);
  const { matched, scores } = k;
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const { confidences, general, lexiconJargon, noCloud, everyday, named } = confidencesOf(text, k, model, ranked);
  const complexity = complexityOf(
    k,
    ranked,
    isCalibrated(model),
    lexiconJargon,
    hasV5Rules(model) || model === 'calibrated-v4' ? JARGON_MIN_WORDS_V4 : JARGON_MIN_WORDS,
    hasV5Rules(model) && ranked[0] ? confidences[ranked[0][0]] : undefined,
  );
  // v5: a task that leads with a mechanical chore is small work (complexity at most 3), whatever jargon it names; v6
  // also one that names a command-line flag, an off-by-one or unchanged behaviour.
  const lead = hasV5Rules(model)
    ? choreLead(text, hasV6Rules(model), hasV7Rules(model), hasV17Rules(model))
    : undefined;
  const chore =
    lead ?? (hasV17Rules(model) ? smallWorkV17(text, ranked[0]?.[0]) : hasV6Rules(model) ? smallWork(text) : undefined);
  const base = {
    complexity: chore ? Math.min(3, complexity) : complexity,
    confidences,
    matched,
    model,
    ...(general !== undefined ? { general } : {}),
    ...(chore ? { chore } : {}),
  };
  const why: string[] = [];
  if (!ranked.length) {
    why.push('no domain keyword matched: general');
    return { domain: Domains.general, confidence: 0, ...base, route: false, decidedBy: 'no_match', why };
  }
  const [domain, score] = ranked[0];
  const confidence = confidences[domain];
  why.push(
    matched[domain]
      ? `${domain} scored ${score} (${matched[domain].join(', ')})`
      : `${domain} from the text's words (no keyword matched)`,
  );
  if (ranked[1]) why.push(`runner-up ${ranked[1][0]} scored ${ranked[1][1]}`);
  for (const p of payloads) why.push(`quotes an attack payload: counted as "${p}"`);
  if (unled !== task) why.push('the escalation lead ("Support escalation:") is how the ticket came in: not counted');
  if (recorded) why.push('a logged incident of the trade is a record ("logs an incident"): read as "records"');
  why.push(...senseWhy(noCloud, everyday, matched, named));
  if (general !== undefined) why.push(`probability ${domain} ${confidence}, no specialist (general) ${general}`);
  const candidates = index.profilesByDomain.get(domain) ?? [];
  const profile = candidates.length
    ? [...candidates].sort((a, b) => (k.profileHits.get(b.name) ?? 0) - (k.profileHits.get(a.name) ?? 0))[0].name
    : undefined;
  let decidedBy: Classification['decidedBy'] = 'routed';
  if (!(confidence > rules.minConfidence)) {
    decidedBy = 'minConfidence';
    why.push(`confidence ${confidence} is not above minConfidence ${rules.minConfidence}: base agent`);
  }
  if (chore)
    why.push(
      lead
        ? `a mechanical chore (leads with "${chore}"): complexity at most 3`
        : `small work (${chore}): complexity at most 3`,
    );
  if (!(base.complexity > rules.minComplexity)) {
    if (decidedBy === 'routed') decidedBy = 'minComplexity';
    why.push(`complexity ${base.complexity} is not above minComplexity ${rules.minComplexity}: base agent`);
  }
  if (!profile) {
    if (decidedBy === 'routed') decidedBy = 'no_profile';
    why.push(`no profile serves domain ${domain}: base agent`);
  }
  const route = decidedBy === 'routed';
  if (route)
    why.push(
      `routed to profile ${profile}: confidence ${confidence} > ${rules.minConfidence}, complexity ${base.complexity} > ${rules.minComplexity}`,
    );
  return { domain, confidence, ...base, route, profile, decidedBy, why };
}

/** What the switch rule decided. */
export interface SwitchVerdict {
  switch: boolean;
  reason: string;
}

/**
 * The domain-switch rule: with `current` active, a new classification switches only when its domain differs, its
 * confidence is above `minConfidence`, and it beats the current domain's confidence on the same text by at least
 * `switchMargin`. Without a current domain the ordinary routing rule applies (`next.route`).
 */
export function shouldSwitch(
  current: { domain: string } | undefined,
  next: Classification,
  rules: Pick<RoutingRules, 'minConfidence' | 'switchMargin'> = ROUTING_DEFAULTS,
): SwitchVerdict {
  if (!current) return { switch: next.route, reason: next.route ? `routed to ${next.domain}` : 'not routed' };
  if (next.domain === current.domain) return { switch: false, reason: `still ${current.domain}` };
  if (next.domain === Domains.general) return { switch: false, reason: `no clear domain: keep ${current.domain}` };
  const cur = next.confidences[current.domain] ?? 0;
  if (!(next.confidence > rules.minConfidence))
    return { switch: false, reason: `${next.domain} ${next.confidence} is not above ${rules.minConfidence}` };
  // Compared in thousandths: 0.9 - 0.7 is 0.19999... in floating point.
  if (Math.round((next.confidence - cur) * 1000) < Math.round(rules.switchMargin * 1000))
    return {
      switch: false,
      reason: `${next.domain} ${next.confidence} is not ${rules.switchMargin} above ${current.domain} ${cur}`,
    };
  return { switch: true, reason: `${current.domain} → ${next.domain} (${cur} → ${next.confidence})` };
}
