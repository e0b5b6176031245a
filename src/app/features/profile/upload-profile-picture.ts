import { useQueryClient } from '@tanstack/react-query';
import { upload } from '@/app/lib/api';
import { useCallMutation } from '@/app/lib/mutation';
import { currentUserQuery } from '@/app/lib/user';
import { messages } from '@/shared/messages';

export function useUploadProfilePicture() {
  const client = useQueryClient();
  return useCallMutation((file: File) => upload('upload-profile-picture', file, file.name), {
    onSuccess: ({ url }) =>
      client.setQueryData(currentUserQuery.queryKey, (user) => user && { ...user, profile_picture: url }),
    successMessage: messages.dataUpdated,
    toastError: true,
  });
}
