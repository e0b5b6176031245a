// An OpenAI-compatible client (chat completions and audio transcriptions) over fetch: the base URL, key
// and model come from configuration, so any compatible provider (or the tests' fake) answers.
import type { Config } from '../config';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export class AiProviderError extends Error {}

/** A function the model may call (OpenAI chat completions `tools`). */
export interface ChatTool {
  name: string;
  description: string;
  /** JSON Schema of its arguments. */
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  name: string;
  /** The arguments as parsed JSON; {} when the provider sent none or sent unreadable ones. */
  arguments: Record<string, unknown>;
}

/** What a completion with tools answered: text, tool calls, or both. Never both empty (that throws). */
export interface ChatTurnResult {
  content: string | null;
  toolCalls: ToolCall[];
}

export interface AiClient {
  chat(messages: ChatMessage[]): Promise<string>;
  /** A completion that may call `tools`, at `temperature` (the AI chatbots). */
  chatTurn(request: {
    messages: ChatMessage[];
    tools: ChatTool[];
    temperature: number;
  }): Promise<ChatTurnResult>;
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
    async chatTurn({ messages, tools, temperature }) {
      const res = await fetch(url('/chat/completions'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({
          model,
          messages,
          temperature,
          ...(tools.length && {
            tools: tools.map((t) => ({ type: 'function', function: t })),
            tool_choice: 'auto',
          }),
        }),
        signal: timeout(),
      });
      let body: unknown;
      try {
        body = await json(res);
      } catch (err) {
        if (err instanceof AiProviderError) throw err;
        throw new AiProviderError('provider answered something that is not JSON');
      }
      const message = (body as { choices?: { message?: unknown }[] } | null)?.choices?.[0]?.message as
        | { content?: unknown; tool_calls?: unknown }
        | undefined;
      const content =
        typeof message?.content === 'string' && message.content.trim() ? message.content.trim() : null;
      const toolCalls: ToolCall[] = [];
      for (const call of Array.isArray(message?.tool_calls) ? message.tool_calls : []) {
        const fn = (call as { function?: { name?: unknown; arguments?: unknown } } | null)?.function;
        if (typeof fn?.name !== 'string') continue;
        let args: unknown = {};
        try {
          args = typeof fn.arguments === 'string' ? JSON.parse(fn.arguments) : (fn.arguments ?? {});
        } catch {
          args = {};
        }
        toolCalls.push({
          name: fn.name,
          arguments: args && typeof args === 'object' ? (args as Record<string, unknown>) : {},
        });
      }
      if (!content && !toolCalls.length) throw new AiProviderError('empty completion');
      return { content, toolCalls };
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
