import { describe, expect, it } from 'vitest';
import {
  connect,
  copySelection,
  defaultData,
  type EditorNode,
  type Graph,
  graphOf,
  newNode,
  optionMessages,
  pasteInto,
  pruneEdges,
  savedGraph,
} from '@/app/features/flows-editor/graph';
import { FLOW_NODE_TYPES, flowElementId } from '@/shared/contract/flows';
import { messages } from '@/shared/messages';
import { flowProblems, newFlowGraph } from '@/shared/rules/flow';

const at = { x: 0, y: 0 };
const message = (id: string, text = 'Oi'): EditorNode => ({
  id,
  type: 'message',
  position: at,
  data: { ...defaultData('message'), text },
});

describe('the editor graph', () => {
  it('new nodes of every type have valid ids and data of their type', () => {
    for (const type of FLOW_NODE_TYPES) {
      const node = newNode(type, at);
      expect(flowElementId.safeParse(node.id).success).toBe(true);
      // Unknown types or data of the wrong shape would be flowUnknownNode / flowCharacterLimit.
      const problems = flowProblems({ nodes: [...newFlowGraph().nodes, node], connections: [] });
      expect(problems.map((p) => p.message)).not.toContain(messages.flowCharacterLimit);
    }
  });

  it("'Início' can't be deleted and the saved graph keeps only the contract's fields", () => {
    const g = graphOf({ ...newFlowGraph() });
    expect(g.nodes[0]?.deletable).toBe(false);
    const saved = savedGraph({ nodes: [{ ...(g.nodes[0] as EditorNode), selected: true }], edges: [] });
    expect(saved.nodes[0]).toEqual({ id: 'start', type: 'start', position: at, data: {} });
  });

  it('a branch holds one edge: a new connection replaces the old; none into Início or itself', () => {
    const nodes = [graphOf(newFlowGraph()).nodes[0] as EditorNode, message('a'), message('b')];
    const first = connect([], nodes, { source: 'start', sourceHandle: 'next', target: 'a' }) ?? [];
    const second = connect(first, nodes, { source: 'start', sourceHandle: 'next', target: 'b' }) ?? [];
    expect(second.map((e) => e.target)).toEqual(['b']);
    expect(connect(second, nodes, { source: 'a', target: 'start' })).toBeNull();
    expect(connect(second, nodes, { source: 'a', target: 'a' })).toBeNull();
  });

  it("an option removed takes its branch's edge with it", () => {
    const buttons: EditorNode = {
      id: 'q',
      type: 'buttons',
      position: at,
      data: { text: 'Escolha', options: [{ id: 'o1', title: 'Um' }] },
    };
    const nodes = [buttons, message('a')];
    const edges = [{ id: 'e', source: 'q', sourceHandle: 'o1', target: 'a' }];
    expect(pruneEdges(edges, nodes)).toBe(edges);
    const without = [
      { ...buttons, data: { text: 'Escolha', options: [{ id: 'o2', title: 'Dois' }] } },
      nodes[1],
    ];
    expect(pruneEdges(edges, without as EditorNode[])).toEqual([]);
  });

  it('a paste gives new ids, keeps the edges between the copied nodes, and never copies Início', () => {
    const g: Graph = {
      nodes: [
        { ...(graphOf(newFlowGraph()).nodes[0] as EditorNode), selected: true },
        { ...message('a'), selected: true },
        { ...message('b'), selected: true },
        message('c'),
      ],
      edges: [
        { id: 'e1', source: 'a', sourceHandle: 'next', target: 'b' },
        { id: 'e2', source: 'b', sourceHandle: 'next', target: 'c' },
      ],
    };
    const clip = copySelection(g);
    expect(clip?.nodes.map((n) => n.id)).toEqual(['a', 'b']);
    const pasted = pasteInto(g, clip as NonNullable<typeof clip>, { x: 40, y: 40 });
    expect(pasted.nodes).toHaveLength(6);
    const fresh = pasted.nodes.slice(4);
    expect(fresh.every((n) => !['a', 'b'].includes(n.id) && n.selected)).toBe(true);
    expect(pasted.nodes.slice(0, 4).some((n) => n.selected)).toBe(false);
    const newEdge = pasted.edges[2];
    expect(newEdge).toMatchObject({ source: fresh[0]?.id, target: fresh[1]?.id });
    expect(flowProblems(savedGraph(pasted))).toEqual([]);
  });

  it("each option's message as the user types: length, then a title already taken", () => {
    expect(optionMessages('buttons', [{ title: 'Sim' }, { title: 'sim ' }])).toEqual([
      null,
      messages.flowOptionTitleTaken,
    ]);
    expect(optionMessages('buttons', [{ title: 'x'.repeat(21) }])).toEqual([messages.flowCharacterLimit]);
    expect(optionMessages('list', [{ title: 'x'.repeat(24), description: 'y'.repeat(73) }])).toEqual([
      messages.flowCharacterLimit,
    ]);
    // An empty title is not shouted at while the option is new.
    expect(optionMessages('buttons', [{ title: '' }])).toEqual([null]);
  });
});
