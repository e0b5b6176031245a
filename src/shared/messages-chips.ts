// The catalogue's part for the chips screen (Meus chips, spec 3 §2.6, §4 Channel status, §8): loaded with that
// screen, not with the shell.
export const chipMessages = {
  chipCreated: 'Número cadastrado com sucesso. Agora será necessário fazer a conexão.',
  chipUpdated: 'Canal atualizado com sucesso',
  operationSucceeded: 'Operação bem sucedida',
  chipNameHint: 'Somente letras, números e espaços; os acentos são removidos.',
  chipNameStoredAs: (name: string) => `Será salvo como: ${name}`,
  officialChipHint: 'A configuração do número é feita pelo suporte, normalmente em até 1 dia útil.',
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
  // QR numbers (WhatsApp): a pairing code instead of the QR code.
  pairingInstructions:
    'No celular, abra o WhatsApp, toque em Aparelhos conectados > Conectar um aparelho > Conectar com número de telefone e digite este código.',
};

export const chipLabels = {
  editChip: 'Editar chip',
  newChip: 'Novo chip',
  firstServiceType: 'Tipo do primeiro atendimento',
  firstServiceHint: 'Quem responde primeiro às conversas que chegam por este número.',
  inboundDepartment: 'Departamento de entrada',
  inboundDepartmentHint: 'O departamento em que as conversas deste número começam.',
  disconnect: 'Desconectar',
  resetConnection: 'Resetar conexão',
  firstService: 'Primeiro atendimento',
  connect: 'Conectar',
  showQrCode: 'Mostrar QR code',
  deleteChip: 'Apagar chip',
  connectNumber: 'Conectar número',
  connectionQrCode: 'QR code de conexão',
  openSimulator: 'Abrir o simulador',
  connectWithNumber: 'Conectar com número de telefone',
  chipNumber: 'Número do chip (com DDI e DDD)',
  generateCode: 'Gerar código',
  pairingCode: 'Código de pareamento',
};
