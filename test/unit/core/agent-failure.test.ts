import fs from 'node:fs';
import path from 'node:path';
import { getAdapter } from '../../../src/activities/agents';
import type { AgentAdapter } from '../../../src/config/loop-input';
import { classifyAgentFailure, isInfraFailure } from '../../../src/core/agent-failure';
import { NOW } from '../../helpers/fake-agents';

/** Output of the real CLIs (claude 2.1.330, codex 0.169.0, gemini 0.61.0) against the model stubs. */
const REAL = path.resolve(__dirname, '../../fixtures/agent-output/real');

/** Classifies a captured run the way runAgent does: the adapter parses it, the classifier reads the result. */
function classifyFixture(adapter: AgentAdapter, name: string, exitCode: number) {
  const stdout = fs.readFileSync(path.join(REAL, `${name}.stdout.${adapter === 'gemini' ? 'json' : 'jsonl'}`), 'utf8');
  const stderr = fs.readFileSync(path.join(REAL, `${name}.stderr.txt`), 'utf8');
  const parsed = getAdapter(adapter).parse({ stdout, stderr, exitCode, now: NOW });
  return {
    parsed,
    failure: classifyAgentFailure({
      adapter,
      exitCode,
      finalText: parsed.finalText,
      stderr,
      isError: parsed.isError,
      usageLimit: parsed.usageLimit,
      apiStatus: parsed.apiStatus,
    }),
  };
}

describe('classifyAgentFailure on the real CLIs output', () => {
  it.each([
    ['claude-code', 'claude-not-logged-in', 1, /Not logged in.*ANTHROPIC_API_KEY.*claude \/login/],
    ['claude-code', 'claude-invalid-key', 1, /Invalid API key.*ANTHROPIC_API_KEY/],
    ['codex', 'codex-401', 1, /401 Unauthorized.*CODEX_API_KEY or OPENAI_API_KEY.*codex login/],
    ['codex', 'codex-no-key', 1, /set RALPH_STUB_OPENAI_KEY in agent.env/],
    ['gemini', 'gemini-400', 144, /API key not valid.*GEMINI_API_KEY/],
    ['gemini', 'gemini-no-key', 41, /set GEMINI_API_KEY in agent.env/],
  ] as const)('%s: %s is an auth failure whose message says how to fix it', (adapter, name, code, fix) => {
    const { failure } = classifyFixture(adapter, name, code);
    expect(failure?.kind).toBe('auth');
    expect(failure?.message).toMatch(fix);
    expect(failure?.message.split('\n')).toHaveLength(1);
  });

  it.each([
    ['claude-code', 'claude-529', 1],
    ['codex', 'codex-503', 1],
  ] as const)('%s: %s is an overloaded API', (adapter, name, code) => {
    expect(classifyFixture(adapter, name, code).failure?.kind).toBe('overloaded');
  });

  it('reads codex 429 as a usage limit reset at its "try again at" time', () => {
    const { failure, parsed } = classifyFixture('codex', 'codex-429', 1);
    expect(failure?.kind).toBe('usage_limit');
    expect(parsed.usageLimit?.message).toMatch(/hit your usage limit/);
    // "try again at 6:02 PM", read as UTC (the CLI ran in UTC): the next 18:02 after NOW (12:00).
    expect(parsed.usageLimit?.resetAt).toBe(Date.UTC(2026, 0, 15, 18, 2));
  });

  it('reads claude 429 as a usage limit', () => {
    const { failure, parsed } = classifyFixture('claude-code', 'claude-429', 1);
    expect(failure?.kind).toBe('usage_limit');
    expect(parsed.usageLimit?.message).toMatch(/429/);
  });

  it('reads gemini 429 as a usage limit reset by the RetryInfo delay', () => {
    const { failure, parsed } = classifyFixture('gemini', 'gemini-429', 173);
    expect(failure?.kind).toBe('usage_limit');
    expect(parsed.usageLimit?.resetAt).toBe(NOW + 5400 * 1000);
  });
});

describe('classifyAgentFailure', () => {
  const base = { adapter: 'claude-code', exitCode: 0, finalText: 'done', stderr: '' };

  it('returns nothing for a successful run, even one that talks about API keys', () => {
    expect(
      classifyAgentFailure({ ...base, finalText: 'I fixed the invalid API key check; 401 Unauthorized is handled' }),
    ).toBeUndefined();
  });

  it('calls any other failed run a task failure, naming its first line', () => {
    expect(classifyAgentFailure({ ...base, exitCode: 2, finalText: 'tests failed\nmore' })).toEqual({
      kind: 'task',
      message: 'tests failed',
    });
  });

  it('reads an HTTP 401 status as auth even without a known message', () => {
    expect(classifyAgentFailure({ ...base, exitCode: 1, isError: true, finalText: 'boom', apiStatus: 401 })?.kind).toBe(
      'auth',
    );
  });

  it('names --agent-binary when the shell could not find the executable', () => {
    const f = classifyAgentFailure({
      ...base,
      exitCode: 127,
      finalText: '',
      stderr: 'sh: 1: claude: command not found',
    });
    expect(f?.kind).toBe('binary_missing');
    expect(f?.message).toMatch(/--agent-binary/);
  });

  it('tells infrastructure kinds from the agent own failures', () => {
    expect(['auth', 'usage_limit', 'overloaded', 'binary_missing'].every((k) => isInfraFailure(k as never))).toBe(true);
    expect(isInfraFailure('task')).toBe(false);
    expect(isInfraFailure(undefined)).toBe(false);
  });
});
