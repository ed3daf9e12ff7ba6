import fs from 'node:fs';
import { configReference, type SchemaDocs } from '../../../src/config/reference';
import { LoopInput } from '../../../src/config/loop-input';
import { GatesConfig } from '../../../src/config/gates-config';
import { ProjectInput } from '../../../src/config/project-input';

const script = require('../../../scripts/docs-config.js') as {
  schemaDocs: () => SchemaDocs;
  renderPage: (render: typeof configReference) => string;
  PAGE: string;
};

describe('docs: the generated configuration reference', () => {
  let page: string;
  beforeAll(() => {
    page = script.renderPage(configReference);
  });

  it('is the committed docs/configuration-reference.md (else run `npm run docs:config`)', () => {
    const committed = fs.existsSync(script.PAGE) ? fs.readFileSync(script.PAGE, 'utf8') : '';
    if (committed !== page)
      throw new Error(
        'docs/configuration-reference.md differs from what the zod schemas generate: run `npm run docs:config` and commit the page',
      );
    expect(committed).toBe(page);
  });

  it('lists every top-level field of the loop input, the config file and the project input', () => {
    for (const schema of [LoopInput, GatesConfig, ProjectInput])
      for (const key of Object.keys(schema.shape)) expect(page).toContain(`| \`${key}\``);
  });

  it("takes descriptions from the schema source's doc comments, and types and defaults from the schemas", () => {
    const row = (field: string): string => page.split('\n').find((l) => l.startsWith(`| \`${field}\``)) ?? '';
    expect(row('maxIterations')).toMatch(/integer > 0, ≤ 100000 +\| `10` +\| Iterations before a human gate/);
    expect(row('workspace')).toMatch(/string +\| required +\| Absolute path of the directory the agent works in/);
    expect(row('stuck.sameError')).toMatch(/`3` +\| The same normalised error this many iterations/);
    expect(row('mode')).toContain('`auto` \\| `enforce` \\| `off`');
    expect(row('agent')).toContain('see [agent](#agent)');
  });

  it('reads a field comment from the object literal with the same keys, and an extended object from its parts', () => {
    const docs = script.schemaDocs();
    expect(docs.field(['mode', 'allowWrite', 'denyWrite', 'allowedDomains', 'dependencies'], 'allowWrite')).toMatch(
      /^Extra folders or files the agent may write/,
    );
    expect(docs.field([...Object.keys(LoopInput.shape.routing.unwrap().shape)], 'profilesDir')).toMatch(
      /^The profiles folder/,
    );
    expect(docs.schema('SandboxConfig')).toBe('`sandbox` in the loop input or ralph.config.yaml.');
  });
});
