// One component draws every node type (memoized: a drag re-renders only the node moved): a coloured header
// with the type's name, a short summary of its data, its problem when the last save found one, and one
// source handle per branch (rules/flow.ts branchesOf), labelled; a target handle on the left but on 'Início'.
import {
  IconArrowForwardUp,
  IconArrowsShuffle,
  IconClockHour4,
  IconFlag,
  IconHourglass,
  IconList,
  IconMessage,
  IconMessageQuestion,
  IconPlayerPlay,
  IconSquareCheck,
  IconTag,
  IconTagMinus,
  IconTagPlus,
  IconWorldWww,
  type TablerIcon,
} from '@tabler/icons-react';
import { Handle, type NodeProps, type NodeTypes, Position } from '@xyflow/react';
import { createContext, memo, useContext } from 'react';
import type { AnyFlowNode, FlowNodeType } from '@/shared/contract/flows';
import { messages } from '@/shared/messages';
import { flowEditorLabels } from '@/shared/messages-editors';
import { branchesOf, parseFlowNode } from '@/shared/rules/flow';
import type { EditorNode } from './graph';

const L = flowEditorLabels;

export const NODE_LOOK: Record<FlowNodeType, { icon: TablerIcon; color: string }> = {
  start: { icon: IconPlayerPlay, color: 'teal' },
  message: { icon: IconMessage, color: 'blue' },
  question: { icon: IconMessageQuestion, color: 'violet' },
  buttons: { icon: IconSquareCheck, color: 'indigo' },
  list: { icon: IconList, color: 'indigo' },
  randomizer: { icon: IconArrowsShuffle, color: 'grape' },
  add_tag: { icon: IconTagPlus, color: 'pink' },
  remove_tag: { icon: IconTagMinus, color: 'pink' },
  tag_condition: { icon: IconTag, color: 'pink' },
  opening_hours: { icon: IconClockHour4, color: 'orange' },
  wait: { icon: IconHourglass, color: 'yellow' },
  http: { icon: IconWorldWww, color: 'cyan' },
  redirect: { icon: IconArrowForwardUp, color: 'green' },
  end: { icon: IconFlag, color: 'red' },
};

/** What the nodes show besides their own data: the last save's problems and the names of ids. */
export interface CanvasInfo {
  problems: ReadonlyMap<string, string>;
  names: ReadonlyMap<string, string>;
}
export const CanvasInfoContext = createContext<CanvasInfo>({ problems: new Map(), names: new Map() });

function branchLabel(node: AnyFlowNode, branch: string, index: number): string {
  switch (node.type) {
    case 'question':
      return branch === 'timeout' ? L.noAnswer : L.answer;
    case 'buttons':
    case 'list': {
      const option = node.data.options.find((o) => o.id === branch);
      return option?.title.trim() || L.optionN(index + 1);
    }
    case 'randomizer': {
      const b = node.data.branches.find((x) => x.id === branch);
      return L.branchN(index + 1, b?.percent ?? 0);
    }
    case 'tag_condition':
      return branch === 'yes' ? messages.yes : messages.no;
    case 'opening_hours':
      return branch === 'open' ? L.open : L.closed;
    case 'http':
      return branch === 'next' ? L.success : messages.scheduleStatusLabels.error;
    default:
      return L.next;
  }
}

function summary(node: AnyFlowNode, names: ReadonlyMap<string, string>): string {
  const tagNames = (ids: string[]) =>
    ids.length ? ids.map((id) => names.get(id) ?? '…').join(', ') : L.noTag;
  switch (node.type) {
    case 'start':
      return L.startHint;
    case 'message': {
      const d = node.data;
      const head =
        d.kind === 'text' ? '' : `${L.messageTypes[d.kind]}${d.file_name ? `: ${d.file_name}` : ''}`;
      const text = d.text.trim();
      return [head, text].filter(Boolean).join(' · ') || L.noText;
    }
    case 'question':
    case 'buttons':
    case 'list':
    case 'end':
      return node.data.text.trim() || L.noText;
    case 'randomizer':
      return '';
    case 'add_tag':
    case 'remove_tag':
    case 'tag_condition':
      return tagNames(node.data.tags);
    case 'opening_hours':
      return L.daysWithHours(node.data.days.filter((d) => d.ranges.length).length);
    case 'wait':
      return L.waitSummary(node.data.amount, L.units[node.data.unit]);
    case 'http':
      return `${node.data.method} ${node.data.url || '…'}`;
    case 'redirect': {
      const d = node.data;
      if (d.to === 'ai_chatbot') return messages.aiChatbot;
      if (!d.value) return L.noTarget;
      const name = names.get(d.value) ?? '…';
      return d.to === 'human' ? L.targetDepartment(name) : L.targetFlow(name);
    }
  }
}

function FlowNodeViewImpl({ id, type, data, selected }: NodeProps<EditorNode>) {
  const { problems, names } = useContext(CanvasInfoContext);
  const problem = problems.get(id);
  const parsed = parseFlowNode({ id, type, position: { x: 0, y: 0 }, data });
  const node = 'node' in parsed ? parsed.node : null;
  const look = NODE_LOOK[type as FlowNodeType] ?? NODE_LOOK.message;
  const Icon = look.icon;
  const branches = node ? branchesOf(node) : [];
  const single = branches.length === 1 && branches[0] === 'next' && node?.type !== 'http';
  const text = node ? summary(node, names) : '';
  const name = L.nodeTypes[type as FlowNodeType] ?? type;

  return (
    <div
      className="flow-node"
      data-type={type}
      data-broken={problem ? 'true' : undefined}
      data-selected={selected ? 'true' : undefined}
      style={{ ['--node-color' as string]: `var(--mantine-color-${look.color}-6)` }}
    >
      {type !== 'start' && <Handle type="target" position={Position.Left} className="flow-handle" />}
      <div className="flow-node-header">
        <Icon size={16} aria-hidden />
        <span>{name}</span>
      </div>
      {text && <div className="flow-node-body">{text}</div>}
      {problem && (
        <div className="flow-node-problem" role="alert">
          {problem}
        </div>
      )}
      {single ? (
        <Handle type="source" id="next" position={Position.Right} className="flow-handle" />
      ) : (
        branches.length > 0 &&
        node && (
          <div className="flow-node-branches">
            {branches.map((b, i) => (
              <div key={b} className="flow-node-branch" data-branch={b}>
                <span>{branchLabel(node, b, i)}</span>
                <Handle type="source" id={b} position={Position.Right} className="flow-handle" />
              </div>
            ))}
          </div>
        )
      )}
    </div>
  );
}

export const FlowNodeView = memo(FlowNodeViewImpl);

/** Defined once, outside any component: xyflow re-creates every node when this object changes. */
export const nodeTypes: NodeTypes = Object.fromEntries(
  (Object.keys(NODE_LOOK) as FlowNodeType[]).map((t) => [t, FlowNodeView]),
);
