import { labels, messages } from './messages';
// The catalogue's part for automatic follow-ups (spec 3 §2.12, §3 Auto follow-up per chip, §5, §8, §9):
// loaded only by that screen and the server. The menu's line is labels.team.followUpsAutomaticos (the same
// words as the access area), so the first screen does not carry this file.
export const followUpMessages = {
  // spec 3 §8
  saved: 'Configurações atualizadas com sucesso!',
  // spec 3 §5 Follow-up: hours 0 to 23, at most 3 messages
  hourInvalid: 'Escolha uma hora entre 0 e 23.',
  typesRequired: 'Selecione pelo menos 1 tipo de conversa.',
  messageRequired: 'Ative pelo menos 1 mensagem.',
  textRequired: 'Escreva o texto da mensagem.',
  timeInvalid: 'Informe um tempo entre 1 e 999.',
} as const;

export const FOLLOW_UP_TYPE_LABELS = {
  ai_chatbot: messages.aiChatbot,
  flow_chatbot: labels.chips.flowChatbot,
  human: labels.chips.humanService,
} as const;

export const FOLLOW_UP_UNIT_LABELS = {
  minutes: messages.timeMinutes,
  hours: messages.timeHours,
} as const;

export const followUpLabels = {
  helpText:
    'Um follow-up automático envia uma mensagem ao cliente que parou de responder depois de um tempo sem resposta. Defina o tempo e a mensagem de cada etapa; o envio para assim que o cliente responde ou a conversa é finalizada.',
  intro:
    'Mensagens enviadas automaticamente quando o cliente não responde à última mensagem da conversa. O envio para na resposta do cliente.',
  noChips: 'Nenhum chip cadastrado. Cadastre um chip para configurar follow-ups.',
  enabled: 'Follow-up ativado',
  active: 'Ativado',
  types: 'Tipos de conversa',
  typesHint: 'O follow-up vale para as conversas atendidas por:',
  window: 'Horário de envio',
  windowHint:
    'As mensagens só são enviadas entre a hora inicial e a hora final, no fuso horário da conta. Uma mensagem que vence fora do horário espera a próxima abertura.',
  startTime: 'Hora inicial',
  endTime: 'Hora final',
  hour: (h: number) => `${String(h).padStart(2, '0')}:00`,
  message: (n: number) => `Mensagem ${n}`,
  messageEnabled: 'Enviar esta mensagem',
  textPlaceholder: 'Olá! Ainda podemos ajudar?',
  time: 'Tempo',
  timingFirst: 'Depois da última mensagem sem resposta',
  timingNext: (n: number) => `Depois da mensagem ${n}`,
} as const;
