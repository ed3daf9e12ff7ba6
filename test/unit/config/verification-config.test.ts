import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateLoopInput } from '../../../src/activities/validate-input';
import { buildLoopInput, StartOptions } from '../../../src/cli/input/start-options';
import { parseGatesConfig } from '../../../src/config/load-config';
import { parseLoopInput } from '../../../src/config/loop-input';

const raw = (extra: Record<string, unknown> = {}) => ({
  prompt: 'p',
  workspace: '/w',
  agent: { adapter: 'command', command: ['true'] },
  completion: { command: 'true' },
  ...extra,
});

describe('verification in the loop input', () => {
  it('is on by default, asking a human on protected edits and denying protected writes in hooks', () => {
    expect(parseLoopInput(raw()).verification).toEqual({
      enabled: true,
      protect: [],
      allow: [],
      onProtectedEdit: 'human',
      hookPolicy: 'deny',
    });
  });

  it.each([
    [{ onProtectedEdit: 'ignore' }, /input\.verification\.onProtectedEdit: must be one of human, revert, allow/],
    [{ protect: 'golden/**' }, /input\.verification\.protect: must be a list of globs/],
    [{ allow: ['../outside/**'] }, /input\.verification\.allow\[0\]: must stay inside the workspace/],
    [{ protect: ['/etc/passwd'] }, /input\.verification\.protect\[0\]: must be relative to the workspace/],
    [{ enable: true }, /input\.verification: Unrecognized key: "enable"/],
  ])('rejects %j with a clear error', (verification, message) => {
    expect(() => parseLoopInput(raw({ verification }))).toThrow(message);
  });

  it('reads verification from ralph.config.yaml when the loop input sets none', async () => {
    const w = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-vcfg-'));
    fs.writeFileSync(
      path.join(w, 'ralph.config.yaml'),
      'verification:\n  protect: ["golden/**"]\n  onProtectedEdit: revert\n',
    );
    const input = { ...raw({ workspace: w }), agent: { adapter: 'command', command: ['sh', '-c', 'true'] } };
    const fromFile = await validateLoopInput({ raw: input, loopId: 'l' });
    expect(fromFile.verification).toMatchObject({ protect: ['golden/**'], onProtectedEdit: 'revert' });
    const own = await validateLoopInput({ raw: { ...input, verification: { enabled: false } }, loopId: 'l' });
    expect(own.verification.enabled).toBe(false);
  });

  it('names the config file path of a bad value', () => {
    expect(() => parseGatesConfig({ verification: { onProtectedEdit: 'x' } }, 'ralph.config.yaml')).toThrow(
      /ralph\.config\.yaml: verification\.onProtectedEdit: must be one of human, revert, allow/,
    );
  });
});

describe('ralph start verification flags', () => {
  const opts = (o: Record<string, unknown>): StartOptions =>
    StartOptions.parse({ prompt: 'p', workspace: '/w', script: '/w/s.json', check: 'true', ...o });

  it('leaves verification at its defaults when no flag is given', () => {
    expect(buildLoopInput(opts({}), '/').verification).toBeUndefined();
    expect(buildLoopInput(opts({ verification: true }), '/').verification).toBeUndefined();
  });

  it('sets protect, allow, the protected-edit policy, or turns verification off', () => {
    expect(
      buildLoopInput(opts({ protect: ['golden/**'], allowEdit: ['test/legacy/**'], onProtectedEdit: 'revert' }), '/')
        .verification,
    ).toEqual({ protect: ['golden/**'], allow: ['test/legacy/**'], onProtectedEdit: 'revert' });
    expect(buildLoopInput(opts({ verification: false }), '/').verification).toEqual({ enabled: false });
  });

  it('names the flag of a bad value', () => {
    expect(() => buildLoopInput(opts({ onProtectedEdit: 'sometimes' }), '/')).toThrow(
      /verification\.onProtectedEdit.*--on-protected-edit/,
    );
  });
});
