import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readAudit } from '../../../../src/state/audit';
import { recordVerificationBaseline } from '../../../../src/activities/verification/record-baseline';
import { runHook } from '../../../../src/cli/commands/hook';

const git = (dir: string, ...a: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: dir, encoding: 'utf8' });

const MATH_TEST = [
  "const { add } = require('../src/math');",
  '',
  "describe('add', () => {",
  "  it('adds two numbers', () => {",
  '    expect(add(1, 2)).toBe(3);',
  '  });',
  '});',
  '',
].join('\n');
const ADDS_TWO = "  it('adds two numbers', () => {";

async function loop(hookPolicy: 'deny' | 'warn' = 'deny') {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-hook-guard-'));
  fs.mkdirSync(path.join(ws, 'test'));
  fs.writeFileSync(path.join(ws, 'test/run.js'), 'require("assert")(require("fs").existsSync("hello.txt"));\n');
  fs.writeFileSync(path.join(ws, 'package.json'), JSON.stringify({ scripts: { test: 'node test/run.js' } }, null, 2));
  fs.writeFileSync(path.join(ws, 'test/math.test.js'), MATH_TEST);
  git(ws, 'init', '-q', '-b', 'main');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'init');
  const stateDir = path.join(ws, '.ralph');
  await recordVerificationBaseline({
    loopId: 'L',
    workspace: ws,
    stateDir,
    prompt: 'create hello.txt',
    commands: ['npm test'],
    verification: { protect: [], allow: [], hookPolicy },
  });
  const env = { RALPH_LOOP_ID: 'L', RALPH_STATE_DIR: stateDir, RALPH_WORKSPACE: ws, RALPH_ITERATION: '1' };
  const call = (
    tool: string,
    input: Record<string, unknown>,
    event: 'pre-tool-use' | 'post-tool-use' = 'pre-tool-use',
    response?: Record<string, unknown> | string,
    extra: Record<string, unknown> = {},
  ) =>
    runHook(
      event,
      JSON.stringify({
        tool_name: tool,
        tool_input: input,
        cwd: ws,
        ...(response !== undefined ? { tool_response: response } : {}),
        ...extra,
      }),
      env,
    );
  return { ws, stateDir, call };
}

const decision = (output: Record<string, unknown>) =>
  (output.hookSpecificOutput as Record<string, unknown> | undefined)?.permissionDecision;

describe('ralph hook and protected paths', () => {
  it('denies a write of a protected test with the reason, and logs it as a protected edit', async () => {
    const { ws, stateDir, call } = await loop();
    const r = await call('Write', { file_path: path.join(ws, 'test/run.js'), content: 'console.log("ok")' });
    expect(decision(r.output)).toBe('deny');
    expect(JSON.stringify(r.output)).toContain('are not yours to change');
    expect(await readAudit(stateDir, 'L')).toEqual([
      expect.objectContaining({ category: 'protected_edit', decision: 'deny', target: 'test/run.js' }),
    ]);
  });

  it('denies deleting the test folder and editing the test script, allows a dependency and a new test', async () => {
    const { ws, call } = await loop();
    expect(decision((await call('Bash', { command: 'rm -rf test' })).output)).toBe('deny');
    const pkg = fs.readFileSync(path.join(ws, 'package.json'), 'utf8');
    const script = await call('Edit', {
      file_path: path.join(ws, 'package.json'),
      old_string: '"node test/run.js"',
      new_string: '"node test/run.js || true"',
    });
    expect(decision(script.output)).toBe('deny');
    const dep = await call('Write', {
      file_path: path.join(ws, 'package.json'),
      content: pkg.replace('{', '{\n  "dependencies": { "zod": "4" },'),
    });
    expect(decision(dep.output)).toBeUndefined();
    const fresh = await call('Write', { file_path: path.join(ws, 'test/hello.test.js'), content: 'x' });
    // A new test is no protected file: at most the usual test-edit warning, never a deny.
    expect(decision(fresh.output)).toBeUndefined();
    expect(JSON.stringify(fresh.output)).not.toContain('is protected');
    expect(decision((await call('Write', { file_path: path.join(ws, 'vitest.config.ts'), content: 'x' })).output)).toBe(
      'deny',
    );
  });

  it('only warns under hookPolicy warn, and reminds the agent after the call', async () => {
    const { ws, call } = await loop('warn');
    const pre = await call('Edit', { file_path: path.join(ws, 'test/run.js'), old_string: 'a', new_string: 'b' });
    expect(decision(pre.output)).toBeUndefined();
    expect(JSON.stringify(pre.output)).toContain('test/run.js (named by check) is protected');
    const post = await call('Edit', { file_path: path.join(ws, 'test/run.js') }, 'post-tool-use');
    expect(JSON.stringify(post.output)).toContain('You changed test/run.js');
  });

  it('lets an edit that only adds a case to a protected test through, before and after the call', async () => {
    const { ws, stateDir, call } = await loop();
    const file = path.join(ws, 'test/math.test.js');
    const newCase = `  it('adds negatives', () => {\n    expect(add(-1, -2)).toBe(-3);\n  });\n\n${ADDS_TWO}`;
    const edit = { file_path: file, old_string: ADDS_TWO, new_string: newCase };
    const pre = await call('Edit', edit);
    expect(decision(pre.output)).toBeUndefined();
    expect(JSON.stringify(pre.output)).not.toContain('is protected');
    fs.writeFileSync(file, MATH_TEST.replace(ADDS_TWO, newCase));
    const post = await call('Edit', edit, 'post-tool-use', { filePath: file, originalFile: MATH_TEST });
    expect(JSON.stringify(post.output)).not.toContain('You changed');
    // A renamed test is as honest (a Write of the whole file this time).
    const renamed = fs.readFileSync(file, 'utf8').replace('adds two numbers', 'adds two positive numbers');
    expect(decision((await call('Write', { file_path: file, content: renamed })).output)).toBeUndefined();
    expect((await readAudit(stateDir, 'L')).filter((e) => e.category === 'protected_edit')).toEqual([]);
  });

  it('still denies an edit of a protected test that changes, skips or removes an existing case', async () => {
    const { ws, call } = await loop();
    const file = path.join(ws, 'test/math.test.js');
    const denied = async (old_string: string, new_string: string) =>
      decision((await call('Edit', { file_path: file, old_string, new_string })).output);
    expect(await denied('toBe(3)', 'toBeDefined()')).toBe('deny');
    expect(await denied("it('adds two", "it.skip('adds two")).toBe('deny');
    // A new case alongside a skipped old one is no honest addition either.
    expect(
      await denied(ADDS_TWO, `  it('adds zero', () => {\n    expect(add(0, 0)).toBe(0);\n  });\n\n  it.skip(`),
    ).toBe('deny');
    expect(decision((await call('Write', { file_path: file, content: '' })).output)).toBe('deny');
    // After the call, without the original text the edit cannot be judged: the reminder stays.
    const post = await call('Edit', { file_path: file, old_string: 'x', new_string: 'y' }, 'post-tool-use');
    expect(JSON.stringify(post.output)).toContain('You changed test/math.test.js');
  });

  describe("Codex's patches (apply_patch, as codex 0.169 sends them)", () => {
    const ADD_CASE =
      "*** Begin Patch\n*** Update File: test/math.test.js\n@@\n     expect(add(1, 2)).toBe(3);\n   });\n+  it('adds negatives', () => {\n+    expect(add(-1, -2)).toBe(-3);\n+  });\n });\n*** End Patch\n";
    const DROP_CASE =
      "*** Begin Patch\n*** Update File: test/math.test.js\n@@\n-  it('adds two numbers', () => {\n-    expect(add(1, 2)).toBe(3);\n-  });\n*** End Patch\n";
    const heredoc = (patch: string) => ({ command: `apply_patch <<'PATCH'\n${patch}PATCH` });

    it('denies a patch that removes a protected test, as the tool or in a shell heredoc, with the reason', async () => {
      const { call } = await loop();
      const tool = await call('apply_patch', { command: DROP_CASE });
      expect(decision(tool.output)).toBe('deny');
      expect(JSON.stringify(tool.output)).toContain('test/math.test.js (test) is protected');
      expect(decision((await call('Bash', heredoc(DROP_CASE))).output)).toBe('deny');
    });

    it('lets a patch that only adds a case through, before and after the call', async () => {
      const { ws, call } = await loop();
      expect(decision((await call('apply_patch', { command: ADD_CASE })).output)).toBeUndefined();
      expect(decision((await call('Bash', heredoc(ADD_CASE))).output)).toBeUndefined();
      const file = path.join(ws, 'test/math.test.js');
      fs.writeFileSync(
        file,
        fs
          .readFileSync(file, 'utf8')
          .replace(
            '  });\n});',
            "  });\n  it('adds negatives', () => {\n    expect(add(-1, -2)).toBe(-3);\n  });\n});",
          ),
      );
      // After the call codex sends the tool's output as a string: the text before is the patch undone.
      const post = await call(
        'apply_patch',
        { command: ADD_CASE },
        'post-tool-use',
        'Success. Updated the following files:\nM test/math.test.js\n',
      );
      expect(JSON.stringify(post.output)).not.toContain('You changed');
      expect(post.output).not.toHaveProperty('decision');
    });

    it('blocks a patch that removed a test right after it (hookPolicy warn), from the text stashed before it', async () => {
      const { ws, call } = await loop('warn');
      const id = { tool_use_id: 'call_patch_1' };
      await call('apply_patch', { command: DROP_CASE }, 'pre-tool-use', undefined, id);
      const file = path.join(ws, 'test/math.test.js');
      fs.writeFileSync(file, MATH_TEST.replace(/ {2}it\('adds two numbers'[\s\S]*? {2}\}\);\n/, ''));
      const post = await call('apply_patch', { command: DROP_CASE }, 'post-tool-use', 'Success.', id);
      expect(post.output).toMatchObject({ decision: 'block' });
      expect(JSON.stringify(post.output)).toContain('add › adds two numbers');
    });
  });

  describe("Gemini CLI's calls (BeforeTool/AfterTool, as gemini 0.61 sends them)", () => {
    const gemini = (ws: string, event: 'BeforeTool' | 'AfterTool', tool: string, input: object, response?: object) =>
      JSON.stringify({
        session_id: 's-1',
        cwd: ws,
        hook_event_name: event,
        tool_name: tool,
        tool_input: input,
        ...(response ? { tool_response: response } : {}),
      });

    it('denies a replace that removes a protected test (a relative path) in the answer gemini reads', async () => {
      const { ws, stateDir } = await loop();
      const env = { RALPH_LOOP_ID: 'L', RALPH_STATE_DIR: stateDir, RALPH_WORKSPACE: ws, RALPH_ITERATION: '1' };
      const drop = { file_path: 'test/math.test.js', old_string: ADDS_TWO, new_string: '' };
      const r = await runHook('pre-tool-use', gemini(ws, 'BeforeTool', 'replace', drop), env);
      expect(r.output).toEqual({
        decision: 'deny',
        reason: expect.stringContaining('test/math.test.js (test) is protected'),
      });
      const add = { file_path: 'test/math.test.js', old_string: '});\n', new_string: "});\nit('x', () => {});\n" };
      expect((await runHook('pre-tool-use', gemini(ws, 'BeforeTool', 'replace', add), env)).output).toEqual({});
    });

    it('blocks a write that emptied a test right after it, from the original text gemini reports', async () => {
      const { ws, stateDir } = await loop('warn');
      const env = { RALPH_LOOP_ID: 'L', RALPH_STATE_DIR: stateDir, RALPH_WORKSPACE: ws, RALPH_ITERATION: '1' };
      const file = path.join(ws, 'test/math.test.js');
      fs.writeFileSync(file, "const { add } = require('../src/math');\n");
      const response = {
        llmContent: 'ok',
        returnDisplay: { filePath: file, originalContent: MATH_TEST, isNewFile: false },
      };
      const input = { file_path: file, content: "const { add } = require('../src/math');\n" };
      const r = await runHook('post-tool-use', gemini(ws, 'AfterTool', 'write_file', input, response), env);
      expect(r.output).toMatchObject({ decision: 'block', reason: expect.stringContaining('add › adds two numbers') });
    });
  });
});
