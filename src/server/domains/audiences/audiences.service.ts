// Audiences (spec 3 §2.9, §3 Audience, §5): a sheet analysed as the contacts import analyses it, its valid
// people stored in one transaction (all or none) and, with create_contacts, made or updated as contacts
// in that same transaction. The campaign engine reads the people (audience_people) by itself.

import { CONTACT_IMPORT_BATCH } from '../../../shared/constants';
import type { Audience } from '../../../shared/contract/campaigns';
import type { ImportPerson } from '../../../shared/contract/contacts';
import { newId } from '../../../shared/ids';
import { messages } from '../../../shared/messages';
import { campaignMessages } from '../../../shared/messages-campaigns';
import { prepareAudienceName } from '../../../shared/rules/audience';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { AppError, fieldFailure } from '../../http/errors';
import type { UploadedFile } from '../../http/upload';
import type { Services } from '../../services';
import { importContacts } from '../contacts/contacts.service';
import { analyseContactsSheet, PHONE_COLUMN } from '../contacts/contacts-sheet';
import { type AudiencePerson, type AudienceRow, audiencesRepo } from './audiences.repo';

const toAudience = (r: AudienceRow): Audience => ({
  _id: r.id,
  name: r.name,
  people_count: r.peopleCount,
  props: r.props,
  create_contacts: r.createContacts,
  created: r.createdAt.toISOString(),
  filed: r.filed,
});

export async function listAudiences(services: Services, actor: Actor) {
  return (await audiencesRepo.list(services.db, actor)).map(toAudience);
}

/**
 * import-audience: a new audience, or (an _id already there) the same audience with the sheet's people
 * instead of its own. A repeated create (same _id) makes one audience.
 */
export async function importAudience(
  services: Services,
  actor: Actor,
  p: { _id?: string; name: string; create_contacts: 'true' | 'false' },
  file: UploadedFile | null,
) {
  const named = prepareAudienceName(p.name);
  if (!named.ok) throw fieldFailure(named.error);
  if (!file) throw new AppError(messages.fileRequired);
  const analysis = await analyseContactsSheet(file.buffer, file.filename);
  if (analysis.valid.length === 0) throw new AppError(campaignMessages.audienceNoValid);

  const createContacts = p.create_contacts === 'true';
  const { header } = analysis;
  const people: AudiencePerson[] = analysis.valid.map(({ [PHONE_COLUMN]: phone, ...data }) => ({
    phone: phone ?? '',
    data,
  }));
  const id = p._id ?? newId();
  const saved = await services.db.transaction(async (tx) => {
    const audience = await audiencesRepo.claim(tx, actor, id, { name: named.name, createContacts });
    if (!audience) return null;
    const row = await audiencesRepo.replacePeople(tx, actor, id, people, header);
    if (createContacts) await saveContacts(actor, tx, people, header);
    return row;
  });
  // Another account's id, or a deleted audience's.
  if (!saved) throw new AppError(messages.notFound);
  return toAudience(saved);
}

/**
 * The people as contacts, by the contacts import itself, batch by batch in the caller's transaction: the
 * audience and its contacts are saved together or not at all. In phone order, so two imports at once lock
 * the contacts they share in the same order (no deadlock).
 */
async function saveContacts(actor: Actor, tx: Db, people: AudiencePerson[], props: string[]) {
  const sorted = people
    .map((p): ImportPerson => ({ ...p.data, [PHONE_COLUMN]: p.phone }))
    .sort((a, b) => (a.telefone < b.telefone ? -1 : a.telefone > b.telefone ? 1 : 0));
  for (let i = 0; i < sorted.length; i += CONTACT_IMPORT_BATCH)
    await importContacts(tx, actor, { people: sorted.slice(i, i + CONTACT_IMPORT_BATCH), props });
}

/** create-or-update-audience: rename, create_contacts, or `filed: true` (the soft delete). */
export async function updateAudience(
  services: Services,
  actor: Actor,
  p: { _id: string; name?: string; create_contacts?: boolean; filed?: boolean },
) {
  const { db } = services;
  if (p.filed) {
    const filed = await audiencesRepo.file(db, actor, p._id);
    if (!filed) throw new AppError(messages.notFound);
    return toAudience(filed);
  }
  let name: string | undefined;
  if (p.name !== undefined) {
    const named = prepareAudienceName(p.name);
    if (!named.ok) throw fieldFailure(named.error);
    name = named.name;
  }
  const set = {
    ...(name !== undefined && { name }),
    ...(p.create_contacts !== undefined && { createContacts: p.create_contacts }),
  };
  const row = await db.transaction(async (tx) => {
    const before = await audiencesRepo.findLive(tx, actor, p._id);
    if (!before || !Object.keys(set).length) return before;
    const row = await audiencesRepo.update(tx, actor, p._id, set);
    // create_contacts turned on: the people become contacts now, as an import with it on would have done.
    if (row?.createContacts && !before.createContacts)
      await saveContacts(actor, tx, await audiencesRepo.people(tx, row.id), row.props);
    return row;
  });
  if (!row) throw new AppError(messages.notFound);
  return toAudience(row);
}
