// The rules that judge a flow (src/shared/rules/flow.ts): the editor marks nodes with them and the server
// refuses the same graphs, so each rule is pinned here once.
import { describe, expect, it } from 'vitest';
import type { AnyFlowNode } from '@/shared/contract/flows';
import { MAX_FLOW_NODES } from '@/shared/contract/flows';
import { messages } from '@/shared/messages';
import {
  branchesOf,
  branchOf,
  flowProblems,
  INTERACTIVE_LIMITS,
  newFlowGraph,
  nodeProblem,
  optionProblem,
  parseFlowNode,
  percentProblem,
  readFlowFile,
  triggerProblem,
  unconnectedNodes,
  VARIABLE_IN_TEXT,
} from '@/shared/rules/flow';

const at = { x: 0, y: 0 };
/** A stored id's shape (28 characters). */
const TAG = '0TAG000000000000000000000000';
/** A node read through parseFlowNode, so that the data's defaults are filled as the server fills them. */
function node(type: string, data: Record<string, unknown>, id = type): AnyFlowNode {
  const parsed = parseFlowNode({ id, type, position: at, data });
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed.node;
}
const raw = (id: string, type: string, data: Record<string, unknown> = {}) => ({
  id,
  type,
  position: at,
  data,
});
const start = raw('start', 'start');
const text = (id: string) => raw(id, 'message', { kind: 'text', text: 'Oi' });
const edge = (source: string, target: string, sourceHandle: string | null = 'next') => ({
  id: `${source}-${sourceHandle}-${target}`,
  source,
  sourceHandle,
  target,
});
const options = (...titles: string[]) => titles.map((title, i) => ({ id: `o${i}`, title }));
const problemsOf = (nodes: ReturnType<typeof raw>[], connections: ReturnType<typeof edge>[]) =>
  flowProblems({ nodes, connections });

describe('branchesOf / branchOf', () => {
  it('names each node type’s outputs', () => {
    expect(branchesOf(node('start', {}))).toEqual(['next']);
    expect(branchesOf(node('message', { kind: 'text', text: 'x' }))).toEqual(['next']);
    expect(branchesOf(node('question', { text: 'x' }))).toEqual(['next']);
    expect(branchesOf(node('question', { text: 'x', timeout: { amount: 5, unit: 'minutes' } }))).toEqual([
      'next',
      'timeout',
    ]);
    expect(branchesOf(node('buttons', { text: 'x', options: options('A', 'B') }))).toEqual(['o0', 'o1']);
    expect(branchesOf(node('list', { text: 'x', button: 'Ver', options: options('A') }))).toEqual(['o0']);
    expect(
      branchesOf(
        node('randomizer', {
          branches: [
            { id: 'a', percent: 50 },
            { id: 'b', percent: 50 },
          ],
        }),
      ),
    ).toEqual(['a', 'b']);
    expect(branchesOf(node('tag_condition', { tags: [TAG] }))).toEqual(['yes', 'no']);
    expect(branchesOf(node('opening_hours', { days: [] }))).toEqual(['open', 'closed']);
    expect(branchesOf(node('http', { method: 'GET', url: 'https://x.test' }))).toEqual(['next', 'error']);
    expect(branchesOf(node('redirect', { to: 'human', value: TAG }))).toEqual([]);
    expect(branchesOf(node('end', {}))).toEqual([]);
    expect(branchesOf(node('wait', { amount: 1, unit: 'hours' }))).toEqual(['next']);
    expect(branchesOf(node('add_tag', { tags: [TAG] }))).toEqual(['next']);
  });

  it('reads an edge without a handle as next', () => {
    expect(branchOf({ sourceHandle: null })).toBe('next');
    expect(branchOf({ sourceHandle: undefined })).toBe('next');
    expect(branchOf({ sourceHandle: '' })).toBe('next');
    expect(branchOf({ sourceHandle: 'yes' })).toBe('yes');
  });
});

describe('options and percents', () => {
  it('quick replies: at most 3, titles required, unique whatever the case, within 20 characters', () => {
    expect(optionProblem('buttons', [])).toBe(messages.flowOptionRequired);
    expect(optionProblem('buttons', options('A', 'B', 'C'))).toBeNull();
    expect(optionProblem('buttons', options('A', 'B', 'C', 'D'))).toBe(messages.flowMaxQuickReplies);
    expect(optionProblem('buttons', options('A', ' '))).toBe(messages.flowOptionTitleRequired);
    expect(optionProblem('buttons', options('Sim', ' sim '))).toBe(messages.flowOptionTitleTaken);
    expect(optionProblem('buttons', options('x'.repeat(INTERACTIVE_LIMITS.buttonTitle)))).toBeNull();
    expect(optionProblem('buttons', options('x'.repeat(INTERACTIVE_LIMITS.buttonTitle + 1)))).toBe(
      messages.flowCharacterLimit,
    );
  });

  it('lists: up to 10 rows, 24-character titles, 72-character descriptions', () => {
    const ten = options(...Array.from({ length: 10 }, (_, i) => `Linha ${i}`));
    expect(optionProblem('list', ten)).toBeNull();
    expect(optionProblem('list', [...ten, { id: 'x', title: 'Onze' }])).toBe(messages.flowMaxListRows);
    expect(optionProblem('list', options('x'.repeat(25)))).toBe(messages.flowCharacterLimit);
    expect(optionProblem('list', [{ title: 'A', description: 'd'.repeat(72) }])).toBeNull();
    expect(optionProblem('list', [{ title: 'A', description: 'd'.repeat(73) }])).toBe(
      messages.flowCharacterLimit,
    );
  });

  it('a percent is a whole number from 1 to 100', () => {
    for (const ok of [1, 50, 100]) expect(percentProblem(ok)).toBeNull();
    for (const bad of [0, -1, 101, 2.5, Number.NaN])
      expect(percentProblem(bad)).toBe(messages.flowPercentRange);
  });
});

describe('nodeProblem', () => {
  const cases: [string, string, Record<string, unknown>, string | null][] = [
    ['a text message', 'message', { kind: 'text', text: 'Olá {nome}' }, null],
    ['an empty text', 'message', { kind: 'text', text: '  ' }, messages.flowTextRequired],
    ['an image without its file', 'message', { kind: 'image', text: '' }, messages.flowMediaRequired],
    ['an image with a file', 'message', { kind: 'image', text: '', media_url: '/m/x.png' }, null],
    ['a question', 'question', { text: 'Nome?', variable: 'nome_1' }, null],
    ['a question without text', 'question', { text: '' }, messages.flowTextRequired],
    ['a bad variable', 'question', { text: 'x', variable: 'e-mail' }, messages.flowVariableInvalid],
    [
      'a zero timeout',
      'question',
      { text: 'x', timeout: { amount: 0, unit: 'minutes' } },
      messages.flowWaitRequired,
    ],
    [
      'a long menu text',
      'buttons',
      { text: 'x'.repeat(INTERACTIVE_LIMITS.body + 1), options: options('A') },
      messages.flowCharacterLimit,
    ],
    [
      'a list without button',
      'list',
      { text: 'x', button: ' ', options: options('A') },
      messages.flowListButtonRequired,
    ],
    [
      'a long list button',
      'list',
      { text: 'x', button: 'x'.repeat(21), options: options('A') },
      messages.flowCharacterLimit,
    ],
    ['a randomizer without branches', 'randomizer', { branches: [] }, messages.flowOptionRequired],
    [
      'a randomizer out of range',
      'randomizer',
      {
        branches: [
          { id: 'a', percent: 0 },
          { id: 'b', percent: 100 },
        ],
      },
      messages.flowPercentRange,
    ],
    [
      'a randomizer not adding to 100',
      'randomizer',
      {
        branches: [
          { id: 'a', percent: 30 },
          { id: 'b', percent: 30 },
        ],
      },
      messages.flowPercentTotal,
    ],
    ['tags required', 'add_tag', { tags: [] }, messages.flowTagsRequired],
    ['tags required to remove', 'remove_tag', { tags: [] }, messages.flowTagsRequired],
    ['tags required to test', 'tag_condition', { tags: [] }, messages.flowTagsRequired],
    [
      'hours without a range',
      'opening_hours',
      { days: [{ day: 1, ranges: [] }] },
      messages.flowHoursRequired,
    ],
    [
      'hours ending before they start',
      'opening_hours',
      { days: [{ day: 1, ranges: [{ start: '18:00', end: '08:00' }] }] },
      messages.flowHoursInvalid,
    ],
    [
      'hours not HH:mm',
      'opening_hours',
      { days: [{ day: 1, ranges: [{ start: '8:00', end: '18:00' }] }] },
      messages.flowHoursInvalid,
    ],
    [
      'an unknown zone',
      'opening_hours',
      { time_zone: 'Marte/Olimpo', days: [{ day: 1, ranges: [{ start: '08:00', end: '18:00' }] }] },
      messages.flowTimeZoneInvalid,
    ],
    [
      'office hours',
      'opening_hours',
      { time_zone: 'America/Manaus', days: [{ day: 1, ranges: [{ start: '08:00', end: '18:00' }] }] },
      null,
    ],
    ['a zero wait', 'wait', { amount: 0, unit: 'hours' }, messages.flowWaitRequired],
    ['a wait', 'wait', { amount: 2, unit: 'hours' }, null],
    ['a non-http URL', 'http', { method: 'GET', url: 'ftp://x.test/a' }, messages.flowUrlInvalid],
    [
      'a mapping into a bad variable',
      'http',
      { method: 'POST', url: 'https://x.test', mappings: [{ path: 'a.b', variable: 'a b' }] },
      messages.flowVariableInvalid,
    ],
    [
      'a redirect without target',
      'redirect',
      { to: 'flow', value: null },
      messages.flowRedirectTargetRequired,
    ],
    ['an end with a goodbye', 'end', { text: 'Tchau' }, null],
  ];
  for (const [name, type, data, expected] of cases)
    it(name, () => {
      expect(nodeProblem(node(type, data))).toBe(expected);
    });

  it('two options or branches of one node with the same id', () => {
    expect(
      nodeProblem(
        node('buttons', {
          text: 'x',
          options: [
            { id: 'a', title: 'Um' },
            { id: 'a', title: 'Dois' },
          ],
        }),
      ),
    ).toBe(messages.flowDuplicateId('a'));
    expect(
      nodeProblem(
        node('randomizer', {
          branches: [
            { id: 'b', percent: 50 },
            { id: 'b', percent: 50 },
          ],
        }),
      ),
    ).toBe(messages.flowDuplicateId('b'));
  });

  it('parseFlowNode refuses unknown types and data of the wrong shape', () => {
    expect(parseFlowNode(raw('x', 'teleport'))).toEqual({ problem: messages.flowUnknownNode('teleport') });
    expect(parseFlowNode(raw('x', 'message', { kind: 'hologram', text: '' }))).toEqual({
      problem: messages.flowCharacterLimit,
    });
    expect(parseFlowNode(raw('x', 'question', { text: 'x' }))).toMatchObject({
      node: { data: { validation: 'none', variable: '', retry_text: '', timeout: null } },
    });
  });
});

describe('flowProblems', () => {
  it('a new flow, and a flow with a loop through a question, are fine', () => {
    expect(flowProblems(newFlowGraph())).toEqual([]);
    const q = raw('q', 'question', { text: 'Seu e-mail?' });
    expect(problemsOf([start, text('a'), q], [edge('start', 'a'), edge('a', 'q'), edge('q', 'a')])).toEqual(
      [],
    );
  });

  it('needs exactly one Início', () => {
    expect(problemsOf([text('a')], [])).toEqual([{ node: null, message: messages.flowNeedsStart }]);
    expect(problemsOf([start, { ...start, id: 'start2' }], [])).toEqual([
      { node: null, message: messages.flowNeedsStart },
    ]);
  });

  it('names the node of each problem', () => {
    expect(problemsOf([start, text('a'), text('a')], [])).toEqual([
      { node: 'a', message: messages.flowDuplicateId('a') },
    ]);
    expect(problemsOf([start, raw('z', 'zap')], [])).toEqual([
      { node: 'z', message: messages.flowUnknownNode('zap') },
    ]);
    expect(problemsOf([start, text('a')], [edge('start', 'ghost')])).toEqual([
      { node: 'start', message: messages.flowDanglingEdge },
    ]);
    expect(problemsOf([start, text('a')], [edge('ghost', 'a')])).toEqual([
      { node: null, message: messages.flowDanglingEdge },
    ]);
    expect(problemsOf([start, text('a')], [edge('start', 'a', 'yes')])).toEqual([
      { node: 'start', message: messages.flowUnknownBranch },
    ]);
    expect(problemsOf([start, text('a'), text('b')], [edge('start', 'a'), edge('start', 'b', null)])).toEqual(
      [{ node: 'start', message: messages.flowBranchTwice }],
    );
  });

  it('an edge of a refused node is that node’s problem only', () => {
    expect(problemsOf([start, raw('z', 'zap'), text('a')], [edge('z', 'a')])).toEqual([
      { node: 'z', message: messages.flowUnknownNode('zap') },
    ]);
  });

  it('a cycle without a pause marks every node on it', () => {
    const problems = problemsOf(
      [start, text('a'), text('b'), text('c')],
      [edge('start', 'a'), edge('a', 'b'), edge('b', 'c'), edge('c', 'a')],
    );
    expect(problems.map((p) => p.message)).toEqual(Array(3).fill(messages.flowCycleWithoutWait));
    expect(problems.map((p) => p.node).sort()).toEqual(['a', 'b', 'c']);
    expect(problemsOf([start, text('a')], [edge('start', 'a'), edge('a', 'a')])).toEqual([
      { node: 'a', message: messages.flowCycleWithoutWait },
    ]);
    // A wait on the way breaks it.
    const wait = raw('w', 'wait', { amount: 1, unit: 'minutes' });
    expect(
      problemsOf([start, text('a'), wait], [edge('start', 'a'), edge('a', 'w'), edge('w', 'a')]),
    ).toEqual([]);
  });

  it('refuses more nodes than a flow may hold', () => {
    const nodes = [start, ...Array.from({ length: MAX_FLOW_NODES }, (_, i) => text(`m${i}`))];
    expect(problemsOf(nodes, [])).toEqual([
      { node: null, message: messages.flowTooManyNodes(MAX_FLOW_NODES) },
    ]);
  });
});

describe('triggerProblem', () => {
  it('a trigger needs a keyword that is not blank', () => {
    expect(triggerProblem({ trigger: true, keywords: [] })).toBe(messages.flowKeywordRequired);
    expect(triggerProblem({ trigger: true, keywords: [' '] })).toBe(messages.flowKeywordRequired);
    expect(triggerProblem({ trigger: true, keywords: ['oi'] })).toBeNull();
    expect(triggerProblem({ trigger: false, keywords: [] })).toBeNull();
  });
});

describe('readFlowFile', () => {
  const file = {
    account: 'ACCOUNT_A',
    name: 'Etiquetas',
    nodes: [
      start,
      raw('add', 'add_tag', { tags: ['T1'] }),
      raw('rm', 'remove_tag', { tags: ['T1'] }),
      raw('cond', 'tag_condition', { tags: ['T1', 'T2'], mode: 'all' }),
      raw('to', 'redirect', { to: 'flow', value: 'F1' }),
      text('hi'),
    ],
    connections: [edge('start', 'hi')],
    trigger: true,
    keywords: ['oi'],
    trigger_human: true,
    disabled_chips: ['C1'],
    // What export adds (the Flow answer) is ignored.
    _id: 'F0',
    created: '2026-01-01T00:00:00.000Z',
  };

  it('refuses anything but an exported flow', () => {
    for (const bad of [null, 'x', [], {}, { ...file, nodes: undefined }, { ...file, account: 5 }])
      expect(readFlowFile(bad, 'ACCOUNT_A')).toEqual({ ok: false, message: messages.flowFileInvalid });
  });

  it('keeps everything in the account it came from', () => {
    const read = readFlowFile(file, 'ACCOUNT_A');
    expect(read).toMatchObject({
      ok: true,
      foreign: false,
      file: { nodes: file.nodes, disabled_chips: ['C1'] },
    });
  });

  it('from another account drops tags, redirect targets and disabled chips, and nothing else', () => {
    const read = readFlowFile(file, 'ACCOUNT_B');
    if (!read.ok) throw new Error(read.message);
    expect(read.foreign).toBe(true);
    expect(read.file).toMatchObject({
      name: 'Etiquetas',
      trigger: true,
      keywords: ['oi'],
      trigger_human: true,
      disabled_chips: [],
      connections: file.connections,
    });
    expect(Object.fromEntries(read.file.nodes.map((n) => [n.id, n.data]))).toEqual({
      start: {},
      add: { tags: [] },
      rm: { tags: [] },
      cond: { tags: [], mode: 'all' },
      to: { to: 'flow', value: null },
      hi: { kind: 'text', text: 'Oi' },
    });
    // The file given is not changed.
    expect(file.nodes[1]?.data).toEqual({ tags: ['T1'] });
  });
});

describe('VARIABLE_IN_TEXT', () => {
  it('finds {nome}, {nome:first} and custom variables, not broken braces', () => {
    const found = [
      ...'Oi {nome:first}, seu {email} e {cpf_1}; {nao valido} {x:last}'.matchAll(VARIABLE_IN_TEXT),
    ].map((m) => [m[1], m[2] ?? null]);
    expect(found).toEqual([
      ['nome', ':first'],
      ['email', null],
      ['cpf_1', null],
    ]);
  });
});

describe('unconnectedNodes', () => {
  it('names the components with no edge in or out, never Início', () => {
    const nodes = [start, text('a'), text('b'), text('loose')];
    expect(unconnectedNodes({ nodes, connections: [edge('start', 'a'), edge('a', 'b')] })).toEqual(['loose']);
    expect(unconnectedNodes({ nodes: [start], connections: [] })).toEqual([]);
    expect(messages.flowUnconnectedNodes(1)).toBe(
      '1 componente não está ligado a nada e nunca será executado.',
    );
  });
});
