// Outbound: send-conversation-message is idempotent on message_id, signs when asked, fails with a reason;
// delete-conversation-message, check-phone and upload-file.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { encodeMp3 } from '@/app/widgets/media/audio/mp3-encoder';
import { chips, messages } from '@/server/db/schema';
import { MAX_SEND_ATTEMPTS, resumePendingSends } from '@/server/domains/conversations/delivery';
import { applyReceipt } from '@/server/domains/conversations/pipeline';
import { MESSAGE_STATUS } from '@/shared/constants';
import { newId } from '@/shared/ids';
import { messages as texts } from '@/shared/messages';
import { connected, connectedSimulatorChip, listen, simulatorSocket, until } from './channel-helpers';
import { statusOf, testServerPerFile } from './helpers';

const s = testServerPerFile();

let seq = 0;
const localId = () => `s${Date.now().toString(36)}${(seq++).toString(36)}abc`;
const PHONE = '5511912345678';

/** A connected simulator chip, a customer's conversation on it, and the customer's phone socket. */
async function conversationWithPhone() {
  const owner = await s.t.login('dono@demo.com');
  const { chip, simulatorToken } = await connectedSimulatorChip(s.t, owner, {
    department: s.seed.departments.support,
  });
  const phone = simulatorSocket(s.t, simulatorToken, PHONE);
  await connected(phone.sock);
  const manager = await listen(s.t, 'gerente@demo.com');
  await s.t.call('simulator-send', {
    token: simulatorToken,
    phone: PHONE,
    name: 'João',
    id: localId(),
    type: 'text',
    text: 'Bom dia',
  });
  const { message: conversation } = await manager.next('new_conversation');
  const agent = await s.t.login('atendente@demo.com');
  return { owner, agent, chip, simulatorToken, phone, conversation, manager };
}

/** The conversation as the list and the pane read it. */
const view = async (id: string, token: string) =>
  (await s.t.call('get-conversations-with-last-message', { conversation_id: id }, token)).conversations[0];

const phoneMessages = (phone: ReturnType<typeof simulatorSocket>) =>
  phone.events.filter((e) => e.type === 'message');

describe('send-conversation-message', () => {
  it('the same message_id sent 10 times at once stores 1 message and sends once; no answer calls it sent before it is', async () => {
    const { agent, conversation, phone } = await conversationWithPhone();
    const body = { conversation_id: conversation._id, message_id: localId(), text: 'Só uma vez' };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => s.t.call('send-conversation-message', body, agent)),
    );
    const rows = await s.t.server.services.db
      .select()
      .from(messages)
      .where(eq(messages.messageId, body.message_id));
    expect(rows).toHaveLength(1);
    const final = await s.t.call('send-conversation-message', body, agent);
    expect(final).toMatchObject({ _id: rows[0]?.id, status: 1, message: 'Só uma vez' });
    // Each answer is the sent message, or the same message still pending (a repeat while the first was
    // with the provider): never a sent status without the provider's id.
    for (const a of answers)
      expect(
        a.status === 0 ? { ...a, status: 1, platform_message_id: final.platform_message_id } : a,
      ).toEqual(final);
    // The phone got it once; a later repeat changes nothing either.
    await until(() => phoneMessages(phone).length === 1);
    expect(await s.t.call('send-conversation-message', body, agent)).toEqual(final);
    await new Promise((r) => setTimeout(r, 200));
    expect(phoneMessages(phone)).toHaveLength(1);
  });

  it('a repeat that finds the send still in progress elsewhere answers at once that it is pending', async () => {
    const { agent, conversation, chip } = await conversationWithPhone();
    // Another process stored the message and is talking to the provider (its claim holds).
    const id = localId();
    const me = await s.t.call('get-user', {}, agent);
    await s.t.server.services.db.insert(messages).values({
      id: 'INFLIGHT000000000000000000AB',
      accountId: s.seed.accountId,
      conversationId: conversation._id,
      chipId: chip._id,
      origin: 'user',
      type: 'text',
      message: 'Em andamento',
      userId: me._id,
      messageId: id,
      status: 0,
      outbound: { to: PHONE, content: { type: 'text', text: 'Em andamento' } },
      sendAttempts: 1,
      sendLeaseUntil: new Date(Date.now() + 60_000),
    });
    const body = { conversation_id: conversation._id, message_id: id, text: 'Em andamento' };
    const asked = Date.now();
    expect(await s.t.call('send-conversation-message', body, agent)).toMatchObject({
      _id: 'INFLIGHT000000000000000000AB',
      status: 0,
      platform_message_id: null,
    });
    expect(Date.now() - asked).toBeLessThan(5000);
    // The other process records the outcome: a later repeat answers it.
    await s.t.server.services.db
      .update(messages)
      .set({ status: 1, platformMessageId: 'SIM-ELSEWHERE' })
      .where(eq(messages.messageId, id));
    expect(await s.t.call('send-conversation-message', body, agent)).toMatchObject({
      status: 1,
      platform_message_id: 'SIM-ELSEWHERE',
    });
  });

  it('a message_id reused in another conversation is refused', async () => {
    const { agent, conversation, owner } = await conversationWithPhone();
    const id = localId();
    await s.t.call(
      'send-conversation-message',
      { conversation_id: conversation._id, message_id: id, text: 'a' },
      agent,
    );
    const other = await connectedSimulatorChip(s.t, owner, {
      name: 'Outro',
      department: s.seed.departments.support,
    });
    const manager = await listen(s.t, 'gerente@demo.com');
    await s.t.call('simulator-send', {
      token: other.simulatorToken,
      phone: PHONE,
      name: '',
      id: localId(),
      type: 'text',
      text: 'oi',
    });
    const { message: second } = await manager.next('new_conversation');
    const res = await s.t.post(
      'send-conversation-message',
      { conversation_id: second._id, message_id: id, text: 'b' },
      agent,
    );
    expect(res.body).toEqual({ error: true, message: texts.messageIdReused });
  });

  it('clears waiting_response and is_new and tells the team; the signature puts the name in bold', async () => {
    const { agent, conversation, manager, phone } = await conversationWithPhone();
    expect(conversation).toMatchObject({ waiting_response: true, is_new: true });
    await s.t.call('update-user-config', { disable_notification_sound: false, user_signature: true }, agent);
    const sent = await s.t.call(
      'send-conversation-message',
      { conversation_id: conversation._id, message_id: localId(), text: 'Posso ajudar?' },
      agent,
    );
    expect(sent.message).toBe('*Ana Atendente*:\nPosso ajudar?');
    const onPhone = await until(() => phoneMessages(phone)[0]);
    expect(onPhone).toMatchObject({ message: { text: '*Ana Atendente*:\nPosso ajudar?' } });
    const pending = await manager.next('new_message');
    expect(pending.message.message).toMatchObject({ _id: sent._id, status: 0 });
    const done = await manager.next('message_updated');
    expect(done.message.message).toMatchObject({ _id: sent._id, status: 1 });
    const updated = await manager.next('conversation_updated');
    expect(updated.message).toMatchObject({
      _id: conversation._id,
      waiting_response: false,
      is_new: false,
      last_message: { _id: sent._id, status: 1 },
    });
  });

  it('a disconnected channel marks the message failed with a pt-BR reason', async () => {
    const { agent, conversation, owner, chip } = await conversationWithPhone();
    await s.t.call('connect-chip', { _id: chip._id, connect: false }, owner);
    const sent = await s.t.call(
      'send-conversation-message',
      { conversation_id: conversation._id, message_id: localId(), text: 'Alô?' },
      agent,
    );
    expect(sent).toMatchObject({ status: -1, failure: texts.chipDisconnected });
    // The customer was not answered (spec 2 §4): still waiting and new; the list's preview says it failed.
    expect(await view(conversation._id, agent)).toMatchObject({
      waiting_response: true,
      is_new: true,
      last_message: { _id: sent._id, status: -1, failure: texts.chipDisconnected },
    });
  });

  it('refuses an empty message, a conversation the caller cannot see, and a foreign media url', async () => {
    const { agent, conversation } = await conversationWithPhone();
    const empty = await s.t.post(
      'send-conversation-message',
      { conversation_id: conversation._id, message_id: localId(), text: '  ' },
      agent,
    );
    expect(empty.body).toEqual({ error: true, message: texts.messageEmpty });
    const sales = await s.t.login('atendente2@demo.com');
    const hidden = await s.t.post(
      'send-conversation-message',
      { conversation_id: conversation._id, message_id: localId(), text: 'x' },
      sales,
    );
    expect(hidden.body).toEqual({ error: true, message: texts.notFound });
    const foreign = await s.t.post(
      'send-conversation-message',
      {
        conversation_id: conversation._id,
        message_id: localId(),
        media: { type: 'image', url: '/media/../../etc/passwd' },
      },
      agent,
    );
    expect(foreign.body).toEqual({ error: true, message: texts.mediaNotFound });
  });

  it('a send that waited on the device (offline) keeps when it was typed, by the server’s clock; a short wait does not', async () => {
    const { agent, conversation } = await conversationWithPhone();
    const before = Date.now();
    const queued = await s.t.call(
      'send-conversation-message',
      {
        conversation_id: conversation._id,
        message_id: localId(),
        text: 'Escrita offline',
        waited_ms: 600_000,
      },
      agent,
    );
    const typed = Date.parse(queued.typed_at ?? '');
    expect(typed).toBeGreaterThanOrEqual(before - 600_000);
    expect(typed).toBeLessThanOrEqual(Date.now() - 600_000);
    // The order stays the server's: created is when it arrived.
    expect(Date.parse(queued.created)).toBeGreaterThanOrEqual(before);
    const quick = await s.t.call(
      'send-conversation-message',
      { conversation_id: conversation._id, message_id: localId(), text: 'Na hora', waited_ms: 3_000 },
      agent,
    );
    expect(quick.typed_at).toBeNull();
    const bad = await s.t.post(
      'send-conversation-message',
      { conversation_id: conversation._id, message_id: localId(), text: 'x', waited_ms: -5 },
      agent,
    );
    expect(bad.body).toMatchObject({ error: true });
  });

  it('uploads a file checked by content and sends it as media', async () => {
    const { agent, conversation, phone } = await conversationWithPhone();
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const upload = async (type: string, data: Buffer, name: string) => {
      const form = new FormData();
      form.append('type', type);
      form.append('file', new Blob([new Uint8Array(data)]), name);
      const res = await fetch(`${s.t.url}/api/upload-file`, {
        method: 'POST',
        headers: { authorization: `Bearer ${agent}` },
        body: form,
      });
      return res.json() as Promise<{ error: boolean; message: { url: string } | string }>;
    };
    expect(await upload('image', Buffer.from('not an image'), 'x.png')).toEqual({
      error: true,
      message: texts.mediaWrongType,
    });
    expect(await upload('document', png, 'x.png')).toEqual({ error: true, message: texts.mediaWrongType });
    const ok = await upload('image', png, 'foto.png');
    expect(ok.error).toBe(false);
    const url = (ok.message as { url: string }).url;
    const sent = await s.t.call(
      'send-conversation-message',
      {
        conversation_id: conversation._id,
        message_id: localId(),
        // Only audio can be a voice note: the flag on an image means nothing.
        media: { type: 'image', url, file_name: 'foto.png', ptt: true },
      },
      agent,
    );
    expect(sent).toMatchObject({ type: 'image', media_url: url, status: 1, ptt: false });
    const onPhone = await until(() => phoneMessages(phone)[0]);
    expect(onPhone).toMatchObject({ message: { type: 'image', media_url: url, ptt: false } });
    expect(await statusOf(`${s.t.url}${url}`)).toBe(200);
  });
});

describe('an audio’s length (the list’s preview: Áudio (0:03))', () => {
  const threeSeconds = () =>
    Buffer.from(
      encodeMp3(
        new Float32Array(44100 * 3).map((_, i) => Math.sin(i / 10) / 2),
        44100,
      ),
    );
  const form = (fields: Record<string, string>, data: Buffer, name: string) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    f.append('file', new Blob([new Uint8Array(data)]), name);
    return f;
  };

  it('an attendant’s recording and a customer’s audio are stored with their length; the list’s last message has it', async () => {
    const { agent, conversation, simulatorToken } = await conversationWithPhone();
    const uploaded = await fetch(`${s.t.url}/api/upload-file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent}` },
      body: form({ type: 'audio' }, threeSeconds(), 'recado.mp3'),
    }).then((r) => r.json() as Promise<{ message: { url: string } }>);
    const sent = await s.t.call(
      'send-conversation-message',
      {
        conversation_id: conversation._id,
        message_id: localId(),
        media: { type: 'audio', url: uploaded.message.url, file_name: 'recado.mp3', ptt: true },
      },
      agent,
    );
    expect(sent).toMatchObject({ type: 'audio', audio_seconds: 3 });
    expect((await view(conversation._id, agent))?.last_message).toMatchObject({
      type: 'audio',
      audio_seconds: 3,
    });

    // The customer's, through the simulator (a file its channel stored itself).
    const customerFile = await fetch(`${s.t.url}/api/simulator-upload`, {
      method: 'POST',
      body: form({ token: simulatorToken }, threeSeconds(), 'audio.mp3'),
    }).then((r) => r.json() as Promise<{ message: { url: string } }>);
    await s.t.call('simulator-send', {
      token: simulatorToken,
      phone: PHONE,
      name: 'João',
      id: localId(),
      type: 'audio',
      media_url: customerFile.message.url,
    });
    await until(async () => (await view(conversation._id, agent))?.last_message?.origin === 'customer');
    expect((await view(conversation._id, agent))?.last_message).toMatchObject({
      type: 'audio',
      audio_seconds: 3,
    });
    // Not an audio: no length.
    const text = await s.t.call(
      'send-conversation-message',
      { conversation_id: conversation._id, message_id: localId(), text: 'Ouvi!' },
      agent,
    );
    expect(text.audio_seconds).toBeNull();
  });
});

describe('waiting_response: answered only by a message that reached the customer (spec 2 §4)', () => {
  /** A send another process stored and was cut off from (its claim ran out): the sweep's to resume. */
  async function cutOffSend(conversation: { _id: string }, chipId: string, text: string, attempts = 1) {
    const [row] = await s.t.server.services.db
      .insert(messages)
      .values({
        id: newId(),
        accountId: s.seed.accountId,
        conversationId: conversation._id,
        chipId,
        origin: 'user',
        type: 'text',
        message: text,
        messageId: localId(),
        status: MESSAGE_STATUS.pending,
        outbound: { to: PHONE, content: { type: 'text', text } },
        sendAttempts: attempts,
        sendLeaseUntil: new Date(Date.now() - 1000),
      })
      .returning();
    if (!row) throw new Error('not stored');
    return row;
  }

  it('a cut-off send answers once the sweep gets it accepted; one the sweep gives up never does', async () => {
    const { agent, conversation, chip } = await conversationWithPhone();
    const givenUp = await cutOffSend(conversation, chip._id, 'Desisto', MAX_SEND_ATTEMPTS);
    expect(await resumePendingSends({ services: s.t.server.services })).toEqual({ resumed: 0, failed: 1 });
    expect(await view(conversation._id, agent)).toMatchObject({ waiting_response: true, is_new: true });
    const resumed = await cutOffSend(conversation, chip._id, 'Retomada');
    const manager = await listen(s.t, 'gerente@demo.com');
    expect(await resumePendingSends({ services: s.t.server.services })).toEqual({ resumed: 1, failed: 0 });
    const updated = await manager.next('conversation_updated');
    expect(updated.message).toMatchObject({ _id: conversation._id, waiting_response: false, is_new: false });
    expect(await view(conversation._id, agent)).toMatchObject({ waiting_response: false, is_new: false });
    expect(givenUp.id).not.toBe(resumed.id);
  });

  it('a customer message written after the send and before its acceptance keeps the conversation waiting', async () => {
    const { agent, conversation, chip, simulatorToken, manager } = await conversationWithPhone();
    await cutOffSend(conversation, chip._id, 'Resposta lenta');
    await new Promise((r) => setTimeout(r, 20));
    await s.t.call('simulator-send', {
      token: simulatorToken,
      phone: PHONE,
      name: 'João',
      id: localId(),
      type: 'text',
      text: 'Alguém aí?',
    });
    await manager.next('new_message');
    expect(await resumePendingSends({ services: s.t.server.services })).toEqual({ resumed: 1, failed: 0 });
    expect(await view(conversation._id, agent)).toMatchObject({ waiting_response: true, is_new: false });
  });

  it('a send the provider fails after accepting it gives the wait back, unless a later message answered', async () => {
    const { agent, conversation, chip, manager } = await conversationWithPhone();
    const send = (text: string) =>
      s.t.call(
        'send-conversation-message',
        { conversation_id: conversation._id, message_id: localId(), text },
        agent,
      );
    const [chipRow] = await s.t.server.services.db.select().from(chips).where(eq(chips.id, chip._id));
    if (!chipRow) throw new Error('no chip');
    const first = await send('Primeira');
    expect(await view(conversation._id, agent)).toMatchObject({ waiting_response: false });
    await applyReceipt(s.t.server.services, chipRow, first.platform_message_id ?? '', 'failed', 'Recusada');
    const reopened = await until(() =>
      manager.events.find((e) => e.type === 'conversation_updated' && e.message.waiting_response === true),
    );
    expect(reopened.message).toMatchObject({
      _id: conversation._id,
      last_message: { _id: first._id, status: -1, failure: 'Recusada' },
    });
    expect(await view(conversation._id, agent)).toMatchObject({ waiting_response: true });
    // Two more sends; the first of them fails later: the second still answered the customer.
    const second = await send('Segunda');
    await send('Terceira');
    await applyReceipt(s.t.server.services, chipRow, second.platform_message_id ?? '', 'failed', 'Recusada');
    expect(await view(conversation._id, agent)).toMatchObject({ waiting_response: false });
  });
});

describe('delete-conversation-message and check-phone', () => {
  it('deletes only the caller’s own messages, and tells the phone', async () => {
    const { agent, conversation, phone } = await conversationWithPhone();
    const sent = await s.t.call(
      'send-conversation-message',
      { conversation_id: conversation._id, message_id: localId(), text: 'Ops' },
      agent,
    );
    const manager = await s.t.login('gerente@demo.com');
    const notMine = await s.t.post('delete-conversation-message', { _id: sent._id }, manager);
    expect(notMine.body).toEqual({ error: true, message: texts.onlyOwnMessages });
    const customerMessage = conversation.last_message;
    const customer = await s.t.post('delete-conversation-message', { _id: customerMessage?._id }, agent);
    expect(customer.body).toEqual({ error: true, message: texts.onlyOwnMessages });
    const deleted = await s.t.call('delete-conversation-message', { _id: sent._id }, agent);
    expect(deleted).toMatchObject({ deleted: true, message: '' });
    await until(() => phone.events.find((e) => e.type === 'deleted'));
  });

  it('never deletes a summary', async () => {
    const { agent, conversation, chip } = await conversationWithPhone();
    const [row] = await s.t.server.services.db
      .insert(messages)
      .values({
        id: 'SUMMARY00000000000000000000A',
        accountId: s.seed.accountId,
        conversationId: conversation._id,
        chipId: chip._id,
        origin: 'user',
        type: 'summary',
        message: 'Resumo',
        userId: (await s.t.call('get-user', {}, agent))._id,
      })
      .returning();
    const res = await s.t.post('delete-conversation-message', { _id: row?.id }, agent);
    expect(res.body).toEqual({ error: true, message: texts.summaryNotDeletable });
  });

  it('checks a phone through the channel; a bad number or a disconnected chip gets a clear error', async () => {
    const { agent, chip, owner } = await conversationWithPhone();
    expect(await s.t.call('check-phone', { phone: '(11) 98888-7777', chip: chip._id }, agent)).toEqual({
      exists: true,
      phone: '5511988887777',
      id: '5511988887777',
    });
    const bad = await s.t.post('check-phone', { phone: '123', chip: chip._id }, agent);
    expect(bad.body).toEqual({ error: true, message: texts.invalidPhone });
    const sales = await s.t.post(
      'check-phone',
      { phone: '11988887777', chip: chip._id },
      await s.t.login('atendente2@demo.com'),
    );
    expect(sales.body).toEqual({ error: true, message: texts.notFound });
    await s.t.server.services.db.update(chips).set({ status: 'close' }).where(eq(chips.id, chip._id));
    void owner;
    const off = await s.t.post('check-phone', { phone: '11988887777', chip: chip._id }, agent);
    expect(off.body).toEqual({ error: true, message: texts.chipDisconnected });
  });
});
