import { labels, messages } from './messages';

// The catalogue's part for webhooks (spec 3 §2.13, §4 Webhook status, §5 Webhook save, §8): loaded only by the
// webhook screens and the server.
// Spec 3 §6: webhooks also need a generated API key (the server's refusal and the screen's notice).
const API_KEY_REQUIRED =
  'Os webhooks precisam de uma chave de API gerada na conta. Gere a chave na página de integração da API.';

export const webhookMessages = {
  apiKeyRequired: API_KEY_REQUIRED,
  // spec 3 §8
  created: 'Webhook criado!',
  updated: 'Webhook atualizado!',
  deleted: 'Webhook apagado com sucesso',
  mustBeTest: 'Webhook deve estar no status teste.',
  testTimeout: 'Tempo esgotado. Nenhum evento recebido.',
  // spec 3 §5 Webhook save
  phoneNotMapped: 'O campo telefone deve ser mapeado.',
  dataNotJson: 'O conteúdo recebido do webhook não é um JSON válido.',
  typedNotJson: 'O conteúdo fornecido não é um JSON válido.',
  // Our own: what the server refuses on save
  notFound: 'Webhook não encontrado.',
  fieldNameRequired: 'Dê um nome a cada campo mapeado.',
  fieldNameRepeated: 'Já existe um campo com esse nome.',
  phoneFieldFixed: 'O primeiro campo é o telefone: ele não pode ser removido nem renomeado.',
  chipRequired: 'Escolha o chip de envio para ativar o webhook.',
  chipNotFound: 'Chip de envio não encontrado.',
  flowRequired: 'Escolha o fluxo que o webhook envia.',
  flowNotFound: messages.flowNotFound,
  templateRequired: 'Escolha o template de mensagem que o webhook envia.',
  templateNotUsable:
    'Este template não está aprovado ou não tem conteúdo fixo: escolha outro template do número.',
  templatesUnavailable: 'Não foi possível carregar os templates do número. Tente novamente.',
  chatbotNotFound: messages.chatbotNotFound,
  departmentNotFound: messages.departmentNotFound,
  redirectRequired: 'Escolha o tipo de conversa.',
  // The public endpoint (answered to the third party)
  received: messages.eventReceived,
  testReceived: 'Evento teste recebido.',
  alreadyReceived: 'Evento já recebido: nada foi enviado de novo.',
  inactive: 'Este webhook está inativo: o evento não foi processado.',
  notJson: messages.invalidJson,
  tooLarge: (maxKb: number) => `O corpo da requisição passa do limite de ${maxKb} KB.`,
  phoneMissing: 'O campo telefone não foi encontrado no evento recebido.',
  phoneInvalid: (value: string) => `O telefone "${value}" do evento não é um número válido.`,
  notConfigured: 'Este webhook ainda não tem chip de envio e mensagem configurados.',
  // The job's outcome on the event row
  chipGone: 'O chip de envio do webhook não existe mais.',
};

export const webhookLabels = {
  webhooks: 'Webhooks',
  webhook: 'Webhook',
  newWebhook: 'Novo webhook',
  actions: labels.common.actions,
  noName: 'Webhook sem nome',
  noWebhook: 'Nenhum webhook cadastrado.',
  edit: labels.common.edit,
  delete: labels.common.delete,
  deleteWebhook: 'Apagar webhook',
  confirmDelete: (name: string) => `Apagar o webhook ${name}? Os eventos enviados a ele serão recusados.`,
  webhookUrl: 'URL do webhook',
  copy: 'Copiar URL',
  copied: 'Copiado',
  webhookName: 'Nome do webhook',
  noNumbersConnected: 'Não há números conectados',
  templateHelp: 'Apenas templates com conteúdo fixo, sem parâmetros, variáveis ou imagens.',
  loadingTemplates: 'Carregando templates...',
  noTemplate: 'Este número não tem templates aprovados com conteúdo fixo.',
  statusLabels: { active: 'Ativo', inactive: 'Inativo', test: messages.test } as const,
  webhookData: 'Dados do webhook',
  example: 'Exemplo',
  receiveTestEvent: 'Receber evento teste',
  waitingEvent: 'Aguardando evento...',
  jsonReceived: 'JSON recebido',
  jsonHelp: 'Cole aqui um exemplo do JSON que o sistema envia, ou receba um evento teste.',
  mappedFields: 'Campos Mapeados',
  fieldsHelp:
    'Cada campo junta os valores dos caminhos escolhidos do JSON; os campos viram variáveis do fluxo.',
  fieldName: 'Nome do campo',
  sourceFields: 'Campos de origem',
  chooseFields: 'Escolha os campos do JSON',
  exampleValue: 'Valor de exemplo',
  removeField: (name: string) => `Remover o campo ${name || 'sem nome'}`,
  apiKeyRequired: 'Gere a chave da API',
  apiKeyNotice: API_KEY_REQUIRED,
  goToApi: 'Ir para a API',
  noChip: 'Nenhum chip',
  helpText:
    'Um webhook recebe eventos de outros sistemas (loja, plataforma de pagamento, CRM) e envia um fluxo ou um template ao telefone do evento. Crie o webhook, copie a URL para o outro sistema, receba um evento teste e mapeie os campos.',
};

/** The sample JSON 'Exemplo' fills: an order of a store, with a customer and items. */
export const WEBHOOK_EXAMPLE = {
  evento: 'pedido_pago',
  pedido: {
    numero: 1042,
    total: 'R$ 189,90',
    itens: [
      { produto: 'Camiseta', quantidade: 2 },
      { produto: 'Boné', quantidade: 1 },
    ],
  },
  cliente: {
    nome: messages.exampleCustomerName,
    sobrenome: 'Silva',
    telefone: '+55 11 98765-4321',
    email: 'maria@exemplo.com.br',
  },
};
