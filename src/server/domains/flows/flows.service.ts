// Flows (spec 3 §2.8, §3 Flow, §4 Flow import, §5 Flow): list, open, create, save, delete, duplicate, import.
// A graph is judged by the shared rules (rules/flow.ts, the editor's own) and then by what only the server
// knows: the tags, departments and flows its nodes name belong to this account. A refusal names the first
// problem ('Existem erros no fluxo: …') and changes nothing.
import type { z } from 'zod';
import type { CallName, Calls } from '../../../shared/contract';
import {
  type AnyFlowNode,
  type Flow,
  type FlowConnection,
  type FlowNode,
  type FlowSummary,
  flowFile,
  MAX_FLOW_FILE_BYTES,
} from '../../../shared/contract/flows';
import { labels, messages } from '../../../shared/messages';
import { fieldError } from '../../../shared/rules/field-error';
import {
  flowProblems,
  newFlowGraph,
  PAUSING_NODES,
  parseFlowNode,
  readFlowFile,
  triggerProblem,
} from '../../../shared/rules/flow';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { AppError, fieldFailure } from '../../http/errors';
import type { Services } from '../../services';
import { chatbotsRepo } from '../chatbots/chatbots.repo';
import { allDepartmentsActive } from '../departments/departments.repo';
import { tagsRepo } from '../tags/tags.repo';
import { type FlowFields, type FlowRow, flowsRepo } from './flows.repo';

type Payload<N extends CallName> = z.output<Calls[N]['payload']>;
type GraphInput = {
  nodes: readonly { id: string; type: string; position: { x: number; y: number }; data: unknown }[];
  connections: readonly FlowConnection[];
};

export const toFlow = (r: FlowRow): Flow => ({
  _id: r.id,
  name: r.name,
  account: r.accountId,
  nodes: r.nodes as Flow['nodes'],
  connections: r.connections,
  trigger: r.trigger,
  keywords: r.keywords,
  trigger_human: r.triggerHuman,
  disabled_chips: r.disabledChips,
  created: r.createdAt.toISOString(),
  filed: r.filed,
});

export const toFlowSummary = (r: FlowRow): FlowSummary => ({
  _id: r.id,
  name: r.name,
  trigger: r.trigger,
  keywords: r.keywords,
  node_count: r.nodes.length,
  created: r.createdAt.toISOString(),
});

const refuse = (problem: string) => new AppError(messages.flowHasErrorsNamed(problem));

/** The account's tags, departments and flows the graph's nodes name: each must exist and be live. */
async function referenceProblem(db: Db, actor: Actor, graph: GraphInput): Promise<string | null> {
  const tagIds = new Set<string>();
  const departmentIds = new Set<string>();
  const flowIds = new Set<string>();
  const chatbotIds = new Set<string>();
  for (const raw of graph.nodes) {
    const parsed = parseFlowNode(raw);
    if (!('node' in parsed)) continue;
    const node = parsed.node;
    if (node.type === 'add_tag' || node.type === 'remove_tag' || node.type === 'tag_condition')
      for (const t of node.data.tags) tagIds.add(t);
    if (node.type === 'redirect' && node.data.value) {
      (node.data.to === 'human' ? departmentIds : node.data.to === 'ai_chatbot' ? chatbotIds : flowIds).add(
        node.data.value,
      );
    }
  }
  if ((await tagsRepo.countActive(db, actor, [...tagIds])) !== tagIds.size) return messages.tagNotFound;
  if (!(await allDepartmentsActive(db, actor, [...departmentIds]))) return messages.departmentNotFound;
  for (const id of flowIds) if (!(await flowsRepo.find(db, actor, id))) return messages.flowNotFound;
  for (const id of chatbotIds) if (!(await chatbotsRepo.find(db, actor, id))) return messages.chatbotNotFound;
  return null;
}

/** The flows a run of this graph reaches from Início without pausing: redirect nodes to another flow. */
function pauselessRedirects(graph: GraphInput): string[] {
  const nodes = new Map<string, AnyFlowNode>();
  for (const raw of graph.nodes) {
    const parsed = parseFlowNode(raw);
    if ('node' in parsed) nodes.set(raw.id, parsed.node);
  }
  const next = new Map<string, string[]>();
  for (const e of graph.connections) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  const found = new Set<string>();
  const seen = new Set<string>();
  const queue = [...nodes.values()].filter((n) => n.type === 'start').map((n) => n.id);
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    const node = nodes.get(id);
    if (!node || seen.has(id) || PAUSING_NODES.includes(node.type)) continue;
    seen.add(id);
    if (node.type === 'redirect' && node.data.to === 'flow' && node.data.value) found.add(node.data.value);
    queue.push(...(next.get(id) ?? []));
  }
  return [...found];
}

/**
 * A redirect that comes back to this flow (directly or through other flows) with no pause on the way would
 * run for ever, as a cycle inside one graph would: the same refusal.
 */
async function redirectCycle(db: Db, actor: Actor, flowId: string, graph: GraphInput) {
  const seen = new Set<string>();
  const queue = pauselessRedirects(graph);
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    if (id === flowId) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    const target = await flowsRepo.find(db, actor, id);
    if (target) queue.push(...pauselessRedirects(target));
  }
  return false;
}

/** Refuses a graph the rules or the account's references refuse, naming the first problem. */
async function checkGraph(services: Services, actor: Actor, graph: GraphInput) {
  const [problem] = flowProblems(graph);
  if (problem) throw refuse(problem.message);
  const missing = await referenceProblem(services.db, actor, graph);
  if (missing) throw refuse(missing);
}

/** Keywords trimmed, empty ones and repeats (whatever their case) dropped. */
function cleanKeywords(keywords: readonly string[]) {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const k of keywords) {
    const word = k.trim();
    const key = word.toLocaleLowerCase('pt-BR');
    if (!word || seen.has(key)) continue;
    seen.add(key);
    out.push(word);
  }
  return out;
}

/** The disabled chips must be this account's chips; deleted ones are dropped (they send nothing any more). */
async function checkDisabledChips(services: Services, actor: Actor, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  const found = await flowsRepo.chipsOf(services.db, actor, unique);
  if (found.length !== unique.length)
    throw fieldFailure(fieldError('disabled_chips', messages.flowChipNotFound));
  const live = new Set(found.filter((c) => !c.filed).map((c) => c.id));
  return unique.filter((id) => live.has(id));
}

function checkTrigger(t: { trigger: boolean; keywords: readonly string[] }) {
  const problem = triggerProblem(t);
  if (problem) throw fieldFailure(fieldError('keywords', problem));
}

export async function listFlows(services: Services, actor: Actor): Promise<FlowSummary[]> {
  return (await flowsRepo.list(services.db, actor)).map(toFlowSummary);
}

async function ownFlow(services: Services, actor: Actor, id: string) {
  const row = await flowsRepo.find(services.db, actor, id);
  if (!row) throw new AppError(messages.flowNotFound);
  return row;
}

export async function getFlow(services: Services, actor: Actor, id: string): Promise<Flow> {
  return toFlow(await ownFlow(services, actor, id));
}

const requiredName = (name: string | undefined) => {
  const trimmed = (name ?? '').trim();
  if (!trimmed) throw fieldFailure(fieldError('name', messages.nameRequired));
  return trimmed;
};

/**
 * Creates (no _id) or saves a flow; `filed: true` deletes it. A save may carry any subset of the fields: the
 * graph is judged when it is sent, the trigger when the trigger or its keywords are.
 */
export async function saveFlow(
  services: Services,
  actor: Actor,
  p: Payload<'create-or-update-flow'>,
): Promise<Flow> {
  const { db } = services;
  if (p.filed) {
    if (!p._id) throw new AppError(messages.flowNotFound);
    const filed = await flowsRepo.file(db, actor, p._id);
    if (!filed) throw new AppError(messages.flowNotFound);
    return toFlow(filed);
  }
  const existing = p._id ? await ownFlow(services, actor, p._id) : null;
  const fields: Partial<FlowFields> = {};
  if (!existing || p.name !== undefined) fields.name = requiredName(p.name);

  if (p.nodes !== undefined || p.connections !== undefined || !existing) {
    const base = existing ?? newFlowGraph();
    const graph = {
      nodes: (p.nodes ?? base.nodes) as GraphInput['nodes'],
      connections: p.connections ?? base.connections,
    };
    await checkGraph(services, actor, graph);
    if (existing && (await redirectCycle(db, actor, existing.id, graph)))
      throw refuse(messages.flowCycleWithoutWait);
    fields.nodes = graph.nodes as FlowNode[];
    fields.connections = graph.connections;
  }

  if (p.trigger !== undefined || p.keywords !== undefined || !existing) {
    const keywords = cleanKeywords(p.keywords ?? existing?.keywords ?? []);
    const trigger = p.trigger ?? existing?.trigger ?? false;
    checkTrigger({ trigger, keywords });
    fields.trigger = trigger;
    fields.keywords = keywords;
  }
  if (p.trigger_human !== undefined) fields.triggerHuman = p.trigger_human;
  if (p.disabled_chips !== undefined)
    fields.disabledChips = await checkDisabledChips(services, actor, p.disabled_chips);

  if (!existing) return toFlow(await flowsRepo.insertWithinLimit(db, actor, fields as FlowFields));
  if (Object.keys(fields).length === 0) return toFlow(existing);
  const saved = await flowsRepo.update(db, actor, existing.id, fields);
  // Deleted by someone else between the read and the write.
  if (!saved) throw new AppError(messages.flowNotFound);
  return toFlow(saved);
}

/** A copy under a new name, with the same graph and trigger settings; counts against max_flows. */
export async function duplicateFlow(
  services: Services,
  actor: Actor,
  p: Payload<'duplicate-flow'>,
): Promise<Flow> {
  const name = requiredName(p.name);
  const source = await ownFlow(services, actor, p._id);
  const row = await flowsRepo.insertWithinLimit(services.db, actor, {
    name,
    nodes: source.nodes,
    connections: source.connections,
    trigger: source.trigger,
    keywords: source.keywords,
    triggerHuman: source.triggerHuman,
    disabledChips: source.disabledChips,
  });
  return toFlow(row);
}

/** The name an imported flow takes: its own, else named as a duplicate is ('X (cópia)'), until none has it. */
async function freeName(services: Services, actor: Actor, name: string) {
  const taken = new Set((await flowsRepo.list(services.db, actor)).map((f) => f.name));
  let free = name;
  while (taken.has(free)) free = labels.flows.copy(free);
  return free;
}

/**
 * Imports an exported file (spec 3 §4). The graph is judged as it was written; from another account, the
 * tags, redirect targets and disabled chips are then dropped (readFlowFile), and the editor marks the nodes
 * left to complete: such a flow is stored, but saved again only once they are filled in.
 */
export async function importFlow(services: Services, actor: Actor, p: Payload<'import-flow'>): Promise<Flow> {
  // The body limit stops most oversized files before this; a file just under it is still measured here.
  const size = Buffer.byteLength(JSON.stringify(p.file ?? null) ?? '', 'utf8');
  if (size > MAX_FLOW_FILE_BYTES) throw new AppError(messages.flowFileTooLarge);
  const read = readFlowFile(p.file, actor.accountId);
  if (!read.ok) throw new AppError(read.message);
  const asWritten = read.foreign ? flowFile.parse(p.file) : read.file;
  const [problem] = flowProblems(asWritten);
  if (problem) throw refuse(problem.message);
  const { file } = read;
  if (!read.foreign) {
    const missing = await referenceProblem(services.db, actor, file);
    if (missing) throw refuse(missing);
  }
  const name = await freeName(services, actor, requiredName(file.name));
  const keywords = cleanKeywords(file.keywords ?? []);
  const trigger = file.trigger ?? false;
  checkTrigger({ trigger, keywords });
  const disabledChips = await checkDisabledChips(services, actor, file.disabled_chips ?? []);
  const row = await flowsRepo.insertWithinLimit(services.db, actor, {
    name,
    nodes: file.nodes as FlowNode[],
    connections: file.connections,
    trigger,
    keywords,
    triggerHuman: file.trigger_human ?? false,
    disabledChips,
  });
  return toFlow(row);
}
