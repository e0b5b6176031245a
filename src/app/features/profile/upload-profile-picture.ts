import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages } from '../../../shared/messages';
import { upload } from '../../lib/api';
import { notifyError, notifySuccess } from '../../lib/notify';
import { currentUserQuery } from '../../lib/user';

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
