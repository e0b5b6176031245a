// Configuration from the environment, validated at boot: a bad value stops the start with a clear message.
import path from 'node:path';
import { z } from 'zod';

const intFrom = (def: number, min: number, max: number) =>
  z.coerce.number().int('deve ser um número inteiro').min(min).max(max).default(def);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: intFrom(3000, 0, 65535),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, 'deve ser uma URL postgres://usuario@host:porta/banco')
    .optional(),
  PUBLIC_URL: z.url('deve ser uma URL http(s)://').optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/.+/, 'deve ser uma URL smtp:// ou smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Painel de Atendimento <nao-responda@localhost>'),
  /** Behind a reverse proxy: read the client IP from X-Forwarded-For. Off by default, so it can't be spoofed. */
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Failed logins allowed per IP and per e-mail in one window before 429 (each attempt holds a place while checked). */
  LOGIN_MAX_FAILURES_PER_IP: intFrom(20, 1, 100000),
  LOGIN_MAX_FAILURES_PER_EMAIL: intFrom(5, 1, 100000),
  LOGIN_FAILURE_WINDOW_MINUTES: intFrom(15, 1, 24 * 60),
  /** Password recovery requests (each may mail a link) allowed per e-mail and per IP in one window. */
  PASSWORD_RECOVERY_MAX_PER_EMAIL: intFrom(3, 1, 100000),
  PASSWORD_RECOVERY_MAX_PER_IP: intFrom(10, 1, 100000),
  PASSWORD_RECOVERY_WINDOW_MINUTES: intFrom(60, 1, 24 * 60),
  /** The platform admin created on the first production start. */
  ADMIN_EMAIL: z.email().default('admin@painel.local'),
  /** Skip the demo seed even on an empty development database. */
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
  /** Where the app's "Minha assinatura" link points (issue 3). */
  PLAN_MANAGEMENT_URL: z.url().optional(),
  HELP_VIDEO_URL: z.url().optional(),
  /** WhatsApp Cloud API (official numbers): the Graph API's base URL and version (a fake one in tests). */
  WHATSAPP_GRAPH_URL: z.url('deve ser uma URL http(s)://').default('https://graph.facebook.com'),
  WHATSAPP_GRAPH_VERSION: z
    .string()
    .regex(/^v[0-9]+\.[0-9]+$/, 'deve ser uma versão como v21.0')
    .default('v21.0'),
  /** The system user's token that sends, uploads and downloads media; without it official numbers can't connect. */
  WHATSAPP_ACCESS_TOKEN: z.string().min(1).optional(),
  /** Signs the webhook's POSTs (X-Hub-Signature-256); without it every notification is refused. */
  WHATSAPP_APP_SECRET: z.string().min(1).optional(),
  /** What Meta echoes when it verifies the webhook URL (GET hub.verify_token); without it verification fails. */
  WHATSAPP_VERIFY_TOKEN: z.string().min(1).optional(),
  /**
   * A customer's media that failed to download is tried again after each of these waits, in seconds (1 min,
   * 5 min, 30 min, 2 h, 6 h, 12 h, then daily: about 6.9 days in all, within the 7 days Meta keeps media).
   */
  MEDIA_RETRY_SECONDS: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'deve ser uma lista de segundos separados por vírgula, como 60,300,1800')
    .default('60,300,1800,7200,21600,43200,86400,86400,86400,86400,86400,86400'),
  /** The largest file the app uploads (attachments, the media library), in MB. */
  MEDIA_MAX_MB: intFrom(16, 1, 1024),
  /** An OpenAI-compatible API for the AI summary and follow-up: without all three the features say so. */
  AI_BASE_URL: z.url('deve ser uma URL http(s)://, como https://api.openai.com/v1').optional(),
  AI_API_KEY: z.string().min(1).optional(),
  AI_MODEL: z.string().min(1).optional(),
  /** The provider's speech-to-text model (/audio/transcriptions); without it audio is left out of summaries. */
  AI_TRANSCRIPTION_MODEL: z.string().min(1).optional(),
  /** How long one provider request may take. */
  AI_TIMEOUT_SECONDS: intFrom(60, 1, 600),
  /**
   * Flows' HTTP request nodes may call private, loopback and link-local addresses (tests against a local
   * server). Off: such an address, even one a public name resolves to, is refused.
   */
  FLOWS_HTTP_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  /** How long an AI chatbot shows 'digitando…' before its answer (spec 3 §9: 5 s; tests set 0). */
  CHATBOT_TYPING_SECONDS: z.coerce.number().min(0).max(60).default(5),
  /** An AI chatbot's provider failures are retried after 1×, 4× and 12× this (5 s: 5 s, 20 s, 60 s). */
  CHATBOT_RETRY_BASE_SECONDS: z.coerce.number().min(0).max(600).default(5),
  /**
   * Tests and the bench only: campaigns' intervals are multiplied by this (0.005: 20 s becomes 100 ms), so
   * thousands of sends fit in minutes. Production keeps 1: the interval the user chose.
   */
  CAMPAIGN_INTERVAL_SCALE: z.coerce.number().min(0.0001).max(1).default(1),
});

export type Config = z.output<typeof envSchema> & {
  dataDir: string;
  publicUrl: string;
  /** The address the app's socket connects to: PUBLIC_URL when set, '' (the page's own origin) otherwise. */
  serverAddress: string;
  distDir: string;
  /** MEDIA_MAX_MB in bytes. */
  mediaMaxBytes: number;
  /** MEDIA_RETRY_SECONDS as numbers. */
  mediaRetrySeconds: number[];
};

export class ConfigError extends Error {}

/** Reads the environment (only the keys we know), or throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const known = Object.fromEntries(
    Object.keys(envSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const parsed = envSchema.safeParse(known);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (i) => `  ${i.path.join('.')}=${JSON.stringify(known[String(i.path[0])] ?? '')}: ${i.message}`,
    );
    throw new ConfigError(`Configuração inválida:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    serverAddress: c.PUBLIC_URL ? c.PUBLIC_URL.replace(/\/$/, '') : '',
    distDir: path.resolve('dist'),
    mediaMaxBytes: c.MEDIA_MAX_MB * 1024 * 1024,
    mediaRetrySeconds: c.MEDIA_RETRY_SECONDS.split(',').map(Number),
  };
}
