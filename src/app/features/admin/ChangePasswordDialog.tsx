import { PasswordInput, Text } from '@mantine/core';
import { useState } from 'react';
import { Dialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import { useFormError } from '@/app/ui/use-form-error';
import type { Customer } from '@/shared/contract/admin';
import { labels } from '@/shared/messages';
import { adminLabels as L } from '@/shared/messages-admin';
import { newPasswordError } from '@/shared/rules/admin-account';
import { useChangeCustomerPassword } from './admin-calls';

const FIELDS = ['password', 'confirmation'] as const;

/** Any row's new password (spec 3 §5 Admin change password). */
export function ChangePasswordDialog({ customer, onClose }: { customer: Customer | null; onClose(): void }) {
  return (
    <Dialog
      opened={customer !== null}
      onClose={onClose}
      title={customer ? L.changePasswordTitle(customer.name) : ''}
    >
      {customer && <ChangePasswordForm key={customer._id} customer={customer} onDone={onClose} />}
    </Dialog>
  );
}

function ChangePasswordForm({ customer, onDone }: { customer: Customer; onDone(): void }) {
  const change = useChangeCustomerPassword();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const { formRef, errorOf, show, clear, reset, afterSave } = useFormError(FIELDS);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const problem = newPasswordError(password, confirmation);
    if (problem) return show(problem);
    reset();
    change.mutate({ _id: customer._id, password, confirmation }, afterSave(onDone));
  }

  return (
    <DialogForm
      formRef={formRef}
      onSubmit={submit}
      error={errorOf('form')}
      onCancel={onDone}
      loading={change.isPending}
    >
      <Text fz="sm" c="dimmed">
        {customer.email}
      </Text>
      <PasswordInput
        label={labels.common.newPassword}
        description={L.passwordHint}
        autoComplete="new-password"
        value={password}
        onChange={(e) => {
          setPassword(e.currentTarget.value);
          clear('password');
        }}
        error={errorOf('password')}
        data-autofocus
      />
      <PasswordInput
        label={labels.common.confirmNewPassword}
        autoComplete="new-password"
        value={confirmation}
        onChange={(e) => {
          setConfirmation(e.currentTarget.value);
          clear('confirmation');
        }}
        error={errorOf('confirmation')}
      />
    </DialogForm>
  );
}
