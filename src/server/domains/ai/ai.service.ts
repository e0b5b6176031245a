// AI summary and AI follow-up (spec 2 §4, §5, §8). One request of each kind runs per conversation at a time,
// whichever tab or server process asks (a row in ai_runs is the lock). Each spends one unit of the account's
// monthly balance (the plan's max_summaries / max_follow_ups, counted in ai_usage per calendar month); a
// provider failure gives the unit back.
import { basename, parse } from 'node:path';
import { MESSAGE_STATUS, SENDABLE_MEDIA } from '../../../shared/constants';
import { messages as texts } from '../../../shared/messages';
import type { UserActor } from '../../access';
import { type AiClient, createAiClient } from '../../ai/client';
import type { Config } from '../../config';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { appendMessage } from '../conversations/append-message';
import { visibleConversation } from '../conversations/conversations.service';
import { toMessage } from '../conversations/present';
import { aiRepo, type AiKind as Kind, type AiMessageRow as MessageRow } from './ai.repo';
import { FOLLOW_UP_PROMPT, MEDIA_LABEL, prompt, SUMMARY_PROMPT, speaker } from './prompts';

/** Spec 2 §5: the summary reads the last 30 text and audio messages, the follow-up the last 15. */
export const SUMMARY_MESSAGES = 30;
export const FOLLOW_UP_MESSAGES = 15;
/** A run older than this is a crashed one: its lock no longer holds. */
const STALE_RUN_MS = 11 * 60 * 1000;

const clients = new WeakMap<Config, AiClient | null>();
function clientFor(config: Config): AiClient {
  if (!clients.has(config)) clients.set(config, createAiClient(config));
  const client = clients.get(config);
  if (!client) throw new AppError(texts.aiNotConfigured);
  return client;
}

/** Takes one unit of this month's balance; answers what is left, or refuses when none is. */
async function spend(services: Services, actor: UserActor, kind: Kind): Promise<number> {
  const { account } = actor.user;
  const max = kind === 'summary' ? account.maxSummaries : account.maxFollowUps;
  const refusal = kind === 'summary' ? texts.aiNoSummaryBalance : texts.aiNoFollowUpBalance;
  if (max <= 0) throw new AppError(refusal);
  const used = await aiRepo.spendUnit(services.db, actor, kind, max);
  if (used === null) throw new AppError(refusal);
  return max - used;
}

/** Runs `work` holding the conversation's lock for `kind`; a second request meanwhile is refused. */
async function exclusive<T>(services: Services, conversationId: string, kind: Kind, work: () => Promise<T>) {
  const { db } = services;
  if (!(await aiRepo.takeRun(db, conversationId, kind, new Date(Date.now() - STALE_RUN_MS))))
    throw new AppError(kind === 'summary' ? texts.aiSummaryRunning : texts.aiFollowUpRunning);
  try {
    return await work();
  } finally {
    await aiRepo.releaseRun(db, conversationId, kind);
  }
}

/** A message as a line of the transcript; audio is transcribed when the provider can, else left out. */
async function lineOf(
  services: Services,
  ai: AiClient,
  m: MessageRow,
  keepMedia: boolean,
): Promise<string | null> {
  let text = m.message.trim();
  if (m.type === 'audio') {
    const file = ai.transcribe && m.mediaUrl && services.media.owns(m.mediaUrl) ? m.mediaUrl : null;
    if (!file || !ai.transcribe) return keepMedia ? `${speaker(m)}: ${MEDIA_LABEL.audio}` : null;
    const audio = await services.media.read(file).catch(() => null);
    if (!audio) return keepMedia ? `${speaker(m)}: ${MEDIA_LABEL.audio}` : null;
    // The provider reads the format from the type and the name's extension: a customer's voice note is
    // Ogg/Opus, a recording MP3. Both come from the content (the message's file name may be a library title
    // with no extension, and an older stored file may have none that fits).
    const kind = await services.media.sniff(audio, SENDABLE_MEDIA.audio);
    const name = kind ? `${parse(file).name}.${kind.ext}` : basename(file);
    text = await ai.transcribe(audio, name, kind?.mime ?? 'application/octet-stream');
    text = `${MEDIA_LABEL.audio} ${text}`;
  } else if (m.type !== 'text') {
    const label = MEDIA_LABEL[m.type];
    if (!label) return null;
    text = `${label} ${text}`.trim();
  }
  return text ? `${speaker(m)}: ${text}` : null;
}

const TRANSCRIPT_TYPES: MessageRow['type'][] = ['text', 'audio', 'image', 'video', 'document', 'location'];

/** The provider's work: any failure (network, status, timeout, empty answer) is 'Erro ao resumir mensagens'. */
async function ask(services: Services, actor: UserActor, kind: Kind, work: () => Promise<string>) {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError) throw err;
    services.log.warn({ err, kind }, 'AI provider failed');
    await aiRepo.refundUnit(services.db, actor, kind);
    throw new AppError(texts.aiFailed);
  }
}

export async function summarizeMessages(
  services: Services,
  actor: UserActor,
  p: { conversation_id: string; text: string },
) {
  const ai = clientFor(services.config);
  const { conversation } = await visibleConversation({ services, actor }, p.conversation_id);
  return exclusive(services, conversation.id, 'summary', async () => {
    const rows = await aiRepo.lastMessages(services.db, actor, conversation.id, SUMMARY_MESSAGES, [
      'text',
      'audio',
    ]);
    if (!rows.some((m) => m.type === 'audio' || m.message.trim()))
      throw new AppError(texts.aiNothingToSummarize);
    const balance = await spend(services, actor, 'summary');
    const summary = await ask(services, actor, 'summary', async () => {
      const lines: string[] = [];
      for (const m of rows) {
        const line = await lineOf(services, ai, m, false);
        if (line) lines.push(line);
      }
      return ai.chat(prompt(SUMMARY_PROMPT, lines, p.text));
    });
    // The list's preview shows it ('Resumo'), after a reload too; the list's order stays by conversation.
    const { row } = await appendMessage(services, actor, {
      conversation,
      effect: 'summary',
      message: {
        origin: 'user',
        type: 'summary',
        message: summary,
        userId: actor.userId,
        status: MESSAGE_STATUS.sent,
      },
    });
    const message = toMessage(row);
    return { message, balance };
  });
}

export async function createAiFollowUp(
  services: Services,
  actor: UserActor,
  p: { conversation_id: string; text: string },
) {
  const ai = clientFor(services.config);
  const { conversation } = await visibleConversation({ services, actor }, p.conversation_id);
  return exclusive(services, conversation.id, 'follow_up', async () => {
    const rows = await aiRepo.lastMessages(
      services.db,
      actor,
      conversation.id,
      FOLLOW_UP_MESSAGES,
      TRANSCRIPT_TYPES,
    );
    if (!rows.length) throw new AppError(texts.aiNothingToFollowUp);
    const balance = await spend(services, actor, 'follow_up');
    const followUp = await ask(services, actor, 'follow_up', async () => {
      const lines: string[] = [];
      for (const m of rows) {
        const line = await lineOf(services, ai, m, true);
        if (line) lines.push(line);
      }
      return ai.chat(prompt(FOLLOW_UP_PROMPT, lines, p.text));
    });
    return { follow_up: followUp.slice(0, 4096), balance };
  });
}
