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
    titulo: 'Campanhas não incluídas no seu plano',
    tituloIntegracoes: 'Recurso disponível a partir do plano Profissional',
    verPlano: 'Ver meu plano',
  },
  // helper aud: audiences screen labels below this line
  audiences: {
    importarAudiencia: 'Importar audiência',
    editarAudiencia: 'Editar audiência',
    criarContatos: 'Criar ou atualizar os contatos',
    criarContatosDica:
      'Cada pessoa da planilha vira um contato (ou atualiza o contato do mesmo telefone) com as variáveis da planilha.',
    novaPlanilha: 'Nova planilha (opcional)',
    novaPlanilhaDica: 'Escolha uma planilha só para trocar as pessoas desta audiência.',
    criadaEm: 'Criada em',
    nenhumaAudiencia: 'Nenhuma audiência cadastrada',
    apagarAudiencia: 'Apagar audiência',
    desejaApagarAAudiencia: (name: string) => `Deseja apagar a audiência ${name}?`,
    ajudaTexto:
      'Uma audiência é a lista de pessoas de uma planilha (.xlsx) para as campanhas. A coluna telefone traz os números com código do país e DDD; as outras colunas viram variáveis das mensagens, como {nome} ou {nome:first}. Antes de salvar, a planilha é analisada: você vê quantos contatos são válidos e as linhas com problema. Com "Criar ou atualizar os contatos", as pessoas também entram nos seus contatos.',
  },
  // helper ui: campaigns screen labels below this line
  campaigns: {
    novaCampanha: 'Nova campanha',
    editarCampanha: 'Editar campanha',
    nenhumaCampanhaCadastrada: 'Nenhuma campanha cadastrada.',
    ajudaTexto:
      'Uma campanha envia uma mensagem a uma audiência importada ou aos contatos com certas tags, por um chip não oficial conectado, uma pessoa a cada intervalo. Cada pessoa recebe uma das versões do texto, sorteada, ou entra em um fluxo. Acompanhe o envio ao vivo e veja no relatório quem recebeu, leu e respondeu.',
    // the table
    imediato: 'Imediato',
    audiencia: 'Audiência',
    alcanceEstimado: 'Alcance estimado',
    enviadas: 'Enviadas',
    acompanhar: 'Acompanhar',
    cancelarCampanha: 'Cancelar campanha',
    audienciaApagada: 'Audiência apagada',
    tagsDoPublico: (tags: string) => `Tags: ${tags}`,
    apagarCampanha: 'Apagar campanha',
    desejaApagarACampanha: (name: string) => `Deseja apagar a campanha ${name}?`,
    desejaCancelarACampanha: (name: string) =>
      `Deseja cancelar a campanha ${name}? As pessoas que ainda não receberam a mensagem não a receberão.`,
    copiaDe: (name: string) => `Cópia de ${name}`,
    // the dialog
    nomeDaCampanha: 'Nome da campanha',
    chipDeEnvioAjuda: 'Somente chips não oficiais conectados.',
    nenhumChipConectado: 'Nenhum chip não oficial conectado. Conecte um chip em Meus chips.',
    publico: 'Público',
    escolhaAAudiencia: 'Escolha a audiência',
    nenhumaAudiencia: 'Nenhuma audiência cadastrada. Importe uma em Audiências.',
    pessoas: (n: number) => (n === 1 ? '1 pessoa' : `${n} pessoas`),
    tagsDoPublicoCampo: 'Enviar para contatos com as tags',
    tagsIgnoradas: 'Não enviar para contatos com as tags',
    versoes: 'Versões da mensagem',
    versoesAjuda: 'Cada pessoa recebe uma destas versões, sorteada. Mais versões deixam o envio mais seguro.',
    versao: (n: number) => `Versão ${n}`,
    adicionarVersao: 'Adicionar versão',
    removerVersao: (n: number) => `Remover versão ${n}`,
    variaveis: 'Variáveis da audiência',
    variaveisAjuda: 'Toque em uma variável para inseri-la na versão em que você está escrevendo.',
    inserirVariavel: (v: string) => `Inserir ${v}`,
    intervalo: 'Intervalo entre envios',
    segundos: (n: number) => countOf(n, ['segundo', 'segundos']),
    envio: 'Envio',
    agendado: 'Agendado',
    dataEHoraDoEnvio: 'Data e hora do envio',
    // the follow dialog
    acompanharCampanha: (name: string) => `Acompanhar: ${name}`,
    progresso: 'Progresso do envio',
    progressoTexto: (done: number, total: number) => `${done} de ${total}`,
    falhas: 'Falhas',
    restantes: 'Restantes',
    proximoEnvio: 'Próximo envio',
    previsaoDeTermino: 'Previsão de término',
    semPrevisao: '—',
    fechar: labels.app.fechar,
    // the report dialog
    relatorioDaCampanha: (name: string) => `Relatório: ${name}`,
    entregues: 'Entregues',
    lidas: 'Lidas',
    ignoradas: 'Ignoradas',
    responderam: 'Responderam',
    aguardando: 'Aguardando',
    /** The people a canceled campaign never sent to (not 'Aguardando': nothing will be sent). */
    naoEnviadas: 'Não enviadas',
  },
} as const;

// helper camp: the campaign report's spreadsheet (export-campaign-report)
export const campaignReportLabels = {
  fileName: (name: string, date: string) => `Campanha_${name}_${date}.xlsx`,
  sheet: 'Relatório',
  columns: ['telefone', 'nome', 'versão', 'status', 'enviada em', 'entregue', 'lida', 'respondeu', 'erro'],
  status: {
    waiting: campaignLabels.campaigns.aguardando,
    sending: messages.paneStatusPending,
    sent: messages.paneStatusSent,
    error: messages.scheduleStatusLabels.error,
    skipped: messages.paneStatusFailed,
  },
  flowVersion: labels.common.fluxo,
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
  ajudaTexto:
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
  numero: 'Número da API oficial',
  escolhaNumero: 'Escolha um número da API oficial para ver os seus templates.',
  semNumeros: 'Nenhum número da API oficial cadastrado. Cadastre um em Meus chips.',
  novoTemplate: 'Novo template',
  gerenciador: 'Gerenciador de templates da Meta',
  biblioteca: 'Biblioteca de templates da Meta',
  nenhumTemplate: 'Nenhum template neste número.',
  categoria: 'Categoria',
  idioma: 'Idioma',
  corpo: 'Corpo',
  padrao: 'Padrão',
  motivo: (reason: string) => `Motivo: ${reason}`,
  padraoNaoApaga: 'Templates padrão não podem ser apagados',
  desejaApagar: (name: string) => `Deseja apagar o template ${name}? A Meta confirma o pedido em seguida.`,
  nomeDica: 'Letras minúsculas, números e _ (os espaços viram _).',
  nomeSalvoComo: (name: string) => `Será salvo como: ${name}`,
  cabecalho: 'Cabeçalho',
  cabecalhoNenhum: 'Nenhum',
  textoCabecalho: 'Texto do cabeçalho',
  imagemCabecalho: 'Imagem do cabeçalho (JPEG ou PNG)',
  enviandoImagem: 'Enviando imagem...',
  imagemEnviada: (name: string) => `Imagem: ${name}`,
  textoCorpo: 'Texto do corpo',
  corpoDica: 'Use {{1}}, {{2}}… para as variáveis; {{ nome }} vira {{1}}.',
  rodape: 'Rodapé (opcional)',
  adicionarBotao: 'Adicionar botão',
  tipoBotao: 'Tipo do botão',
  botaoRespostaRapida: 'Resposta rápida',
  botaoUrl: 'Abrir URL',
  botaoTelefone: 'Ligar',
  textoBotao: (n: number) => `Texto do botão ${n}`,
  urlBotao: (n: number) => `URL do botão ${n}`,
  telefoneBotao: (n: number) => `Telefone do botão ${n}`,
  removerBotao: (n: number) => `Remover botão ${n}`,
  exemplos: 'Exemplos das variáveis',
  exemploCabecalho: (v: string) => `Exemplo de ${v} no cabeçalho`,
  exemploCorpo: (v: string) => `Exemplo de ${v} no corpo`,
  salvar: labels.common.salvar,
  cancelar: labels.common.cancelar,
  acoes: labels.common.acoes,
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
  enviando: 'Enviando...',
  // the screen (spec 3 §2.11)
  entreguesLidas: (delivered: number, read: number) =>
    `${countOf(delivered, ['entregue', 'entregues'])} · ${countOf(read, ['lida', 'lidas'])}`,
  nenhumaCampanhaCadastrada: 'Nenhuma campanha da API Oficial cadastrada.',
  ajudaTitulo: 'Campanhas da API Oficial',
  ajudaTexto:
    'Uma campanha da API Oficial envia um template de mensagem aprovado pela Meta a uma audiência ou aos contatos com certas tags, por um número da API Oficial conectado. As variáveis do template são preenchidas com as colunas da audiência (ou com um valor padrão), e cada botão de resposta rápida pode iniciar um fluxo. Escolha se a conversa é criada para todos logo após o envio ou só quando a pessoa responder.',
  // the plan gate (spec 3 §6)
  planGateTitulo: 'Campanhas da API Oficial não incluídas no seu plano',
  falarComSuporte: 'Falar com o suporte',
  // the dialog
  novaCampanha: 'Nova campanha da API Oficial',
  editarCampanha: 'Editar campanha da API Oficial',
  numeroDeEnvio: 'Número de envio',
  numeroDeEnvioAjuda: 'Somente números da API Oficial conectados.',
  nenhumNumeroConectado: 'Nenhum número da API Oficial conectado. Conecte um número em Meus chips.',
  escolhaONumero: 'Escolha o número',
  templateAjuda: 'Somente templates aprovados pela Meta.',
  escolhaONumeroPrimeiro: 'Escolha o número de envio para ver os templates.',
  nenhumTemplateAprovado: 'Nenhum template aprovado neste número. Crie um em Templates.',
  carregandoTemplates: 'Carregando os templates...',
  variaveisDoTemplate: 'Variáveis do template',
  variaveisAjuda:
    'Cada variável é preenchida com uma coluna da audiência; quando a pessoa não tem valor nessa coluna (ou nenhuma coluna é escolhida), vai o valor padrão.',
  variavelNoCabecalho: (par: string) => `${par} do cabeçalho`,
  variavelNoCorpo: (par: string) => `${par} do corpo`,
  colunaDaAudiencia: (par: string) => `Coluna da audiência para ${par}`,
  nenhumaColuna: 'Nenhuma coluna (só o valor padrão)',
  variaveisPorTags: 'Com o público por tags, as variáveis são preenchidas com o valor padrão.',
  valorPadrao: (par: string) => `Valor padrão para ${par}`,
  imagemDoCabecalho: 'Imagem do cabeçalho',
  imagemDoCabecalhoAjuda: 'Um arquivo JPG ou PNG de até 5 MB, enviado a todas as pessoas.',
  escolherImagem: 'Escolher imagem',
  trocarImagem: 'Trocar imagem',
  enviandoImagem: 'Enviando a imagem...',
  imagemEnviada: (name: string) => `Imagem enviada: ${name}`,
  previaDaImagem: 'Prévia da imagem do cabeçalho',
  imagemTipoInvalido: 'A imagem do cabeçalho deve ser um arquivo JPG ou PNG.',
  botoes: 'Botões de resposta rápida',
  botoesAjuda: 'Escolha o fluxo que começa quando a pessoa toca em cada botão (opcional).',
  seOContatoClicar: (button: string) => `Se o contato clicar em ${button}`,
  nenhumFluxoNoBotao: 'Nenhum fluxo',
  regraDeConversa: 'Criação das conversas',
  regraTodas: 'Para todos os envios',
  regraResposta: 'Só quando o contato responder',
  tipoDeConversa: 'Tipo de conversa',
  departamento: 'Departamento da conversa',
  detalhesDoRelatorio: 'Detalhes da API Oficial',
  cliques: 'Cliques em botões',
  falhasPorMotivo: 'Falhas por motivo',
  categoriasDeCobranca: 'Categorias de cobrança',
  semRegistros: 'Nenhum registro.',
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
