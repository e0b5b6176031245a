// The catalogue's part for QR numbers (Baileys): why a chip closed (sent to the app in the status event's
// reason, so the app's bundle does not carry these), pairing codes, media notices. Server only.
export const baileysMessages = {
  loggedOut:
    'O número foi desconectado pelo celular (aparelho removido no WhatsApp). Leia um novo QR code para conectar de novo.',
  replaced:
    'Este número foi conectado em outro lugar e saiu do painel. Conecte-o de novo aqui para voltar a atender.',
  forbidden:
    'O WhatsApp recusou a conexão deste número (pode estar bloqueado). Verifique o número no celular.',
  badSession: 'A sessão do WhatsApp deste número ficou inválida. Leia um novo QR code para conectar de novo.',
  outdated:
    'O WhatsApp do celular precisa ser atualizado para conectar aparelhos. Atualize o aplicativo e tente de novo.',
  qrTimeout: 'O QR code não foi lido a tempo. Clique em Conectar para gerar outro.',
  unreachable: 'Sem conexão com o WhatsApp há muito tempo. Clique em Conectar para tentar de novo.',
  heldElsewhere:
    'Este número está conectado por outro servidor do painel. Aguarde um minuto e tente de novo.',
  pairingPhoneInvalid: 'Informe o número do chip com DDI e DDD para receber o código de pareamento.',
  pairingUnavailable: 'Não foi possível gerar o código de pareamento. Tente de novo ou use o QR code.',
  notQrChip: 'Este canal não se conecta por QR code.',
  mediaTooLarge: (mb: number) =>
    `O cliente enviou um arquivo maior que ${mb} MB, que não foi baixado. Peça que envie um arquivo menor.`,
};
