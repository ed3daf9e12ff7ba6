/**
 * A loopback stub of the OpenAI Responses API (`POST /v1/responses`, streaming SSE) for the real `codex` CLI, which
 * speaks it to a custom model provider (`wire_api = "responses"`, see {@link codexProviderArgs}): scripted text and
 * function calls, usage, and the API's errors (401 invalid_api_key, 429 usage_limit_reached with a reset time,
 * 503/500 overloaded).
 */
import { type ModelServer, type StubIncoming, type StubReply, startModelServer } from './server';
import { type StubError, type StubScript, type StubToolCall, TurnPlayer, pickConversation } from './script';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `codex exec` flags that point it at a stub: a provider `stub` whose key is read from `envKey`. */
export function codexProviderArgs(url: string, envKey = 'RALPH_STUB_OPENAI_KEY'): string[] {
  return [
    '-c',
    'model_provider="stub"',
    '-c',
    'model="gpt-5-codex"',
    '-c',
    'model_providers.stub.name="stub"',
    '-c',
    `model_providers.stub.base_url="${url}/v1"`,
    '-c',
    `model_providers.stub.env_key="${envKey}"`,
    '-c',
    'model_providers.stub.wire_api="responses"',
    // Fail fast: the loop, not the CLI, decides what a refused request means.
    '-c',
    'model_providers.stub.request_max_retries=0',
    '-c',
    'model_providers.stub.stream_max_retries=0',
  ];
}

/** Every line of `text` (a trailing newline ends the last one) behind `mark`. */
const lines = (text: string, mark: string): string =>
  text
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => `${mark}${l}`)
    .join('\n');

/** An apply_patch body for a scripted file change (Codex runs `apply_patch` itself and reports a file_change). */
function patch(t: Extract<StubToolCall, { kind: 'write' | 'edit' | 'delete' }>): string {
  const body =
    t.kind === 'write'
      ? `*** Add File: ${t.path}\n${t.content
          .replace(/\n$/, '')
          .split('\n')
          .map((l) => `+${l}`)
          .join('\n')}`
      : t.kind === 'edit'
        ? `*** Update File: ${t.path}\n@@\n${lines(t.old, '-')}${t.new ? `\n${lines(t.new, '+')}` : ''}`
        : `*** Delete File: ${t.path}`;
  return `*** Begin Patch\n${body}\n*** End Patch\n`;
}

/** Codex's tool call for a scripted one: everything goes through `exec_command` (file changes as apply_patch). */
function codexCommand(t: StubToolCall): string {
  return t.kind === 'shell' ? t.command : `apply_patch <<'PATCH'\n${patch(t)}PATCH`;
}

const MODEL_ITEMS = new Set(['function_call', 'custom_tool_call', 'reasoning', 'local_shell_call']);
const isModelItem = (i: Json): boolean =>
  MODEL_ITEMS.has(String(i.type)) || (i.type === 'message' && i.role === 'assistant');

function userText(items: Json[]): string {
  return items
    .filter((i) => i.type === 'message' && i.role === 'user' && Array.isArray(i.content))
    .flatMap((i) => (i.content as unknown[]).map((c) => (isObj(c) && typeof c.text === 'string' ? c.text : '')))
    .join('\n');
}

function errorReply(e: StubError, now: number): StubReply {
  const resetsIn = Number(e.headers?.['retry-after'] ?? 3600);
  const defaults: Record<number, Json> = {
    401: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
    429: {
      type: e.type ?? 'usage_limit_reached',
      message: e.message ?? 'The usage limit has been reached',
      plan_type: 'plus',
      resets_at: Math.floor(now / 1000) + resetsIn,
      resets_in_seconds: resetsIn,
    },
    503: {
      type: 'server_is_overloaded',
      code: 'server_is_overloaded',
      message: 'Our servers are currently overloaded.',
    },
  };
  const error = defaults[e.status] ?? { type: e.type ?? 'server_error', message: e.message ?? 'server error' };
  return { status: e.status, json: e.body ?? { error }, headers: e.headers };
}

/**
 * Starts the stub. Every `POST /v1/responses` offering tools is a turn of the scripted conversation; the turn is the
 * number of runs of model output (messages, function calls) in its input, so a retried request gets the same turn.
 */
export async function startOpenAIStub(script: StubScript): Promise<ModelServer> {
  const player = new TurnPlayer(script);
  let seq = 0;
  return startModelServer((req: StubIncoming, log) => {
    if (req.method === 'GET' && req.path.startsWith('/v1/models'))
      return { status: 200, json: { object: 'list', data: [] } };
    if (req.method !== 'POST' || req.path !== '/v1/responses')
      return {
        status: 404,
        json: { error: { message: `no ${req.method} ${req.path}`, type: 'invalid_request_error' } },
      };
    const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (script.apiKey !== undefined && key !== script.apiKey) return errorReply({ status: 401 }, Date.now());
    const body = isObj(req.body) ? req.body : {};
    const input = Array.isArray(body.input) ? body.input.filter(isObj) : [];
    let turn = 0;
    input.forEach((item, i) => {
      if (isModelItem(item) && !(i > 0 && isModelItem(input[i - 1]))) turn++;
    });
    const conversation = pickConversation(script, userText(input));
    log.conversation = conversation;
    log.turn = turn;
    const fail = player.failure(conversation, turn);
    if (fail) return errorReply(fail, Date.now());
    const t = player.turn(conversation, turn);
    const id = `resp_stub_${++seq}`;
    const items: Json[] = [];
    if (t.text)
      items.push({
        type: 'message',
        id: `msg_stub_${seq}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: t.text, annotations: [] }],
      });
    // Models codex knows (gpt-5.5...) get its apply_patch tool: then a file change is a call of it, as they make them.
    const patchTool = Array.isArray(body.tools) && body.tools.some((x) => isObj(x) && x.name === 'apply_patch');
    (t.tools ?? []).forEach((c, i) =>
      items.push(
        patchTool && c.kind !== 'shell'
          ? {
              type: 'custom_tool_call',
              id: `ctc_stub_${seq}_${i}`,
              call_id: `call_stub_${seq}_${i}`,
              name: 'apply_patch',
              input: patch(c),
              status: 'completed',
            }
          : {
              type: 'function_call',
              id: `fc_stub_${seq}_${i}`,
              call_id: `call_stub_${seq}_${i}`,
              name: 'exec_command',
              arguments: JSON.stringify({ cmd: codexCommand(c) }),
              status: 'completed',
            },
      ),
    );
    const input_tokens = t.usage?.input ?? Math.ceil(req.bytes / 4);
    const output_tokens = t.usage?.output ?? 10;
    const response = { id, object: 'response', status: 'in_progress', model: body.model, output: [] as Json[] };
    const sse: Array<{ event: string; data: Json }> = [
      { event: 'response.created', data: { type: 'response.created', response } },
    ];
    items.forEach((item, output_index) => {
      sse.push({
        event: 'response.output_item.added',
        data: { type: 'response.output_item.added', output_index, item },
      });
      sse.push({ event: 'response.output_item.done', data: { type: 'response.output_item.done', output_index, item } });
    });
    sse.push({
      event: 'response.completed',
      data: {
        type: 'response.completed',
        response: {
          ...response,
          status: 'completed',
          output: items,
          usage: {
            input_tokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: input_tokens + output_tokens,
          },
        },
      },
    });
    return { status: 200, sse };
  });
}
