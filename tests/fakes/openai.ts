// A fake OpenAI-compatible provider: POST /chat/completions answers `reply` (after `delayMs`), and
// POST /audio/transcriptions answers `transcript`. It records the requests, checks the bearer key, and can
// be told to fail (`failWith`, or only the next `failTimes` chat calls), to answer garbage, or to call a
// function it was offered when the last user message matches `toolCall.when`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeAiRequest {
  path: string;
  authorization: string | undefined;
  /** The JSON body of a chat request. */
  json?: {
    model: string;
    messages: { role: string; content: string }[];
    temperature?: number;
    tools?: { type: string; function: { name: string; parameters: unknown } }[];
  };
  /** The raw body of a transcription request (multipart). */
  raw?: Buffer;
}

export interface FakeOpenAi {
  /** AI_BASE_URL for the server under test. */
  url: string;
  key: string;
  requests: FakeAiRequest[];
  /** The answer's text, or a function of the request (the last user message, say). */
  reply: string | ((json: NonNullable<FakeAiRequest['json']>) => string);
  transcript: string;
  delayMs: number;
  /** Answer every request with this HTTP status until set back to null. */
  failWith: number | null;
  /** Answer only the next N chat requests with `failStatus` (then answer normally). */
  failTimes: number;
  failStatus: number;
  /** Never answer the next N chat requests (a provider timing out: the caller's own timeout ends them). */
  hangTimes: number;
  /** Answer chat requests with garbage: 200 with no text and no tool call, or a body that is not JSON. */
  garbage: 'empty' | 'not-json' | null;
  /** When the last user message matches `when` and `name` was offered as a tool: a call to it. */
  toolCall: { when: RegExp; name: string; arguments: Record<string, unknown> } | null;
  /** Chat requests answered (not failed), for counting provider calls. */
  chatCalls(): FakeAiRequest[];
  close(): Promise<void>;
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const fake = {
    key: 'sk-test-fake',
    requests: [] as FakeAiRequest[],
    transcript: 'transcrição de teste',
    delayMs: 0,
    failWith: null as number | null,
    failTimes: 0,
    failStatus: 500,
    hangTimes: 0,
    garbage: null as FakeOpenAi['garbage'],
    toolCall: null as FakeOpenAi['toolCall'],
    reply: 'Resumo de teste.' as FakeOpenAi['reply'],
    chatCalls: () => fake.requests.filter((r) => r.path === '/chat/completions'),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const path = (req.url ?? '').replace(/^\/v1/, '');
      const record: FakeAiRequest = { path, authorization: req.headers.authorization };
      if (path === '/chat/completions') record.json = JSON.parse(body.toString());
      else record.raw = body;
      fake.requests.push(record);
      if (fake.delayMs) await new Promise((r) => setTimeout(r, fake.delayMs));
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.headers.authorization !== `Bearer ${fake.key}`)
        return send(401, { error: { message: 'Incorrect API key provided' } });
      if (fake.failWith) return send(fake.failWith, { error: { message: 'fake failure' } });
      if (path === '/chat/completions' && record.json) {
        const json = record.json;
        if (fake.hangTimes > 0) {
          fake.hangTimes--;
          return;
        }
        if (fake.failTimes > 0) {
          fake.failTimes--;
          return send(fake.failStatus, { error: { message: 'fake failure' } });
        }
        if (fake.garbage === 'not-json') {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end('<html>oops');
        }
        const done = (message: Record<string, unknown>, finish: string) =>
          send(200, {
            id: 'chatcmpl-fake',
            object: 'chat.completion',
            model: json.model,
            choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
          });
        if (fake.garbage === 'empty') return done({ content: '' }, 'stop');
        const lastUser = [...json.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
        const tool = fake.toolCall;
        if (tool?.when.test(lastUser) && json.tools?.some((t) => t.function.name === tool.name))
          return done(
            {
              content: null,
              tool_calls: [
                {
                  id: 'call_fake',
                  type: 'function',
                  function: { name: tool.name, arguments: JSON.stringify(tool.arguments) },
                },
              ],
            },
            'tool_calls',
          );
        const content = typeof fake.reply === 'function' ? fake.reply(json) : fake.reply;
        return done({ content }, 'stop');
      }
      if (path === '/audio/transcriptions') return send(200, { text: fake.transcript });
      send(404, { error: { message: 'not found' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
