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
  campaigns: {},
} as const;
