// The canvas's graph with its history: every change the user makes (add, delete, connect, paste, a field, a
// drag) first keeps a snapshot, so undo and redo step through them; what only xyflow cares about (selection,
// sizes, positions during a drag) changes without one. Callbacks are stable and read the latest graph from a
// ref, so the memoized nodes are not re-rendered by them.
import {
  applyEdgeChanges,
  applyNodeChanges,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import { useCallback, useMemo, useReducer, useRef, useState } from 'react';
import { connect, type EditorEdge, type EditorNode, type Graph, pruneEdges } from './graph';

/** Edits of the same field within this time are one step of the history (typing a word is one undo). */
const COALESCE_MS = 1000;
const MAX_HISTORY = 100;

export function useGraph(initial: Graph) {
  const [graph, setGraph] = useState(initial);
  const current = useRef(graph);
  const past = useRef<Graph[]>([]);
  const future = useRef<Graph[]>([]);
  const last = useRef<{ key: string; at: number } | null>(null);
  // The undo/redo buttons read the stacks' lengths: a bump re-renders them.
  const [, bump] = useReducer((x: number) => x + 1, 0);

  const show = useCallback((next: Graph) => {
    current.current = next;
    setGraph(next);
  }, []);

  /** Keeps the graph as it is now as one step back (unless the same `key` was kept a moment ago). */
  const checkpoint = useCallback((key?: string) => {
    const now = Date.now();
    if (key && last.current?.key === key && now - last.current.at < COALESCE_MS) {
      last.current.at = now;
      return;
    }
    last.current = key ? { key, at: now } : null;
    past.current.push(current.current);
    if (past.current.length > MAX_HISTORY) past.current.shift();
    future.current = [];
    bump();
  }, []);

  /** An undoable change. */
  const change = useCallback(
    (update: (g: Graph) => Graph, key?: string) => {
      const next = update(current.current);
      if (next === current.current) return;
      checkpoint(key);
      show(next);
    },
    [checkpoint, show],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<EditorNode>[]) => {
      // A deletion is a step; selection, measuring and moving are not (a drag's start keeps its own).
      if (changes.some((c) => c.type === 'remove')) checkpoint('remove');
      const g = current.current;
      const nodes = applyNodeChanges(changes, g.nodes);
      show({ nodes, edges: changes.some((c) => c.type === 'remove') ? pruneEdges(g.edges, nodes) : g.edges });
    },
    [checkpoint, show],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<EditorEdge>[]) => {
      if (changes.some((c) => c.type === 'remove')) checkpoint('remove');
      const g = current.current;
      show({ nodes: g.nodes, edges: applyEdgeChanges(changes, g.edges) });
    },
    [checkpoint, show],
  );

  const onConnect = useCallback(
    (c: Connection) =>
      change((g) => {
        const edges = connect(g.edges, g.nodes, c);
        return edges ? { nodes: g.nodes, edges } : g;
      }),
    [change],
  );

  /** A drag is one step: the graph before it is kept when it starts. */
  const onNodeDragStart = useCallback(() => checkpoint(), [checkpoint]);

  /** A node's data changed in its panel; branches it lost take their edges with them. */
  const updateData = useCallback(
    (id: string, data: Record<string, unknown>) =>
      change((g) => {
        const nodes = g.nodes.map((n) => (n.id === id ? { ...n, data } : n));
        return { nodes, edges: pruneEdges(g.edges, nodes) };
      }, `data:${id}`),
    [change],
  );

  const undo = useCallback(() => {
    const prev = past.current.pop();
    if (!prev) return;
    future.current.push(current.current);
    last.current = null;
    show(prev);
    bump();
  }, [show]);

  const redo = useCallback(() => {
    const next = future.current.pop();
    if (!next) return;
    past.current.push(current.current);
    last.current = null;
    show(next);
    bump();
  }, [show]);

  /** A new starting point (the saved version reloaded): the history is cleared. */
  const reset = useCallback(
    (g: Graph) => {
      past.current = [];
      future.current = [];
      last.current = null;
      show(g);
      bump();
    },
    [show],
  );

  const actions = useMemo(
    () => ({
      change,
      onNodesChange,
      onEdgesChange,
      onConnect,
      onNodeDragStart,
      updateData,
      undo,
      redo,
      reset,
      latest: () => current.current,
    }),
    [change, onNodesChange, onEdgesChange, onConnect, onNodeDragStart, updateData, undo, redo, reset],
  );
  return {
    graph,
    canUndo: past.current.length > 0,
    canRedo: future.current.length > 0,
    ...actions,
  };
}
