// Our own versions, newest first (the changelog dialog). Add an entry with every release, and list only what
// a person can use in that release.
export interface Release {
  version: string;
  /** dd/MM/yyyy */
  date: string;
  changes: string[];
}

export const CHANGELOG: Release[] = [
  {
    version: '0.4.0',
    date: '25/11/2026',
    changes: [
      'Agendamento de mensagens: texto ou template da API Oficial, com data e hora no calendário em português.',
      'Contatos: busca, filtros por tag e data de criação, tags, dados do contato, ignorar, importar planilha (.xlsx) e exportar.',
      'Conversas finalizadas: filtros, leitura da conversa e envio de volta para o atendimento humano.',
      'Resumo da conversa e sugestão de follow-up por inteligência artificial.',
      'Mensagens que não chegam a sair por falta de conexão são reenviadas sozinhas quando a conexão volta.',
      'Atendentes recebem apenas as áreas de acesso que podem usar (contatos).',
    ],
  },
  {
    version: '0.3.0',
    date: '22/11/2026',
    changes: [
      'Biblioteca de mídia: imagens, vídeos, documentos e áudios salvos para enviar de novo.',
      'Gravação de áudio no navegador, enviado como mensagem de voz (MP3).',
      'Notificações no celular para novas mensagens, também com o painel fechado.',
      'Sem conexão, o painel mostra as últimas conversas salvas e envia as respostas quando a conexão volta.',
    ],
  },
  {
    version: '0.2.0',
    date: '21/11/2026',
    changes: [
      'Atendimento: lista de conversas com filtros, conversa com envio de texto, imagens e arquivos, mensagens rápidas com /.',
      'Transferência para outro departamento, finalização de uma ou de várias conversas e nova conversa com um contato.',
      'Chips: números da API Oficial e o simulador de cliente, conectado por QR code, para testar o atendimento.',
      'Tags, departamentos, equipe e mensagens rápidas.',
    ],
  },
  {
    version: '0.1.0',
    date: '21/11/2026',
    changes: [
      'Login, login de administrador, primeiro acesso e recuperação de senha.',
      'Menu por perfil e áreas de acesso, com estados dos chips e o sino de atendimentos humanos abertos.',
      'Meu perfil: foto, nome, telefone, troca de senha, som de notificação e assinatura.',
      'Aplicativo instalável, que abre mesmo sem conexão.',
    ],
  },
];
