// The catalogue's part for the dashboards (spec 3 §2.1, §2.2): loaded only by those screens and the server.
// The menu's lines are in labels.common (the first screen does not carry this file).
import { messages } from './messages';

export const dashboardMessages = {
  // Bad intervals (the 'Bad input'): clear refusals, never a 500.
  intervalInvalid:
    'Escolha um intervalo válido: Hoje, 7 dias, 30 dias, 3 meses, 6 meses, 1 ano ou um período.',
  dateInvalid: messages.dateInvalid,
  rangeReversed: 'A data inicial deve ser anterior ou igual à data final.',
  rangeTooLong: 'O período pode ter no máximo 2 anos.',
  rangeInFuture: 'O período escolhido ainda não começou.',
  // The department chart's key for conversations without a department (spec 3 §3 Dashboard data).
} as const;

// The screens' words (spec 3 §2.1, §2.2): the attendant dashboard (/) and the technical one (/dash-tecnico).
export const dashboardLabels = {
  // spec 3 §9: the interval buttons
  intervals: {
    1: messages.today,
    7: messages.last7Days,
    30: messages.last30Days,
    90: '3 meses',
    180: '6 meses',
    365: '1 ano',
  } as Record<number, string>,
  intervalGroup: 'Intervalo',
  period: 'Período',
  periodPlaceholder: 'Escolher período',
  periodShown: (start: string, end: string) => (start === end ? `Dia ${start}` : `De ${start} a ${end}`),
  allChips: 'Todos os chips',
  // Real-time cards (spec 3 §2.1)
  now: 'Agora',
  open: 'Conversas abertas',
  // Report cards
  inPeriod: 'No período',
  newConversations: 'Novas conversas',
  byChatbot: 'Atendidas por chatbot',
  byHuman: 'Atendidas por humano',
  // Charts
  evolution: 'Evolução das conversas',
  evolutionByDepartment: 'Conversas por departamento',
  departmentDistribution: 'Distribuição por departamento',
  tagDistribution: 'Distribuição por tag',
  tagsOnlyAllChips: 'A distribuição por tag aparece com todos os chips selecionados.',
  chartOf: (title: string) => `Gráfico: ${title}`,
  // Latest contacts
  latestContacts: 'Últimos contatos',
  noContacts: 'Nenhum contato no período.',
  // Empty states: what to do
  noConversations: 'Nenhuma conversa neste período.',
  noConversationsHint:
    'Conecte um chip em Meus chips e aguarde os clientes escreverem: as conversas aparecem aqui assim que começam.',
  noConversationsWait:
    'Aguarde os clientes escreverem para os seus chips, ou escolha um período maior ou outro chip.',
  goToChips: 'Ir para Meus chips',
  loadFailed: 'Não foi possível carregar o dashboard.',
  // The technical dashboard (spec 3 §2.2)
  platform: 'Plataforma',
  conversationsTotal: 'Conversas no período',
  conversationsChatbot: 'Conversas com chatbot',
  conversationsHuman: 'Conversas com humano',
  messagesTotal: 'Mensagens no período',
  connectedChips: 'Chips conectados',
  onlineUsers: 'Usuários online',
  conversationDistribution: 'Distribuição das conversas',
  messageDistribution: 'Distribuição das mensagens',
  chipDistribution: 'Distribuição dos chips',
  humanMessages: 'Mensagens humanas',
  chatbotMessages: 'Mensagens do chatbot',
  contactMessages: 'Mensagens dos contatos',
  others: 'Outros',
} as const;
