// A fake OpenAI-compatible provider: POST /chat/completions answers `reply` (after `delayMs`), and
// POST /audio/transcriptions answers `transcript`. It records the requests, checks the bearer key, and can
// be told to fail.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeAiRequest {
  path: string;
  authorization: string | undefined;
  /** The JSON body of a chat request. */
  json?: { model: string; messages: { role: string; content: string }[] };
  /** The raw body of a transcription request (multipart). */
  raw?: Buffer;
}

export interface FakeOpenAi {
  /** AI_BASE_URL for the server under test. */
  url: string;
  key: string;
  requests: FakeAiRequest[];
  reply: string;
  transcript: string;
  delayMs: number;
  /** Answer every request with this HTTP status until set back to null. */
  failWith: number | null;
  close(): Promise<void>;
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const fake = {
    key: 'sk-test-fake',
    requests: [] as FakeAiRequest[],
    reply: 'Resumo de teste.',
    transcript: 'transcrição de teste',
    delayMs: 0,
    failWith: null as number | null,
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
      if (path === '/chat/completions')
        return send(200, {
          id: 'chatcmpl-fake',
          object: 'chat.completion',
          model: record.json?.model,
          choices: [{ index: 0, message: { role: 'assistant', content: fake.reply }, finish_reason: 'stop' }],
        });
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
