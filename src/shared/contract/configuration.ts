// Tags, departments, quick messages and team (spec 1 §2, §3, §7). Create-or-update calls save a new item
// (no _id) or change one; `filed: true` with an _id is the soft delete. The rules in ../rules/ decide the
// messages, so these schemas check only types and sizes.
import { z } from 'zod';
import { accessArea, id, userRole } from './common';
import { defineCall } from './define';

const manage = (area: 'tags' | 'departments' | 'quick-messages' | 'team') =>
  ({ roles: ['owner', 'manager'], area }) as const;
const text = (max: number) => z.string().max(max);
const softDelete = { _id: id.optional(), filed: z.boolean().optional() };

export const tag = z.object({
  _id: id,
  name: z.string(),
  color: z.string(),
  auto_tag: z.boolean(),
  keywords: z.array(z.string()),
  filed: z.boolean(),
});
export type Tag = z.infer<typeof tag>;

export const department = z.object({
  _id: id,
  name: z.string(),
  description: z.string().nullable(),
  /** Equal distribution among the department's online attendants (spec 3 §9); off by default. */
  distribute: z.boolean(),
  filed: z.boolean(),
  /** Attendants whose only department this is (names): it cannot be deleted while they have no other. */
  sole_attendants: z.array(z.string()).optional(),
});
export type Department = z.infer<typeof department>;

export const quickMessage = z.object({
  _id: id,
  shortcut: z.string(),
  message: z.string(),
  filed: z.boolean(),
});
export type QuickMessage = z.infer<typeof quickMessage>;

export const teamUser = z.object({
  _id: id,
  name: z.string(),
  email: z.string(),
  user_role: userRole,
  departments: z.array(id),
  access_areas: z.array(accessArea),
  filed: z.boolean(),
});
export type TeamUser = z.infer<typeof teamUser>;

const teamUserFields = {
  name: text(200).default(''),
  email: text(254).default(''),
  user_role: text(20).default(''),
  departments: z.array(id).max(200).default([]),
  access_areas: z.array(accessArea).max(20).default([]),
};

export const configurationCalls = {
  // Lists are open to every role: attendants use tags, departments and quick messages while serving.
  'get-tags-by-user': defineCall({ access: {}, payload: z.object({}), answer: z.array(tag) }),
  'create-or-update-tag': defineCall({
    access: manage('tags'),
    payload: z.object({
      ...softDelete,
      name: text(100).default(''),
      color: text(20).default(''),
      auto_tag: z.boolean().default(false),
      keywords: z.array(text(100)).max(200).default([]),
      /** A keyword typed but not yet added: added on save (spec 1 §5). */
      pending_keyword: text(100).optional(),
    }),
    answer: tag,
  }),
  'get-departments-by-user': defineCall({ access: {}, payload: z.object({}), answer: z.array(department) }),
  'create-or-update-department': defineCall({
    access: manage('departments'),
    payload: z.object({
      ...softDelete,
      name: text(100).default(''),
      description: text(500).nullish(),
      distribute: z.boolean().default(false),
    }),
    answer: department,
  }),
  'get-quick-messages-by-user': defineCall({
    access: {},
    payload: z.object({}),
    answer: z.array(quickMessage),
  }),
  'create-or-update-quick-message': defineCall({
    access: manage('quick-messages'),
    payload: z.object({ ...softDelete, shortcut: text(50).default(''), message: text(4096).default('') }),
    answer: quickMessage,
  }),
  'get-team-users': defineCall({ access: manage('team'), payload: z.object({}), answer: z.array(teamUser) }),
  'create-team-user': defineCall({
    access: manage('team'),
    payload: z.object({
      ...teamUserFields,
      password: text(200).default(''),
      /** Named by the app when the dialog opens: the same creation sent twice makes one user. */
      _id: id.optional(),
    }),
    answer: teamUser,
  }),
  'update-team-user': defineCall({
    access: manage('team'),
    payload: z.object({ ...teamUserFields, _id: id, filed: z.boolean().optional() }),
    answer: teamUser,
  }),
};
