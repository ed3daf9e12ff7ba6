/**
 * The real agent CLIs (pinned in test/agents, installed on demand by scripts/agents.js) wired to their loopback model
 * stubs: for each adapter, how to start its stub, the agent spec that points the CLI at it (offline, no telemetry, no
 * update check, HOME in a temp dir), and the variable that carries its API key.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentSpec } from '../../src/config/loop-input';
import { startAnthropicStub } from './model-servers/anthropic';
import { startGeminiStub } from './model-servers/gemini';
import { codexProviderArgs, startOpenAIStub } from './model-servers/openai';
import type { StubScript } from './model-servers/script';
import type { ModelServer } from './model-servers/server';

const agents = require('../../scripts/agents.js') as {
  ensure: (o: {
    quiet?: boolean;
  }) => Record<'claude' | 'codex' | 'gemini' | 'aider', { path: string; version: string }>;
};

/** The adapters that run a real CLI against a stub. */
export type RealAdapter = 'claude-code' | 'codex' | 'gemini';

/** Aider (pip) against the Anthropic stub: it edits through text in its "whole" format, no tools. */
export interface RealAider {
  binary: string;
  version: string;
  keyVar: 'ANTHROPIC_API_KEY';
  /** Aider's own few-shot assistant messages before the conversation (whole edit format, no files in the chat). */
  prefixTurns: number;
  spec(stub: ModelServer, home: string, env?: Record<string, string>): AgentSpec;
}

/** Installs the pinned CLIs if needed and describes aider. */
export function realAider(): RealAider {
  const cli = agents.ensure({ quiet: true });
  return {
    binary: cli.aider.path,
    version: cli.aider.version,
    keyVar: 'ANTHROPIC_API_KEY',
    prefixTurns: 3,
    spec: (stub, home, env = {}) => ({
      adapter: 'aider',
      binary: cli.aider.path,
      model: 'anthropic/claude-sonnet-4-20250514',
      args: ['--edit-format', 'whole', '--no-git', '--no-check-update', '--no-analytics', '--no-show-release-notes'],
      env: { HOME: home, ANTHROPIC_BASE_URL: stub.url, ANTHROPIC_API_BASE: stub.url, ...env },
    }),
  };
}

/** One real CLI against its stub. */
export interface RealAgent {
  adapter: RealAdapter;
  /** The executable (the platform's native binary for claude and codex, gemini's bundle). */
  binary: string;
  /** The CLI's package version, as installed. */
  version: string;
  /** The environment variable the CLI reads its API key from. */
  keyVar: string;
  startStub(script: StubScript): Promise<ModelServer>;
  /** The agent spec running the CLI against `stub`, HOME in `home`, with extra env on top. */
  spec(stub: ModelServer, home: string, env?: Record<string, string>): AgentSpec;
}

/** Installs the pinned CLIs if needed (npm ci --prefix test/agents, ~1 min once) and describes each one. */
export function realAgents(): Record<RealAdapter, RealAgent> {
  const cli = agents.ensure({ quiet: true });
  return {
    'claude-code': {
      adapter: 'claude-code',
      binary: cli.claude.path,
      version: cli.claude.version,
      keyVar: 'ANTHROPIC_API_KEY',
      startStub: startAnthropicStub,
      spec: (stub, home, env = {}) => ({
        adapter: 'claude-code',
        binary: cli.claude.path,
        // acceptEdits lets it write files; shell commands need to be allowed by name.
        args: ['--allowedTools', 'Bash'],
        env: {
          HOME: home,
          ANTHROPIC_BASE_URL: stub.url,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
          // The loop, not the CLI, decides what a refused request means: no retries inside the CLI.
          CLAUDE_CODE_MAX_RETRIES: '0',
          ...env,
        },
      }),
    },
    codex: {
      adapter: 'codex',
      binary: cli.codex.path,
      version: cli.codex.version,
      keyVar: 'RALPH_STUB_OPENAI_KEY',
      startStub: startOpenAIStub,
      spec: (stub, home, env = {}) => {
        // codex refuses to start when CODEX_HOME does not exist (a sandboxed run creates it; a bare one, as a user's
        // first `codex login` would).
        fs.mkdirSync(path.join(home, '.codex'), { recursive: true });
        return {
          adapter: 'codex',
          binary: cli.codex.path,
          args: codexProviderArgs(stub.url, 'RALPH_STUB_OPENAI_KEY'),
          env: { HOME: home, CODEX_HOME: path.join(home, '.codex'), ...env },
        };
      },
    },
    gemini: {
      adapter: 'gemini',
      binary: cli.gemini.path,
      version: cli.gemini.version,
      keyVar: 'GEMINI_API_KEY',
      startStub: startGeminiStub,
      spec: (stub, home, env = {}) => {
        // API-key auth must be selected in the user settings; statistics and update checks off.
        fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
        fs.writeFileSync(
          path.join(home, '.gemini', 'settings.json'),
          JSON.stringify({
            security: { auth: { selectedType: 'gemini-api-key' } },
            privacy: { usageStatisticsEnabled: false },
            general: { disableAutoUpdate: true },
          }),
        );
        return {
          adapter: 'gemini',
          binary: cli.gemini.path,
          // A fixed model skips the CLI's model router (one request less per turn).
          model: 'gemini-2.5-flash',
          args: [],
          env: {
            HOME: home,
            GOOGLE_GEMINI_BASE_URL: stub.url,
            GEMINI_CLI_TRUST_WORKSPACE: 'true',
            GEMINI_CLI_NO_RELAUNCH: 'true',
            ...env,
          },
        };
      },
    },
  };
}

/** A fresh temp HOME for one agent run. */
export function tempHome(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-agent-home-'));
}
