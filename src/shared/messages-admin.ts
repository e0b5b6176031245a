// The catalogue's part for platform administration (spec 3 §2.4 Admin customers, §2.18 /meta-login, §5 Admin
// change password and account edit, §8): loaded by those screens and the server. The menu's two texts are in
// messages-admin-menu.ts, so the shell does not carry this file.
import type { SubscriptionStatus } from './constants';
import { labels, messages } from './messages';

/** The most a limit of an account may be: anything larger is a typo, not a plan. */
export const ACCOUNT_LIMIT_MAX = 10_000;

export const adminMessages = {
  // spec 3 §8: successes
  accountCreated: messages.accountCreated,
  passwordChanged: messages.passwordChanged,
  accountUpdated: 'Conta atualizada com sucesso!',
  // spec 3 §5 Admin change password
  passwordTooShort: messages.passwordTooShort,
  passwordsDontMatch: messages.passwordsDontMatch,
  // spec 3 §5 Admin account edit
  // The server's own texts (the spec does not write these).
  /** A limit lowered below what the account already has: the account would be over its own plan. */
  limitBelowUsage: (what: readonly [one: string, many: string], used: number) =>
    `A conta já usa ${used} ${used === 1 ? what[0] : what[1]}. O limite não pode ser menor que ${used}.`,
  usageChannels: ['canal', 'canais'] as const,
  usageOfficialChannels: ['número da API Oficial', 'números da API Oficial'] as const,
  usageUsers: ['usuário', 'usuários'] as const,
  usageFlows: ['fluxo', 'fluxos'] as const,
  accountNotFound: 'Conta não encontrada.',
  userNotFound: 'Usuário não encontrado.',
  notAnOwner: 'Só a linha do proprietário da conta edita a conta e os números.',
  wabaInvalid: 'Informe o ID da WABA (somente números).',
  wabaNotOfAccount: 'Esta WABA não está cadastrada nesta conta.',
  wabaAlreadyAdded: 'Esta WABA já está cadastrada nesta conta.',
  phoneNotInWaba: 'Este número não pertence à WABA escolhida.',
  phoneAlreadyChip: 'Este número já está cadastrado como canal.',
  pinInvalid: 'O PIN deve ter 6 dígitos.',
  pinMismatch: 'PIN incorreto: use o PIN de verificação em duas etapas deste número.',
  metaLoginNotConfigured:
    'O login com Facebook não está configurado neste servidor (WHATSAPP_APP_ID e WHATSAPP_SIGNUP_CONFIG_ID).',
  metaSdkFailed: 'Não foi possível carregar o SDK do Facebook. Verifique a conexão e tente novamente.',
  metaSignupFinished: 'Cadastro concluído no Facebook.',
  metaSignupCanceled: 'Cadastro cancelado.',
} as const;

/** Subscription status labels (spec 3 §3); the spec lists the statuses, not their words. */
export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  none: 'Sem assinatura',
  active: 'Ativa',
  canceled: messages.statusCanceled,
  expired: 'Expirada',
  inactive: 'Inativa',
  pastdue: messages.statusPastDue,
  started: messages.statusStarted,
  trial: messages.test,
  'trial canceled': 'Teste cancelado',
};

export const adminLabels = {
  helpText:
    'Aqui ficam as contas dos clientes da plataforma. Busque uma conta para ver o plano, a assinatura e os limites, editar os dados, trocar a senha do proprietário ou configurar os números da API Oficial.',
  searchLabel: 'Buscar por nome ou e-mail',
  searchPlaceholder: 'Nome ou e-mail',
  empty: 'Nenhum cliente encontrado.',
  total: (n: number) => `${n} ${n === 1 ? 'cliente' : 'clientes'}`,
  colRole: 'Função',
  colPlan: 'Plano',
  colPlanStatus: 'Status do plano',
  colCustomPlan: 'Plano personalizado',
  none: '—',
  photoOf: (name: string) => `Foto de ${name}`,
  // row actions
  editAccount: 'Editar conta',
  configureNumbers: 'Configurar números',
  // create account
  createAccount: 'Criar conta',
  ownerName: 'Nome do proprietário(a)',
  accountName: 'Nome da conta',
  accountNameHint: 'Em branco: o nome do proprietário(a).',
  confirmPassword: 'Confirmar senha',
  // change password
  changePasswordTitle: (name: string) => `Alterar senha de ${name}`,
  passwordHint: 'Pelo menos 6 caracteres. A pessoa sai de todas as sessões abertas.',
  // account edit
  editAccountTitle: (name: string) => `Gerenciar conta: ${name}`,
  maxChannels: 'Quantidade de canais',
  maxOfficialChannels: 'Quantidade de números (API Oficial)',
  maxUsers: 'Quantidade de usuários',
  maxFlows: 'Quantidade de fluxos',
  customNegotiation: 'Negociação personalizada',
  inUse: (n: number) => `Em uso: ${n}`,
  save: labels.common.save,
  cancel: labels.common.cancel,
  // official numbers
  numbersTitle: (name: string) => `Números da API Oficial: ${name}`,
  wabas: 'WABAs da conta',
  noWabas: 'Nenhuma WABA cadastrada nesta conta.',
  waba: 'WABA',
  addWaba: 'Adicionar WABA',
  wabaId: 'ID da WABA',
  providerNumbers: 'Números da WABA',
  noProviderNumbers: 'Nenhum número nesta WABA.',
  loadNumbers: 'Buscar números',
  quality: 'Qualidade',
  qualityLabel: (q: string | null) => `Qualidade: ${q ?? 'N/D'}`,
  createChip: 'Criar número',
  chips: 'Números cadastrados',
  noChips: 'Nenhum número da API Oficial nesta conta.',
  registered: 'Registrado',
  chipStatus: 'Status do número',
  notRegistered: 'Não registrado',
  register: 'Registrar',
  unregister: 'Remover registro',
  pin: 'PIN (6 dígitos)',
  pinHint: 'O PIN da verificação em duas etapas do número.',
  deleteNumber: 'Apagar número',
  deleteNumberQuestion: (name: string) => `Deseja apagar o número ${name}?`,
  // /meta-login
  metaLoginTitle: 'Login com Facebook',
  metaLoginIntro:
    'Conecte a conta do WhatsApp Business da sua empresa pelo cadastro incorporado da Meta. Uma janela do Facebook se abre para você escolher ou criar a conta e o número.',
  metaLoginNothingSent: 'Nenhum dado do cadastro é enviado ao nosso servidor a partir desta página.',
} as const;
