// The catalogue's part for audiences and campaigns (spec 3 §2.9, §2.10, §5, §8, §9): loaded only by those
// screens and the server, so the attendant's first screen does not carry it (tests/size.mjs).
import { countOf } from './format';
import { labels, messages } from './messages';
export const campaignMessages = {
  // spec 3 §5 Audience, §8 ('Nome da audiência necessário' is messages.audienceNameRequired)
  audienceSaved: 'Audiência cadastrada com sucesso.',
  audienceUpdated: 'Audiência atualizada com sucesso.',
  audienceDeleted: 'Audiência apagada com sucesso.',
  audienceNotFound: 'Audiência não encontrada.',
  audienceFileRequired: 'Escolha a planilha da audiência.',
  audienceNoValid: 'A planilha não tem nenhum contato válido para a audiência.',
  // spec 3 §5 Campaign, §8
  campaignSaved: 'Campanha cadastrada com sucesso.',
  campaignUpdated: 'Campanha atualizada com sucesso.',
  campaignDeleted: 'Campanha apagada com sucesso.',
  campaignCanceled: 'Campanha cancelada.',
  campaignNameRequired: 'Nome da campanha necessário',
  campaignScheduleRequired: 'Data e hora de envio necessária',
  campaignAudienceRequired: 'Audiência necessária para formar o público de envio',
  campaignTagsRequired: 'Tags necessárias para formar o público de envio',
  campaignVersionsBlank:
    'As versões de mensagem não podem estar vazias. Escreva o texto de todas as versões.',
  campaignFlowRequired: 'É necessário selecionar um fluxo.',
  campaignIntervalInvalid: 'Escolha um dos intervalos de envio da lista.',
  campaignChipNotUsable: 'Escolha um chip não oficial e conectado para a campanha.',
  campaignNotFound: 'Campanha não encontrada.',
  campaignNotEditable: 'Só é possível editar uma campanha agendada.',
  campaignNotCancelable: 'Esta campanha já terminou ou foi cancelada.',
  campaignEmptyAudience: 'O público desta campanha não tem nenhum contato para receber a mensagem.',
  campaignsNotInPlan:
    'Campanhas não estão disponíveis no plano Solo. Faça upgrade do seu plano para enviar campanhas.',
  integrationsNotInPlan:
    'Follow-ups automáticos, API e webhooks estão disponíveis a partir do plano Profissional. Faça upgrade do seu plano para usar.',
  officialNotInPlan:
    'Campanhas da API Oficial não estão disponíveis no seu plano. Fale com o suporte para contratar um número oficial.',
  campaignBanWarning:
    'Atenção: o envio em massa pode levar ao banimento do chip pelo WhatsApp. Use intervalos maiores e várias versões da mensagem para um envio mais seguro.',
  /** A recipient's own failure, recorded on that person only. */
  campaignNoWhatsapp: messages.newConversationPhoneNotOnWhatsapp,
  campaignContactIgnored: 'Contato ignorado: não recebe mensagens.',
  campaignChipPaused: 'Chip desconectado: a campanha continua quando ele for conectado de novo.',
} as const;

export const CAMPAIGN_STATUS_LABELS = {
  scheduled: messages.scheduleStatusLabels.scheduled,
  started: messages.statusStarted,
  finished: 'Concluída',
  canceled: messages.statusCanceled,
  error: messages.scheduleStatusLabels.error,
} as const;

/** The screens' labels. */
export const campaignLabels = {
  planGate: {
    title: 'Campanhas não incluídas no seu plano',
    titleIntegrations: 'Recurso disponível a partir do plano Profissional',
    viewPlan: 'Ver meu plano',
  },
  // helper aud: audiences screen labels below this line
  audiences: {
    importAudience: 'Importar audiência',
    editAudience: 'Editar audiência',
    createContacts: 'Criar ou atualizar os contatos',
    createContactsHint:
      'Cada pessoa da planilha vira um contato (ou atualiza o contato do mesmo telefone) com as variáveis da planilha.',
    newSheet: 'Nova planilha (opcional)',
    newSheetHint: 'Escolha uma planilha só para trocar as pessoas desta audiência.',
    createdAt: 'Criada em',
    noAudience: 'Nenhuma audiência cadastrada',
    deleteAudience: 'Apagar audiência',
    confirmDeleteAudience: (name: string) => `Deseja apagar a audiência ${name}?`,
    helpText:
      'Uma audiência é a lista de pessoas de uma planilha (.xlsx) para as campanhas. A coluna telefone traz os números com código do país e DDD; as outras colunas viram variáveis das mensagens, como {nome} ou {nome:first}. Antes de salvar, a planilha é analisada: você vê quantos contatos são válidos e as linhas com problema. Com "Criar ou atualizar os contatos", as pessoas também entram nos seus contatos.',
  },
  // helper ui: campaigns screen labels below this line
  campaigns: {
    newCampaign: 'Nova campanha',
    editCampaign: 'Editar campanha',
    noCampaignRegistered: 'Nenhuma campanha cadastrada.',
    helpText:
      'Uma campanha envia uma mensagem a uma audiência importada ou aos contatos com certas tags, por um chip não oficial conectado, uma pessoa a cada intervalo. Cada pessoa recebe uma das versões do texto, sorteada, ou entra em um fluxo. Acompanhe o envio ao vivo e veja no relatório quem recebeu, leu e respondeu.',
    // the table
    immediate: 'Imediato',
    audience: 'Audiência',
    estimatedReach: 'Alcance estimado',
    sent: 'Enviadas',
    follow: 'Acompanhar',
    cancelCampaign: 'Cancelar campanha',
    audienceDeleted: 'Audiência apagada',
    recipientTags: (tags: string) => `Tags: ${tags}`,
    deleteCampaign: 'Apagar campanha',
    confirmDeleteCampaign: (name: string) => `Deseja apagar a campanha ${name}?`,
    confirmCancelCampaign: (name: string) =>
      `Deseja cancelar a campanha ${name}? As pessoas que ainda não receberam a mensagem não a receberão.`,
    copy: (name: string) => `Cópia de ${name}`,
    // the dialog
    campaignName: 'Nome da campanha',
    sendingHelpChip: 'Somente chips não oficiais conectados.',
    noChipConnected: 'Nenhum chip não oficial conectado. Conecte um chip em Meus chips.',
    recipients: 'Público',
    chooseAudience: 'Escolha a audiência',
    noAudience: 'Nenhuma audiência cadastrada. Importe uma em Audiências.',
    people: (n: number) => (n === 1 ? '1 pessoa' : `${n} pessoas`),
    recipientTagsField: 'Enviar para contatos com as tags',
    tagsIgnored: 'Não enviar para contatos com as tags',
    versions: 'Versões da mensagem',
    versionsHelp: 'Cada pessoa recebe uma destas versões, sorteada. Mais versões deixam o envio mais seguro.',
    version: (n: number) => `Versão ${n}`,
    addVersion: 'Adicionar versão',
    removeVersion: (n: number) => `Remover versão ${n}`,
    variables: 'Variáveis da audiência',
    variablesHelp: 'Toque em uma variável para inseri-la na versão em que você está escrevendo.',
    insertVariable: (v: string) => `Inserir ${v}`,
    interval: 'Intervalo entre envios',
    seconds: (n: number) => countOf(n, ['segundo', 'segundos']),
    sending: 'Envio',
    scheduled: 'Agendado',
    sendingDateAndTime: 'Data e hora do envio',
    // the follow dialog
    followCampaign: (name: string) => `Acompanhar: ${name}`,
    progress: 'Progresso do envio',
    progressText: (done: number, total: number) => `${done} de ${total}`,
    failures: 'Falhas',
    remaining: 'Restantes',
    nextSending: 'Próximo envio',
    endForecast: 'Previsão de término',
    noForecast: '—',
    close: labels.app.close,
    // the report dialog
    campaignReport: (name: string) => `Relatório: ${name}`,
    delivered: 'Entregues',
    read: 'Lidas',
    ignored: 'Ignoradas',
    answered: 'Responderam',
    waiting: 'Aguardando',
    /** The people a canceled campaign never sent to (not 'Aguardando': nothing will be sent). */
    notSent: 'Não enviadas',
  },
} as const;

// helper camp: the campaign report's spreadsheet (export-campaign-report)
export const campaignReportLabels = {
  fileName: (name: string, date: string) => `Campanha_${name}_${date}.xlsx`,
  sheet: 'Relatório',
  columns: ['telefone', 'nome', 'versão', 'status', 'enviada em', 'entregue', 'lida', 'respondeu', 'erro'],
  status: {
    waiting: campaignLabels.campaigns.waiting,
    sending: messages.statusSending,
    sent: messages.statusSent,
    error: messages.scheduleStatusLabels.error,
    skipped: messages.statusNotSent,
  },
  flowVersion: labels.common.flow,
  yes: messages.sheetYes,
  no: messages.sheetNo,
} as const;

// Official WhatsApp API (issue 19): templates (spec 3 §2.14, §5 Template save, §8) and official campaigns
// (spec 3 §2.11, §5 Official campaign). Server and rule messages first, then the screens' labels.
export const templateMessages = {
  templateSaved: 'Template salvo com sucesso',
  templateDeleteRequested: 'Solicitação concluída com sucesso. Aguardar resposta da Meta.',
  templateBodyRequired: 'O texto do corpo da mensagem é um campo necessário',
  templateNameInvalid: 'O nome deve ter apenas letras minúsculas, números e _ (sublinhado).',
  templateNameTaken: 'Já existe um template com esse nome e idioma neste número.',
  templateHeaderTextRequired: 'Escreva o texto do cabeçalho.',
  templateHeaderOneVariable: 'O cabeçalho aceita no máximo uma variável.',
  templateHeaderImageRequired: 'Envie a imagem do cabeçalho (JPEG ou PNG).',
  templateHeaderImageType: 'A imagem do cabeçalho deve ser JPEG ou PNG.',
  templateHeaderImageTooLarge: 'A imagem do cabeçalho deve ter no máximo 5 MB.',
  templateHeaderImageUnavailable: 'O envio de imagem no cabeçalho não está configurado neste servidor.',
  templateBodyVariableAtEdge: 'O texto do corpo não pode começar nem terminar com uma variável.',
  templateTooManyButtons: 'Um template pode ter no máximo 10 botões.',
  templateButtonTextRequired: 'Escreva o texto de todos os botões.',
  templateButtonTextTooLong: 'O texto do botão pode ter no máximo 25 caracteres.',
  templateButtonUrlRequired: 'Informe a URL do botão.',
  templateButtonUrlInvalid: 'A URL do botão deve começar com http:// ou https://.',
  templateButtonPhoneRequired: 'Informe o telefone do botão.',
  templateButtonPhoneInvalid: 'Telefone do botão inválido. Exemplo: +5511955555555',
  templateButtonValueTooLong: 'A URL e o telefone do botão podem ter no máximo 1000 caracteres.',
  templateOneUrlButton: 'Só é permitido um botão de URL.',
  templateOnePhoneButton: 'Só é permitido um botão de telefone.',
  templateExampleRequired: (variable: string) => `Informe um exemplo para a variável ${variable}.`,
  templateChipNotOfficial: 'Escolha um número da API oficial.',
  templateDefaultNotDeletable: 'Os templates padrão da Meta não podem ser apagados.',
  templateNotFound: 'Template não encontrado.',
} as const;

export const templateLabels = {
  helpText:
    'Templates são as mensagens aprovadas pela Meta para iniciar conversas pela API Oficial. Escolha o número, crie o template com a categoria, o idioma e os componentes, e aguarde a aprovação: só templates aprovados podem ser usados em campanhas e webhooks.',
  deleteTitle: 'Apagar template de mensagem',
  newTitle: 'Novo template de mensagem',
  categories: {
    MARKETING: 'Marketing',
    UTILITY: 'Utilidade',
    AUTHENTICATION: 'Autenticação',
  } as Record<string, string>,
  /** Meta's statuses; the spec names the first three. */
  statuses: {
    APPROVED: 'Aprovado',
    PENDING: 'Pendente',
    REJECTED: 'Rejeitado',
    PAUSED: 'Pausado',
    DISABLED: messages.disabled,
  } as Record<string, string>,
  templates: 'Templates',
  number: 'Número da API oficial',
  chooseNumber: 'Escolha um número da API oficial para ver os seus templates.',
  noNumbers: 'Nenhum número da API oficial cadastrado. Cadastre um em Meus chips.',
  newTemplate: 'Novo template',
  manager: 'Gerenciador de templates da Meta',
  library: 'Biblioteca de templates da Meta',
  noTemplate: 'Nenhum template neste número.',
  category: 'Categoria',
  language: 'Idioma',
  body: 'Corpo',
  default: 'Padrão',
  reason: (reason: string) => `Motivo: ${reason}`,
  defaultNoDeletes: 'Templates padrão não podem ser apagados',
  confirmDelete: (name: string) => `Deseja apagar o template ${name}? A Meta confirma o pedido em seguida.`,
  nameHint: 'Letras minúsculas, números e _ (os espaços viram _).',
  nameSavedAs: (name: string) => `Será salvo como: ${name}`,
  header: 'Cabeçalho',
  headerNone: 'Nenhum',
  headerText: 'Texto do cabeçalho',
  headerImage: 'Imagem do cabeçalho (JPEG ou PNG)',
  sendingImage: 'Enviando imagem...',
  imageSent: (name: string) => `Imagem: ${name}`,
  bodyText: 'Texto do corpo',
  bodyHint: 'Use {{1}}, {{2}}… para as variáveis; {{ nome }} vira {{1}}.',
  footer: 'Rodapé (opcional)',
  addButton: 'Adicionar botão',
  buttonType: 'Tipo do botão',
  quickReplyButton: 'Resposta rápida',
  buttonUrl: 'Abrir URL',
  buttonPhone: 'Ligar',
  buttonText: (n: number) => `Texto do botão ${n}`,
  buttonUrlAt: (n: number) => `URL do botão ${n}`,
  buttonPhoneAt: (n: number) => `Telefone do botão ${n}`,
  removeButton: (n: number) => `Remover botão ${n}`,
  examples: 'Exemplos das variáveis',
  exampleHeader: (v: string) => `Exemplo de ${v} no cabeçalho`,
  exampleBody: (v: string) => `Exemplo de ${v} no corpo`,
  save: labels.common.save,
  cancel: labels.common.cancel,
  actions: labels.common.actions,
} as const;

export const officialCampaignMessages = {
  conversationRuleRequired: 'Necessário informar quando as conversas serão criadas',
  departmentRequired: 'É necessário informar o departamento da conversa',
  redirectRequired: 'É necessário informar o tipo de conversa (chatbot, atendimento humano, fluxo)',
  chatbotRequired: 'É necessário informar o chatbot',
  flowRequired: 'É necessário informar o fluxo',
  // Ours (the spec names no text for these): the template and its parameters, then what only the server knows.
  templateRequired: 'É necessário escolher um template aprovado',
  parameterRequired: (par: string) =>
    `Escolha a coluna da audiência ou escreva um valor padrão para a variável ${par}`,
  imageRequired: 'É necessário enviar a imagem do cabeçalho (jpeg ou png)',
  imageInvalid: 'A imagem do cabeçalho deve ser um arquivo jpeg ou png enviado por aqui.',
  chipNotUsable: 'Escolha um número da API Oficial conectado para a campanha.',
  templateNotApproved: 'Só templates aprovados pela Meta podem ser usados. Escolha um template aprovado.',
  templatesUnavailable: 'Não foi possível consultar os templates do número na Meta. Tente novamente.',
  buttonFlowNotFound: 'O fluxo escolhido para um botão não foi encontrado.',
  flowNotFound: 'O fluxo escolhido não foi encontrado.',
  chatbotNotFound: 'O chatbot escolhido não foi encontrado.',
  departmentNotFound: 'O departamento escolhido não foi encontrado.',
  /** The official campaign's report spreadsheet (export-campaign-report): its columns. */
  reportColumns: [
    'telefone',
    'nome',
    'status',
    'enviada em',
    'entregue em',
    'lida em',
    'respondeu em',
    'botão clicado',
    'categoria de cobrança',
    'erro',
  ],
} as const;

export const officialCampaignLabels = {
  sending: 'Enviando...',
  // the screen (spec 3 §2.11)
  deliveredRead: (delivered: number, read: number) =>
    `${countOf(delivered, ['entregue', 'entregues'])} · ${countOf(read, ['lida', 'lidas'])}`,
  noCampaignRegistered: 'Nenhuma campanha da API Oficial cadastrada.',
  helpTitle: 'Campanhas da API Oficial',
  helpText:
    'Uma campanha da API Oficial envia um template de mensagem aprovado pela Meta a uma audiência ou aos contatos com certas tags, por um número da API Oficial conectado. As variáveis do template são preenchidas com as colunas da audiência (ou com um valor padrão), e cada botão de resposta rápida pode iniciar um fluxo. Escolha se a conversa é criada para todos logo após o envio ou só quando a pessoa responder.',
  // the plan gate (spec 3 §6)
  planGateTitle: 'Campanhas da API Oficial não incluídas no seu plano',
  talkWithSupport: 'Falar com o suporte',
  // the dialog
  newCampaign: 'Nova campanha da API Oficial',
  editCampaign: 'Editar campanha da API Oficial',
  sendingNumber: 'Número de envio',
  sendingHelpNumber: 'Somente números da API Oficial conectados.',
  noNumberConnected: 'Nenhum número da API Oficial conectado. Conecte um número em Meus chips.',
  chooseNumber: 'Escolha o número',
  templateHelp: 'Somente templates aprovados pela Meta.',
  chooseNumberFirst: 'Escolha o número de envio para ver os templates.',
  noTemplateApproved: 'Nenhum template aprovado neste número. Crie um em Templates.',
  loadingTemplates: 'Carregando os templates...',
  templateVariables: 'Variáveis do template',
  variablesHelp:
    'Cada variável é preenchida com uma coluna da audiência; quando a pessoa não tem valor nessa coluna (ou nenhuma coluna é escolhida), vai o valor padrão.',
  variableNoHeader: (par: string) => `${par} do cabeçalho`,
  variableNoBody: (par: string) => `${par} do corpo`,
  audienceColumn: (par: string) => `Coluna da audiência para ${par}`,
  noColumn: 'Nenhuma coluna (só o valor padrão)',
  variablesByTags: 'Com o público por tags, as variáveis são preenchidas com o valor padrão.',
  defaultValue: (par: string) => `Valor padrão para ${par}`,
  headerImage: 'Imagem do cabeçalho',
  headerImageHelp: 'Um arquivo JPG ou PNG de até 5 MB, enviado a todas as pessoas.',
  chooseImage: 'Escolher imagem',
  changeImage: 'Trocar imagem',
  sendingImage: 'Enviando a imagem...',
  imageSent: (name: string) => `Imagem enviada: ${name}`,
  imagePreview: 'Prévia da imagem do cabeçalho',
  imageTypeInvalid: 'A imagem do cabeçalho deve ser um arquivo JPG ou PNG.',
  buttons: 'Botões de resposta rápida',
  buttonsHelp: 'Escolha o fluxo que começa quando a pessoa toca em cada botão (opcional).',
  ifContactClick: (button: string) => `Se o contato clicar em ${button}`,
  noFlowNoButton: 'Nenhum fluxo',
  conversationRule: 'Criação das conversas',
  ruleAll: 'Para todos os envios',
  ruleAnswer: 'Só quando o contato responder',
  conversationType: 'Tipo de conversa',
  department: 'Departamento da conversa',
  reportDetails: 'Detalhes da API Oficial',
  clicks: 'Cliques em botões',
  failuresByReason: 'Falhas por motivo',
  billingCategories: 'Categorias de cobrança',
  noRecords: 'Nenhum registro.',
} as const;

// helper official-engine: why an official campaign's sending stopped, or a person was not sent (issue 19).
export const officialSendMessages = {
  templatePaused: 'Envio interrompido: a Meta pausou o template desta campanha.',
  templateDisabled: 'Envio interrompido: a Meta desativou o template desta campanha.',
  templateRejected: 'Envio interrompido: a Meta rejeitou o template desta campanha.',
  templateMissing:
    'Envio interrompido: o template desta campanha não existe mais na Meta ou não está aprovado neste idioma.',
  accountBlocked:
    'Envio interrompido: a Meta bloqueou os envios deste número (conta restrita ou pagamento pendente).',
  tokenInvalid:
    'Envio interrompido: o acesso à API oficial do WhatsApp expirou ou é inválido. Fale com o suporte.',
  notOfficial: 'Envio interrompido: o número desta campanha não é da API oficial.',
  noTemplate: 'Envio interrompido: a campanha não tem template.',
  unconfirmed: 'Não foi possível enviar para este contato: a Meta não respondeu após várias tentativas.',
} as const;
