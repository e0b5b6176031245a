// The /templates screen's calls: the chip's templates (from Meta, through the server), create, delete, the
// header image's upload to the media library, and a template_status event applied to the cached list.
import type { QueryClient } from '@tanstack/react-query';
import { useQuery } from '@tanstack/react-query';
import { upload } from '@/app/lib/api';
import { useCallMutation } from '@/app/lib/mutation';
import { callQuery } from '@/app/lib/query';
import type { MessageTemplate, TemplateStatusEvent } from '@/shared/contract/templates';
import { templateMessages } from '@/shared/messages-campaigns';

export const templatesQuery = (chip: string) => callQuery('get-message-templates', { chip });

export const useTemplates = (chip: string | null) =>
  useQuery({ ...templatesQuery(chip ?? ''), enabled: Boolean(chip) });

/**
 * A status webhook into the chip's cached list: the template of that name and language changes at once; one
 * the list does not know yet (made elsewhere) makes it ask Meta again.
 */
export function applyTemplateStatus(client: QueryClient, chip: string, event: TemplateStatusEvent) {
  const key = templatesQuery(chip).queryKey;
  const list = client.getQueryData<MessageTemplate[]>(key);
  const same = (t: MessageTemplate) =>
    t.name === event.name && (!event.language || t.language === event.language);
  if (list?.some(same)) {
    client.setQueryData<MessageTemplate[]>(key, (old) =>
      old?.map((t) => (same(t) ? { ...t, status: event.status, reason: event.reason } : t)),
    );
  } else {
    void client.invalidateQueries({ queryKey: key });
  }
}

export const useCreateTemplate = (chip: string) =>
  useCallMutation('create-message-template', {
    successMessage: templateMessages.templateSaved,
    invalidates: [templatesQuery(chip).queryKey],
  });

export const useDeleteTemplate = (chip: string) =>
  useCallMutation('delete-message-template', {
    successMessage: templateMessages.templateDeleteRequested,
    invalidates: [templatesQuery(chip).queryKey],
    toastError: true,
  });

/** The header image goes to the account's media library first; the server hands it to Meta from there. */
export const uploadHeaderImage = (file: File) =>
  upload('upload-media', file, file.name, { type: 'image', name: file.name.slice(0, 120) || 'imagem' });
