// The flow engine (issue 16 §4): runs a conversation's flow, step by step, from its position stored in
// flow_runs, so a restart, a deploy or a second server continues exactly there.
//
// - The claim, the persisted position after EVERY step, the release and the look for work that arrived
//   meanwhile are the engines' one skeleton (conversations/claim.ts): whoever holds the claim handles every
//   message, once and in order; a job that finds the claim taken just returns. This file is the flow's steps.
// - A process killed mid-run leaves its claim to run out; its runner job is retried and continues.
// - The customer's messages are the run's input: those after `input_after` (created_at, id), consumed in order
//   by the node that waits for a reply. What arrives before a run starts or during a wait node is not input.
// - Every send goes through the attendants' idempotent send path with message_id `flow-<run>-<step>[-i]`: a
//   step run again after a crash finds its messages stored and sends nothing twice.
// - A wait (a wait node, a question's timeout) is a runner job due at its time, queued in the step's
//   transaction: it survives a restart. Jobs of an older run find another run (or none) and change nothing.
// - 'Atender como humano', a transfer, or a finish make the conversation not flow-served: the run stops at
//   its next step. An error in a node sends that conversation (only) to human service with a system note.
import { MESSAGE_STATUS } from '../../../shared/constants';
import type { AnyFlowNode, FlowConnection, FlowContext, FlowNodeType } from '../../../shared/contract/flows';
import { flowNodeData } from '../../../shared/contract/flows';
import { newId } from '../../../shared/ids';
import { messages as texts } from '../../../shared/messages';
import { branchOf, isFlowNodeType } from '../../../shared/rules/flow';
import { platformJob, systemActor } from '../../access';
import type { ChipRow } from '../../channels/adapter';
import type { Db } from '../../db';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { chatbotsRepo } from '../chatbots/chatbots.repo';
import { queueChatbotReply, servingChatbot } from '../chatbots/start';
import { appendMessage } from '../conversations/append-message';
import { defineEngine, type Held, resetRuns } from '../conversations/claim';
import { accountDepartment, finishOpen, toDepartment } from '../conversations/conversation-actions';
import type { ConversationChange } from '../conversations/conversations.repo';
import { flowSender, type SendInput, sendConversationMessage } from '../conversations/conversations.service';
import { announceMoved } from '../conversations/delivery';
import type { ConversationRow, MessageRow } from '../conversations/messages.repo';
import { toMessage } from '../conversations/present';
import { showTyping } from '../conversations/typing';
import { flowRunsRepo, flowServed, type KeywordFlow } from './flow-runs.repo';
import { type FlowRow, flowsRepo } from './flows.repo';
import {
  acceptAnswer,
  type ContactView,
  FlowError,
  fillVariables,
  fold,
  httpRequest,
  isOpen,
  menuOf,
  pickBranch,
  pickOption,
  readPath,
} from './nodes';
import { FLOW_RUN_JOB, queueFlowRun, startingFlow } from './start';

export type { KeywordFlow };

/** How long a claim holds a conversation: longer than the slowest step (30 s typing + a 30 s request). */
export const FLOW_LEASE_SECONDS = 120;
/** Steps one claim runs without the customer: a flow that never waits is stopped (rules/flow.ts refuses it). */
const MAX_STEPS_PER_CLAIM = 500;
/** A time is due this close to it: the runner's clock (the database's) and ours may differ a little. */
const CLOCK_SLACK_MS = 1000;

const now = (services: Pick<Services, 'clock'>) => services.clock?.now() ?? new Date();

/** Served by its flow: a flow chatbot, not taken by a person, open (flow-runs.repo.ts asks it in SQL). */
export const isFlowServed = (c: ConversationRow) =>
  c.chatbotType === 'flow_chatbot' && !c.isManual && !c.finishedAt && !!c.flowId;

/** The run's job names only the conversation: its reads act as the platform's job until they know the account. */
const engine = platformJob('flows');
const actorOf = (c: Pick<ConversationRow, 'accountId'>) => systemActor(c.accountId, 'flows');

/** The flow engine on the engines' skeleton: its steps, its wake-ups and its sweep. */
const flowEngine = defineEngine<FlowContext>({
  name: 'flows',
  leaseSeconds: () => FLOW_LEASE_SECONDS,
  serves: flowServed,
  maxRounds: 50,
  step: (held, _input, steps) => {
    if (steps >= MAX_STEPS_PER_CLAIM) throw new FlowError(texts.flowLoop);
    return step(runOf(held));
  },
  hasWork: (services, conversationId) => hasWork(services, conversationId),
  failed: (held, err) => failToHuman(runOf(held), err),
  // A wait or a question's timeout: the runner's job at its time, keyed by the run and step.
  wake: (services, conversationId, at, key, tx) =>
    queueFlowRun(services, conversationId, { tx, startAfter: at, key }),
  unattended: (services, limit) => flowRunsRepo.unattended(services.db, engine, limit),
  job: FLOW_RUN_JOB,
});

/**
 * Runs the conversation's flow until it waits or ends, when no one else is running it. Safe to call any
 * number of times, from any process: the runner's job, or directly.
 */
export const runConversation = (services: Services, conversationId: string) =>
  flowEngine.run(services, conversationId, undefined);

/** Whether the conversation's flow has something to do now (a start, a due time, a reply to read). */
export async function hasWork(services: Services, conversationId: string) {
  const state = await flowRunsRepo.state(services.db, engine, conversationId);
  const c = state?.conversation;
  if (!c || !isFlowServed(c)) return false;
  if (c.startFlow) return true;
  const ctx = state.position;
  if (!ctx || ctx.ended) return false;
  if (!ctx.waiting) return true;
  if (ctx.until && new Date(ctx.until).getTime() - CLOCK_SLACK_MS <= now(services).getTime()) return true;
  return (
    ctx.waiting === 'reply' && !!(await flowRunsRepo.nextInput(services.db, engine, c.id, ctx.input_after))
  );
}

// --- The flow's graph, parsed once per claim -------------------------------------------------------------

interface Graph {
  row: FlowRow;
  nodes: Map<string, AnyFlowNode>;
  edges: FlowConnection[];
  start: string | null;
}

function parseGraph(row: FlowRow): Graph {
  const nodes = new Map<string, AnyFlowNode>();
  let start: string | null = null;
  for (const n of row.nodes) {
    if (!isFlowNodeType(n.type)) continue;
    const parsed = flowNodeData[n.type as FlowNodeType].safeParse(n.data ?? {});
    if (!parsed.success) continue;
    nodes.set(n.id, { ...n, data: parsed.data } as AnyFlowNode);
    if (n.type === 'start' && !start) start = n.id;
  }
  return { row, nodes, edges: row.connections, start };
}

/** The node a branch leads to, or null: an unconnected branch ends the run. */
const follow = (graph: Graph, node: string, branch: string) =>
  graph.edges.find((e) => e.source === node && branchOf(e) === branch)?.target ?? null;

// --- The claimed run -------------------------------------------------------------------------------------

interface Run {
  services: Services;
  held: Held<FlowContext>;
  conversation: ConversationRow;
  /** What the claim keeps from step to step: the graphs parsed, the contact read (until a step writes to it). */
  cache: { graphs: Map<string, Graph>; contact?: ContactView & { id: string } };
}

const claimCaches = new WeakMap<object, Run['cache']>();

/** The step's view of the held conversation; its cache lives as long as the claim (its holder). */
function runOf(held: Held<FlowContext>): Run {
  let cache = claimCaches.get(held.holder);
  if (!cache) {
    cache = { graphs: new Map() };
    claimCaches.set(held.holder, cache);
  }
  return { services: held.services, held, conversation: held.conversation, cache };
}

async function graphOf(run: Run, flowId: string) {
  let graph = run.cache.graphs.get(flowId);
  if (!graph) {
    const row = await flowsRepo.find(run.services.db, actorOf(run.conversation), flowId);
    if (!row) throw new FlowError(texts.flowFlowMissing);
    graph = parseGraph(row);
    run.cache.graphs.set(flowId, graph);
  }
  return graph;
}

/** The position and whatever else a step changes, in one transaction that also renews the claim. */
interface StepResult {
  ctx: FlowContext;
  /** Writes of the same change (contact variables, tags), before the conversation's (lock order). */
  also?: (tx: Db) => Promise<unknown>;
  /** The conversation's other changes (a redirect). */
  set?: ConversationChange;
  /** A runner job due at this time (a wait, a question's timeout). */
  wakeAt?: Date;
}

async function persist(run: Run, result: StepResult) {
  if (result.also) run.cache.contact = undefined;
  await run.held.persist({
    position: result.ctx,
    wakeAt: result.wakeAt ?? null,
    // One job per wait: the run and its step.
    wakeKey: `${run.conversation.id}:${result.ctx.run}:${result.ctx.step}`,
    set: result.set,
    also: result.also,
  });
}

const iso = (d: Date) => d.toISOString();

/** The latest customer message: what came before it is not a reply to what the flow sends next. */
async function lastInput(run: Run): Promise<FlowContext['input_after']> {
  const row = await flowRunsRepo.lastInput(run.services.db, actorOf(run.conversation), run.conversation.id);
  return row ? { at: iso(row.at), id: row.id } : null;
}

async function contactOf(run: Run): Promise<ContactView & { id: string }> {
  if (run.cache.contact) return run.cache.contact;
  const c = await flowRunsRepo.contact(
    run.services.db,
    actorOf(run.conversation),
    run.conversation.contactId,
  );
  if (!c) throw new FlowError(texts.notFound);
  run.cache.contact = {
    id: c.id,
    name: c.overrideName || c.name,
    phone: c.phone,
    tags: c.tags,
    data: c.data,
  };
  return run.cache.contact;
}

/** Sends one of the step's messages through the attendants' send path (message_id: run, step, index). */
async function send(
  run: Run,
  ctx: FlowContext,
  index: number,
  input: Omit<SendInput, 'conversation_id' | 'message_id'>,
) {
  const { services, conversation } = run;
  const message = await sendConversationMessage({ services, actor: actorOf(conversation) }, flowSender, {
    conversation_id: conversation.id,
    message_id: `flow-${ctx.run}-${ctx.step}${index ? `-${index}` : ''}`,
    ...input,
  });
  return message;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fresh run of `flowId` from its start node. */
async function newRun(run: Run, flowId: string): Promise<FlowContext> {
  const graph = await graphOf(run, flowId);
  if (!graph.start) throw new FlowError(texts.flowNodeMissing);
  return {
    run: newId(),
    flow: flowId,
    node: graph.start,
    step: 0,
    waiting: null,
    until: null,
    attempts: 0,
    input_after: await lastInput(run),
    ended: null,
  };
}

/** Moves on along `branch` of the current node: the next node, or the run's end. */
function moveOn(
  graph: Graph,
  ctx: FlowContext,
  branch: string,
  extra: Partial<FlowContext> = {},
): FlowContext {
  const target = follow(graph, ctx.node, branch);
  return {
    ...ctx,
    ...extra,
    node: target ?? ctx.node,
    step: ctx.step + 1,
    waiting: null,
    until: null,
    attempts: 0,
    ...(target ? {} : { ended: new Date().toISOString() }),
  };
}

/** One step of the run; answers whether there is more to do right away. */
async function step(run: Run): Promise<boolean> {
  const { conversation, services } = run;
  if (!isFlowServed(conversation)) return false;
  let ctx = run.held.run.position;
  if (conversation.startFlow || !ctx) {
    if (!conversation.startFlow || !conversation.flowId) return false;
    ctx = await newRun(run, conversation.flowId);
    // The start is taken: the new run's position, and the request for it cleared, in one write.
    await persist(run, { ctx, set: { startFlow: false } });
    await announceMoved(services, conversation);
    return true;
  }
  if (ctx.ended) return false;
  const graph = await graphOf(run, ctx.flow);
  const node = graph.nodes.get(ctx.node);
  if (!node) throw new FlowError(texts.flowNodeMissing);

  if (ctx.waiting === 'time') {
    if (!due(services, ctx.until)) return false;
    // What the customer wrote during the pause is not an answer to what comes next.
    await persist(run, {
      ctx: moveOn(graph, ctx, 'next', { input_after: await lastInput(run) }),
    });
    return true;
  }
  if (ctx.waiting === 'reply') {
    const input = await flowRunsRepo.nextInput(
      services.db,
      actorOf(conversation),
      conversation.id,
      ctx.input_after,
    );
    if (!input) {
      if (node.type === 'question' && ctx.until && due(services, ctx.until)) {
        await persist(run, { ctx: moveOn(graph, ctx, 'timeout') });
        return true;
      }
      return false;
    }
    // A file without a caption answers with its address (a question without validation saves it).
    const text = input.message.trim() || input.mediaUrl || '';
    await reply(run, graph, node, ctx, { at: iso(input.createdAt), id: input.id }, text);
    return true;
  }
  await execute(run, graph, node, ctx);
  return true;
}

const due = (services: Services, until: string | null | undefined) =>
  !!until && new Date(until).getTime() - CLOCK_SLACK_MS <= now(services).getTime();

/** The customer's reply to the node waiting for it. */
async function reply(
  run: Run,
  graph: Graph,
  node: AnyFlowNode,
  ctx: FlowContext,
  input: NonNullable<FlowContext['input_after']>,
  text: string,
) {
  const handled = { ...ctx, input_after: input };
  if (node.type === 'question') {
    const answer = acceptAnswer(node.data.validation, text);
    if (answer === null) {
      await send(run, ctx, 0, { text: node.data.retry_text.trim() || texts.flowInvalidAnswer });
      await persist(run, { ctx: { ...handled, step: ctx.step + 1, attempts: (ctx.attempts ?? 0) + 1 } });
      return;
    }
    const variable = node.data.variable;
    await persist(run, {
      ctx: moveOn(graph, handled, 'next'),
      also: variable
        ? (tx) =>
            flowRunsRepo.mergeData(tx, actorOf(run.conversation), run.conversation.contactId, {
              [variable]: answer,
            })
        : undefined,
    });
    return;
  }
  if (node.type === 'buttons' || node.type === 'list') {
    const option = pickOption(node.data.options, text);
    if (!option) {
      const contact = await contactOf(run);
      const { body, menu, fallback } = menuOf(node, contact);
      await send(run, ctx, 0, { text: texts.flowInvalidOption });
      await send(run, ctx, 1, { text: body, interactive: { menu, fallback } });
      await persist(run, { ctx: { ...handled, step: ctx.step + 1, attempts: (ctx.attempts ?? 0) + 1 } });
      return;
    }
    await persist(run, { ctx: moveOn(graph, handled, option.id) });
    return;
  }
  // A node that does not wait for a reply (the flow was changed under the run): go on from it.
  await persist(run, { ctx: { ...handled, waiting: null } });
}

/** Runs a node that is not waiting: what it does, then where the run goes. */
async function execute(run: Run, graph: Graph, node: AnyFlowNode, ctx: FlowContext) {
  const { services, conversation } = run;
  const { db } = services;
  switch (node.type) {
    case 'start':
      return persist(run, { ctx: moveOn(graph, ctx, 'next') });
    case 'message': {
      const d = node.data;
      const contact = await contactOf(run);
      const text = fillVariables(d.text, contact);
      if (d.typing_seconds > 0) {
        const seconds = Math.min(d.typing_seconds, 30);
        await showTyping(services, conversation.id, seconds);
        await sleep(seconds * 1000);
      }
      if (d.kind === 'text') await send(run, ctx, 0, { text });
      else {
        if (!d.media_url || !services.media.owns(d.media_url)) throw new FlowError(texts.flowMediaMissing);
        const media = { type: d.kind, url: d.media_url, ...(d.file_name && { file_name: d.file_name }) };
        // WhatsApp sends audio without a caption: the text goes first, on its own.
        if (d.kind === 'audio') {
          if (text.trim()) await send(run, ctx, 0, { text });
          await send(run, ctx, 1, { text: '', media });
        } else await send(run, ctx, 0, { text, media });
      }
      return persist(run, { ctx: moveOn(graph, ctx, 'next') });
    }
    case 'question': {
      const contact = await contactOf(run);
      await send(run, ctx, 0, { text: fillVariables(node.data.text, contact) });
      const t = node.data.timeout;
      const until =
        t && t.amount > 0
          ? new Date(now(services).getTime() + t.amount * (t.unit === 'hours' ? 3_600_000 : 60_000))
          : null;
      return persist(run, {
        ctx: { ...ctx, step: ctx.step + 1, waiting: 'reply', until: until ? iso(until) : null, attempts: 0 },
        ...(until && { wakeAt: until }),
      });
    }
    case 'buttons':
    case 'list': {
      const contact = await contactOf(run);
      const { body, menu, fallback } = menuOf(node, contact);
      await send(run, ctx, 0, { text: body, interactive: { menu, fallback } });
      return persist(run, {
        ctx: { ...ctx, step: ctx.step + 1, waiting: 'reply', until: null, attempts: 0 },
      });
    }
    case 'randomizer': {
      const branch = pickBranch(node.data.branches);
      return persist(run, { ctx: moveOn(graph, ctx, branch ?? 'next') });
    }
    case 'add_tag':
    case 'remove_tag': {
      const ids = node.data.tags.length
        ? await flowRunsRepo.liveTagIds(db, actorOf(conversation), node.data.tags)
        : [];
      return persist(run, {
        ctx: moveOn(graph, ctx, 'next'),
        also: ids.length
          ? (tx) =>
              flowRunsRepo.changeTags(
                tx,
                actorOf(conversation),
                conversation.contactId,
                node.type === 'add_tag' ? 'add' : 'remove',
                ids,
              )
          : undefined,
      });
    }
    case 'tag_condition': {
      const contact = await contactOf(run);
      const has = (t: string) => contact.tags.includes(t);
      const wanted = node.data.tags;
      const yes = wanted.length > 0 && (node.data.mode === 'all' ? wanted.every(has) : wanted.some(has));
      return persist(run, { ctx: moveOn(graph, ctx, yes ? 'yes' : 'no') });
    }
    case 'opening_hours': {
      let zone = node.data.time_zone;
      if (!zone) {
        zone = (await flowRunsRepo.timeZone(db, actorOf(conversation))) || 'America/Sao_Paulo';
      }
      const open = isOpen(node.data, zone, now(services));
      return persist(run, { ctx: moveOn(graph, ctx, open ? 'open' : 'closed') });
    }
    case 'wait': {
      const d = node.data;
      const until = new Date(now(services).getTime() + d.amount * (d.unit === 'hours' ? 3_600_000 : 60_000));
      return persist(run, {
        ctx: { ...ctx, step: ctx.step + 1, waiting: 'time', until: iso(until) },
        wakeAt: until,
      });
    }
    case 'http': {
      const d = node.data;
      const contact = await contactOf(run);
      const url = fillVariables(d.url, {
        ...contact,
        data: Object.fromEntries(
          Object.entries(contact.data).map(([k, v]) => [k, encodeURIComponent(String(v ?? ''))]),
        ),
        name: encodeURIComponent(contact.name),
      });
      let branch = 'error';
      const saved: Record<string, unknown> = {};
      try {
        const answer = await httpRequest(d, url, contact, {
          allowPrivate: services.config.FLOWS_HTTP_ALLOW_PRIVATE === 'true',
        });
        if (answer.status >= 200 && answer.status < 300) {
          branch = 'next';
          for (const m of d.mappings) {
            if (!m.variable) continue;
            const value = readPath(answer.json, m.path);
            if (value !== undefined)
              saved[m.variable] = typeof value === 'object' ? JSON.stringify(value) : value;
          }
        }
      } catch (err) {
        // A refused address is the flow's fault: human service with the reason. A failed call: 'error'.
        if (err instanceof FlowError) throw err;
        services.log.info({ err, conversation: conversation.id }, 'flow http request failed');
      }
      return persist(run, {
        ctx: moveOn(graph, ctx, branch),
        also: Object.keys(saved).length
          ? (tx) => flowRunsRepo.mergeData(tx, actorOf(conversation), conversation.contactId, saved)
          : undefined,
      });
    }
    case 'redirect':
      return redirect(run, node.data, ctx);
    case 'end': {
      const contact = await contactOf(run);
      const text = fillVariables(node.data.text, contact).trim();
      if (text) await send(run, ctx, 0, { text });
      await persist(run, { ctx: { ...ctx, step: ctx.step + 1, waiting: null, ended: iso(new Date()) } });
      await finishOpen(services, conversation.id, null);
      return;
    }
  }
}

async function redirect(
  run: Run,
  data: AnyFlowNode['data'] & { to: string; value: string | null },
  ctx: FlowContext,
) {
  const { services, conversation } = run;
  const ended = { ...ctx, step: ctx.step + 1, waiting: null, until: null, ended: iso(new Date()) };
  if (data.to === 'flow') {
    if (!data.value) throw new FlowError(texts.flowFlowMissing);
    await graphOf(run, data.value);
    // The other flow from its beginning, in the next step of this claim.
    await persist(run, { ctx: ended, set: startingFlow(data.value) });
    await announceMoved(services, conversation);
    return;
  }
  if (data.to === 'ai_chatbot') {
    const chatbot = data.value
      ? await chatbotsRepo.find(services.db, actorOf(conversation), data.value)
      : null;
    if (!chatbot) throw new FlowError(texts.chatbotNotFound);
    // The chatbot answers the customer's last message if it was not answered (chatbots/engine.ts).
    await persist(run, {
      ctx: ended,
      set: servingChatbot(chatbot.id),
      // From a fresh position: the chatbot answers what no one answered yet.
      also: async (tx) => {
        await resetRuns(tx, 'chatbots', [conversation.id]);
        await queueChatbotReply(services, conversation.id, { tx });
      },
    });
    await announceMoved(services, conversation);
    return;
  }
  // Human service: in the department named (a transfer to it), or in the conversation's own.
  let set: ConversationChange = { isManual: true };
  if (data.value) {
    const department = await accountDepartment(services.db, conversation.accountId, data.value);
    if (!department) throw new FlowError(texts.flowDepartmentMissing);
    set = toDepartment(department);
  }
  await persist(run, { ctx: ended, set });
  await announceMoved(services, conversation);
}

/** An error in a node: this conversation goes to human service, in its department, with a system note. */
async function failToHuman(run: Run, err: unknown) {
  const { services, conversation } = run;
  const reason =
    err instanceof FlowError || err instanceof AppError
      ? err.message.replace(/\.$/, '')
      : texts.flowUnexpected;
  if (!(err instanceof FlowError))
    services.log.error({ err, conversation: conversation.id }, 'flow step failed');
  const ctx = run.held.run.position;
  // The change and its note in one transaction: whoever sees the conversation with a person sees why.
  let note: MessageRow | null = null;
  await run.held.persist({
    position: ctx && { ...ctx, waiting: null, until: null, ended: iso(new Date()) },
    set: { isManual: true, startFlow: false },
    also: async (tx) => {
      const { row } = await appendMessage({ db: tx, realtime: services.realtime }, actorOf(conversation), {
        conversation,
        effect: 'none',
        announce: false,
        message: {
          origin: 'chatbot',
          source: 'flow',
          type: 'system',
          message: texts.flowEngineFailed(reason),
          status: MESSAGE_STATUS.sent,
        },
      });
      note = row;
    },
  });
  if (!note) return;
  services.realtime.toConversation(conversation.accountId, conversation.departmentId, {
    type: 'new_message',
    message: { conversation_id: conversation.id, message: toMessage(note) },
  });
  await announceMoved(services, conversation);
}

// --- Triggers --------------------------------------------------------------------------------------------

/** Whether `text` names one of the keywords: whole words, ignoring case and accents (like the auto-tags). */
export function matchesKeyword(text: string, keywords: readonly string[]) {
  const haystack = ` ${fold(text)} `;
  if (haystack.trim() === '') return false;
  return keywords.some((k) => {
    const needle = fold(k);
    return needle !== '' && haystack.includes(` ${needle} `);
  });
}

/**
 * The pipeline's hook, after a customer's message is stored (pipeline.ts receiveInbound): a keyword of a
 * triggered flow starts it; a flow-served conversation gets a run that reads the message. The job's key is the
 * message: a replayed webhook queues nothing more. Never throws: the message is stored whatever happens here.
 */
export async function onCustomerMessage(
  services: Services,
  chip: Pick<ChipRow, 'id' | 'accountId'>,
  conversationId: string,
  message: { id: string; text: string },
  /** The conversation as the message's own append left it (the pipeline has it): saves reading it again. */
  current?: ConversationRow | null,
  /** The account's keyword flows, when the caller read them already. */
  candidates?: KeywordFlow[],
): Promise<{ flowStarted: boolean }> {
  try {
    const { db } = services;
    const c = current ?? (await flowRunsRepo.conversation(db, engine, conversationId));
    if (!c || c.finishedAt) return { flowStarted: false };
    const flow = await keywordFlow(services, chip, c, message.text, candidates);
    if (flow) {
      const started = await db.transaction(async (tx) => {
        const written = await flowRunsRepo.start(tx as Db, actorOf(c), c.id, startingFlow(flow.id));
        if (written) await queueFlowRun(services, c.id, { tx: tx as Db, key: `message:${message.id}` });
        return written;
      });
      if (started) await announceMoved(services, c);
      return { flowStarted: started };
    }
    if (isFlowServed(c)) await queueFlowRun(services, c.id, { key: `message:${message.id}` });
  } catch (err) {
    services.log.error({ err, conversation: conversationId }, 'flow trigger failed');
  }
  return { flowStarted: false };
}

/** The first triggered flow (oldest first) whose keyword the text names and that may start here. */
async function keywordFlow(
  services: Services,
  chip: Pick<ChipRow, 'id' | 'accountId'>,
  c: ConversationRow,
  text: string,
  known?: KeywordFlow[],
) {
  if (!text.trim()) return null;
  const candidates: KeywordFlow[] =
    known ?? (await flowRunsRepo.keywordFlows(services.db, systemActor(chip.accountId, 'flows')));
  const human = c.isManual || !c.chatbotType;
  for (const f of candidates) {
    if (f.disabledChips.includes(chip.id)) continue;
    if (human && !f.triggerHuman) continue;
    if (!matchesKeyword(text, f.keywords)) continue;
    // Already running (or about to start) this flow: the message is its input, not a new start.
    const running =
      isFlowServed(c) &&
      c.flowId === f.id &&
      (c.startFlow || (await flowRunsRepo.runningPosition(services.db, engine, c.id)));
    if (running) return null;
    return f;
  }
  return null;
}

// --- The sweep -------------------------------------------------------------------------------------------

/**
 * Flow-served conversations with work and nobody on them (a run cut off between its release and its last
 * look, a job lost): each gets a run. Every minute and at each start.
 */
export const sweepFlows = (services: Services, limit = 500) => flowEngine.sweep(services, limit);
