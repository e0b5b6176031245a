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
    title: labels.help.firstSteps,
    text: labels.help.firstStepsText,
  },
  {
    id: 'atendimento',
    title: labels.common.service,
    text: labels.help.serviceText,
  },
  {
    id: 'conversas',
    title: labels.help.conversationsFinished,
    text: labels.help.conversationsText,
  },
  {
    id: 'chips',
    title: labels.help.chipsNumbersConnected,
    text: labels.help.chipsText,
  },
  {
    id: 'contatos',
    title: labels.help.contactsAndTags,
    text: labels.help.contactsText,
  },
  {
    id: 'equipe',
    title: labels.help.teamAndPermissions,
    text: labels.help.teamText,
  },
  {
    id: 'mensagens-rapidas',
    title: labels.common.quickMessages,
    text: labels.help.quickMessagesText,
  },
  {
    id: 'agendamento',
    title: labels.common.scheduledMessages,
    text: labels.help.scheduleText,
  },
  {
    id: 'fluxos',
    title: labels.flows.helpTitle,
    text: labels.flows.helpText,
  },
  {
    id: 'chatbots',
    title: labels.chatbots.helpTitle,
    text: labels.chatbots.helpText,
  },
  {
    id: 'instalar',
    title: labels.help.installOnPhone,
    text: labels.help.installText,
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
