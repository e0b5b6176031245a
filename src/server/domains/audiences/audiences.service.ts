// Audiences (spec 3 §2.9, §3 Audience, §5): a sheet analysed as the contacts import analyses it, its valid
// people stored and, with create_contacts, made or updated as contacts. The audience has all of the sheet's people
// or none: they are written in pieces (issue 37: no transaction holds the embedded database long) under an
// import row, and the audience takes them at once when the last piece is in. The contacts are made in pieces
// before that; an import that fails midway leaves the audience as it was and the contacts of the pieces done, and
// the same import again makes the rest (one contact per phone). The campaign engine reads the people
// (audience_people) by itself.

import type { Audience } from '../../../shared/contract/campaigns';
import type { ImportPerson } from '../../../shared/contract/contacts';
import { newId } from '../../../shared/ids';
import { messages } from '../../../shared/messages';
import { campaignMessages } from '../../../shared/messages-campaigns';
import { prepareAudienceName } from '../../../shared/rules/audience';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { forEachPiece } from '../../db/pieces';
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
  const { db } = services;
  // Another account's id, or a deleted audience's: nothing is written.
  if (!(await audiencesRepo.mayImportInto(db, actor, id))) throw new AppError(messages.notFound);
  const fields = { name: named.name, createContacts };
  const importId = await audiencesRepo.startImport(db, actor, id, fields);
  let finished: Awaited<ReturnType<typeof audiencesRepo.finishImport>> = null;
  try {
    await forEachPiece(db, people, (tx, piece, start) => audiencesRepo.addPeople(tx, importId, piece, start));
    if (createContacts) await saveContacts(actor, db, byPhone(people), header);
    finished = await audiencesRepo.finishImport(db, actor, id, importId, {
      ...fields,
      peopleCount: people.length,
      props: header,
    });
  } finally {
    // An import that failed, or that the audience refused at the end (deleted meanwhile): its people go.
    if (!finished)
      await audiencesRepo
        .dropPeople(db, importId)
        .catch((err: unknown) =>
          services.log.warn({ err }, 'audience import not dropped (housekeeping will)'),
        );
  }
  if (!finished) throw new AppError(messages.notFound);
  // The people the audience had before this import.
  if (finished.replaced) await audiencesRepo.dropPeople(db, finished.replaced);
  return toAudience(finished.audience);
}

/** In phone order, so two imports at once lock the contacts they share in the same order (no deadlock). */
const byPhone = (people: AudiencePerson[]) =>
  [...people].sort((a, b) => (a.phone < b.phone ? -1 : a.phone > b.phone ? 1 : 0));

const asImportPerson = (p: AudiencePerson): ImportPerson => ({ ...p.data, [PHONE_COLUMN]: p.phone });

/** The people as contacts, by the contacts import itself, in pieces: each a transaction of its own. */
async function saveContacts(actor: Actor, db: Db, people: AudiencePerson[], props: string[]) {
  await forEachPiece(db, people, (tx, piece) =>
    importContacts(tx, actor, { people: piece.map(asImportPerson), props }).then(() => undefined),
  );
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
  const before = await audiencesRepo.findLive(db, actor, p._id);
  if (!before) throw new AppError(messages.notFound);
  if (!Object.keys(set).length) return toAudience(before);
  // create_contacts turned on: the people become contacts first, as an import with it on would have made them
  // (in pieces; failing midway, the setting stays off and turning it on again makes the rest).
  if (set.createContacts && !before.createContacts)
    await audiencesRepo.forEachPeoplePiece(db, before, (tx, people) =>
      importContacts(tx, actor, { people: people.map(asImportPerson), props: before.props }).then(
        () => undefined,
      ),
    );
  const row = await audiencesRepo.update(db, actor, p._id, set);
  if (!row) throw new AppError(messages.notFound);
  return toAudience(row);
}
