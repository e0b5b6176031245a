// The editor itself, for one loaded flow: the graph and its history (use-graph.ts), the header's actions, the
// canvas with its toolbar, minimap and controls, the node panel and the trigger drawer.
import { ActionIcon, Box, Drawer, Menu, Paper, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconClipboard,
  IconCopy,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  Background,
  Controls,
  MiniMap,
  type Node,
  type NodeMouseHandler,
  Panel,
  ReactFlow,
  useReactFlow,
  useStore,
} from '@xyflow/react';
import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '@/app/lib/api';
import { useDepartments, useTags } from '@/app/lib/lists';
import { notifyError, notifySuccess, notifyWarning } from '@/app/lib/notify';
import { callQuery } from '@/app/lib/query';
import { useBackClose } from '@/app/ui/back-stack';
import { ConfirmLayer, confirm } from '@/app/ui/confirm';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import { FLOW_NODE_TYPES, type Flow, type FlowNodeType } from '@/shared/contract/flows';
import { labels, messages } from '@/shared/messages';
import { flowEditorLabels } from '@/shared/messages-editors';
import { flowProblems, triggerProblem, unconnectedNodes } from '@/shared/rules/flow';
import { EditorHeader } from './EditorHeader';
import { CanvasInfoContext, NODE_LOOK, nodeTypes } from './FlowNodeView';
import {
  type Clipboard,
  copySelection,
  type EditorNode,
  fingerprint,
  type Graph,
  graphOf,
  newNode,
  pasteInto,
  savedGraph,
  type TriggerSettings,
  typedNode,
} from './graph';
import { NodePanel } from './NodePanel';
import { TriggerDrawer } from './TriggerDrawer';
import { useGraph } from './use-graph';

const L = flowEditorLabels;
const PALETTE = FLOW_NODE_TYPES.filter((t) => t !== 'start');
const flowsQuery = callQuery('get-flows-by-user');

const triggerOf = (f: Flow): TriggerSettings => ({
  trigger: f.trigger,
  keywords: f.keywords,
  trigger_human: f.trigger_human,
  disabled_chips: f.disabled_chips,
});

function showRed(message: string) {
  notifications.hide(message);
  notifications.show({ id: message, color: 'red', message });
}

const NODE_W = 240;
const NODE_H = 110;

/** Near `at`, a place where a new node covers no other (below, then to the right, of the ones in the way). */
function freeSpot(nodes: EditorNode[], at: { x: number; y: number }) {
  const spot = { ...at };
  const hits = (n: EditorNode) => {
    const w = n.measured?.width ?? NODE_W;
    const h = n.measured?.height ?? NODE_H;
    return (
      spot.x < n.position.x + w + 16 &&
      spot.x + NODE_W + 16 > n.position.x &&
      spot.y < n.position.y + h + 16 &&
      spot.y + NODE_H + 16 > n.position.y
    );
  };
  for (let i = 0; i < 40; i++) {
    const blocker = nodes.find(hits);
    if (!blocker) break;
    if (i % 4 === 3) {
      spot.x += NODE_W + 40;
      spot.y = at.y;
    } else spot.y = blocker.position.y + (blocker.measured?.height ?? NODE_H) + 24;
  }
  return spot;
}

/** A key typed into a field is the field's (Ctrl+Z undoes the text there, not the graph). */
const inField = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** The problems' map changes only when they do, so the memoized nodes are not re-rendered by a drag. */
function useStableProblems(graph: Graph, on: boolean): ReadonlyMap<string, string> {
  const previous = useRef<{ key: string; map: Map<string, string> }>({ key: '', map: new Map() });
  return useMemo(() => {
    const map = new Map<string, string>();
    if (on)
      for (const p of flowProblems(savedGraph(graph)))
        if (p.node && !map.has(p.node)) map.set(p.node, p.message);
    const key = JSON.stringify([...map]);
    if (key !== previous.current.key) previous.current = { key, map };
    return previous.current.map;
  }, [graph, on]);
}

export function FlowEditor({ flow }: { flow: Flow }) {
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const flowApi = useReactFlow<EditorNode>();
  const g = useGraph(graphOf(flow));
  const [name, setName] = useState(flow.name);
  const [trigger, setTrigger] = useState<TriggerSettings>(() => triggerOf(flow));
  const [triggerOpen, setTriggerOpen] = useState(false);
  const [panelId, setPanelId] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [saving, setSaving] = useState(false);
  const saved = useRef(fingerprint(flow.name, graphOf(flow), triggerOf(flow)));
  const clipboard = useRef<Clipboard | null>(null);
  const pastes = useRef(0);
  const canvas = useRef<HTMLDivElement>(null);
  const latest = useRef({ name, trigger });
  latest.current = { name, trigger };

  const dirty = () => fingerprint(latest.current.name, g.latest(), latest.current.trigger) !== saved.current;

  // Leaving the page (reload, tab closed) with unsaved changes asks the browser's own question.
  useEffect(() => {
    const onUnload = (e: BeforeUnloadEvent) => {
      if (fingerprint(latest.current.name, g.latest(), latest.current.trigger) !== saved.current)
        e.preventDefault();
    };
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [g.latest]);

  // The names the nodes show for the ids they hold.
  const tags = useTags();
  const departments = useDepartments();
  const flows = useQuery(flowsQuery);
  const names = useMemo(() => {
    const m = new Map<string, string>();
    for (const t of tags.data ?? []) m.set(t._id, t.name);
    for (const d of departments.data ?? []) m.set(d._id, d.name);
    for (const f of flows.data ?? []) m.set(f._id, f.name);
    return m;
  }, [tags.data, departments.data, flows.data]);
  const problems = useStableProblems(g.graph, checking);
  const info = useMemo(() => ({ problems, names }), [problems, names]);

  const panelNode = useMemo(() => {
    const n = panelId ? g.graph.nodes.find((x) => x.id === panelId) : undefined;
    return n ? typedNode(n) : null;
  }, [panelId, g.graph.nodes]);

  const addNode = useCallback(
    (type: FlowNodeType) => {
      const rect = canvas.current?.getBoundingClientRect();
      const centre = rect
        ? flowApi.screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 })
        : { x: 0, y: 0 };
      const spot = freeSpot(g.latest().nodes, { x: centre.x - NODE_W / 2, y: centre.y - 40 });
      const node = { ...newNode(type, spot), selected: true };
      g.change((graph) => ({
        nodes: [...graph.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), node],
        edges: graph.edges,
      }));
      setPanelId(node.id);
    },
    [flowApi, g.change, g.latest],
  );

  const copy = useCallback(() => {
    const clip = copySelection(g.latest());
    if (!clip) return;
    clipboard.current = clip;
    pastes.current = 0;
  }, [g.latest]);

  const paste = useCallback(() => {
    const clip = clipboard.current;
    if (!clip) return;
    const step = 40 * ++pastes.current;
    g.change((graph) => pasteInto(graph, clip, { x: step, y: step }));
  }, [g.change]);

  const deleteSelected = useCallback(() => {
    const graph = g.latest();
    void flowApi.deleteElements({
      nodes: graph.nodes.filter((n) => n.selected),
      edges: graph.edges.filter((e) => e.selected),
    });
  }, [flowApi, g.latest]);

  const deleteNode = useCallback(
    (id: string) => {
      void flowApi.deleteElements({ nodes: [{ id }] });
      setPanelId(null);
    },
    [flowApi],
  );

  // Ctrl+Z / Ctrl+Shift+Z (Ctrl+Y) and Ctrl+C / Ctrl+V, outside the text fields (⌘ on a Mac).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (inField(e.target)) return;
      // xyflow deletes on Backspace; Delete does the same here.
      if (e.key === 'Delete' && !e.ctrlKey && !e.metaKey) return deleteSelected();
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey) g.undo();
      else if ((key === 'z' && e.shiftKey) || key === 'y') g.redo();
      else if (key === 'c') copy();
      else if (key === 'v') paste();
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [g.undo, g.redo, copy, paste, deleteSelected]);

  // A tap on a handle is the start of a connection (connectOnClick), not a request for the node's panel.
  const onNodeClick: NodeMouseHandler<Node> = useCallback((event, node) => {
    if (event.target instanceof Element && event.target.closest('.react-flow__handle')) return;
    setPanelId(node.id);
  }, []);
  const onPaneClick = useCallback(() => setPanelId(null), []);

  async function save() {
    const flowName = name.trim();
    if (!flowName) return showRed(messages.nameRequired);
    const problemOfTrigger = triggerProblem(trigger);
    if (problemOfTrigger) {
      // The drawer opens on its field, which shows the rule's text (a toast would cover its close button).
      setTriggerOpen(true);
      return;
    }
    const graph = savedGraph(g.latest());
    const found = flowProblems(graph);
    if (found.length) {
      // The broken nodes are marked (and stay marked, live, until fixed); the first one's panel opens.
      setChecking(true);
      showRed(messages.flowHasErrors);
      const first = found.find((p) => p.node);
      if (first?.node) setPanelId(first.node);
      const whole = found.find((p) => !p.node);
      if (whole) showRed(whole.message);
      return;
    }
    setSaving(true);
    try {
      await api('create-or-update-flow', { _id: flow._id, name: flowName, ...graph, ...trigger });
      saved.current = fingerprint(flowName, g.latest(), trigger);
      setChecking(false);
      // Saved; a component connected to nothing never runs, which is worth a hint.
      notifySuccess(messages.flowSaved);
      const loose = unconnectedNodes(graph);
      if (loose.length) notifyWarning(messages.flowUnconnectedNodes(loose.length));
    } catch (err) {
      notifyError(err);
    } finally {
      setSaving(false);
    }
  }

  async function reset() {
    const ok = await confirm({ title: L.restoreTitle, message: L.restoreQuestion, danger: true });
    if (!ok) return;
    try {
      const fresh = await api('get-flow', { _id: flow._id });
      g.reset(graphOf(fresh));
      setName(fresh.name);
      setTrigger(triggerOf(fresh));
      saved.current = fingerprint(fresh.name, graphOf(fresh), triggerOf(fresh));
      setChecking(false);
      setPanelId(null);
    } catch (err) {
      notifyError(err);
    }
  }

  async function exportFile() {
    try {
      const file = await api('get-flow', { _id: flow._id });
      const url = URL.createObjectURL(
        new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }),
      );
      const a = document.createElement('a');
      a.href = url;
      a.download = `${file.name || labels.common.flow}.json`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      notifySuccess(messages.flowExported);
    } catch {
      showRed(messages.flowExportFailed);
    }
  }

  async function back() {
    if (dirty() && !(await confirm({ title: L.leaveTitle, message: L.leaveQuestion, danger: true }))) return;
    void navigate({ href: '/flows' });
  }

  const panel = panelNode && (
    <NodePanel
      key={panelNode.id}
      node={panelNode}
      flowId={flow._id}
      showProblem={checking}
      onChange={g.updateData}
      onDelete={deleteNode}
      onClose={() => setPanelId(null)}
    />
  );

  const panelTop = useBackClose(mobile && Boolean(panel), () => setPanelId(null));

  return (
    <div className="flow-editor">
      <EditorHeader
        mobile={mobile}
        name={name}
        onName={setName}
        saving={saving}
        triggerOn={trigger.trigger}
        onBack={() => void back()}
        onTrigger={() => setTriggerOpen(true)}
        onExport={() => void exportFile()}
        onReset={() => void reset()}
        onSave={() => void save()}
      />
      <div className="flow-editor-main">
        <div className="flow-editor-canvas" ref={canvas}>
          <CanvasInfoContext.Provider value={info}>
            <ReactFlow<EditorNode>
              nodes={g.graph.nodes}
              edges={g.graph.edges}
              nodeTypes={nodeTypes}
              onNodesChange={g.onNodesChange}
              onEdgesChange={g.onEdgesChange}
              onConnect={g.onConnect}
              onNodeDragStart={g.onNodeDragStart}
              onNodeClick={onNodeClick}
              onPaneClick={onPaneClick}
              connectOnClick
              panOnDrag
              minZoom={0.1}
              maxZoom={2}
              fitView
              fitViewOptions={{ maxZoom: 1, padding: 0.2 }}
              attributionPosition="bottom-center"
              aria-label={L.editor}
            >
              <Background gap={24} />
              <Controls showInteractive={false} position="bottom-left" />
              <MiniMap
                position="bottom-right"
                pannable
                zoomable
                style={mobile ? { width: 110, height: 80 } : undefined}
                nodeColor={(n) =>
                  problems.has(n.id)
                    ? 'var(--mantine-color-red-6)'
                    : `var(--mantine-color-${NODE_LOOK[n.type as FlowNodeType]?.color ?? 'gray'}-4)`
                }
              />
              <ZoomOnCanvas canvas={canvas} />
              <Panel position="top-left">
                {mobile && (
                  <Text fz="xs" c="dimmed" maw={220} mb={4} role="note">
                    {L.tapToConnect}
                  </Text>
                )}
                <Toolbar
                  canUndo={g.canUndo}
                  canRedo={g.canRedo}
                  onAdd={addNode}
                  onUndo={g.undo}
                  onRedo={g.redo}
                  onCopy={copy}
                  onPaste={paste}
                  onDelete={deleteSelected}
                />
              </Panel>
            </ReactFlow>
          </CanvasInfoContext.Provider>
        </div>
        {!mobile && panel && (
          <aside
            className="flow-editor-panel"
            aria-label={panelNode ? L.nodeTypes[panelNode.type] : undefined}
          >
            {panel}
          </aside>
        )}
      </div>
      {mobile && (
        <Drawer
          opened={Boolean(panel)}
          onClose={() => setPanelId(null)}
          closeOnEscape={panelTop}
          position="bottom"
          size="75%"
          withCloseButton={false}
          padding={0}
        >
          {panel}
        </Drawer>
      )}
      <TriggerDrawer
        opened={triggerOpen}
        onClose={() => setTriggerOpen(false)}
        value={trigger}
        onChange={setTrigger}
        mobile={mobile}
      />
      <ConfirmLayer />
    </div>
  );
}

/** The canvas's zoom as the CSS variable --flow-zoom: on touch screens the handles keep 24 px on screen. */
function ZoomOnCanvas({ canvas }: { canvas: RefObject<HTMLDivElement | null> }) {
  const zoom = useStore((s) => s.transform[2]);
  useEffect(() => {
    canvas.current?.style.setProperty('--flow-zoom', String(zoom));
  }, [canvas, zoom]);
  return null;
}

function Toolbar(props: {
  canUndo: boolean;
  canRedo: boolean;
  onAdd(type: FlowNodeType): void;
  onUndo(): void;
  onRedo(): void;
  onCopy(): void;
  onPaste(): void;
  onDelete(): void;
}) {
  const tool = (label: string, icon: React.ReactNode, onClick: () => void, disabled = false) => (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
    >
      {icon}
    </ActionIcon>
  );
  return (
    <Paper shadow="sm" radius="md" p={4} withBorder>
      <Box style={{ display: 'flex', gap: 2, alignItems: 'center' }}>
        <Menu position="bottom-start" shadow="md" withinPortal>
          <Menu.Target>
            <ActionIcon variant="filled" size="lg" aria-label={L.addComponent} title={L.addComponent}>
              <IconPlus size={20} aria-hidden />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown mah="70dvh" style={{ overflowY: 'auto' }}>
            <Menu.Label>{L.addComponent}</Menu.Label>
            {PALETTE.map((type) => {
              const Icon = NODE_LOOK[type].icon;
              return (
                <Menu.Item
                  key={type}
                  leftSection={
                    <Icon size={18} aria-hidden color={`var(--mantine-color-${NODE_LOOK[type].color}-6)`} />
                  }
                  onClick={() => props.onAdd(type)}
                >
                  <Text fz="sm">{L.nodeTypes[type]}</Text>
                </Menu.Item>
              );
            })}
          </Menu.Dropdown>
        </Menu>
        {tool(L.undo, <IconArrowBackUp size={20} aria-hidden />, props.onUndo, !props.canUndo)}
        {tool(L.redo, <IconArrowForwardUp size={20} aria-hidden />, props.onRedo, !props.canRedo)}
        {tool(L.copy, <IconCopy size={20} aria-hidden />, props.onCopy)}
        {tool(L.paste, <IconClipboard size={20} aria-hidden />, props.onPaste)}
        {tool(L.deleteSelected, <IconTrash size={20} aria-hidden />, props.onDelete)}
      </Box>
    </Paper>
  );
}
