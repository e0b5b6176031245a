// The catalogue's part for audiences and campaigns (spec 3 §2.9, §2.10, §5, §8, §9): loaded only by those
// screens and the server, so the attendant's first screen does not carry it (tests/size.mjs).
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
  campaignChipRequired: 'Chip de envio necessário',
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
  campaignBanWarning:
    'Atenção: o envio em massa pode levar ao banimento do chip pelo WhatsApp. Use intervalos maiores e várias versões da mensagem para um envio mais seguro.',
  /** A recipient's own failure, recorded on that person only. */
  campaignNoWhatsapp: 'Este número não tem WhatsApp.',
  campaignContactIgnored: 'Contato ignorado: não recebe mensagens.',
  campaignChipPaused: 'Chip desconectado: a campanha continua quando ele for conectado de novo.',
} as const;

export const CAMPAIGN_STATUS_LABELS = {
  scheduled: 'Agendada',
  started: 'Iniciada',
  finished: 'Concluída',
  canceled: 'Cancelada',
  error: 'Erro',
} as const;

/** The screens' labels. */
export const campaignLabels = {
  planGate: {
    titulo: 'Campanhas não incluídas no seu plano',
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
    contatos: 'Contatos',
    variaveis: 'Variáveis',
    nenhumaAudiencia: 'Nenhuma audiência cadastrada',
    apagarAudiencia: 'Apagar audiência',
    desejaApagarAAudiencia: (name: string) => `Deseja apagar a audiência ${name}?`,
    ajudaTitulo: 'Audiências',
    ajudaTexto:
      'Uma audiência é a lista de pessoas de uma planilha (.xlsx) para as campanhas. A coluna telefone traz os números com código do país e DDD; as outras colunas viram variáveis das mensagens, como {nome} ou {nome:first}. Antes de salvar, a planilha é analisada: você vê quantos contatos são válidos e as linhas com problema. Com "Criar ou atualizar os contatos", as pessoas também entram nos seus contatos.',
  },
  // helper ui: campaigns screen labels below this line
  campaigns: {
    campanhas: 'Campanhas',
    novaCampanha: 'Nova campanha',
    editarCampanha: 'Editar campanha',
    nenhumaCampanhaCadastrada: 'Nenhuma campanha cadastrada.',
    ajudaTitulo: 'Campanhas',
    ajudaTexto:
      'Uma campanha envia uma mensagem a uma audiência importada ou aos contatos com certas tags, por um chip não oficial conectado, uma pessoa a cada intervalo. Cada pessoa recebe uma das versões do texto, sorteada, ou entra em um fluxo. Acompanhe o envio ao vivo e veja no relatório quem recebeu, leu e respondeu.',
    // the table
    criadaEm: 'Criada em',
    agendamento: 'Agendamento',
    imediato: 'Imediato',
    audiencia: 'Audiência',
    alcanceEstimado: 'Alcance estimado',
    enviadas: 'Enviadas',
    acompanhar: 'Acompanhar',
    duplicar: 'Duplicar',
    cancelarCampanha: 'Cancelar campanha',
    relatorio: 'Relatório',
    audienciaApagada: 'Audiência apagada',
    tagsDoPublico: (tags: string) => `Tags: ${tags}`,
    apagarCampanha: 'Apagar campanha',
    desejaApagarACampanha: (name: string) => `Deseja apagar a campanha ${name}?`,
    desejaCancelarACampanha: (name: string) =>
      `Deseja cancelar a campanha ${name}? As pessoas que ainda não receberam a mensagem não a receberão.`,
    naoCancelar: 'Voltar',
    copiaDe: (name: string) => `Cópia de ${name}`,
    // the dialog
    nomeDaCampanha: 'Nome da campanha',
    chipDeEnvio: 'Chip de envio',
    chipDeEnvioAjuda: 'Somente chips não oficiais conectados.',
    nenhumChipConectado: 'Nenhum chip não oficial conectado. Conecte um chip em Meus chips.',
    publico: 'Público',
    porAudiencia: 'Audiência',
    porTags: 'Tags',
    escolhaAAudiencia: 'Escolha a audiência',
    nenhumaAudiencia: 'Nenhuma audiência cadastrada. Importe uma em Audiências.',
    pessoas: (n: number) => (n === 1 ? '1 pessoa' : `${n} pessoas`),
    tagsDoPublicoCampo: 'Enviar para contatos com as tags',
    tagsIgnoradas: 'Não enviar para contatos com as tags',
    tipoDeMensagem: 'Tipo de mensagem',
    texto: 'Texto',
    fluxo: 'Fluxo',
    escolhaOFluxo: 'Escolha o fluxo',
    nenhumFluxo: 'Nenhum fluxo cadastrado.',
    versoes: 'Versões da mensagem',
    versoesAjuda: 'Cada pessoa recebe uma destas versões, sorteada. Mais versões deixam o envio mais seguro.',
    versao: (n: number) => `Versão ${n}`,
    adicionarVersao: 'Adicionar versão',
    removerVersao: (n: number) => `Remover versão ${n}`,
    variaveis: 'Variáveis da audiência',
    variaveisAjuda: 'Toque em uma variável para inseri-la na versão em que você está escrevendo.',
    inserirVariavel: (v: string) => `Inserir ${v}`,
    intervalo: 'Intervalo entre envios',
    segundos: (n: number) => `${n} segundos`,
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
    fechar: 'Fechar',
    // the report dialog
    relatorioDaCampanha: (name: string) => `Relatório: ${name}`,
    entregues: 'Entregues',
    lidas: 'Lidas',
    ignoradas: 'Ignoradas',
    responderam: 'Responderam',
    aguardando: 'Aguardando',
    exportar: 'Exportar',
  },
} as const;

// helper camp: the campaign report's spreadsheet (export-campaign-report)
export const campaignReportLabels = {
  fileName: (name: string, date: string) => `Campanha_${name}_${date}.xlsx`,
  sheet: 'Relatório',
  columns: ['telefone', 'nome', 'versão', 'status', 'enviada em', 'entregue', 'lida', 'respondeu', 'erro'],
  status: {
    waiting: 'Aguardando',
    sending: 'Enviando',
    sent: 'Enviada',
    error: 'Erro',
    skipped: 'Não enviada',
  },
  flowVersion: 'Fluxo',
  yes: 'sim',
  no: 'não',
} as const;
