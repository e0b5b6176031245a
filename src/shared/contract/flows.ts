// Flows (spec 3 §2.8, §3 Flow, §4 Flow import, §5 Flow, §8). A flow is a graph the editor draws with
// @xyflow/react and the server's engine runs: `nodes` in xyflow's shape (id, type, position, data) and
// `connections` as xyflow edges (source + sourceHandle → target). The data of every node type is declared here
// once; the rules that judge a flow (rules/flow.ts) and the engine read these same shapes.
import { z } from 'zod';
import { messages } from '../messages';
import { id } from './common';
import { defineCall } from './define';

/** A node's or an edge's id inside its flow (xyflow's string ids). */
export const flowElementId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, messages.fieldProblems.id);

export const FLOW_NODE_TYPES = [
  'start',
  'message',
  'question',
  'buttons',
  'list',
  'randomizer',
  'add_tag',
  'remove_tag',
  'tag_condition',
  'opening_hours',
  'wait',
  'http',
  'redirect',
  'end',
] as const;
export type FlowNodeType = (typeof FLOW_NODE_TYPES)[number];

export const WAIT_UNITS = ['minutes', 'hours'] as const;
export const QUESTION_VALIDATIONS = ['none', 'text', 'number', 'email', 'phone', 'date'] as const;
export const MESSAGE_KINDS = ['text', 'image', 'audio', 'video', 'document'] as const;

const s = (max: number) => z.string().max(max);
const duration = z.object({ amount: z.number().int().min(0).max(100_000), unit: z.enum(WAIT_UNITS) });
/** A contact variable's key: what {key} in a text reads and a question or an HTTP mapping writes. */
const variableKey = s(64);
const option = z.object({ id: flowElementId, title: s(200), description: s(200).optional() });

/** Each node type's data. Sizes are generous bounds against abuse; the editor's limits are in rules/flow.ts. */
export const flowNodeData = {
  /** Início: where every run begins. */
  start: z.object({}),
  /** Enviar mensagem: one message, text with {variables} or a file with a caption; 'digitando…' first. */
  message: z.object({
    kind: z.enum(MESSAGE_KINDS),
    text: s(4096),
    media_url: s(2048).nullish(),
    file_name: s(200).nullish(),
    /** Seconds shown as typing before it goes out (0 to 30). */
    typing_seconds: z.number().int().min(0).max(30).default(0),
  }),
  /** Pergunta: sends the text and waits for the reply; optionally checks it and saves it in a variable. */
  question: z.object({
    text: s(4096),
    validation: z.enum(QUESTION_VALIDATIONS).default('none'),
    variable: variableKey.default(''),
    /** Sent when the reply fails the validation; the question waits again. */
    retry_text: s(1024).default(''),
    /** No reply within it: the 'timeout' branch. Null: waits for ever. */
    timeout: duration.nullable().default(null),
  }),
  /** Botões (quick replies): at most 3 options; each option is a branch (its handle is the option's id). */
  buttons: z.object({ text: s(4096), options: z.array(option).max(20) }),
  /** Lista: a menu of up to 10 rows behind a button; each row is a branch. */
  list: z.object({ text: s(4096), button: s(200), options: z.array(option).max(50) }),
  /** Randomizador: each branch (handle = branch id) takes its percent of the runs. */
  randomizer: z.object({
    branches: z.array(z.object({ id: flowElementId, percent: z.number() })).max(20),
  }),
  add_tag: z.object({ tags: z.array(id).max(50) }),
  remove_tag: z.object({ tags: z.array(id).max(50) }),
  /** Condição de etiqueta: 'yes' when the contact has any (or all) of the tags, else 'no'. */
  tag_condition: z.object({ tags: z.array(id).max(50), mode: z.enum(['any', 'all']).default('any') }),
  /** Horário de atendimento: 'open' inside the ranges (account's time zone), else 'closed'. */
  opening_hours: z.object({
    /** IANA zone; empty: the account's (America/Sao_Paulo). */
    time_zone: s(64).default(''),
    /** day: 0 Sunday … 6 Saturday; ranges in HH:mm, end after start. */
    days: z
      .array(
        z.object({
          day: z.number().int().min(0).max(6),
          ranges: z.array(z.object({ start: s(5), end: s(5) })).max(10),
        }),
      )
      .max(7),
  }),
  /** Aguardar: a durable pause, then 'next'. */
  wait: duration,
  /** Requisição HTTP: 'next' on a 2xx answer (fields mapped into contact variables), 'error' otherwise. */
  http: z.object({
    method: z.enum(['GET', 'POST']),
    url: s(2048),
    /** Seconds, 1 to 30. */
    timeout_seconds: z.number().int().min(1).max(30).default(10),
    /** Answer fields (dot paths, [n] for arrays) saved into contact variables. */
    mappings: z
      .array(z.object({ path: s(200), variable: variableKey }))
      .max(50)
      .default([]),
  }),
  /** Redirecionar: human service in a department, an AI chatbot, or another flow (value = its id). */
  redirect: z.object({ to: z.enum(['human', 'ai_chatbot', 'flow']), value: id.nullable() }),
  /** Finalizar: an optional goodbye, then the conversation is finished. */
  end: z.object({ text: s(4096).default('') }),
} satisfies Record<FlowNodeType, z.ZodType>;

export type FlowNodeData = { [K in FlowNodeType]: z.output<(typeof flowNodeData)[K]> };

const position = z.object({ x: z.number().finite(), y: z.number().finite() });

/** A node as stored; `data` is checked against its type by parseFlowNode (unknown types are refused). */
export const flowNode = z.object({
  id: flowElementId,
  type: z.string().max(32),
  position,
  data: z.record(z.string(), z.unknown()),
});
export type FlowNode<T extends FlowNodeType = FlowNodeType> = {
  id: string;
  type: T;
  position: { x: number; y: number };
  data: FlowNodeData[T];
};
/** Any node, discriminated by its type. */
export type AnyFlowNode = { [K in FlowNodeType]: FlowNode<K> }[FlowNodeType];

export const flowConnection = z.object({
  id: flowElementId,
  source: flowElementId,
  /** The branch of the source: 'next', 'timeout', 'yes'/'no', 'open'/'closed', 'error', or an option's id. */
  sourceHandle: z.string().max(64).nullish(),
  target: flowElementId,
});
export type FlowConnection = z.infer<typeof flowConnection>;

/** The most nodes a flow may hold (the editor stays fluid at this size). */
export const MAX_FLOW_NODES = 1000;
/** The largest flow file import accepts, in bytes. */
export const MAX_FLOW_FILE_BYTES = 2 * 1024 * 1024;

/** The graph the editor saves. */
export const flowGraph = z.object({
  nodes: z.array(flowNode).max(MAX_FLOW_NODES),
  connections: z.array(flowConnection).max(MAX_FLOW_NODES * 12),
});

/** Trigger settings: keywords that start the flow on any chip but the disabled ones. */
export const flowTrigger = z.object({
  trigger: z.boolean(),
  keywords: z.array(s(100)).max(100),
  /** The keywords also start it in conversations a person is serving. */
  trigger_human: z.boolean(),
  disabled_chips: z.array(id).max(500),
});

/** A flow as the editor and export see it (spec 3 §3 Flow). */
export const flow = z.object({
  _id: id,
  name: z.string(),
  account: id,
  ...flowGraph.shape,
  ...flowTrigger.shape,
  created: z.string(),
  filed: z.boolean(),
});
export type Flow = z.infer<typeof flow>;

/** A row of the list, of the pickers (chips, transfer, scheduling) and of the trigger summary. */
export const flowSummary = z.object({
  _id: id,
  name: z.string(),
  trigger: z.boolean(),
  keywords: z.array(z.string()),
  node_count: z.number().int(),
  created: z.string(),
});
export type FlowSummary = z.infer<typeof flowSummary>;

/**
 * An exported file (spec 3 §4): the flow with its account, so that an import into another account knows to
 * drop the tags, redirect targets and disabled chips that mean nothing there.
 */
export const flowFile = z.object({
  account: z.string().max(64),
  name: z.string().max(200),
  nodes: z.array(flowNode).max(MAX_FLOW_NODES),
  connections: z.array(flowConnection).max(MAX_FLOW_NODES * 12),
  trigger: z.boolean().optional(),
  keywords: z.array(s(100)).max(100).optional(),
  trigger_human: z.boolean().optional(),
  disabled_chips: z.array(z.string().max(64)).max(500).optional(),
});
export type FlowFile = z.infer<typeof flowFile>;

/**
 * Where a conversation's flow run stands (conversations.last_flow_context), written by the engine after every
 * step: a restart or another process continues from exactly here.
 */
export interface FlowContext {
  /** This run (a new one at each start): jobs and sends of an older run change nothing. */
  run: string;
  flow: string;
  /** The node to run next, or the one waiting. */
  node: string;
  /** Steps taken in this run: each send's message_id is made of run and step, so no step sends twice. */
  step: number;
  /** Waiting for the customer's reply ('reply') or for a time ('time', until `until`). */
  waiting: 'reply' | 'time' | null;
  until?: string | null;
  /** Wrong answers to the current question or menu so far. */
  attempts?: number;
  /** The last customer message already handled (created_at ISO, id): later ones are the run's input. */
  input_after: { at: string; id: string } | null;
  /** Finished runs keep their end for support. */
  ended?: string | null;
}

const manageFlows = { roles: ['owner', 'manager'], area: 'flows' } as const;

export const flowsCalls = {
  /** Every role: the chips, transfer and scheduling dialogs pick from it. */
  'get-flows-by-user': defineCall({
    access: {},
    payload: z.object({}).default({}),
    answer: z.array(flowSummary),
  }),
  'get-flow': defineCall({ access: manageFlows, payload: z.object({ _id: id }), answer: flow }),
  /**
   * Creates (no _id: a name, the graph starts with 'Início') or changes a flow; `filed: true` deletes it. The
   * graph and the trigger are checked by rules/flow.ts: a broken flow is refused with the node it names.
   */
  'create-or-update-flow': defineCall({
    access: manageFlows,
    payload: z.object({
      _id: id.optional(),
      name: s(200).optional(),
      nodes: flowGraph.shape.nodes.optional(),
      connections: flowGraph.shape.connections.optional(),
      trigger: z.boolean().optional(),
      keywords: flowTrigger.shape.keywords.optional(),
      trigger_human: z.boolean().optional(),
      disabled_chips: flowTrigger.shape.disabled_chips.optional(),
      filed: z.boolean().optional(),
    }),
    answer: flow,
  }),
  'duplicate-flow': defineCall({
    access: manageFlows,
    payload: z.object({ _id: id, name: s(200).default('') }),
    answer: flow,
  }),
  /** A file of export: from another account it loses tags, redirect targets and disabled chips (spec 3 §4). */
  'import-flow': defineCall({ access: manageFlows, payload: z.object({ file: z.unknown() }), answer: flow }),
} as const;
