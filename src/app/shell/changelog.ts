// Our own versions, newest first (the changelog dialog). Add an entry with every release.
export interface Release {
  version: string;
  /** dd/MM/yyyy */
  date: string;
  changes: string[];
}

export const CHANGELOG: Release[] = [
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
