// Audiences (spec 3 §2.9, §3 Audience, §5): a sheet analysed as the contacts import analyses it, its valid
// people stored in one transaction (all or none) and, with create_contacts, made or updated as contacts
// in that same transaction. The campaign engine reads the people (audience_people) by itself.

import { CONTACT_IMPORT_BATCH } from '../../../shared/constants';
import type { Audience } from '../../../shared/contract/campaigns';
import { newId } from '../../../shared/ids';
import { messages } from '../../../shared/messages';
import { campaignMessages } from '../../../shared/messages-campaigns';
import { prepareAudienceName } from '../../../shared/rules/audience';
import type { SignedInContext } from '../../http/context';
import { AppError, fieldFailure } from '../../http/errors';
import { importContacts } from '../contacts/contacts.service';
import { analyseContactsSheet, PHONE_COLUMN } from '../contacts/contacts-sheet';
import { type AudiencePerson, type AudienceRow, audiencesRepo } from './audiences.repo';

type Ctx = SignedInContext;

const toAudience = (r: AudienceRow): Audience => ({
  _id: r.id,
  name: r.name,
  people_count: r.peopleCount,
  props: r.props,
  create_contacts: r.createContacts,
  created: r.createdAt.toISOString(),
  filed: r.filed,
});

export async function listAudiences(ctx: Ctx) {
  return (await audiencesRepo.list(ctx.services.db, ctx.actor)).map(toAudience);
}

/**
 * import-audience: a new audience, or (an _id already there) the same audience with the sheet's people
 * instead of its own. A repeated create (same _id) makes one audience.
 */
export async function importAudience(
  ctx: Ctx,
  p: { _id?: string; name: string; create_contacts: 'true' | 'false' },
) {
  const named = prepareAudienceName(p.name);
  if (!named.ok) throw fieldFailure(named.error);
  if (!ctx.file) throw new AppError(messages.fileRequired);
  const analysis = await analyseContactsSheet(ctx.file.buffer, ctx.file.filename);
  if (analysis.valid.length === 0) throw new AppError(campaignMessages.audienceNoValid);

  const createContacts = p.create_contacts === 'true';
  const people: AudiencePerson[] = analysis.valid.map(({ [PHONE_COLUMN]: phone, ...data }) => ({
    phone: phone ?? '',
    data,
  }));
  const id = p._id ?? newId();
  const saved = await ctx.services.db.transaction(async (tx) => {
    const audience = await audiencesRepo.claim(tx, ctx.actor, id, { name: named.name, createContacts });
    if (!audience) return null;
    const row = await audiencesRepo.replacePeople(tx, ctx.actor, id, people, analysis.header);
    // The contacts import itself, batch by batch, in this transaction: the audience and its contacts
    // are saved together or not at all.
    if (createContacts)
      for (let i = 0; i < analysis.valid.length; i += CONTACT_IMPORT_BATCH)
        await importContacts(
          ctx,
          { people: analysis.valid.slice(i, i + CONTACT_IMPORT_BATCH), props: analysis.header },
          tx,
        );
    return row;
  });
  // Another account's id, or a deleted audience's.
  if (!saved) throw new AppError(messages.notFound);
  return toAudience(saved);
}

/** create-or-update-audience: rename, create_contacts, or `filed: true` (the soft delete). */
export async function updateAudience(
  ctx: Ctx,
  p: { _id: string; name?: string; create_contacts?: boolean; filed?: boolean },
) {
  const { db } = ctx.services;
  if (p.filed) {
    const filed = await audiencesRepo.file(db, ctx.actor, p._id);
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
  const row = Object.keys(set).length
    ? await audiencesRepo.update(db, ctx.actor, p._id, set)
    : await audiencesRepo.findLive(db, ctx.actor.accountId, p._id);
  if (!row) throw new AppError(messages.notFound);
  return toAudience(row);
}
