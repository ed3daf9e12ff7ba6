/**
 * The loop's verification manifest, `<loopDir>/verification/manifest.json`: the protected set recorded at loop start,
 * the rules it came from and where the baseline checkpoint is. Written by recordVerificationBaseline, read by
 * verifyWork and by `ralph hook pre-tool-use` (which denies writes to protected paths).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AllowedEntry, ProtectedEntry } from '../core/verification/protected-set';
import { loopDir, writeJsonAtomic } from './artifacts';

/** Label of the verification baseline checkpoint. */
export const BASELINE_LABEL = 'verification-baseline';

/** The manifest's content. */
export interface VerificationManifest {
  version: 1;
  loopId: string;
  createdAt: string;
  workspace: string;
  /** `git`: the baseline is commit `baseline.commit` under `baseline.ref`; `dir`: the archive at `baseline.ref`. */
  kind: 'git' | 'dir';
  baseline: { label: string; ref: string; commit: string | null };
  rules: { protect: string[]; allow: string[]; task: string; commands: string[] };
  /** The hook's answer to a write of a protected path. */
  hookPolicy: 'deny' | 'warn';
  protected: ProtectedEntry[];
  allowed: AllowedEntry[];
  /**
   * Paths git ignored or excluded at the baseline (its `--ignored --directory` listing; git workspaces): a new one at
   * a claim is a file no checkpoint holds that a tool may read. Absent in manifests from before it was recorded.
   */
  ignored?: string[];
  /** Signatures of the ignored paths that are the user's own (not build outputs or dependency folders). */
  ignoredSignatures?: Record<string, string>;
  /** Fingerprints of the dependency folders at the baseline. Absent in manifests from before they were recorded. */
  dependencies?: DependencyFingerprint[];
}

/** One dependency folder's fingerprint (see activities/verification/dependencies.ts). */
export interface DependencyFingerprint {
  /** Workspace-relative path (`node_modules`, `packages/web/node_modules`, `.venv`). */
  path: string;
  entries: number;
  sha256: string;
}

/** Folder of a loop's verification files. */
export const verificationDir = (stateDir: string, loopId: string): string =>
  path.join(loopDir(stateDir, loopId), 'verification');

/** Path of a loop's verification manifest. */
export const manifestFile = (stateDir: string, loopId: string): string =>
  path.join(verificationDir(stateDir, loopId), 'manifest.json');

/** Writes the manifest atomically. */
export function writeManifest(stateDir: string, m: VerificationManifest): string {
  const file = manifestFile(stateDir, m.loopId);
  writeJsonAtomic(file, m);
  return file;
}

/** Reads a loop's manifest; undefined when the loop has none (verification off, or a loop from before it). */
export function readManifest(stateDir: string, loopId: string): VerificationManifest | undefined {
  let text: string;
  try {
    text = fs.readFileSync(manifestFile(stateDir, loopId), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const m = JSON.parse(text) as VerificationManifest;
  if (m?.version !== 1 || !Array.isArray(m.protected))
    throw new Error(`${manifestFile(stateDir, loopId)} is not a verification manifest (version 1)`);
  return m;
}
