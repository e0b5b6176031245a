import { PasswordInput, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Dialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import { useFormError } from '@/app/ui/use-form-error';
import { labels, messages } from '@/shared/messages';
import { adminLabels as L } from '@/shared/messages-admin';
import { newPasswordError } from '@/shared/rules/admin-account';
import { fieldError } from '@/shared/rules/field-error';
import { useCreateAccount } from './admin-calls';

const FIELDS = ['name', 'email', 'password', 'confirmation'] as const;

/** A new customer account with its owner (admin flag only, spec 3 §2.4, §6). */
export function CreateAccountDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return (
    <Dialog opened={opened} onClose={onClose} title={L.createAccount}>
      {opened && <CreateAccountForm onDone={onClose} />}
    </Dialog>
  );
}

function CreateAccountForm({ onDone }: { onDone(): void }) {
  const create = useCreateAccount();
  const [name, setName] = useState('');
  const [accountName, setAccountName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const { formRef, errorOf, show, clear, reset, afterSave } = useFormError(FIELDS);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!name.trim()) return show(fieldError('name', messages.teamAllFieldsRequired));
    if (!email.trim()) return show(fieldError('email', messages.fillAllFields));
    const problem = newPasswordError(password, confirmation);
    if (problem) return show(problem);
    reset();
    create.mutate(
      {
        name: name.trim(),
        email: email.trim(),
        password,
        ...(accountName.trim() && { account_name: accountName.trim() }),
      },
      afterSave(onDone),
    );
  }

  const field = (f: (typeof FIELDS)[number], set: (v: string) => void) => ({
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      set(e.currentTarget.value);
      clear(f);
    },
    error: errorOf(f),
  });

  return (
    <DialogForm
      formRef={formRef}
      onSubmit={submit}
      error={errorOf('form')}
      onCancel={onDone}
      loading={create.isPending}
    >
      <TextInput
        label={L.ownerName}
        autoComplete="off"
        value={name}
        {...field('name', setName)}
        data-autofocus
      />
      <TextInput
        label={L.accountName}
        description={L.accountNameHint}
        autoComplete="off"
        value={accountName}
        onChange={(e) => setAccountName(e.currentTarget.value)}
      />
      <TextInput
        label={labels.common.email}
        type="email"
        autoComplete="off"
        value={email}
        {...field('email', setEmail)}
      />
      <PasswordInput
        label={labels.common.password}
        autoComplete="new-password"
        value={password}
        {...field('password', setPassword)}
      />
      <PasswordInput
        label={L.confirmPassword}
        autoComplete="new-password"
        value={confirmation}
        {...field('confirmation', setConfirmation)}
      />
    </DialogForm>
  );
}
