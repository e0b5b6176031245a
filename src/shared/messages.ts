// Every user-visible pt-BR text, written exactly as the spec writes it (spec 1 §5, §8), plus the server's own
// texts, which the spec leaves unwritten. App and server both read from here.

export const messages = {
  // spec 1 §5: validation
  fillAllFields: 'Por favor, preencha todos os campos.',
  profileFillAllFields: 'Preencha todos os campos',
  passwordsDontMatch: 'As senhas não conferem',
  tagNameRequired: 'O nome é um campo necessário',
  tagColorRequired: 'A cor é um campo necessário',
  tagKeywordsRequired:
    'Sem palavra-chave cadastrada. Desative a opção de associar automaticamente com palavras-chave ou cadastre ao menos uma.',
  keywordRequired: 'Palavra-chave necessária',
  keywordDuplicate: 'Palavra-chave já cadastrada',
  teamAllFieldsRequired: 'Todos os campos são obrigatórios',
  teamDepartmentRequired: 'É necessário definir pelo menos 1 departamento',
  teamPasswordTooShort: 'A senha precisa ter pelo menos 6 dígitos',
  quickMessageShortcutRequired: 'O atalho é um campo necessário',
  quickMessageMessageRequired: 'A mensagem é um campo necessário',
  requiredField: 'Campo obrigatório',

  // spec 1 §8: errors
  unidentifiedError: 'Erro não identificado!',
  unauthorized:
    'Erro de servidor! Confira se as informações enviadas estão completas e no formato correto e tente novamente.',
  genericServerError: 'Erro genérico de servidor!',
  socketWaiting: 'Aguardando endereço do socket...',
  socketFailed: 'Erro na conexão com o socket. Atualize a página para tentar novamente.',
  insufficientPermissions: 'Permissões insuficientes.',

  // spec 1 §8: successes
  passwordChanged: 'Senha alterada com sucesso!',
  dataUpdated: 'Dados atualizados com sucesso',
  tagSaved: 'Tag salva com sucesso',
  tagDeleted: 'Tag apagada com sucesso',
  departmentSaved: 'Departamento salvo com sucesso',
  departmentDeleted: 'Departamento apagado com sucesso',
  attendantCreated: 'Atendente criado com sucesso',
  attendantUpdated: 'Atendente atualizado com sucesso',
  quickMessageSaved: 'Mensagem rápida salva com sucesso',
  quickMessageDeleted: 'Mensagem rápida apagada com sucesso',
  keyUpdated: 'Chave atualizada com sucesso!',
  configChanged: 'Configuração alterada.',
  // The spec says only that the success text points to the spam folder.
  recoveryMailSent:
    'Se o e-mail estiver cadastrado, enviamos um link para redefinir a senha. Confira também a caixa de spam.',

  // The server's own texts (the spec does not write these).
  invalidCredentials: 'E-mail ou senha incorretos.',
  adminInvalidCredentials: 'E-mail ou senha do administrador incorretos.',
  customerNotFound: 'Cliente não encontrado.',
  tooManyLoginAttempts: (minutes: number) =>
    `Muitas tentativas de login sem sucesso. Tente novamente em ${minutes} minuto${minutes === 1 ? '' : 's'}.`,
  sessionExpired: 'Sessão expirada. Faça login novamente.',
  wrongOldPassword: 'A senha atual está incorreta.',
  passwordTooShort: 'A senha deve ter pelo menos 6 caracteres.',
  resetLinkInvalid: 'Link de redefinição inválido ou expirado. Solicite um novo.',
  passwordReset: 'Senha redefinida com sucesso! Faça login com a nova senha.',
  emailInUse: 'Este e-mail já está em uso.',
  accountCreated: 'Conta criada com sucesso!',
  userLimitReached: (max: number) =>
    `Limite de usuários do plano atingido (${max}). Faça upgrade do plano para adicionar mais usuários.`,
  planNeedsMoreChannels: 'Recurso disponível a partir do plano Profissional. Faça upgrade do seu plano.',
  notFound: 'Registro não encontrado.',
  // Configuration (issue 4): the server's own texts beside the spec's.
  departmentNameRequired: 'O nome é um campo necessário',
  tagColorInvalid: 'A cor precisa estar no formato #RRGGBB',
  emailInvalid: 'E-mail inválido',
  teamRoleInvalid: 'Permissão inválida',
  quickMessageShortcutTaken: 'Já existe uma mensagem rápida com esse atalho',
  ownerProtected: 'O proprietário da conta não pode ser alterado nem apagado.',
  unknownCall: (name: string) => `Chamada desconhecida: ${name}.`,
  invalidJson: 'O corpo da requisição não é um JSON válido.',
  emptyBody: 'O corpo da requisição está vazio.',
  bodyTooLarge: 'O corpo da requisição é grande demais.',
  unsupportedContentType: 'Tipo de conteúdo não suportado. Envie JSON ou multipart/form-data.',
  invalidPayload: 'Dados inválidos.',
  fieldRequired: (field: string) => `Campo obrigatório: ${field}`,
  fieldInvalid: (field: string, why: string) => `Campo ${field}: ${why}`,
  fileRequired: 'Nenhum arquivo enviado.',
  profilePictureType: 'A foto precisa ser uma imagem JPG ou PNG.',
  profilePictureSize: 'A foto pode ter no máximo 2 MB.',
  pageNotFound: 'Página não encontrada.',
  internalError: 'Erro interno do servidor. Tente novamente em instantes.',
  // The app's own texts (the spec does not write these).
  welcomeTitle: 'Boas-vindas!',
  welcomeNotice: 'Este é o seu primeiro acesso. Entre com o e-mail e a senha que você recebeu para começar.',
  pastDueTitle: 'Pagamento pendente',
  pastDueText:
    'A assinatura desta conta está com pagamento em atraso. Regularize para continuar usando o painel sem interrupções.',
  pastDueAskOwner: 'Avise o(a) proprietário(a) da conta para regularizar o pagamento.',
  planLinkMissing: 'O link de gerenciamento do plano ainda não foi configurado. Fale com o suporte.',
  newVersionAvailable: 'Nova versão disponível',
  noChips: 'Nenhum chip cadastrado.',
  offline: 'Sem conexão. Mostrando os últimos dados salvos.',
  screenLoadFailed: 'Não foi possível carregar esta tela.',
  confirmLogout: 'Deseja sair do painel?',
  newVersionHint: 'Atualize para usar a versão mais recente.',
  pageNotFoundHint: 'O endereço pode estar errado ou a página pode ter sido removida.',
  planManagementHint: 'Planos, faturas e forma de pagamento são gerenciados na página do seu plano.',
  recoveryHint: 'Informe o seu e-mail para receber o link de redefinição de senha.',
  // Channels (spec 3 §5, §8)
  chipNameRequired: 'Nome do número necessário',
  chipRedirectRequired: 'Tipo do primeiro atendimento necessário',
  chipChatbotRequired: 'Chatbot necessário para este tipo de primeiro atendimento.',
  chipFlowRequired: 'Chatbot de fluxo necessário para este tipo de primeiro atendimento.',
  chipDepartmentRequired: 'Departamento de entrada da conversa necessário',
  chipCreated: 'Número cadastrado com sucesso. Agora será necessário fazer a conexão.',
  officialChipCreated: 'Número criado com sucesso! Faça o registro e deixe online.',
  chipUpdated: 'Canal atualizado com sucesso',
  chipDeleted: 'Número apagado com sucesso!',
  numberUpdated: 'Número atualizado com sucesso!',
  operationSucceeded: 'Operação bem sucedida',
  // Channels: the server's own texts.
  channelLimitReached: (max: number) =>
    `Limite de números do plano atingido (${max}). Faça upgrade do plano para conectar mais números.`,
  officialChannelLimitReached: (max: number) =>
    max === 0
      ? 'O seu plano não inclui números da API Oficial. Fale com o suporte para contratar.'
      : `Limite de números da API Oficial do plano atingido (${max}). Fale com o suporte para contratar mais.`,
  chatbotNotFound: 'Chatbot não encontrado.',
  flowNotFound: 'Fluxo não encontrado.',
  departmentNotFound: 'Departamento não encontrado.',
  chipNotRegistered: 'Este número da API Oficial ainda não foi registrado. Fale com o suporte.',
  chipNotOfficial: 'Este número não é da API Oficial.',
  chipNoPhoneNumberId: 'Este número ainda não tem o identificador do provedor (phone_number_id).',
  chipPhoneNumberIdTaken: 'Este phone_number_id já pertence a outro número.',
  chipDisconnected: 'O canal está desconectado. Conecte-o em Meus chips para enviar mensagens.',
  // Channels: the WhatsApp Cloud API's refusals (Graph error codes) and webhook texts, in pt-BR.
  cloudApiNotConfigured:
    'A API Oficial do WhatsApp não está configurada neste servidor (token de acesso). Fale com o suporte.',
  cloudApiReengagement:
    'Mais de 24 horas se passaram desde a última mensagem do cliente. Envie um template de mensagem.',
  cloudApiUndeliverable:
    'Não foi possível entregar a mensagem a este número. Verifique se ele usa o WhatsApp.',
  cloudApiRateLimited: 'Muitas mensagens enviadas em pouco tempo. Aguarde alguns minutos e tente novamente.',
  cloudApiTokenInvalid:
    'O token de acesso da API Oficial do WhatsApp é inválido ou expirou. Fale com o suporte.',
  cloudApiInvalidParameter:
    'A API Oficial do WhatsApp recusou um dado da mensagem. Verifique o número e o conteúdo.',
  cloudApiTemplateMissing: 'Template de mensagem não encontrado ou não aprovado neste idioma.',
  cloudApiUnreachable:
    'Não foi possível falar com a API Oficial do WhatsApp. Verifique a conexão e tente novamente.',
  cloudApiFailed: (code: number | string) =>
    `A API Oficial do WhatsApp recusou a operação (código ${code}). Tente novamente.`,
  cloudApiUnsupportedMessage: 'Mensagem de um tipo que o painel ainda não exibe.',
  cloudApiMediaUnavailable: 'O cliente enviou um arquivo, mas não foi possível baixá-lo.',
  cloudApiReaction: (emoji: string) => `Reagiu com ${emoji}`,
  cloudApiFormAnswered: 'Formulário respondido.',
  webhookSignatureInvalid: 'Assinatura do webhook inválida.',
  webhookVerifyFailed: 'Token de verificação do webhook inválido.',
  // Messages
  messageEmpty: 'Digite uma mensagem ou escolha um arquivo.',
  audioWithoutText: 'Áudios são enviados sem legenda. Envie o texto em outra mensagem.',
  conversationFinished: 'Esta conversa foi finalizada. Retome o atendimento para enviar mensagens.',
  messageIdReused: 'Este message_id já foi usado em outra conversa.',
  providerFailed: 'Falha ao enviar pelo canal. Tente novamente.',
  sendInterrupted: 'Envio interrompido por uma reinicialização do servidor. Envie novamente.',
  invalidPhone: 'Número de telefone inválido.',
  onlyOwnMessages: 'Só é possível apagar as suas próprias mensagens.',
  summaryNotDeletable: 'Resumos não podem ser apagados.',
  mediaWrongType: 'O arquivo não está num formato aceito para este tipo de envio.',
  mediaNotFound: 'Arquivo não encontrado. Envie o arquivo novamente.',
  uploadDone: 'Upload feito com sucesso!',
  // The service screen (spec 2 §5, §8)
  transferDepartmentRequired: 'É necessário selecionar um departamento  antes de transferir',
  transferFlowRequired: 'É necessário selecionar um fluxo antes de transferir',
  transferChatbotRequired: 'É necessário selecionar um chatbot antes de transferir',
  contactVariableRequired: 'Preencha todos os campos',
  contactVariableDuplicate: 'Essa variável já existe para o contato.',
  conversationUpdated: 'Conversa atualizada',
  conversationResumed: 'Atendimento retomado com sucesso',
  conversationsFinished: 'Conversas finalizadas com successo!',
  contactUpdated: 'Contato atualizado com sucesso!',
  tagsUpdated: 'Tags atualizadas',
  nameUpdated: 'Nome atualizado',
  finishedByAnotherUser: 'Essa conversa foi finalizada por outro usuário',
  newConversation: 'Nova conversa',
  // The service screen: the server's own texts.
  transferTypeRequired: 'Escolha o tipo de transferência.',
  conversationAlreadyFinished: 'Esta conversa já foi finalizada.',
  conversationNotFinished: 'Esta conversa não está finalizada.',
  contactHasOpenConversation: 'O contato já tem uma conversa em andamento neste canal.',
  tagNotFound: 'Tag não encontrada.',
  // The service screen's conversation list, top buttons and filter sheet (spec 2 §2.3; the app's own texts
  // beside the spec's 'Buscar ou filtrar', 'Existem filtros ativos', 'Limpar filtros', 'Aplicar filtros').
  listSearchOrFilter: 'Buscar ou filtrar',
  listComingSoon: 'Em breve',
  listSettings: 'Configurações do atendimento',
  listNotificationSound: 'Som de notificação',
  listSignature: 'Assinatura nas mensagens',
  listFiltersActive: 'Existem filtros ativos',
  listClearFilters: 'Limpar filtros',
  listApplyFilters: 'Aplicar filtros',
  listLoadMore: 'Carregar mais',
  listConversations: 'Conversas',
  listEmpty: 'Nenhuma conversa encontrada.',
  listLoadFailed: 'Não foi possível carregar as conversas.',
  listNoneSelected: 'Selecione uma conversa para começar o atendimento.',
  listWaitingResponse: 'Aguardando resposta',
  listNoMessages: 'Sem mensagens',
  listDeletedMessage: 'Mensagem apagada',
  listReplyWindowLeft: (left: string) => `Janela de resposta: ${left} restantes`,
  listReplyWindowClosed: 'Janela de resposta encerrada',
  listMoreTags: (n: number) => `mais ${n} tag${n === 1 ? '' : 's'}`,
  filterSituation: 'Situação',
  filterSituationAll: 'Todas',
  filterSituationWaiting: 'Não respondidas',
  filterType: 'Tipo',
  filterTypeChatbot: 'Chatbot',
  filterTypeHuman: 'Humano',
  filterDepartments: 'Departamentos',
  filterTags: 'Tags',
  filterChips: 'Chips',
  filterText: 'Nome ou telefone',
  filterTextPlaceholder: 'Digite o nome ou o telefone',
  filterAnyOption: 'Todos',
  previewImage: 'Imagem',
  previewAudio: 'Áudio',
  previewVideo: 'Vídeo',
  previewDocument: 'Documento',
  previewLocation: 'Localização',
  previewContact: 'Contato',
  previewSummary: 'Resumo',
  // The simulator page
  simulatorLinkInvalid: 'Link do simulador inválido. Gere um novo QR code no painel.',
  simulatorDisconnected: 'Este canal está desconectado. Conecte-o novamente no painel.',
  // The simulator page: the app's own texts.
  simulatorIdentityHint: 'Informe o número (com DDD) e o nome do cliente que você vai simular neste celular.',
  simulatorNoMessages: 'Nenhuma mensagem ainda. Envie a primeira!',
  simulatorDeletedMessage: 'Mensagem apagada',
  simulatorLatitudeInvalid: 'Latitude inválida: use um número entre -90 e 90.',
  simulatorLongitudeInvalid: 'Longitude inválida: use um número entre -180 e 180.',
  simulatorGeolocationFailed: 'Não foi possível obter a sua localização.',
  // The team screen's delete (the spec writes only the create and update texts).
  attendantDeleted: 'Atendente apagado com sucesso',
  // The chips screen (spec 3 §2.6, §4, §9): its dialogs' texts.
  chipNameHint: 'Somente letras, números e espaços; os acentos são removidos.',
  chipNameStoredAs: (name: string) => `Será salvo como: ${name}`,
  officialChipHint: 'A configuração do número é feita pelo suporte, normalmente em até 1 dia útil.',
  officialChipSupport:
    'A configuração dos números da API Oficial é feita pela nossa equipe de suporte, normalmente em até 1 dia útil. Assim que o número for registrado, ele poderá ser conectado aqui em Meus chips. Se já passou mais de 1 dia útil, fale com o suporte.',
  whatsappQrInstructions:
    'No celular, abra o WhatsApp, toque em Aparelhos conectados > Conectar um aparelho e aponte a câmera para este QR code.',
  simulatorQrInstructions:
    'Aponte a câmera do celular para o QR code e abra o link: o simulador do painel abre e o número é conectado.',
  simulatorQrDesktopHint: 'Sem outro aparelho à mão? Abra o simulador em uma nova aba.',
  chipDisconnectConfirm: (name: string) =>
    `Deseja desconectar o número "${name}"? As mensagens deixam de chegar até uma nova conexão.`,
  chipResetConfirm: (name: string) =>
    `A conexão do número "${name}" será apagada e será necessário ler um novo QR code para conectá-lo de novo. Deseja continuar?`,
  chipDeleteConfirm: (name: string) => `Deseja apagar o número "${name}"?`,
} as const;

export type MessageKey = keyof typeof messages;
