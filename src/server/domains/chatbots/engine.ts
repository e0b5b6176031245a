// The AI chatbot engine (issue 17 §2): answers the customer of a conversation an AI chatbot serves, from the
// position stored in chatbot_runs, so a restart or a second server continues exactly there. It runs on the
// engines' skeleton (conversations/claim.ts: claim, steps, release, look again, sweep); this file is its steps.
//
// - A customer's message queues a `chatbot-reply` job at its time + the chatbot's response delay. The job
//   claims the conversation's chatbot run (one answerer per conversation, apart from the flow engine's) and
//   answers every customer message after `input_after` in ONE provider call; when the newest is younger than
//   the delay it queues itself for newest + delay instead (the debounce: quick messages get one answer).
// - 'digitando…' (showTyping: the simulator's header, the Cloud API's typing indicator) shows for
//   CHATBOT_TYPING_SECONDS while the provider thinks; the answer goes out after both. Every send goes through
//   the attendants' idempotent send path with a message_id made of the conversation and the last customer
//   message answered: a retry or a second process never sends twice.
// - Right before sending, the claim is checked again: 'Atender como humano', a transfer or a finish during the
//   provider call means the answer is dropped. The position moves in the transaction that renews the claim,
//   and only while the chatbot still serves.
// - A tool call (transferir_atendimento), or a file when 'auto transfer on media' is set, hands the
//   conversation to a person of its department (with the transfer message) or to the chatbot's flow.
// - Provider errors, time-outs, 429s and empty answers are retried with backoff (attempts in the position, the
//   retry's time in wake_at with its job); after the last try a person serves, with a system note. The
//   customer's message stays in the conversation.
// - chatbot-sweep (every minute): finishes conversations a chatbot serves after 48 h without messages (with
//   the finish message), and queues an answer for any left with unanswered input and nobody on it.
import { MESSAGE_STATUS } from '../../../shared/constants';
import type { ChatbotContext, ChatbotTurn } from '../../../shared/contract/chatbots';
import { messages as texts } from '../../../shared/messages';
import { CHATBOT_INACTIVE_HOURS } from '../../../shared/rules/chatbot';
import { fillPlaceholders as fillContactPlaceholders } from '../../../shared/rules/placeholders';
import { platformJob, systemActor } from '../../access';
import { type AiClient, createAiClient } from '../../ai/client';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { appendMessage } from '../conversations/append-message';
import { defineEngine, type Held, resetRuns, Stopped } from '../conversations/claim';
import { finishOpen, toDepartment } from '../conversations/conversation-actions';
import { chatbotSender, sendConversationMessage } from '../conversations/conversations.service';
import { announceMoved } from '../conversations/delivery';
import type { ConversationRow, MessageRow } from '../conversations/messages.repo';
import { toMessage } from '../conversations/present';
import { showTyping } from '../conversations/typing';
import { flowsRepo } from '../flows/flows.repo';
import { queueFlowRun, startingFlow } from '../flows/start';
import { chatbotRunsRepo, chatbotServed } from './chatbot-runs.repo';
import { type ChatbotRow, chatbotsRepo } from './chatbots.repo';
import { draftOf } from './chatbots.service';
import {
  buildPrompt,
  fillPlaceholders,
  linesOf,
  MEDIA_TYPES,
  PROMPT_MESSAGES,
  type PromptContact,
  TRANSFER_TOOL_NAME,
  transferTool,
} from './prompt';
import { CHATBOT_REPLY_JOB, queueChatbotReply } from './start';

/** Retries after 1×, 4× and 12× CHATBOT_RETRY_BASE_SECONDS; the failure after the last goes to a person. */
export const RETRY_FACTORS = [1, 4, 12];
/** A due time is due this close to it (the runner wakes a job a few ms after its time). */
const SLACK_MS = 20;
/** Customer messages answered in one turn at most (a flood is answered as its last 50). */
const MAX_INPUT = 50;
/** Turns one claim answers at most (messages that arrive during an answer get the next turn). */
const MAX_TURNS = 10;

/** How long a claim holds a conversation: longer than a provider call and the typing together. */
export const chatbotLeaseSeconds = (config: Config) =>
  Math.max(120, config.AI_TIMEOUT_SECONDS + config.CHATBOT_TYPING_SECONDS + 60);

const clients = new WeakMap<Config, AiClient | null>();
function clientFor(config: Config) {
  if (!clients.has(config)) clients.set(config, createAiClient(config));
  return clients.get(config) ?? null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const iso = (d: Date) => d.toISOString();

/** Served by its AI chatbot: not taken by a person, open, naming a chatbot (chatbot-runs.repo.ts asks it in SQL). */
export const isChatbotServed = (c: ConversationRow) =>
  c.chatbotType === 'chatbot' && !c.isManual && !c.finishedAt && !!c.chatbotId;

/** A reply's job names only the conversation: its reads act as the platform's job until they know the account. */
const engine = platformJob('chatbots');
const actorOf = (c: Pick<ConversationRow, 'accountId'>) => systemActor(c.accountId, 'chatbots');

/** What a run was asked with: the customer message whose arrival queued its job (none: a retry, the sweep). */
type Trigger = { message?: string };

export const chatbotEngine = defineEngine<ChatbotContext, Trigger>({
  name: 'chatbots',
  leaseSeconds: (services) => chatbotLeaseSeconds(services.config),
  serves: chatbotServed,
  maxRounds: 5,
  step: (held, trigger, steps) => turnOf(held, trigger.message, steps),
  // A message whose job found the claim taken just before the release: answered now, not by the sweep.
  hasWork: (services, conversationId) => dueInput(services, conversationId),
  // A failed call's retry (the only wake-up): its job, in the step's transaction.
  wake: (services, conversationId, at, key, tx) =>
    queueChatbotReply(services, conversationId, { tx, startAfter: at, key }),
  unattended: (services, limit) => chatbotRunsRepo.lost(services.db, engine, limit),
  job: CHATBOT_REPLY_JOB,
});

/**
 * Answers the conversation's unanswered customer messages, when its AI chatbot serves it and no one else is
 * answering it. Safe to call any number of times, from any process. `job.message`: the customer message whose
 * arrival queued this job.
 */
export const answerConversation = (services: Services, conversationId: string, job: Trigger = {}) =>
  chatbotEngine.run(services, conversationId, job);

/** Whether the conversation's last message is the customer's, unanswered and due. */
async function dueInput(services: Services, conversationId: string) {
  const row = await chatbotRunsRepo.withLastMessage(services.db, engine, conversationId);
  if (row?.last.origin !== 'customer') return false;
  const ctx = row.position;
  if (ctx?.input_after?.id === row.last.id) return false;
  if (ctx?.retry_at && Date.parse(ctx.retry_at) > Date.now()) return false;
  return Math.min(row.last.createdAt.getTime(), Date.now()) + row.delay * 1000 - SLACK_MS <= Date.now();
}

interface Turn {
  held: Held<ChatbotContext>;
  services: Services;
  conversation: ConversationRow;
  chatbot: ChatbotRow;
  ctx: ChatbotContext;
  /** The newest customer message this turn answers. */
  newest: MessageRow;
}

/** One turn with the claim held; answers whether to look for another (messages that came meanwhile). */
async function turnOf(
  held: Held<ChatbotContext>,
  trigger: string | undefined,
  steps: number,
): Promise<boolean> {
  const { services, conversation } = held;
  if (!isChatbotServed(conversation) || !conversation.chatbotId) return false;
  const chatbot = await chatbotsRepo.byId(services.db, conversation.chatbotId);
  if (!chatbot || chatbot.filed || chatbot.accountId !== conversation.accountId) return false;
  const stored = held.run.position;
  const ctx: ChatbotContext =
    stored?.chatbot === chatbot.id
      ? stored
      : {
          chatbot: chatbot.id,
          input_after: await answeredUpTo(services.db, conversation),
          attempts: 0,
        };
  const input = await inputAfter(services.db, conversation, ctx.input_after);
  const newest = input.at(-1);
  if (!newest) {
    if (ctx !== stored) await held.persist({ position: ctx });
    return false;
  }
  // The debounce, and a failed call's backoff: not before the newest message's time + the delay.
  const createdAt = Math.min(newest.createdAt.getTime(), Date.now());
  const due = Math.max(createdAt + chatbot.responseDelay * 1000, ctx.retry_at ? Date.parse(ctx.retry_at) : 0);
  if (due - SLACK_MS > Date.now()) {
    // The newest message's own job is due then (queued on its arrival: the same key adds nothing), unless
    // this is that job, early; a failed call's retry has its job too (the same key again).
    const key = ctx.retry_at
      ? `retry:${ctx.attempts}:${newest.id}`
      : trigger === newest.id
        ? `wait:${newest.id}:${due}`
        : `message:${newest.id}`;
    await queueChatbotReply(services, conversation.id, { startAfter: new Date(due), key });
    if (ctx !== stored) await held.persist({ position: ctx });
    return false;
  }
  const answered = await answer({ held, services, conversation, chatbot, ctx, newest }, input);
  return answered && steps + 1 < MAX_TURNS;
}

/** The last customer message the conversation's team or chatbot answered (a message after it), or null. */
async function answeredUpTo(db: Db, conversation: ConversationRow): Promise<ChatbotContext['input_after']> {
  const row = await chatbotRunsRepo.answeredUpTo(db, actorOf(conversation), conversation.id);
  return row ? { at: iso(row.at), id: row.id } : null;
}

/** The customer's messages after `after`, oldest first (the last MAX_INPUT). */
async function inputAfter(db: Db, conversation: ConversationRow, after: ChatbotContext['input_after']) {
  const rows = await chatbotRunsRepo.inputAfter(db, actorOf(conversation), conversation.id, after, MAX_INPUT);
  return rows.reverse();
}

/** Right before a send: the claim still holds the conversation and its chatbot still serves it. */
async function stillServed(turn: Turn) {
  const { services, conversation, held } = turn;
  if (!(await chatbotRunsRepo.holds(services.db, engine, conversation.id, held.holder.lease)))
    throw new Stopped();
}

const answeredCtx = (turn: Turn): ChatbotContext => ({
  chatbot: turn.chatbot.id,
  input_after: { at: iso(turn.newest.createdAt), id: turn.newest.id },
  attempts: 0,
  retry_at: null,
});

const replyId = (turn: Turn) => `ai-${turn.conversation.id}-${turn.newest.id}`;

async function contactOf(db: Db, conversation: ConversationRow): Promise<PromptContact> {
  const c = await chatbotRunsRepo.contact(db, actorOf(conversation), conversation.contactId);
  return { name: c ? c.overrideName || c.name : '', data: c?.data ?? {} };
}

/** The conversation so far, up to the newest input, oldest first (system notes left out by linesOf). */
async function history(db: Db, conversation: ConversationRow, newest: MessageRow) {
  const rows = await chatbotRunsRepo.history(
    db,
    actorOf(conversation),
    conversation.id,
    newest,
    PROMPT_MESSAGES,
  );
  return linesOf(rows.reverse());
}

export type Decision =
  | { kind: 'answer'; text: string }
  | { kind: 'transfer'; reason: string }
  | { kind: 'failed'; error: unknown };

/** One provider call and what it means: an answer, a hand-over (the tool), or a failure to retry. */
export async function decide(
  ai: AiClient,
  draft: ReturnType<typeof draftOf>,
  contact: PromptContact | null,
  lines: Parameters<typeof buildPrompt>[2],
): Promise<Decision> {
  try {
    const result = await ai.chatTurn({
      messages: buildPrompt(draft, contact, lines),
      tools: draft.chatbot_auto_transfer ? [transferTool] : [],
      temperature: draft.temperature,
    });
    const transfer = result.toolCalls.find((t) => t.name === TRANSFER_TOOL_NAME);
    if (transfer && draft.chatbot_auto_transfer) {
      const reason = transfer.arguments.motivo;
      return { kind: 'transfer', reason: typeof reason === 'string' ? reason.slice(0, 500) : '' };
    }
    if (result.content) return { kind: 'answer', text: result.content.slice(0, 4096) };
    return { kind: 'failed', error: new Error('a tool call that is not offered, and no text') };
  } catch (error) {
    return { kind: 'failed', error };
  }
}

/** Answers the turn's input; true when it answered (another turn may follow), false when the run stops. */
async function answer(turn: Turn, input: MessageRow[]): Promise<boolean> {
  const { services, conversation, chatbot, newest } = turn;
  // Answered already (a crash between the send and the position): only the position is written.
  if (await chatbotRunsRepo.stored(services.db, actorOf(conversation), replyId(turn))) {
    await turn.held.persist({ position: answeredCtx(turn) });
    return true;
  }

  if (chatbot.autoTransferIfMedia && input.some((m) => (MEDIA_TYPES as readonly string[]).includes(m.type)))
    return handOver(turn, { reason: texts.chatbotMediaReason });
  const ai = clientFor(services.config);
  if (!ai) return handOver(turn, { toHuman: true, note: texts.chatbotNotConfigured });

  const contact = await contactOf(services.db, conversation);
  const lines = await history(services.db, conversation, newest);
  // 'digitando…' runs while the model writes: the answer goes out after both.
  const typingSeconds = services.config.CHATBOT_TYPING_SECONDS;
  const typing = sleep(typingSeconds * 1000);
  void showTyping(services, conversation.id, typingSeconds);
  const decision = await decide(ai, draftOf(chatbot), contact, lines);
  if (decision.kind === 'failed') return failed(turn, decision.error);
  if (decision.kind === 'transfer') return handOver(turn, { reason: decision.reason });
  await typing;
  // A person took it, or it was transferred or finished, while the model wrote: nothing is sent.
  await stillServed(turn);
  await send(turn, replyId(turn), decision.text);
  await turn.held.persist({ position: answeredCtx(turn) });
  return true;
}

function send(turn: Turn, messageId: string, text: string) {
  const { services, conversation } = turn;
  return sendConversationMessage({ services, actor: actorOf(conversation) }, chatbotSender, {
    conversation_id: conversation.id,
    message_id: messageId,
    text,
  });
}

/**
 * A failed provider call: retried after a backoff (the position's retry_at and wake_at, the retry's job queued
 * with them by the engine's wake); after the last try, a person serves. The run stops here either way.
 */
async function failed(turn: Turn, error: unknown): Promise<false> {
  const { services, conversation, ctx } = turn;
  const attempts = ctx.attempts + 1;
  services.log.warn({ err: error, conversation: conversation.id, attempts }, 'chatbot provider call failed');
  const factor = RETRY_FACTORS[attempts - 1];
  if (factor === undefined) return handOver(turn, { toHuman: true, note: texts.chatbotProviderFailed });
  const retryAt = new Date(Date.now() + factor * services.config.CHATBOT_RETRY_BASE_SECONDS * 1000);
  const next: ChatbotContext = { ...ctx, attempts, retry_at: iso(retryAt) };
  await turn.held.persist({
    position: next,
    wakeAt: retryAt,
    wakeKey: `retry:${attempts}:${turn.newest.id}`,
  });
  return false;
}

/**
 * The conversation leaves the chatbot: to its flow (redirect flow_chatbot, the flow still live), otherwise to
 * a person of its department with the transfer message. A system note says why; the lists see it at once.
 * The run stops here.
 */
async function handOver(
  turn: Turn,
  opts: { reason?: string; toHuman?: boolean; note?: string },
): Promise<false> {
  const { services, conversation, chatbot } = turn;
  const flow =
    !opts.toHuman && chatbot.redirect === 'flow_chatbot' && chatbot.flowId
      ? await flowsRepo.find(services.db, actorOf(conversation), chatbot.flowId)
      : null;
  // A text to the customer: a placeholder without a value reads as nothing (rules/placeholders.ts).
  const message = fillContactPlaceholders(
    chatbot.autoTransferMessage,
    await contactOf(services.db, conversation),
  ).trim();
  if (!flow && !opts.toHuman && message) {
    await stillServed(turn);
    await send(turn, `ai-transfer-${conversation.id}-${turn.newest.id}`, message);
  }
  const note =
    opts.note ??
    (flow ? texts.chatbotTransferredToFlow(chatbot.name) : texts.chatbotTransferredToHuman(chatbot.name));
  const set = flow
    ? startingFlow(flow.id)
    : conversation.departmentId
      ? toDepartment({ id: conversation.departmentId })
      : { isManual: true };
  let row: MessageRow | undefined;
  // The note, the change and the flow's run are one transaction, only while this claim holds.
  await turn.held.persist({
    position: answeredCtx(turn),
    set,
    also: async (tx) => {
      ({ row } = await appendMessage({ db: tx, realtime: services.realtime }, actorOf(conversation), {
        conversation,
        effect: 'none',
        announce: false,
        message: {
          origin: 'chatbot',
          source: 'chatbot',
          type: 'system',
          message: note,
          status: MESSAGE_STATUS.sent,
        },
      }));
      if (flow) {
        // The flow starts from its beginning: its old position (if any) is forgotten.
        await resetRuns(tx, 'flows', [conversation.id]);
        await queueFlowRun(services, conversation.id, { tx });
      }
    },
  });
  if (row)
    services.realtime.toConversation(conversation.accountId, conversation.departmentId, {
      type: 'new_message',
      message: { conversation_id: conversation.id, message: toMessage(row) },
    });
  await announceMoved(services, conversation);
  return false;
}

// --- The trigger -----------------------------------------------------------------------------------------

/**
 * The pipeline's hook, after a customer's message is stored and the flows had their look: a conversation its
 * AI chatbot serves gets an answer job at the message's time + the response delay. The job's key is the
 * message (a replayed webhook queues nothing more). Never throws: the message is stored whatever happens.
 */
export async function onChatbotCustomerMessage(
  services: Services,
  conversationId: string,
  message: { id: string; createdAt?: Date },
  /** The conversation as the message's own append left it, when nothing changed it since. */
  current?: ConversationRow | null,
) {
  try {
    const c = current ?? (await chatbotRunsRepo.conversation(services.db, engine, conversationId));
    if (!c || !isChatbotServed(c) || !c.chatbotId) return;
    const chatbot = await chatbotsRepo.byId(services.db, c.chatbotId);
    if (!chatbot) return;
    const at = Math.min((message.createdAt ?? new Date()).getTime(), Date.now());
    await queueChatbotReply(services, c.id, {
      key: `message:${message.id}`,
      message: message.id,
      startAfter: new Date(at + chatbot.responseDelay * 1000),
    });
  } catch (err) {
    services.log.error({ err, conversation: conversationId }, 'chatbot trigger failed');
  }
}

// --- The sweep -------------------------------------------------------------------------------------------

/**
 * Every minute and at each start: finishes the conversations a chatbot serves that had no message for
 * CHATBOT_INACTIVE_HOURS (a finish message interrupted by a crash is finished at once), and queues an answer
 * for those whose last message is the customer's, 90 s old, with nobody answering and no retry waiting (a
 * lost job).
 */
export async function sweepChatbots(services: Services, limit = 500) {
  const now = services.clock?.now() ?? new Date();
  const inactiveSince = new Date(now.getTime() - CHATBOT_INACTIVE_HOURS * 3600_000);
  const idle = await chatbotRunsRepo.idle(services.db, engine, inactiveSince, limit);
  for (const c of idle) {
    try {
      await finishInactive(services, c);
    } catch (err) {
      services.log.error({ err, conversation: c.id }, 'chatbot inactivity finish failed');
    }
  }
  // The lost answers: the skeleton's sweep, over chatbotRunsRepo.lost.
  const queued = await chatbotEngine.sweep(services, limit);
  return { finished: idle.length, queued };
}

/** The finish message (once: its message_id names the last message before it), a note, then the finish. */
async function finishInactive(services: Services, c: ConversationRow) {
  const chatbot = c.chatbotId ? await chatbotsRepo.byId(services.db, c.chatbotId) : null;
  const last = c.lastMessageId
    ? await chatbotRunsRepo.message(services.db, actorOf(c), c.lastMessageId)
    : undefined;
  const alreadySent = last?.messageId?.startsWith('ai-finish-');
  const text = chatbot
    ? fillContactPlaceholders(chatbot.finishMessage, await contactOf(services.db, c)).trim()
    : '';
  if (text && !alreadySent)
    await sendConversationMessage({ services, actor: actorOf(c) }, chatbotSender, {
      conversation_id: c.id,
      message_id: `ai-finish-${c.id}-${c.lastMessageId ?? 'none'}`,
      text,
    });
  await appendMessage(services, actorOf(c), {
    conversation: c,
    effect: 'none',
    message: {
      origin: 'chatbot',
      source: 'chatbot',
      type: 'system',
      message: texts.chatbotFinishedInactive,
      status: MESSAGE_STATUS.sent,
    },
  });
  await finishOpen(services, c.id, null);
}

// --- 'Testar chatbot' --------------------------------------------------------------------------------------

/**
 * The live engine's turn for a draft and a test conversation: the same prompt, provider call and tool
 * decision, touching no customer and storing nothing. Placeholders have no contact here: they read as
 * 'Não tenho essa informação no momento'.
 */
export async function testTurn(
  services: Pick<Services, 'config' | 'log'>,
  draft: ReturnType<typeof draftOf>,
  lines: readonly { from: 'customer' | 'chatbot'; text: string }[],
): Promise<ChatbotTurn> {
  const ai = clientFor(services.config);
  if (!ai) throw new AppError(texts.chatbotNotConfigured);
  const decision = await decide(
    ai,
    draft,
    null,
    lines.map((l) => ({ from: l.from === 'customer' ? 'customer' : 'assistant', text: l.text })),
  );
  if (decision.kind === 'failed') {
    services.log.warn({ err: decision.error }, 'chatbot test call failed');
    throw new AppError(texts.chatbotTestFailed);
  }
  if (decision.kind === 'answer') return { answer: decision.text, transfer: null };
  const toFlow = draft.redirect === 'flow_chatbot' && !!draft.flow;
  return {
    answer: null,
    transfer: {
      to: toFlow ? 'flow_chatbot' : 'human',
      reason: decision.reason,
      message: toFlow ? null : fillPlaceholders(draft.chatbot_auto_transfer_message, null).trim() || null,
    },
  };
}
