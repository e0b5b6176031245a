// An OpenAI-compatible client (chat completions and audio transcriptions) over fetch: the base URL, key
// and model come from configuration, so any compatible provider (or the tests' fake) answers.
import type { Config } from '../config';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export class AiProviderError extends Error {}

export interface AiClient {
  chat(messages: ChatMessage[]): Promise<string>;
  /** Null when no transcription model is configured. */
  transcribe: ((audio: Buffer, fileName: string, mime: string) => Promise<string>) | null;
}

/** The client, or null when AI_BASE_URL, AI_API_KEY or AI_MODEL is missing. */
export function createAiClient(config: Config): AiClient | null {
  const { AI_BASE_URL: base, AI_API_KEY: key, AI_MODEL: model, AI_TRANSCRIPTION_MODEL: speech } = config;
  if (!base || !key || !model) return null;
  const url = (path: string) => `${base.replace(/\/+$/, '')}${path}`;
  const timeout = () => AbortSignal.timeout(config.AI_TIMEOUT_SECONDS * 1000);

  async function json(res: Response) {
    if (!res.ok)
      throw new AiProviderError(`provider answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return (await res.json()) as unknown;
  }

  return {
    async chat(messages) {
      const res = await fetch(url('/chat/completions'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ model, messages, temperature: 0.3 }),
        signal: timeout(),
      });
      const body = (await json(res)) as { choices?: { message?: { content?: unknown } }[] };
      const content = body.choices?.[0]?.message?.content;
      if (typeof content !== 'string' || !content.trim()) throw new AiProviderError('empty completion');
      return content.trim();
    },
    transcribe: speech
      ? async (audio, fileName, mime) => {
          const form = new FormData();
          form.append('model', speech);
          form.append('file', new Blob([new Uint8Array(audio)], { type: mime }), fileName);
          const res = await fetch(url('/audio/transcriptions'), {
            method: 'POST',
            headers: { authorization: `Bearer ${key}` },
            body: form,
            signal: timeout(),
          });
          const body = (await json(res)) as { text?: unknown };
          if (typeof body.text !== 'string') throw new AiProviderError('transcription without text');
          return body.text.trim();
        }
      : null,
  };
}
