import { Writable } from 'node:stream';
import { createLogger, registerSecrets, TemporalPinoLogger } from '../../../src/telemetry/logger';

function capture(): { lines: () => Record<string, unknown>[]; raw: () => string; stream: Writable } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  });
  return {
    stream,
    raw: () => text,
    lines: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('createLogger', () => {
  it('writes one JSON object per line with the loop fields', () => {
    const out = capture();
    createLogger({ destination: out.stream }).info({ loopId: 'l1', iteration: 3, event: 'x' }, 'hello');
    expect(out.lines()[0]).toMatchObject({ level: 'info', loopId: 'l1', iteration: 3, event: 'x', msg: 'hello' });
  });

  it('redacts registered secrets, API-key-looking strings and env objects from every line', () => {
    const out = capture();
    registerSecrets(['agent-secret-value-42']);
    const log = createLogger({ destination: out.stream });
    log.warn({ detail: 'failed with agent-secret-value-42' }, 'key sk-ant-abcdefghijklmnopqrstuvwx leaked?');
    log.info({ agent: { adapter: 'x', env: { K: 'plain-value-123' } } }, 'input');
    expect(out.raw()).not.toContain('agent-secret-value-42');
    expect(out.raw()).not.toContain('sk-ant-abcdefghijklmnopqrstuvwx');
    expect(out.raw()).not.toContain('plain-value-123');
    expect(out.lines()).toHaveLength(2);
  });
});

describe('TemporalPinoLogger', () => {
  it("routes the SDK's messages to the same sink with loopId from workflowId", () => {
    const out = capture();
    new TemporalPinoLogger(createLogger({ destination: out.stream })).log('INFO', 'human gate opened', {
      workflowId: 'loop-9',
      sdkComponent: 'workflow',
    });
    expect(out.lines()[0]).toMatchObject({ loopId: 'loop-9', source: 'temporal', msg: 'human gate opened' });
  });
});
