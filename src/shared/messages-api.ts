// The catalogue's part for the public integration API and its /api page (spec 3 §2.15, §7, §8; issue 20):
// loaded only by that page and the server (the menu's line, apiMenuLabel, is in messages.ts: the shell's).
import { apiMenuLabel, messages } from './messages';

export const apiMessages = {
  // spec 3 §8
  requestCopied: 'Requisição copiada para a área de transferência',
  // The public API's answers (an envelope { error: true, message })
  apiKeyRequired: 'Informe a chave de API (api_key na query ou cabeçalho x-api-key).',
  apiKeyInvalid: 'Chave de API inválida ou revogada. Gere uma nova chave na página API.',
  apiNotInPlan: 'A API de integração não está disponível no seu plano.',
  chipNotFound: messages.chipNotFound,
  chipRequired: 'Informe o chip (query chip).',
  tooManyRequests: (seconds: number) =>
    `Muitas requisições. Tente novamente em ${seconds} segundo${seconds === 1 ? '' : 's'}.`,
  idempotencyKeyInvalid: 'Idempotency-Key inválida: use de 1 a 200 caracteres visíveis.',
  idempotencyMismatch: 'Esta Idempotency-Key já foi usada com outra requisição.',
  idempotencyInProgress:
    'Uma requisição com esta Idempotency-Key ainda está em andamento. Tente novamente em instantes.',
  endpointNotFound: 'Endpoint da API não encontrado. Consulte a documentação em /api.',
  methodNotAllowed: 'Use POST neste endpoint.',
  phoneFieldMissing: (path: string) => `Nenhum telefone válido no campo "${path}" do corpo.`,
  messageRequired: 'Informe a mensagem.',
  officialWindowClosed:
    'Fora da janela de 24 horas do número da API Oficial: envie um template (send-template).',
  chipNotOfficial: 'O chip informado não é um número da API Oficial.',
  templateVariableMissing: (par: string) => `Informe a variável ${par} do template.`,
  tagsNotFound: 'Uma ou mais tags não foram encontradas.',
  /** The name of the one-person official campaign a send-template makes (listed with the campaigns). */
  templateCampaignName: (template: string) => `API: ${template}`,
};

/** The public API's documentation: the OpenAPI document's descriptions and the /api page's blocks. */
export const apiDocs = {
  title: 'API de integração',
  apiKey: 'A chave de API da conta (página API). Também aceita no cabeçalho x-api-key.',
  chip: 'O id do chip (número) que envia.',
  phone: 'O telefone do contato com DDI e DDD (sem DDI, o Brasil: 55).',
  message: 'O texto da mensagem.',
  phoneField:
    'O caminho do telefone no corpo JSON enviado pelo outro sistema: campos separados por ponto e índices entre colchetes (ex.: contato.telefone ou dados.itens[0].fone).',
  thirdPartyBody: 'Qualquer objeto JSON: o telefone é lido no campo phone_field.',
  flow: 'O id do fluxo a iniciar do começo.',
  metadata: 'Variáveis do contato (o fluxo as lê como {chave}).',
  metadataTooMany: 'No máximo 50 variáveis.',
  tags: 'Nomes ou ids das tags da conta.',
  template: 'O nome do template aprovado do número da API Oficial.',
  language: 'O idioma do template (ex.: pt_BR), se houver mais de um com o mesmo nome.',
  conversationCreationRule:
    'all: a conversa é aberta logo após o envio; on_response (padrão): quando o contato responder.',
  redirect: 'Quem atende a conversa aberta: human, ai_chatbot ou flow_chatbot (com chatbot ou flow).',
  payloads: 'Para cada botão de resposta rápida (pelo texto), o id do fluxo que o toque inicia.',
  templateVariables:
    'Além de to e das opções, as variáveis do template: "1", "2"… do corpo, "header_1" do cabeçalho de texto, "header_image" o link da imagem do cabeçalho.',
  sendText: 'Envia uma mensagem de texto ao telefone pelo chip.',
  thirdParty:
    'Variante para outros sistemas: a mensagem vai na query e o telefone é lido no corpo JSON que o sistema já envia, no campo indicado em phone_field.',
  sendFlow: 'Inicia um fluxo para o telefone pelo chip, com as variáveis de metadata.',
  tags_: 'Adiciona tags ao contato do telefone (criado se não existir) e grava as variáveis de metadata.',
  tagsRemove: 'Remove tags do contato do telefone e grava as variáveis de metadata.',
  sendTemplate:
    'Envia um template aprovado pelo número da API Oficial. O envio é uma campanha de uma pessoa, listada em Campanhas API Oficial.',
  idempotencyKey:
    'Opcional: uma chave única por envio. Repetir a requisição com a mesma chave não envia de novo e devolve a mesma resposta.',
  answerOk: 'Sucesso: { error: false, message: … }.',
  answerError: 'Erro: { error: true, message } com o motivo.',
};

/** The sample data of the /api page's requests (the real origin, key, chip and flow are filled in). */
export const apiExamples = {
  phone: '5511999999999',
  message: 'Olá! Esta mensagem foi enviada pela API.',
  thirdPartyMessage: 'Recebemos o seu pedido!',
  order: 'A-123',
  tag: 'VIP',
  source: 'site',
  template: 'nome_do_template',
  chipPlaceholder: 'ID_DO_CHIP',
  flowPlaceholder: 'ID_DO_FLUXO',
  keyPlaceholder: 'SUA_CHAVE',
};

/** The /api page (spec 3 §2.15). */
export const apiLabels = {
  title: apiMenuLabel,
  apiKey: 'Chave de API',
  noKey: 'Nenhuma chave gerada. Gere uma chave para usar a API.',
  generateKey: 'Gerar chave',
  updateKey: 'Atualizar chave',
  updateTitle: 'Atualizar chave de API',
  updateText: 'A chave atual deixará de funcionar nas integrações que a usam. Deseja gerar uma nova chave?',
  showKey: 'Mostrar chave',
  hideKey: 'Ocultar chave',
  copyKey: 'Copiar chave',
  keyCopied: 'Chave copiada para a área de transferência',
  documentOpenApi: 'Documento OpenAPI 3.1 (openapi.json)',
  introduction:
    'Todas as requisições são POST com corpo JSON. Autentique com a chave no parâmetro api_key da query ou no cabeçalho x-api-key. As respostas têm a forma { error, message }.',
  idempotency:
    'Nos envios, o cabeçalho opcional Idempotency-Key evita envios repetidos: a mesma requisição com a mesma chave devolve a mesma resposta sem enviar de novo.',
  limit:
    'Acima do limite de requisições por chave, a resposta é 429 com o cabeçalho Retry-After (em segundos).',
  parameters: 'Parâmetros da query',
  body: 'Corpo (JSON)',
  example: 'Requisição (curl)',
  copyRequest: 'Copiar requisição',
  required: 'obrigatório',
  optional: 'opcional',
  examplesChip: 'Chip dos exemplos',
  examplesPhone: 'Telefone dos exemplos',
  noChip: 'Cadastre um chip em Meus chips: os exemplos usam o seu primeiro chip.',
  variant: 'variante phone_field',
  post: 'POST',
};
