// The help topics: the /ajuda accordion and every 'Saiba mais' dialog read them. The video of a topic comes
// from the deployment's help-video URL (get-app-config); without one, the topic text is the help.

export interface HelpTopic {
  id: string;
  title: string;
  text: string;
}

export const HELP_TOPICS = [
  {
    id: 'primeiros-passos',
    title: 'Primeiros passos',
    text: 'Conecte um número em Chips, crie os departamentos da sua empresa e cadastre a sua equipe. Depois disso, as conversas dos clientes chegam em Atendimento.',
  },
  {
    id: 'atendimento',
    title: 'Atendimento',
    text: 'Em Atendimento ficam as conversas em andamento. Escolha uma conversa para responder, transferir para outro departamento ou finalizar. O sino no topo mostra quantos atendimentos humanos estão abertos.',
  },
  {
    id: 'conversas',
    title: 'Conversas finalizadas',
    text: 'Em Conversas ficam os atendimentos já finalizados. Filtre por tipo de atendimento, departamento, tags, nome ou telefone, abra uma conversa para reler as mensagens ou envie o cliente de volta para o atendimento humano.',
  },
  {
    id: 'chips',
    title: 'Chips (números conectados)',
    text: 'Cada chip é um número de WhatsApp conectado ao painel, por QR code ou pela API oficial. O estado de cada chip aparece no topo da tela: verde quando conectado, vermelho quando desconectado.',
  },
  {
    id: 'contatos',
    title: 'Contatos e tags',
    text: 'Os contatos são criados quando um cliente conversa com a sua empresa. Use tags para organizar os contatos e filtrar as conversas.',
  },
  {
    id: 'equipe',
    title: 'Equipe e permissões',
    text: 'Proprietários e gerentes veem tudo. Atendentes veem apenas os departamentos e os chips aos quais pertencem. As áreas de acesso de cada pessoa são definidas em Minha Equipe.',
  },
  {
    id: 'mensagens-rapidas',
    title: 'Mensagens rápidas',
    text: 'Cadastre respostas prontas com um atalho. Na conversa, digite / para abrir a lista de mensagens rápidas.',
  },
  {
    id: 'agendamento',
    title: 'Mensagens agendadas',
    text: 'Agende uma mensagem para um número em uma data e hora: ela é enviada pelo chip escolhido no horário marcado. Enquanto estiver agendada, a mensagem pode ser editada ou apagada. Números da API Oficial enviam um template aprovado.',
  },
  {
    id: 'instalar',
    title: 'Instalar o painel no celular',
    text: 'No navegador do celular, abra o menu e escolha "Instalar aplicativo" ou "Adicionar à tela inicial". O painel abre mesmo sem conexão, com os últimos dados salvos.',
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
