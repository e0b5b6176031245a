import {
  Avatar,
  Button,
  FileButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '@/app/lib/api';
import { notifySuccess } from '@/app/lib/notify';
import { useCurrentUser, useUpdateUserConfig } from '@/app/lib/user';
import { FormActions, FormError, NewPasswordFields, PasswordField } from '@/app/ui/FormParts';
import { PageHeader } from '@/app/ui/PageHeader';
import type { User } from '@/shared/contract';
import { maskPhone } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import { profilePhoneError } from '@/shared/rules/profile';
import { useChangeUserPassword } from './change-user-password';
import { checkPasswordChange, checkProfilePicture, PROFILE_PICTURE_TYPES } from './profile-rules';
import { useUpdateUser } from './update-user';
import { useUploadProfilePicture } from './upload-profile-picture';

/** /meu-perfil (spec 1 §2): my data, change password, and my own toggles. */
export function ProfilePage() {
  const user = useCurrentUser();
  return (
    <>
      <PageHeader title={labels.common.myProfile} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" maw={1100} style={{ alignItems: 'start' }}>
        <Stack gap="lg">
          <MyData user={user} />
          <Preferences user={user} />
        </Stack>
        <ChangePassword email={user.email} />
      </SimpleGrid>
    </>
  );
}

function Section({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={id}>
      <Title order={2} fz="h4" mb="md" id={id}>
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function MyData({ user }: { user: User }) {
  const update = useUpdateUser();
  const photo = useUploadProfilePicture();
  const [name, setName] = useState(user.name);
  const [phone, setPhone] = useState(maskPhone(user.phone));
  const [nameError, setNameError] = useState<string | null>(null);
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);

  function pickPhoto(file: File | null) {
    setPhotoError(null);
    if (!file) return;
    const problem = checkProfilePicture(file);
    if (problem) return setPhotoError(problem);
    photo.mutate(file);
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setNameError(messages.requiredField);
    setNameError(null);
    const badPhone = profilePhoneError(phone);
    setPhoneError(badPhone);
    if (badPhone) return;
    update.mutate({ name: name.trim(), phone });
  }

  return (
    <Section title={labels.profile.myData} id="my-data-title">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Group wrap="nowrap">
            <Avatar
              src={user.profile_picture}
              alt={labels.profile.profilePhoto}
              name={user.name}
              color="initials"
              size={80}
            />
            <Stack gap={4}>
              <FileButton onChange={pickPhoto} accept={PROFILE_PICTURE_TYPES.join(',')}>
                {(props) => (
                  <Button
                    {...props}
                    variant="light"
                    loading={photo.isPending}
                    leftSection={<IconUpload size={16} aria-hidden />}
                  >
                    {labels.profile.changePhoto}
                  </Button>
                )}
              </FileButton>
              <Text fz="xs" c="dimmed">
                {labels.profile.jpgOrPngUpTo2Mb}
              </Text>
            </Stack>
          </Group>
          <FormError message={photoError} />
          <TextInput label={labels.common.email} value={user.email} readOnly variant="filled" />
          <TextInput
            label={labels.common.name}
            autoComplete="name"
            value={name}
            error={nameError}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <TextInput
            label={labels.common.phone}
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            placeholder="(00) 00000-0000"
            value={phone}
            error={phoneError}
            onChange={(e) => {
              setPhone(maskPhone(e.currentTarget.value));
              setPhoneError(null);
            }}
          />
          <FormActions loading={update.isPending} label={labels.profile.saveData} />
        </Stack>
      </form>
    </Section>
  );
}

function ChangePassword({ email }: { email: string }) {
  const change = useChangeUserPassword();
  const [old, setOld] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const problem = checkPasswordChange({ old, next, confirm });
    setError(problem);
    if (problem) return;
    change.mutate(
      { old_password: old, password: next },
      {
        onSuccess: () => {
          setOld('');
          setNext('');
          setConfirm('');
          notifySuccess(messages.passwordChanged);
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  return (
    <Section title={labels.profile.changePassword} id="change-password-title">
      <form onSubmit={submit} noValidate>
        {/* Lets password managers file the new password under this account. */}
        <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
        <Stack>
          <PasswordField
            label={labels.profile.currentPassword}
            autoComplete="current-password"
            value={old}
            onChange={setOld}
          />
          <NewPasswordFields
            password={next}
            confirm={confirm}
            onPasswordChange={setNext}
            onConfirmChange={setConfirm}
          />
          <FormError message={error} />
          <FormActions loading={change.isPending} label={labels.profile.changePassword} />
        </Stack>
      </form>
    </Section>
  );
}

function Preferences({ user }: { user: User }) {
  const update = useUpdateUserConfig();
  return (
    <Section title={labels.profile.preferences} id="preferences-title">
      <Stack>
        <Switch
          label={messages.listNotificationSound}
          description={labels.profile.notificationSound}
          checked={!user.config.disable_notification_sound}
          disabled={update.isPending}
          onChange={(e) => update.mutate({ disable_notification_sound: !e.currentTarget.checked })}
        />
        <Switch
          label={messages.listSignature}
          description={labels.profile.signatureHint}
          checked={user.config.user_signature}
          disabled={update.isPending}
          onChange={(e) => update.mutate({ user_signature: e.currentTarget.checked })}
        />
      </Stack>
    </Section>
  );
}
