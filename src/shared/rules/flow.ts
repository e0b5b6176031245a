// The rules that judge a flow (spec 3 §5 Flow), shared by the editor (it marks the broken nodes and refuses to
// save with 'Existem erros no fluxo') and the server (it refuses the same flow with the problem named). Also the
// branches each node type has, the limits WhatsApp imposes on interactive messages, and the import of a file.
import {
  type AnyFlowNode,
  FLOW_NODE_TYPES,
  type FlowConnection,
  type FlowFile,
  type FlowNodeType,
  flowFile,
  flowNodeData,
  MAX_FLOW_NODES,
} from '../contract/flows';
import { messages } from '../messages';

/** WhatsApp's limits on interactive messages (Cloud API reference, 'Interactive messages'). */
export const INTERACTIVE_LIMITS = {
  body: 1024,
  buttonTitle: 20,
  quickReplies: 3,
  listButton: 20,
  listRows: 10,
  rowTitle: 24,
  rowDescription: 72,
} as const;
export const TEXT_LIMIT = 4096;

/** The nodes whose run stops until the customer answers or a time passes: a cycle needs one of them. */
export const PAUSING_NODES: readonly FlowNodeType[] = ['question', 'buttons', 'list', 'wait'];

export const isFlowNodeType = (type: string): type is FlowNodeType =>
  (FLOW_NODE_TYPES as readonly string[]).includes(type);

/** The branches (xyflow source handles) a node has; an unconnected branch ends the run there. */
export function branchesOf(node: AnyFlowNode): string[] {
  switch (node.type) {
    case 'question':
      return node.data.timeout ? ['next', 'timeout'] : ['next'];
    case 'buttons':
    case 'list':
      return node.data.options.map((o) => o.id);
    case 'randomizer':
      return node.data.branches.map((b) => b.id);
    case 'tag_condition':
      return ['yes', 'no'];
    case 'opening_hours':
      return ['open', 'closed'];
    case 'http':
      return ['next', 'error'];
    case 'redirect':
    case 'end':
      return [];
    default:
      return ['next'];
  }
}

/** An edge's branch: xyflow leaves sourceHandle null on a node with one output. */
export const branchOf = (edge: Pick<FlowConnection, 'sourceHandle'>) => edge.sourceHandle || 'next';

/** A problem found in a flow: on a node (the editor marks it) or on the flow as a whole. */
export interface FlowProblem {
  node: string | null;
  message: string;
}

const VARIABLE = /^[A-Za-z0-9_]{1,64}$/;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

function validZone(zone: string) {
  if (!zone) return true;
  try {
    new Intl.DateTimeFormat('pt-BR', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function validHttpUrl(url: string) {
  try {
    const u = new URL(url);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** The option rules of quick replies and lists (also called by the editor as the user types). */
export function optionProblem(
  type: 'buttons' | 'list',
  options: readonly { title: string; description?: string }[],
): string | null {
  const max = type === 'buttons' ? INTERACTIVE_LIMITS.quickReplies : INTERACTIVE_LIMITS.listRows;
  if (options.length === 0) return messages.flowOptionRequired;
  if (options.length > max)
    return type === 'buttons' ? messages.flowMaxQuickReplies : messages.flowMaxListRows;
  const titleMax = type === 'buttons' ? INTERACTIVE_LIMITS.buttonTitle : INTERACTIVE_LIMITS.rowTitle;
  const seen = new Set<string>();
  for (const o of options) {
    const title = o.title.trim();
    if (!title) return messages.flowOptionTitleRequired;
    if (title.length > titleMax) return messages.flowCharacterLimit;
    if ((o.description ?? '').length > INTERACTIVE_LIMITS.rowDescription) return messages.flowCharacterLimit;
    const key = title.toLocaleLowerCase('pt-BR');
    if (seen.has(key)) return messages.flowOptionTitleTaken;
    seen.add(key);
  }
  return null;
}

/** Whether a randomizer's percent is acceptable (spec 3 §5: a number 1 to 100). */
export const percentProblem = (percent: number) =>
  Number.isInteger(percent) && percent >= 1 && percent <= 100 ? null : messages.flowPercentRange;

/** Two options (or randomizer branches) of one node with one id would be one branch: the first repeat. */
function repeatedId(items: readonly { id: string }[]): string | null {
  const seen = new Set<string>();
  for (const { id } of items) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return null;
}

/** The first problem of one node's data (already of its type's shape), or null. */
export function nodeProblem(node: AnyFlowNode): string | null {
  const repeated =
    node.type === 'buttons' || node.type === 'list'
      ? repeatedId(node.data.options)
      : node.type === 'randomizer'
        ? repeatedId(node.data.branches)
        : null;
  if (repeated) return messages.flowDuplicateId(repeated);
  switch (node.type) {
    case 'start':
      return null;
    case 'message': {
      const d = node.data;
      if (d.kind === 'text') {
        if (!d.text.trim()) return messages.flowTextRequired;
      } else if (!d.media_url) return messages.flowMediaRequired;
      if (d.text.length > TEXT_LIMIT) return messages.flowCharacterLimit;
      return null;
    }
    case 'question': {
      const d = node.data;
      if (!d.text.trim()) return messages.flowTextRequired;
      if (d.text.length > TEXT_LIMIT) return messages.flowCharacterLimit;
      if (d.variable && !VARIABLE.test(d.variable)) return messages.flowVariableInvalid;
      if (d.timeout && d.timeout.amount <= 0) return messages.flowWaitRequired;
      return null;
    }
    case 'buttons':
    case 'list': {
      const d = node.data;
      if (!d.text.trim()) return messages.flowTextRequired;
      if (d.text.length > INTERACTIVE_LIMITS.body) return messages.flowCharacterLimit;
      if (node.type === 'list') {
        if (!node.data.button.trim()) return messages.flowListButtonRequired;
        if (node.data.button.length > INTERACTIVE_LIMITS.listButton) return messages.flowCharacterLimit;
      }
      return optionProblem(node.type, d.options);
    }
    case 'randomizer': {
      const b = node.data.branches;
      if (b.length === 0) return messages.flowOptionRequired;
      for (const branch of b) {
        const p = percentProblem(branch.percent);
        if (p) return p;
      }
      return b.reduce((sum, x) => sum + x.percent, 0) === 100 ? null : messages.flowPercentTotal;
    }
    case 'add_tag':
    case 'remove_tag':
    case 'tag_condition':
      return node.data.tags.length ? null : messages.flowTagsRequired;
    case 'opening_hours': {
      const d = node.data;
      if (!validZone(d.time_zone)) return messages.flowTimeZoneInvalid;
      if (!d.days.some((day) => day.ranges.length)) return messages.flowHoursRequired;
      for (const day of d.days)
        for (const r of day.ranges)
          if (!HHMM.test(r.start) || !HHMM.test(r.end) || minutesOf(r.end) <= minutesOf(r.start))
            return messages.flowHoursInvalid;
      return null;
    }
    case 'wait':
      return node.data.amount > 0 ? null : messages.flowWaitRequired;
    case 'http': {
      const d = node.data;
      if (!validHttpUrl(d.url)) return messages.flowUrlInvalid;
      for (const m of d.mappings)
        if (!m.path.trim() || !VARIABLE.test(m.variable)) return messages.flowVariableInvalid;
      return null;
    }
    case 'redirect':
      return node.data.value ? null : messages.flowRedirectTargetRequired;
    case 'end':
      return node.data.text.length > TEXT_LIMIT ? messages.flowCharacterLimit : null;
  }
}

/** A stored node read as its type (data checked and defaults filled), or the problem that stops it. */
export function parseFlowNode(raw: {
  id: string;
  type: string;
  position: { x: number; y: number };
  data: unknown;
}): { node: AnyFlowNode } | { problem: string } {
  if (!isFlowNodeType(raw.type)) return { problem: messages.flowUnknownNode(raw.type.slice(0, 32)) };
  const data = flowNodeData[raw.type].safeParse(raw.data ?? {});
  if (!data.success) return { problem: messages.flowCharacterLimit };
  return { node: { id: raw.id, type: raw.type, position: raw.position, data: data.data } as AnyFlowNode };
}

/**
 * Every problem of a graph: one 'Início', known node types with valid data, edges between existing nodes from
 * branches their node has (one edge per branch), and no cycle the engine could run round without pausing.
 * An empty answer means the flow can be saved and run.
 */
export function flowProblems(graph: {
  nodes: readonly { id: string; type: string; position: { x: number; y: number }; data: unknown }[];
  connections: readonly FlowConnection[];
}): FlowProblem[] {
  const problems: FlowProblem[] = [];
  if (graph.nodes.length > MAX_FLOW_NODES)
    return [{ node: null, message: messages.flowTooManyNodes(MAX_FLOW_NODES) }];
  const nodes = new Map<string, AnyFlowNode>();
  let starts = 0;
  for (const raw of graph.nodes) {
    if (nodes.has(raw.id)) {
      problems.push({ node: raw.id, message: messages.flowDuplicateId(raw.id) });
      continue;
    }
    const parsed = parseFlowNode(raw);
    if ('problem' in parsed) {
      problems.push({ node: raw.id, message: parsed.problem });
      continue;
    }
    nodes.set(raw.id, parsed.node);
    if (parsed.node.type === 'start') starts++;
    const problem = nodeProblem(parsed.node);
    if (problem) problems.push({ node: raw.id, message: problem });
  }
  if (starts !== 1) problems.push({ node: null, message: messages.flowNeedsStart });

  const next = new Map<string, string[]>();
  const used = new Set<string>();
  for (const edge of graph.connections) {
    const source = nodes.get(edge.source);
    if (!source || !nodes.has(edge.target)) {
      // An edge of a node refused above is that node's problem, not a second one.
      if (!graph.nodes.some((n) => n.id === edge.source && !nodes.has(n.id)))
        problems.push({ node: source ? source.id : null, message: messages.flowDanglingEdge });
      continue;
    }
    const branch = branchOf(edge);
    if (!branchesOf(source).includes(branch)) {
      problems.push({ node: source.id, message: messages.flowUnknownBranch });
      continue;
    }
    const key = `${source.id}\u0000${branch}`;
    if (used.has(key)) {
      problems.push({ node: source.id, message: messages.flowBranchTwice });
      continue;
    }
    used.add(key);
    next.set(source.id, [...(next.get(source.id) ?? []), edge.target]);
  }

  // A cycle through non-pausing nodes only: depth-first over the graph without the pausing nodes.
  const state = new Map<string, 1 | 2>();
  const inCycle = new Set<string>();
  const visit = (id: string, path: string[]) => {
    state.set(id, 1);
    for (const to of next.get(id) ?? []) {
      const target = nodes.get(to);
      if (!target || PAUSING_NODES.includes(target.type)) continue;
      if (state.get(to) === 1) {
        for (const n of path.slice(path.indexOf(to))) inCycle.add(n);
        inCycle.add(id);
      } else if (!state.has(to)) visit(to, [...path, to]);
    }
    state.set(id, 2);
  };
  for (const node of nodes.values())
    if (!state.has(node.id) && !PAUSING_NODES.includes(node.type)) visit(node.id, [node.id]);
  for (const id of inCycle) problems.push({ node: id, message: messages.flowCycleWithoutWait });
  return problems;
}

/**
 * The nodes connected to nothing (no edge in or out, 'Início' aside): saved as they are, but never run, so the
 * editor says so after a save.
 */
export function unconnectedNodes(graph: {
  nodes: readonly { id: string; type: string }[];
  connections: readonly Pick<FlowConnection, 'source' | 'target'>[];
}): string[] {
  const linked = new Set(graph.connections.flatMap((c) => [c.source, c.target]));
  return graph.nodes.filter((n) => n.type !== 'start' && !linked.has(n.id)).map((n) => n.id);
}

/** The trigger's rule (spec 3 §5): with the trigger on, at least one keyword. */
export const triggerProblem = (t: { trigger: boolean; keywords: readonly string[] }) =>
  t.trigger && !t.keywords.some((k) => k.trim()) ? messages.flowKeywordRequired : null;

/**
 * Reads an import file (spec 3 §4, §5): JSON with account, name, nodes and connections, else 'Arquivo de
 * fluxo inválido'. From another account, tag and tag-condition nodes lose their tags, redirect nodes their
 * target, and the disabled chips are cleared. The graph itself is judged by flowProblems afterwards.
 */
export function readFlowFile(
  content: unknown,
  accountId: string,
): { ok: true; file: FlowFile; foreign: boolean } | { ok: false; message: string } {
  const parsed = flowFile.safeParse(content);
  if (!parsed.success) return { ok: false, message: messages.flowFileInvalid };
  const file = parsed.data;
  const foreign = file.account !== accountId;
  if (!foreign) return { ok: true, file, foreign };
  const TAGGED = ['add_tag', 'remove_tag', 'tag_condition'];
  return {
    ok: true,
    foreign,
    file: {
      ...file,
      disabled_chips: [],
      nodes: file.nodes.map((n) =>
        TAGGED.includes(n.type)
          ? { ...n, data: { ...n.data, tags: [] } }
          : n.type === 'redirect'
            ? { ...n, data: { ...n.data, value: null } }
            : n,
      ),
    },
  };
}

/** The graph of a new flow: 'Início' alone. */
export const newFlowGraph = () => ({
  nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} }],
  connections: [] as FlowConnection[],
});

/** Contact variables in a text: {nome}, {nome:first}, {email}… (the engine fills them). */
export const VARIABLE_IN_TEXT = /\{([A-Za-z0-9_]{1,64})(:first)?\}/g;
