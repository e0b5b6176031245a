// The catalogue's part for billing (spec 3 §2.3, §2.5, §3 Guru offer and Dashboard data: financial, §5 Offer,
// §8, §9): the offers screen, the financial dashboard and the Guru webhook's answers. Loaded only by those
// screens and the server; the menu's lines are in messages-admin-menu.ts (read by the shell).
import { countOf } from './format';
import { messages } from './messages';

export const billingMessages = {
  // spec 3 §5 Offer and §8
  offerSaved: 'Oferta salva com sucesso',
  offerNotFound: 'Oferta não encontrada.',
  offerIdTaken: 'Já existe uma oferta com este ID da Guru.',
  // spec 3 §5 Admin account edit, for the same plan fields (whole numbers from 0 to 100000)
  limitInvalid: {
    max_channels: messages.maxChannelsInvalid,
    max_official_channels: messages.maxOfficialChannelsInvalid,
    max_users: messages.maxUsersInvalid,
    max_flows: messages.maxFlowsInvalid,
    max_summaries: 'Quantidade de resumos inválida!',
    max_follow_ups: 'Quantidade de follow-ups inválida!',
  },
  // The Guru webhook's answers (README, 'Billing webhook')
  webhookNotConfigured: 'Webhook da Guru não configurado (GURU_WEBHOOK_TOKEN).',
  webhookTokenInvalid: 'Token da Guru inválido.',
  webhookNotJson: 'O conteúdo recebido não é um JSON válido.',
  webhookTypeUnknown:
    'Tipo de evento da Guru desconhecido (webhook_type deve ser transaction ou subscription).',
  webhookIdMissing: 'Evento da Guru sem id.',
  webhookEmailMissing: 'Evento da Guru sem o e-mail do comprador.',
  webhookStatusMissing: 'Evento da Guru sem status.',
  unknownOffer: (offerId: string) =>
    `Oferta da Guru desconhecida: ${offerId || '(sem id)'}. Cadastre-a em Ofertas.`,
  unknownSubscription: (id: string) => `Assinatura da Guru desconhecida: ${id}.`,
  alreadyReceived: 'Evento já recebido.',
  ignored: 'Evento recebido; nada a alterar.',
  welcomeSubject: 'Bem-vindo(a) ao painel',
  welcomeText: (name: string, link: string) =>
    [
      `Olá, ${name}!`,
      '',
      'Sua assinatura foi confirmada e sua conta está pronta. Para criar a sua senha, abra o link abaixo:',
      link,
      '',
      'O link vale por 7 dias e só pode ser usado uma vez. Depois, use "Esqueci minha senha" na tela de entrada.',
    ].join('\n'),
} as const;

export const offerLabels = {
  helpText:
    'Uma oferta é um plano que os clientes podem assinar: o preço, o ciclo de cobrança e os limites de canais, usuários e fluxos. As contas novas escolhem uma oferta ativa; mudar uma oferta não altera as assinaturas já feitas.',
  newOffer: 'Nova oferta',
  editOffer: 'Editar oferta',
  search: 'Buscar oferta',
  searchPlaceholder: 'Buscar pelo nome',
  empty: 'Nenhuma oferta cadastrada.',
  emptySearch: 'Nenhuma oferta encontrada.',
  offerId: 'ID da oferta na Guru',
  offerIdHint: 'O id da oferta (product.offer.id) que a Guru envia nos webhooks.',
  columnLimits: 'Limites',
  limitsSummary: (channels: number, users: number, flows: number) =>
    `${countOf(channels, ['canal', 'canais'])} · ${countOf(users, ['usuário', 'usuários'])} · ${countOf(flows, ['fluxo', 'fluxos'])}`,
  maxChannels: 'Canais',
  maxOfficialChannels: 'Números (API Oficial)',
  maxUsers: 'Usuários',
  maxSummaries: 'Resumos por mês',
  maxFollowUps: 'Follow-ups por mês',
} as const;

export const financialLabels = {
  title: 'Dashboard financeiro',
  base: 'Base',
  active: 'Ativos',
  canceled: 'Cancelados',
  newSales: 'Novas vendas',
  revenue: (period: string) => `Faturamento: ${period}`,
  newClients: 'Novos clientes',
  recurrences: 'Recorrências',
  refunds: 'Reembolsos',
  net: 'Líquido',
  projections: 'Projeções',
  projectionWeek: 'Projeção 7 dias',
  projectionMonth: 'Projeção 30 dias',
  projectionWeekHint: 'Média diária dos últimos 14 dias × 7, comparada com os últimos 7 dias.',
  projectionMonthHint: 'Média diária dos últimos 14 dias × 30, comparada com os últimos 30 dias.',
  dailyAverage: (period: string, value: string) => `Média diária (${period}): ${value}`,
  charts: 'Gráficos',
  sellTypeChart: 'Tipos de venda (30 dias)',
  newSale: 'Nova',
  oldSale: 'Recorrência',
  monthChart: 'Faturamento mensal consolidado',
  monthTotal: 'Total',
  monthSale: 'Vendas do mês',
  monthRefund: 'Reembolsos do mês',
  dailyIncomeChart: 'Faturamento diário (60 dias)',
  income: 'Faturamento',
  averageChart: 'Faturamento médio (14 dias)',
  average: 'Média',
  projectionChart: 'Projeção de faturamento do mês',
  realized: 'Realizado',
  projected: 'Projetado',
  cycleChart: 'Distribuição por ciclo (30 dias)',
  cycle: (n: string) => `Ciclo ${n}`,
  sales: 'Vendas',
  activeChart: 'Contas ativas (30 dias)',
  canceledChart: 'Cancelamentos (30 dias)',
  cancellations: 'Cancelamentos',
  loadingCharts: 'Carregando gráficos…',
  percent: (value: number) =>
    `${value >= 0 ? '+' : ''}${value.toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`,
} as const;
