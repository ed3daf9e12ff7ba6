/**
 * The agent's behaviour profile: how often it writes nothing, claims falsely, invents files, and what the detectors
 * find, per loop (`profile.json`) and summed over loops (`ralph profile --agent`). Also the circuit breaker that
 * trips when no-files iterations cluster. Pure: every update returns a new object.
 */
import type { Detection } from './detections';
import type { AgentProfile, ChangeSummary, AntiLazinessSettings } from './anti-laziness-types';

/** How many no-files iteration numbers a profile keeps (the circuit breaker only looks at recent ones). */
export const NO_FILES_KEPT = 20;

const round2 = (x: number): number => Math.round(x * 100) / 100;
const perIteration = (files: number, iterations: number): number => (iterations ? round2(files / iterations) : 0);

/** A profile of an agent that has not run yet. */
export function emptyProfile(agent: string): AgentProfile {
  return {
    agent,
    iterations: 0,
    noFilesCount: 0,
    falseCompletions: 0,
    hallucinatedFiles: 0,
    filesChanged: 0,
    filesPerIteration: 0,
    detections: {},
    noFilesIterations: [],
  };
}

/**
 * How many files a `hallucinated_files` detection names: its evidence lines, where a trailing `… N more` (evidence
 * capped by the inspection) stands for N.
 */
function hallucinatedCount(d: Detection): number {
  const last = d.evidence[d.evidence.length - 1];
  const more = last === undefined ? null : /^…\s*(\d+)\s+more$/.exec(last.trim());
  return more ? d.evidence.length - 1 + Number(more[1]) : d.evidence.length;
}

/** The profile after one more iteration: counts its changes and its non-PASS detections. Returns a new object. */
export function updateProfile(
  p: AgentProfile,
  it: { iteration: number; changes?: ChangeSummary; detections: Detection[] },
): AgentProfile {
  const ds = it.detections.filter((d) => d.verdict !== 'PASS');
  const has = (type: string): boolean => ds.some((d) => d.type === type);
  const iterations = p.iterations + 1;
  const filesChanged = p.filesChanged + (it.changes ? it.changes.added + it.changes.modified + it.changes.deleted : 0);
  const detections = { ...p.detections };
  for (const d of ds) detections[d.type] = (detections[d.type] ?? 0) + 1;
  const noFiles = has('no_files_written');
  const noFilesIterations =
    noFiles && !p.noFilesIterations.includes(it.iteration)
      ? [...p.noFilesIterations, it.iteration].slice(-NO_FILES_KEPT)
      : [...p.noFilesIterations];
  return {
    agent: p.agent,
    iterations,
    noFilesCount: p.noFilesCount + (noFiles ? 1 : 0),
    falseCompletions: p.falseCompletions + (has('false_completion') ? 1 : 0),
    hallucinatedFiles:
      p.hallucinatedFiles +
      ds.filter((d) => d.type === 'hallucinated_files').reduce((n, d) => n + hallucinatedCount(d), 0),
    filesChanged,
    filesPerIteration: perIteration(filesChanged, iterations),
    detections,
    noFilesIterations,
  };
}

/**
 * Whether the circuit breaker trips at `iteration`: at least `cfg.noFiles` no-files iterations n within the last
 * `cfg.window` iterations (`iteration - window < n ≤ iteration`).
 */
export function circuitBreaker(
  p: AgentProfile,
  iteration: number,
  cfg: AntiLazinessSettings['circuitBreaker'],
): boolean {
  const recent = p.noFilesIterations.filter((n) => n > iteration - cfg.window && n <= iteration);
  return new Set(recent).size >= cfg.noFiles;
}

/**
 * Sums profiles (one per loop) into one for `agent`. `noFilesIterations` are concatenated in the given order and
 * capped like a single profile's: across loops the numbers are per loop and only show where no-files runs happened.
 */
export function mergeProfiles(agent: string, ps: AgentProfile[]): AgentProfile {
  const out = emptyProfile(agent);
  for (const p of ps) {
    out.iterations += p.iterations;
    out.noFilesCount += p.noFilesCount;
    out.falseCompletions += p.falseCompletions;
    out.hallucinatedFiles += p.hallucinatedFiles;
    out.filesChanged += p.filesChanged;
    for (const [type, n] of Object.entries(p.detections)) out.detections[type] = (out.detections[type] ?? 0) + n;
    out.noFilesIterations.push(...p.noFilesIterations);
  }
  out.noFilesIterations = out.noFilesIterations.slice(-NO_FILES_KEPT);
  out.filesPerIteration = perIteration(out.filesChanged, out.iterations);
  return out;
}
