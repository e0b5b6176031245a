import { api, upload } from '@/app/lib/api';
import { audiencesQuery } from '@/app/lib/lists';
import { useCallMutation } from '@/app/lib/mutation';
import type { Audience } from '@/shared/contract/campaigns';
import { campaignMessages } from '@/shared/messages-campaigns';

export interface AudienceSave {
  /** The audience's id: its own, or the one the dialog named for a new audience. */
  _id: string;
  isNew: boolean;
  name: string;
  create_contacts: boolean;
  /** A sheet analysed with valid people: the audience gets its people (a new audience needs one). */
  sheet: File | null;
}

/** Imports (a new audience, or new people for one) or renames; an error answer is left to the dialog. */
export const useSaveAudience = () =>
  useCallMutation(
    ({ _id, name, create_contacts, sheet }: AudienceSave) =>
      sheet
        ? upload('import-audience', sheet, sheet.name, {
            _id,
            name,
            create_contacts: String(create_contacts),
          })
        : api('create-or-update-audience', { _id, name, create_contacts }),
    {
      successMessage: (_a, save) =>
        save.isNew ? campaignMessages.audienceSaved : campaignMessages.audienceUpdated,
      invalidates: [audiencesQuery.queryKey],
    },
  );

/** The soft delete: the same call with `filed: true`. */
export const useDeleteAudience = () =>
  useCallMutation(
    (audience: Audience) => api('create-or-update-audience', { _id: audience._id, filed: true }),
    {
      successMessage: campaignMessages.audienceDeleted,
      invalidates: [audiencesQuery.queryKey],
      toastError: true,
    },
  );
