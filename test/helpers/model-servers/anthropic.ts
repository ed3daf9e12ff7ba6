/**
 * A loopback stub of the Anthropic Messages API (`POST /v1/messages`, streaming SSE or JSON) for the real `claude`
 * CLI: scripted text and tool_use turns, usage, and the API's errors (401 authentication_error, 429 rate_limit_error
 * with retry-after and unified rate-limit headers, 529 overloaded_error). Point the CLI at it with
 * `ANTHROPIC_BASE_URL`.
 */
import { type ModelServer, type StubIncoming, type StubReply, startModelServer } from './server';
import { type StubError, type StubScript, type StubToolCall, TurnPlayer, chunks, pickConversation } from './script';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Claude Code's tool call for a scripted one (a delete is a shell `rm`: Claude has no delete tool). */
function claudeTool(t: StubToolCall): { name: string; input: Json } {
  switch (t.kind) {
    case 'write':
      return { name: 'Write', input: { file_path: t.path, content: t.content } };
    case 'edit':
      return { name: 'Edit', input: { file_path: t.path, old_string: t.old, new_string: t.new } };
    case 'delete':
      return { name: 'Bash', input: { command: `rm -f ${JSON.stringify(t.path)}`, description: 'delete a file' } };
    case 'shell':
      return { name: 'Bash', input: { command: t.command, description: 'run a command' } };
  }
}

/** Text of a message's content (a string or text blocks). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => (isObj(b) && b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .filter(Boolean)
    .join('\n');
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function errorReply(e: StubError): StubReply {
  const type = e.type ?? ERROR_TYPES[e.status] ?? 'api_error';
  const message =
    e.message ??
    (e.status === 401
      ? 'invalid x-api-key'
      : e.status === 429
        ? 'Rate limited'
        : e.status === 529
          ? 'Overloaded'
          : type);
  return {
    status: e.status,
    json: { type: 'error', error: { type, message }, request_id: `req_stub_${e.status}` },
    headers: { 'request-id': `req_stub_${e.status}`, ...e.headers },
  };
}

/**
 * Starts the stub. A request is a turn of the scripted conversation when it offers tools; the turn is the number of
 * assistant messages in its history, so a retried request gets the same turn. Other requests (title, quota probes)
 * get a short text answer.
 */
export async function startAnthropicStub(script: StubScript): Promise<ModelServer> {
  const player = new TurnPlayer(script);
  let seq = 0;
  return startModelServer((req: StubIncoming, log) => {
    if (req.method !== 'POST' || !req.path.startsWith('/v1/messages'))
      return { status: 404, json: { type: 'error', error: { type: 'not_found_error', message: `no ${req.path}` } } };
    const key =
      String(req.headers['x-api-key'] ?? '') || String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (script.apiKey !== undefined && key !== script.apiKey) return errorReply({ status: 401 });
    const body = isObj(req.body) ? req.body : {};
    if (req.path.startsWith('/v1/messages/count_tokens'))
      return { status: 200, json: { input_tokens: Math.ceil(req.bytes / 4) } };
    const messages = Array.isArray(body.messages) ? body.messages.filter(isObj) : [];
    const tools = Array.isArray(body.tools) ? body.tools : [];
    const model = typeof body.model === 'string' ? body.model : 'claude-stub';
    let text = 'OK';
    let calls: StubToolCall[] = [];
    let usage = { input: Math.ceil(req.bytes / 4), output: 10 };
    if (tools.length || script.everyRequestIsATurn) {
      const firstUser = messages.find((m) => m.role === 'user');
      const conversation = pickConversation(script, firstUser ? textOf(firstUser.content) : '');
      const turn = Math.max(0, messages.filter((m) => m.role === 'assistant').length - (script.prefixTurns ?? 0));
      log.conversation = conversation;
      log.turn = turn;
      const fail = player.failure(conversation, turn);
      if (fail) return errorReply(fail);
      const t = player.turn(conversation, turn);
      text = t.text ?? '';
      calls = t.tools ?? [];
      usage = { input: t.usage?.input ?? usage.input, output: t.usage?.output ?? usage.output };
    }
    const id = `msg_stub_${++seq}`;
    const blocks: Json[] = [];
    if (text) blocks.push({ type: 'text', text });
    calls.forEach((c, i) => blocks.push({ type: 'tool_use', id: `toolu_stub_${seq}_${i}`, ...claudeTool(c) }));
    const stopReason = calls.length ? 'tool_use' : 'end_turn';
    const u = { input_tokens: usage.input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    if (body.stream !== true)
      return {
        status: 200,
        json: {
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: blocks,
          stop_reason: stopReason,
          stop_sequence: null,
          usage: { ...u, output_tokens: usage.output },
        },
      };
    const sse: Array<{ event: string; data: Json }> = [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id,
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { ...u, output_tokens: 1 },
          },
        },
      },
    ];
    blocks.forEach((b, index) => {
      if (b.type === 'text') {
        sse.push({
          event: 'content_block_start',
          data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
        });
        for (const piece of chunks(String(b.text)))
          sse.push({
            event: 'content_block_delta',
            data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
          });
      } else {
        sse.push({
          event: 'content_block_start',
          data: {
            type: 'content_block_start',
            index,
            content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} },
          },
        });
        for (const piece of chunks(JSON.stringify(b.input)))
          sse.push({
            event: 'content_block_delta',
            data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } },
          });
      }
      sse.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    });
    sse.push({
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: usage.output },
      },
    });
    sse.push({ event: 'message_stop', data: { type: 'message_stop' } });
    return { status: 200, sse };
  });
}
