import { describeBinding, hostIdProblem, hostTaskQueue } from '../../../src/core/hosts';
import { LoopMachine } from '../../../src/core/loop-machine';

const machine = (): LoopMachine =>
  new LoopMachine(
    {
      loopId: 'l1',
      maxIterations: 5,
      agent: 'scripted',
      workspace: '/w',
      stateDir: '/w/.ralph',
      defaultExtraIterations: 3,
      labels: {},
    },
    '2026-01-01T00:00:00.000Z',
  );

describe('host ids and queues', () => {
  it.each([
    ['A', undefined],
    ['build-host-7.eu', undefined],
    ['', 'a host id must be a non-empty string'],
    ['-a', 'host id "-a" must be 1-63 letters, digits, ".", "_" or "-", starting with a letter or digit'],
    ['a b', 'host id "a b" must be 1-63 letters, digits, ".", "_" or "-", starting with a letter or digit'],
    ['x'.repeat(64), expect.stringContaining('must be 1-63')],
    [42, 'a host id must be a non-empty string'],
  ])('judges %p as %p', (id, problem) => {
    expect(hostIdProblem(id)).toEqual(problem);
  });

  it('names a host queue after the shared queue', () => {
    expect(hostTaskQueue('ralph', 'A')).toBe('ralph@A');
  });
});

describe('LoopMachine host binding', () => {
  it('counts waits for the host and clears them when it answers', () => {
    const m = machine();
    m.bindHost('A', 'input', true, 't0');
    m.hostWaiting('runAgent', 't1');
    m.hostWaiting('runAgent', 't2');
    expect(m.state.host?.waiting).toEqual({ activity: 'runAgent', since: 't1', waits: 2 });
    expect(describeBinding(m.state.host)).toMatch(/WAITING for a worker of host A since t1 \(runAgent, 2 waits\)/);
    m.hostAnswered();
    expect(m.state.host?.waiting).toBeUndefined();
  });

  it.each([
    ['an unbound loop', (m: LoopMachine) => m, { host: 'B' }, /not bound to a host/],
    [
      'a workspace without remote',
      (m: LoopMachine) => m.bindHost('A', 'input', false, 't'),
      { host: 'B' },
      /no git remote/,
    ],
    ['a bad host id', (m: LoopMachine) => m.bindHost('A', 'input', true, 't'), { host: 'b c' }, /must be 1-63/],
    ['the same host', (m: LoopMachine) => m.bindHost('A', 'input', true, 't'), { host: 'A' }, /already on host A/],
    [
      'a relative workspace',
      (m: LoopMachine) => m.bindHost('A', 'input', true, 't'),
      { host: 'B', workspace: 'rel' },
      /absolute path/,
    ],
  ])('ignores a move of %s, recording why', (_what, setup, payload, why) => {
    const m = machine();
    setup(m);
    const r = m.requestMove(payload, 't1');
    expect(r.applied).toBe(false);
    expect(r.note).toMatch(why);
    expect(m.state.signals.at(-1)).toMatchObject({ name: 'move', applied: false });
    expect(m.state.host?.pendingMove).toBeUndefined();
  });

  it('queues a valid move once (a duplicate request id is ignored) and records it when done', () => {
    const m = machine();
    m.bindHost('A', 'worker', true, 't0');
    m.recordPush('iter-002-post');
    expect(m.requestMove({ host: 'B', workspace: '/b/w', by: 'ops', requestId: 'r1' }, 't1').applied).toBe(true);
    expect(m.requestMove({ host: 'B', requestId: 'r1' }, 't2').note).toMatch(/duplicate/);
    expect(m.state.host?.pendingMove).toEqual({ host: 'B', workspace: '/b/w', by: 'ops', requestedAt: 't1' });
    m.recordMove({ from: 'A', to: 'B', at: 't3', by: 'ops', workspace: '/b/w', restoredFrom: 'iter-002-post' }, 't3');
    expect(m.state.workspace).toBe('/b/w');
    expect(m.state.host).toMatchObject({ id: 'B', boundBy: 'move', lastPushed: 'iter-002-post', movable: true });
    expect(m.state.host?.pendingMove).toBeUndefined();
    expect(describeBinding(m.state.host)).toMatch(/moved A→B/);
  });
});
