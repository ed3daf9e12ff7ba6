/**
 * A loopback stub of the Gemini API (`models/*:streamGenerateContent?alt=sse` and `:generateContent`) for the real
 * `gemini` CLI, pointed at it with `GOOGLE_GEMINI_BASE_URL`: scripted text and function calls (write_file, replace,
 * run_shell_command), usage metadata, and the API's errors (400 API_KEY_INVALID, 429 RESOURCE_EXHAUSTED with a
 * RetryInfo delay, 503 UNAVAILABLE).
 */
import { type ModelServer, type StubIncoming, type StubReply, startModelServer } from './server';
import { type StubError, type StubScript, type StubToolCall, TurnPlayer, pickConversation } from './script';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Gemini CLI's function call for a scripted one (a delete is a shell `rm`: Gemini has no delete tool). */
function geminiCall(t: StubToolCall): { name: string; args: Json } {
  switch (t.kind) {
    case 'write':
      return { name: 'write_file', args: { file_path: t.path, content: t.content } };
    case 'edit':
      return {
        name: 'replace',
        args: { file_path: t.path, old_string: t.old, new_string: t.new, instruction: 'apply the scripted edit' },
      };
    case 'delete':
      return { name: 'run_shell_command', args: { command: `rm -f ${JSON.stringify(t.path)}`, description: 'delete' } };
    case 'shell':
      return { name: 'run_shell_command', args: { command: t.command, description: 'run a command' } };
  }
}

function errorReply(e: StubError): StubReply {
  const retry = e.headers?.['retry-after'];
  const defaults: Record<number, Json> = {
    400: {
      code: 400,
      message: 'API key not valid. Please pass a valid API key.',
      status: 'INVALID_ARGUMENT',
      details: [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
      ],
    },
    429: {
      code: 429,
      message: e.message ?? `You exceeded your current quota. Please retry in ${retry ?? '60'}s.`,
      status: 'RESOURCE_EXHAUSTED',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [
            {
              quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
              quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier',
            },
          ],
        },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retry ?? '60'}s` },
      ],
    },
    503: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' },
  };
  const error = defaults[e.status] ?? { code: e.status, message: e.message ?? 'error', status: e.type ?? 'INTERNAL' };
  return { status: e.status, json: e.body ?? { error }, headers: e.headers };
}

function textOf(c: Json): string {
  return Array.isArray(c.parts)
    ? c.parts.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : '')).join('\n')
    : '';
}

/** A JSON answer that fits the CLI's helper prompts (model routing, next-speaker check). */
const HELPER_JSON = {
  reasoning: 'scripted stub',
  next_speaker: 'user',
  complexity_reasoning: 'scripted stub',
  complexity_score: 1,
  model_choice: 'flash',
};

/**
 * Starts the stub. A request that offers tools is a turn of the scripted conversation; the turn is the number of
 * `model` contents in its history, so a retried request gets the same turn. Helper requests get {@link HELPER_JSON}.
 */
export async function startGeminiStub(script: StubScript): Promise<ModelServer> {
  const player = new TurnPlayer(script);
  return startModelServer((req: StubIncoming, log) => {
    const m = /^\/v1(?:beta)?\/models\/([^:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(req.path);
    if (req.method !== 'POST' || !m)
      return {
        status: 404,
        json: { error: { code: 404, message: `no ${req.method} ${req.path}`, status: 'NOT_FOUND' } },
      };
    const key = String(req.headers['x-goog-api-key'] ?? '');
    if (script.apiKey !== undefined && key !== script.apiKey) return errorReply({ status: 400 });
    const body = isObj(req.body) ? req.body : {};
    if (m[2] === 'countTokens') return { status: 200, json: { totalTokens: Math.ceil(req.bytes / 4) } };
    const contents = Array.isArray(body.contents) ? body.contents.filter(isObj) : [];
    const tools = Array.isArray(body.tools) ? body.tools : [];
    let text = JSON.stringify(HELPER_JSON);
    let calls: StubToolCall[] = [];
    let usage = { input: Math.ceil(req.bytes / 4), output: 10 };
    if (tools.length) {
      const conversation = pickConversation(
        script,
        contents
          .filter((c) => c.role === 'user')
          .map(textOf)
          .join('\n'),
      );
      const turn = contents.filter((c) => c.role === 'model').length;
      log.conversation = conversation;
      log.turn = turn;
      const fail = player.failure(conversation, turn);
      if (fail) return errorReply(fail);
      const t = player.turn(conversation, turn);
      text = t.text ?? '';
      calls = t.tools ?? [];
      usage = { input: t.usage?.input ?? usage.input, output: t.usage?.output ?? usage.output };
    }
    const parts: Json[] = [];
    if (text) parts.push({ text });
    for (const c of calls) parts.push({ functionCall: geminiCall(c) });
    const chunk = {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: usage.input,
        candidatesTokenCount: usage.output,
        totalTokenCount: usage.input + usage.output,
      },
      modelVersion: m[1],
      responseId: `resp_stub_${log.turn ?? 'helper'}`,
    };
    if (m[2] === 'generateContent') return { status: 200, json: chunk };
    return { status: 200, sse: [{ data: chunk }] };
  });
}
