import { useMutation, useQueryClient } from '@tanstack/react-query';
import { upload } from '@/app/lib/api';
import { notifyError, notifySuccess } from '@/app/lib/notify';
import { currentUserQuery } from '@/app/lib/user';
import { messages } from '@/shared/messages';

export function useUploadProfilePicture() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => upload('upload-profile-picture', file, file.name),
    onSuccess: ({ url }) => {
      client.setQueryData(currentUserQuery.queryKey, (user) => user && { ...user, profile_picture: url });
      notifySuccess(messages.dataUpdated);
    },
    onError: notifyError,
  });
}
