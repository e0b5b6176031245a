// The editor's graph, apart from React: new nodes of each type, the graph as saved, the copy and paste of
// nodes, and the per-option messages the buttons and list panels show as the user types.
import type { Edge, Node } from '@xyflow/react';
import type { AnyFlowNode, Flow, FlowConnection, FlowNodeData, FlowNodeType } from '@/shared/contract/flows';
import { messages } from '@/shared/messages';
import { branchesOf, optionProblem, parseFlowNode } from '@/shared/rules/flow';

/** A node on the canvas: the saved node, with xyflow's own fields (selection, size) around it. */
export type EditorNode = Node<Record<string, unknown>, string>;
export type EditorEdge = Edge;

/** The graph the history keeps and the save sends. */
export interface Graph {
  nodes: EditorNode[];
  edges: EditorEdge[];
}

/** The trigger settings, edited in their drawer and saved with the graph. */
export interface TriggerSettings {
  trigger: boolean;
  keywords: string[];
  trigger_human: boolean;
  disabled_chips: string[];
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** A fresh id inside the flow (flowElementId: letters, digits, _ and -). */
export function newId(prefix: string) {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

/** The data a node of each type starts with (what the panel then fills in). */
export function defaultData<T extends FlowNodeType>(type: T): FlowNodeData[T] {
  const data: { [K in FlowNodeType]: () => FlowNodeData[K] } = {
    start: () => ({}),
    message: () => ({ kind: 'text', text: '', media_url: null, file_name: null, typing_seconds: 0 }),
    question: () => ({ text: '', validation: 'none', variable: '', retry_text: '', timeout: null }),
    buttons: () => ({ text: '', options: [{ id: newId('opt'), title: '' }] }),
    list: () => ({ text: '', button: '', options: [{ id: newId('opt'), title: '', description: '' }] }),
    randomizer: () => ({
      branches: [
        { id: newId('br'), percent: 50 },
        { id: newId('br'), percent: 50 },
      ],
    }),
    add_tag: () => ({ tags: [] }),
    remove_tag: () => ({ tags: [] }),
    tag_condition: () => ({ tags: [], mode: 'any' }),
    opening_hours: () => ({
      time_zone: '',
      days: [1, 2, 3, 4, 5].map((day) => ({ day, ranges: [{ start: '08:00', end: '18:00' }] })),
    }),
    wait: () => ({ amount: 5, unit: 'minutes' }),
    http: () => ({ method: 'GET', url: '', timeout_seconds: 10, mappings: [] }),
    redirect: () => ({ to: 'human', value: null }),
    end: () => ({ text: '' }),
  };
  return data[type]();
}

export function newNode(type: FlowNodeType, position: { x: number; y: number }): EditorNode {
  return { id: newId(type), type, position, data: defaultData(type) as Record<string, unknown> };
}

/** 'Início' can't be deleted (it is where every run begins). */
const withRules = (node: EditorNode): EditorNode =>
  node.type === 'start' ? { ...node, deletable: false } : node;

/** A stored flow as the canvas shows it. */
export function graphOf(flow: Pick<Flow, 'nodes' | 'connections'>): Graph {
  return {
    nodes: flow.nodes.map((n) => withRules({ id: n.id, type: n.type, position: n.position, data: n.data })),
    edges: flow.connections.map((c) => ({
      id: c.id,
      source: c.source,
      sourceHandle: c.sourceHandle ?? 'next',
      target: c.target,
    })),
  };
}

/** The graph as saved: only what the contract keeps (no selection, sizes or drag state). */
export function savedGraph(graph: Graph) {
  return {
    nodes: graph.nodes.map((n) => ({
      id: n.id,
      type: n.type ?? '',
      position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
      data: n.data,
    })),
    connections: graph.edges.map(
      (e): FlowConnection => ({
        id: e.id,
        source: e.source,
        sourceHandle: e.sourceHandle ?? null,
        target: e.target,
      }),
    ),
  };
}

/** A node read as its type (defaults filled), or null when its data does not fit (shown as broken). */
export function typedNode(node: EditorNode): AnyFlowNode | null {
  const parsed = parseFlowNode({
    id: node.id,
    type: node.type ?? '',
    position: node.position,
    data: node.data,
  });
  return 'node' in parsed ? parsed.node : null;
}

/** The handles a node offers: its branches. */
export function handlesOf(node: EditorNode): string[] {
  const typed = typedNode(node);
  return typed ? branchesOf(typed) : [];
}

/**
 * A new edge replaces the one its branch had (one edge per branch), and an edge into 'Início' or into its
 * own node is refused.
 */
export function connect(
  edges: EditorEdge[],
  nodes: EditorNode[],
  c: { source: string; sourceHandle?: string | null; target: string },
): EditorEdge[] | null {
  if (c.source === c.target) return null;
  if (nodes.find((n) => n.id === c.target)?.type === 'start') return null;
  const handle = c.sourceHandle ?? 'next';
  return [
    ...edges.filter((e) => !(e.source === c.source && (e.sourceHandle ?? 'next') === handle)),
    { id: newId('e'), source: c.source, sourceHandle: handle, target: c.target },
  ];
}

/** Edges whose branch their node no longer has (an option removed) go with it. */
export function pruneEdges(edges: EditorEdge[], nodes: EditorNode[]): EditorEdge[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const kept = edges.filter((e) => {
    const source = byId.get(e.source);
    if (!source || !byId.has(e.target)) return false;
    return handlesOf(source).includes(e.sourceHandle ?? 'next');
  });
  return kept.length === edges.length ? edges : kept;
}

/** What a copy holds: the selected nodes (never 'Início') and the edges between them. */
export interface Clipboard {
  nodes: EditorNode[];
  edges: EditorEdge[];
}

export function copySelection(graph: Graph): Clipboard | null {
  const nodes = graph.nodes.filter((n) => n.selected && n.type !== 'start');
  if (!nodes.length) return null;
  const ids = new Set(nodes.map((n) => n.id));
  return {
    nodes: structuredClone(nodes.map(({ id, type, position, data }) => ({ id, type, position, data }))),
    edges: graph.edges
      .filter((e) => ids.has(e.source) && ids.has(e.target))
      .map(({ id, source, sourceHandle, target }) => ({ id, source, sourceHandle, target })),
  };
}

/**
 * A paste: the copied nodes with new ids, shifted by `offset`, selected (and the rest unselected); their
 * edges between them follow the new ids. Option and branch ids stay (they are handles inside their node).
 */
export function pasteInto(graph: Graph, clip: Clipboard, offset: { x: number; y: number }): Graph {
  const ids = new Map(clip.nodes.map((n) => [n.id, newId(n.type ?? 'node')]));
  const pasted = clip.nodes.map(
    (n): EditorNode => ({
      ...structuredClone(n),
      id: ids.get(n.id) as string,
      position: { x: n.position.x + offset.x, y: n.position.y + offset.y },
      selected: true,
    }),
  );
  const edges = clip.edges.map(
    (e): EditorEdge => ({
      ...e,
      id: newId('e'),
      source: ids.get(e.source) as string,
      target: ids.get(e.target) as string,
    }),
  );
  return {
    nodes: [...graph.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), ...pasted],
    edges: [...graph.edges.map((e) => (e.selected ? { ...e, selected: false } : e)), ...edges],
  };
}

/**
 * Each option's own message as the user types (the save judges the whole list with optionProblem): its
 * title's or description's length, then a title an earlier option already has.
 */
export function optionMessages(
  type: 'buttons' | 'list',
  options: readonly { title: string; description?: string }[],
): (string | null)[] {
  const seen = new Set<string>();
  return options.map((o) => {
    const own = optionProblem(type, [o]);
    const key = o.title.trim().toLocaleLowerCase('pt-BR');
    const taken = key && seen.has(key);
    seen.add(key);
    // An empty title is the save's business (nodeProblem), not shouted at while the option is new.
    if (own === messages.flowOptionTitleRequired) return null;
    if (own) return own;
    return taken ? messages.flowOptionTitleTaken : null;
  });
}

/** A graph's fingerprint for "unsaved changes": what the save would send. */
export const fingerprint = (name: string, graph: Graph, trigger: TriggerSettings) =>
  JSON.stringify({ name, ...savedGraph(graph), ...trigger });
