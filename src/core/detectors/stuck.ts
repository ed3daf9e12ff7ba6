/**
 * Stuck-loop and plateau detection. Each iteration leaves a small fingerprint (hashes of its normalised failure, its
 * diff, the workspace after it and the agent's answer); comparing the recent ones tells an agent that is trying
 * things apart from one that is going round in circles.
 */
import { detection, type Detection } from '../detections';
import type { IterationFingerprint, AntiLazinessSettings } from '../anti-laziness-types';

const hex16 = (v: number): string => v.toString(16).padStart(4, '0');

/**
 * Hashes text to 16 hex characters: FNV-1a 64-bit over its UTF-8 bytes. Deterministic and pure, so the workflow and
 * the activities compute the same signature for the same text.
 */
export function shortHash(text: string): string {
  // The 64-bit state is kept in four 16-bit limbs (v0 lowest) so every product stays exact in a double; no BigInt.
  let v0 = 0x2325;
  let v1 = 0x8422;
  let v2 = 0x9ce4;
  let v3 = 0xcbf2;
  const step = (byte: number): void => {
    v0 ^= byte;
    // Multiply by the FNV prime 2^40 + 0x1b3: each limb times 0x1b3, plus the state shifted left by 40 bits.
    const t0 = v0 * 0x1b3;
    let t1 = v1 * 0x1b3;
    let t2 = v2 * 0x1b3 + (v0 << 8);
    let t3 = v3 * 0x1b3 + (v1 << 8);
    t1 += t0 >>> 16;
    t2 += t1 >>> 16;
    t3 += t2 >>> 16;
    v0 = t0 & 0xffff;
    v1 = t1 & 0xffff;
    v2 = t2 & 0xffff;
    v3 = t3 & 0xffff;
  };
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    const low = cp >= 0xd800 && cp < 0xdc00 ? text.charCodeAt(i + 1) : NaN;
    if (low >= 0xdc00 && low < 0xe000) {
      cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
      i++;
    }
    // UTF-8; a lone surrogate is encoded as its 3 bytes (as WTF-8 does).
    if (cp < 0x80) step(cp);
    else if (cp < 0x800) {
      step(0xc0 | (cp >> 6));
      step(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      step(0xe0 | (cp >> 12));
      step(0x80 | ((cp >> 6) & 0x3f));
      step(0x80 | (cp & 0x3f));
    } else {
      step(0xf0 | (cp >> 18));
      step(0x80 | ((cp >> 12) & 0x3f));
      step(0x80 | ((cp >> 6) & 0x3f));
      step(0x80 | (cp & 0x3f));
    }
  }
  return hex16(v3) + hex16(v2) + hex16(v1) + hex16(v0);
}

// Built from a string so the source holds no control character (eslint's no-control-regex).
const ansi = new RegExp(`${String.fromCharCode(27)}(?:\\[[0-?]*[ -/]*[@-~]|[@-Z\\\\-_])`, 'g');

/** Stack frame lines: JS `    at fn (file:1:2)` / `    at file:1:2` / `at new Promise (<anonymous>)`, Go `\tfile.go:12 +0x1d`. */
const stackFrame =
  /^\s*at\s+(?:[^()]*\([^()]*\)|\S+:\d+(?::\d+)?|<anonymous>)\s*$|^\s+\S+\.go:\d+(?:\s+\+0x[0-9a-f]+)?\s*$/i;

/** What varies between two runs of the same failure, in the order it is replaced. */
const volatile: [RegExp, string][] = [
  // Temp dirs first, before their random names are taken for hex: keep what follows the random directory.
  [/(?:\/private)?\/var\/folders\/[^/\s]+\/[^/\s]+\/T\/[^/\s'"`:)]*/g, '<tmp>'],
  [/(?<![\w.-])(?:\/private)?\/tmp\/[^/\s'"`:)]*/g, '<tmp>'],
  [/\b[a-z]:\\(?:[^\\\s]+\\)*?temp\\[^\\\s'"`:)]*/gi, '<tmp>'],
  [/\b\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:z|[+-]\d{2}:?\d{2})?(?![\w:])/gi, '<time>'],
  [/\b\d{4}[-/]\d{2}[-/]\d{2}\b/g, '<date>'],
  [
    /\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,? +(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* +\d{1,2}\b(?:,? +\d{4}\b)?/gi,
    '<date>',
  ],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>'],
  // Epoch milliseconds (2017-2033).
  [/\b1[5-9]\d{11}\b/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  // 7+ hex digits with at least one digit and one letter: hashes and addresses, not words or plain numbers.
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/gi, '<hex>'],
  [/\bpid[:= ]\s*\d+/gi, 'pid <n>'],
  [/\[\d{2,7}\]/g, '[<n>]'],
  [/\bgoroutine \d+\b/g, 'goroutine <n>'],
  [/\b\d+(?:\.\d+)?\s?(?:ms|µs|us|ns|s|secs?|seconds?|m|mins?|minutes?)\b/gi, '<dur>'],
];

/**
 * Normalises the text of a failure so that two runs of the same failure give the same text (and hash). Drops ANSI
 * colour codes and stack frame lines (`    at fn (file:1:2)`); replaces temp directories (`/tmp/x`, `/var/folders/…/T/x`,
 * `C:\…\Temp\x`; the path below them is kept), timestamps, clock times, durations (`(5 ms)`, `in 1.23s`,
 * `Time: 0.5 s`), pids (`pid 1234`, `[1234]`), UUIDs and hex addresses or hashes with placeholders; collapses
 * whitespace and lowercases. Error messages, file names and the `file:line` of error locations are kept, so different
 * failures stay different.
 */
export function normaliseError(text: string): string {
  let out = text
    .replace(ansi, '')
    .split(/\r?\n/)
    .filter((line) => !stackFrame.test(line))
    .join('\n');
  for (const [re, placeholder] of volatile) out = out.replace(re, placeholder);
  return out.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Whether every value is known and equal to the others. */
const allSame = (values: (string | undefined)[]): boolean =>
  values.length > 0 && values[0] !== undefined && values.every((v) => v === values[0]);

/** Whether every value is known and different from the others. */
const allDistinct = (values: (string | undefined)[]): boolean =>
  values.every((v) => v !== undefined) && new Set(values).size === values.length;

/** Whether two known values are equal. */
const repeats = (values: (string | undefined)[]): boolean => {
  const known = values.filter((v): v is string => v !== undefined);
  return new Set(known).size < known.length;
};

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const span = (w: IterationFingerprint[]): string => `iterations ${w[0].n}-${w[w.length - 1].n}`;

const points = (q: number): string => String(Math.round(q * 10) / 10);

/**
 * The different-errors rule of {@link detectStuck} over the window `w` (oldest first), `prev` the fingerprint before
 * it: every iteration of the window failed, not all with the same error, and none of them raised the quality over the
 * iteration before it (the first one over `prev`, when `prev` has a quality).
 */
function differentErrors(
  w: IterationFingerprint[],
  prev: IterationFingerprint | undefined,
  stuck: (details: string, evidence: string[]) => void,
): void {
  const sigs = w.map((f) => f.errorSig);
  if (sigs.some((e) => e === undefined) || allSame(sigs)) return;
  if (w.some((f) => f.quality === undefined)) return;
  const qs = [...(prev?.quality !== undefined ? [prev.quality] : []), ...w.map((f) => f.quality!)];
  if (qs.some((q, i) => i > 0 && q > qs[i - 1])) return;
  stuck(
    `${w.length} failing iterations in a row with different errors and no quality progress ` +
      `(quality ${qs.map(points).join(' → ')}, ${span(w)}): each attempt breaks something else; ` +
      `the agent needs a different approach.`,
    w.map(
      (f) =>
        `iteration ${f.n}: error ${f.errorSig}${f.error ? ` (${clip(f.error, 80)})` : ''}, quality ${points(f.quality!)}`,
    ),
  );
}

/**
 * Finds stuck loops in the recent fingerprints (oldest first). Each rule gives at most one `stuck_loop` detection,
 * critical (BLOCK):
 * - same error: the last `sameError` fingerprints share one known `errorSig`, and the agent was not making real
 *   attempts. It was making attempts when each of those iterations changed files with a diff of its own (all
 *   `diffSig`s known and distinct) and the workspace never came back to an earlier state (no `stateSig` repeats). So
 *   re-running the same command over different files while the error text stays the same does not fire; doing
 *   nothing, repeating a change or undoing it does.
 * - same output: the last `sameOutput` fingerprints share one known `diffSig`, or share one known `outputSig` while
 *   changing no file.
 * - oscillation (when `oscillation` is on): the last four `stateSig`s are X, Y, X, Y with X ≠ Y.
 * - no progress: the last `noProgress` fingerprints changed no file.
 * - different errors (when `differentErrors` is set): the last `differentErrors` iterations all failed (known
 *   `errorSig`s, not all the same: that case is the same-error rule's) and none of them raised the quality over the
 *   iteration before it. Every quality must be known: without gates there is no measure of progress, and a run of
 *   different errors is then an agent working through its failures, not a stuck one.
 *
 * Unknown signatures never match. Returns an empty array when nothing fires.
 */
export function detectStuck(fps: IterationFingerprint[], cfg: AntiLazinessSettings['stuck']): Detection[] {
  const out: Detection[] = [];
  const last = (k: number): IterationFingerprint[] | undefined =>
    k > 0 && fps.length >= k ? fps.slice(fps.length - k) : undefined;
  const stuck = (details: string, evidence: string[]): void => {
    out.push(detection('stuck_loop', 'critical', details, evidence));
  };

  const errors = last(cfg.sameError);
  if (errors && allSame(errors.map((f) => f.errorSig))) {
    const attempts = allDistinct(errors.map((f) => f.diffSig)) && !repeats(errors.map((f) => f.stateSig));
    if (!attempts) {
      const latest = errors[errors.length - 1];
      stuck(
        `Same error ${errors.length} iterations in a row: ${clip(latest.error ?? `error ${latest.errorSig}`, 120)} ` +
          `(${span(errors)}). What the agent changed did not change the outcome; it needs a different approach.`,
        errors.map(
          (f) => `iteration ${f.n}: error ${f.errorSig}, diff ${f.diffSig ?? 'none'}, state ${f.stateSig ?? 'unknown'}`,
        ),
      );
    }
  }

  const outputs = last(cfg.sameOutput);
  if (outputs && allSame(outputs.map((f) => f.diffSig))) {
    stuck(
      `Identical diff repeated ${outputs.length} times (${span(outputs)}): the agent keeps making the same change.`,
      outputs.map((f) => `iteration ${f.n}: diff ${f.diffSig}`),
    );
  } else if (outputs && allSame(outputs.map((f) => f.outputSig)) && outputs.every((f) => f.changed === 0)) {
    stuck(
      `Identical answer repeated ${outputs.length} times with no file changed (${span(outputs)}): the agent keeps ` +
        `saying the same thing instead of working.`,
      outputs.map((f) => `iteration ${f.n}: answer ${f.outputSig}, 0 files changed`),
    );
  }

  const four = cfg.oscillation ? last(4) : undefined;
  if (four) {
    const [a, b, c, d] = four.map((f) => f.stateSig);
    if (a !== undefined && b !== undefined && a !== b && a === c && b === d) {
      stuck(
        `A-B-A-B oscillation between two workspace states over ${span(four)}: the agent keeps undoing its own change.`,
        four.map((f) => `iteration ${f.n}: state ${f.stateSig}`),
      );
    }
  }

  const k = cfg.differentErrors ?? 0;
  const failing = last(k);
  if (failing) differentErrors(failing, fps[fps.length - k - 1], stuck);

  const idle = last(cfg.noProgress);
  if (idle && idle.every((f) => f.changed === 0)) {
    stuck(
      `No file changed for ${idle.length} iterations (${span(idle)}): the loop is making no progress.`,
      idle.map((f) => `iteration ${f.n}: 0 files changed${f.errorSig ? `, error ${f.errorSig}` : ''}`),
    );
  }
  return out;
}

/**
 * Detects a quality plateau in the quality scores (0-100) of the iterations that had one, oldest first: at least
 * `window + 1` scores, the last `window` changes between consecutive scores all smaller than `minDelta` points, and
 * the last score below 100. Gives a `quality_plateau` warning (WARN), or undefined.
 */
export function detectPlateau(qualities: number[], cfg: AntiLazinessSettings['plateau']): Detection | undefined {
  const { window, minDelta } = cfg;
  if (window < 1 || qualities.length < window + 1) return undefined;
  const tail = qualities.slice(qualities.length - window - 1);
  const latest = tail[tail.length - 1];
  const deltas = tail.slice(1).map((q, i) => q - tail[i]);
  if (latest >= 100 || !deltas.every((d) => Math.abs(d) < minDelta)) return undefined;
  return detection(
    'quality_plateau',
    'warning',
    `Quality plateaued at ${points(latest)} over the last ${window} iterations (${tail.map(points).join(' → ')}; ` +
      `every change under ${points(minDelta)} points): more of the same will not get there, try a different approach.`,
    deltas.map((d, i) => `quality ${points(tail[i])} → ${points(tail[i + 1])} (${d >= 0 ? '+' : ''}${points(d)})`),
  );
}
