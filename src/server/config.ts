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
  /** A mail SMTP did not take is tried again after this, then twice as long each time (jobs/mail.ts). */
  MAIL_RETRY_SECONDS: z.coerce.number().min(0.1).max(3600).default(15),
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
  /** Where the 'Falar com o suporte' buttons point (a wa.me link, a help desk, a mailto:); unset: a notice. */
  SUPPORT_URL: z.url().optional(),
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
  /** The Meta app's id: a template's image header example is uploaded to it (Resumable Upload API). */
  WHATSAPP_APP_ID: z
    .string()
    .regex(/^[0-9]+$/, 'deve ser o número do app da Meta')
    .optional(),
  /**
   * /meta-login: the Facebook Login for Business configuration of Meta's embedded WhatsApp signup (its id, from
   * the app's Configurations); with WHATSAPP_APP_ID it shows the 'Login com Facebook' button.
   */
  WHATSAPP_SIGNUP_CONFIG_ID: z
    .string()
    .regex(/^[0-9]+$/, 'deve ser o número da configuração do Facebook Login for Business')
    .optional(),
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
  /**
   * Media in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2…) instead of DATA_DIR/media, so that several
   * server processes share the files. Bucket and both keys, or none of the MEDIA_S3_* settings.
   */
  MEDIA_S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'deve ser o nome de um bucket (letras minúsculas, números, . e -)',
    )
    .optional(),
  /** The store's URL; unset: AWS S3 of MEDIA_S3_REGION. */
  MEDIA_S3_ENDPOINT: z.url('deve ser uma URL http(s)://, como https://s3.exemplo.com').optional(),
  MEDIA_S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'deve ser uma região como us-east-1 (auto no Cloudflare R2)')
    .optional(),
  MEDIA_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  MEDIA_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Bucket in the path (host/bucket/key), as MinIO and most self-hosted stores want. */
  MEDIA_S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
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
  /**
   * Official campaigns: a person whose send was cut off (a crash, a timeout) is sent again only once this long
   * has passed after its claim ran out without a status webhook naming it (Meta's come within seconds).
   */
  OFFICIAL_SEND_GRACE_SECONDS: z.coerce.number().min(0.1).max(3600).default(120),
  /** Official campaigns: how long one send to the Graph API may take before it counts as cut off. */
  OFFICIAL_SEND_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(120).default(20),
  /** Incoming webhooks: events accepted per webhook per minute (more are answered 429 with Retry-After). */
  WEBHOOK_RATE_PER_MINUTE: intFrom(600, 1, 1_000_000),
  /**
   * Official campaigns: the wait before a person is tried again after a Graph 5xx (doubled each time), and
   * after Meta's pair rate limit (131056: too many messages to that person).
   */
  OFFICIAL_RETRY_BASE_SECONDS: z.coerce.number().min(0.01).max(600).default(5),
  OFFICIAL_PAIR_RETRY_SECONDS: z.coerce.number().min(0.01).max(3600).default(60),
  /** Tests only: how long a follow-up's "minute" lasts (1: a message set to 2 minutes goes 2 s later). */
  FOLLOW_UP_MINUTE_SECONDS: z.coerce.number().min(0.01).max(60).default(60),
  /** The public API (/api/v1/*): requests one API key may make in each window before 429 (per process). */
  PUBLIC_API_RATE_MAX: intFrom(60, 1, 100000),
  PUBLIC_API_RATE_WINDOW_SECONDS: intFrom(60, 1, 24 * 60 * 60),
  /**
   * Digital Manager Guru's account token: its webhooks carry it as api_token (POST /api/v1/billing/guru).
   * Without it every billing webhook is refused.
   */
  /**
   * The adapter of new QR chips: 'baileys' (real WhatsApp numbers) or 'simulator' (the built-in phone page).
   * Each chip keeps the provider it was created with. Default: baileys in production, simulator otherwise.
   */
  CHANNEL_QR_PROVIDER: z.enum(['baileys', 'simulator']).optional(),
  /** Baileys: the least time between two sends of one chip, and the 'digitando…' shown before a text. */
  BAILEYS_SEND_GAP_MS: intFrom(1500, 0, 600_000),
  BAILEYS_TYPING_MS: intFrom(1200, 0, 60_000),
  /** Baileys: the largest customer file downloaded, in MB (WhatsApp allows up to 2 GB documents). */
  BAILEYS_MEDIA_MAX_MB: intFrom(64, 1, 2048),
  /**
   * ffmpeg, which turns a recorded voice note (MP3) into the Ogg/Opus WhatsApp shows as a voice note (README).
   * Missing: the MP3 goes as it is, and the server says so once in its log.
   */
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  /** Baileys: how long a QR code waits to be scanned before the chip goes back to Desconectado. */
  BAILEYS_QR_TIMEOUT_SECONDS: intFrom(120, 1, 3600),
  /** Baileys: one process holds a chip's socket for this long, renewed every third of it while alive. */
  BAILEYS_LEASE_SECONDS: intFrom(30, 1, 3600),
  /**
   * Tests only: '1' replaces WhatsApp with the in-process fake socket of tests/fakes (it scans its QR after
   * BAILEYS_FAKE_SCAN_MS). Never set in production: the server refuses to start with it there.
   */
  BAILEYS_FAKE: z.enum(['0', '1']).default('0'),
  BAILEYS_FAKE_SCAN_MS: intFrom(1500, 0, 600_000),
  GURU_WEBHOOK_TOKEN: z.string().min(16, 'deve ter pelo menos 16 caracteres').optional(),
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
  /** CHANNEL_QR_PROVIDER, its default applied. */
  qrProvider: 'baileys' | 'simulator';
  /** The media bucket, when MEDIA_S3_BUCKET is set; null: media on local disk. */
  mediaS3: MediaS3Config | null;
};

export interface MediaS3Config {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

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
  if (c.BAILEYS_FAKE === '1' && c.NODE_ENV === 'production') {
    throw new ConfigError('Configuração inválida:\n  BAILEYS_FAKE="1": só para testes, nunca em produção');
  }
  const mediaS3 = mediaS3Of(c);
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    serverAddress: c.PUBLIC_URL ? c.PUBLIC_URL.replace(/\/$/, '') : '',
    distDir: path.resolve('dist'),
    mediaMaxBytes: c.MEDIA_MAX_MB * 1024 * 1024,
    mediaRetrySeconds: c.MEDIA_RETRY_SECONDS.split(',').map(Number),
    qrProvider: c.CHANNEL_QR_PROVIDER ?? (c.NODE_ENV === 'production' ? 'baileys' : 'simulator'),
    mediaS3,
  };
}

const S3_REQUIRED = ['MEDIA_S3_BUCKET', 'MEDIA_S3_ACCESS_KEY_ID', 'MEDIA_S3_SECRET_ACCESS_KEY'] as const;

/**
 * The bucket settings, or null when none is set. Half a configuration stops the start: otherwise uploads
 * would go to the local disk of one process while the operator believes they are shared.
 */
function mediaS3Of(c: z.output<typeof envSchema>): MediaS3Config | null {
  const s3Keys = Object.keys(envSchema.shape).filter((k) => k.startsWith('MEDIA_S3_')) as (keyof typeof c)[];
  if (!s3Keys.some((k) => c[k] !== undefined)) return null;
  const { MEDIA_S3_BUCKET: bucket, MEDIA_S3_ACCESS_KEY_ID: accessKeyId } = c;
  const secretAccessKey = c.MEDIA_S3_SECRET_ACCESS_KEY;
  if (!bucket || !accessKeyId || !secretAccessKey) {
    // Names only: the values may be secrets.
    const lines = S3_REQUIRED.filter((k) => !c[k]).map(
      (k) =>
        `  ${k}: falta; o armazenamento S3 precisa de ${S3_REQUIRED.join(', ')} (ou de nenhuma variável MEDIA_S3_*, para guardar os arquivos em DATA_DIR/media)`,
    );
    throw new ConfigError(`Configuração inválida:\n${lines.join('\n')}`);
  }
  return {
    bucket,
    endpoint: c.MEDIA_S3_ENDPOINT,
    region: c.MEDIA_S3_REGION ?? 'us-east-1',
    accessKeyId,
    secretAccessKey,
    forcePathStyle: c.MEDIA_S3_FORCE_PATH_STYLE === 'true',
  };
}
