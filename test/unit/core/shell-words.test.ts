import { shellWords } from '../../../src/core/shell-words';

describe('shellWords', () => {
  it.each([
    ['node agent.js --flag', ['node', 'agent.js', '--flag']],
    [`sh -c 'echo "a b"; exit 0'`, ['sh', '-c', 'echo "a b"; exit 0']],
    ['python3 "my agent.py" --name "x \\"y\\""', ['python3', 'my agent.py', '--name', 'x "y"']],
    ['aider --message hello\\ world', ['aider', '--message', 'hello world']],
    ['  claude   -p  ', ['claude', '-p']],
    ['', []],
  ])('splits %j into argv', (cmd, argv) => {
    expect(shellWords(cmd)).toEqual(argv);
  });
});
