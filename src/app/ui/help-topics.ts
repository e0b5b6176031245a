// The help topics: the /ajuda accordion and every 'Saiba mais' dialog read them. The video of a topic comes
// from the deployment's help-video URL (get-app-config); without one, the topic text is the help.
import { labels } from '@/shared/messages';

export interface HelpTopic {
  id: string;
  title: string;
  text: string;
}

export const HELP_TOPICS = [
  {
    id: 'primeiros-passos',
    title: labels.help.primeirosPassos,
    text: labels.help.primeirosPassosText,
  },
  {
    id: 'atendimento',
    title: labels.common.atendimento,
    text: labels.help.atendimentoText,
  },
  {
    id: 'conversas',
    title: labels.help.conversasFinalizadas,
    text: labels.help.conversasText,
  },
  {
    id: 'chips',
    title: labels.help.chipsNumerosConectados,
    text: labels.help.chipsText,
  },
  {
    id: 'contatos',
    title: labels.help.contatosETags,
    text: labels.help.contatosText,
  },
  {
    id: 'equipe',
    title: labels.help.equipeEPermissoes,
    text: labels.help.equipeText,
  },
  {
    id: 'mensagens-rapidas',
    title: labels.common.mensagensRapidas,
    text: labels.help.mensagensRapidasText,
  },
  {
    id: 'agendamento',
    title: labels.common.mensagensAgendadas,
    text: labels.help.agendamentoText,
  },
  {
    id: 'fluxos',
    title: labels.flows.ajudaTitulo,
    text: labels.flows.ajudaTexto,
  },
  {
    id: 'chatbots',
    title: labels.chatbots.ajudaTitulo,
    text: labels.chatbots.ajudaTexto,
  },
  {
    id: 'instalar',
    title: labels.help.instalarOPainelNoCelular,
    text: labels.help.instalarText,
  },
] as const satisfies readonly HelpTopic[];

export type HelpTopicId = (typeof HELP_TOPICS)[number]['id'];

export const helpTopic = (id: HelpTopicId): HelpTopic =>
  HELP_TOPICS.find((t) => t.id === id) ?? HELP_TOPICS[0];

/** The video of a topic: `{topic}` in the configured URL becomes the topic id; null without a URL. */
export function helpVideoUrl(configured: string | null | undefined, topic: string): string | null {
  if (!configured) return null;
  return configured.replaceAll('{topic}', encodeURIComponent(topic));
}
