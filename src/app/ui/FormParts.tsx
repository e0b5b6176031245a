// The pieces every form of the app repeats: its message under the fields, its buttons, its password fields.
import { Alert, Button, Group, PasswordInput, Stack } from '@mantine/core';
import type { FormEvent, ReactNode, Ref } from 'react';
import { labels } from '@/shared/messages';

/** The form's message that belongs to no field (a rule's or the server's); nothing when there is none. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" role="alert">
      {message}
    </Alert>
  );
}

interface FormActionsProps {
  /** Cancelar, for a form in a dialog; left out, only the submit button shows. */
  onCancel?(): void;
  loading: boolean;
  /** The submit button's text. */
  label?: string;
}

/** The foot of a form, on the right: Cancelar and Salvar (or the submit button `label` names). */
export function FormActions({ onCancel, loading, label = labels.common.save }: FormActionsProps) {
  return (
    <Group justify="flex-end" gap="sm">
      {onCancel && (
        <Button variant="default" onClick={onCancel}>
          {labels.common.cancel}
        </Button>
      )}
      <Button type="submit" loading={loading}>
        {label}
      </Button>
    </Group>
  );
}

interface DialogFormProps extends FormActionsProps {
  /** Where useFormError looks for the message to bring into view. */
  formRef?: Ref<HTMLFormElement>;
  onSubmit(e: FormEvent): void;
  /** The form's message that belongs to no field. */
  error: string | null;
  /** The fields. */
  children: ReactNode;
}

/**
 * The form of a dialog: its fields, its message and Cancelar / Salvar. The browser checks nothing
 * (noValidate): the app's rules do, with their pt-BR messages.
 */
export function DialogForm({ formRef, onSubmit, error, children, ...actions }: DialogFormProps) {
  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate>
      <Stack>
        {children}
        <FormError message={error} />
        <FormActions {...actions} />
      </Stack>
    </form>
  );
}

interface PasswordFieldProps {
  label: string;
  /** 'current-password' where one signs in with it, 'new-password' where it is chosen. */
  autoComplete: 'current-password' | 'new-password';
  value: string;
  onChange(value: string): void;
}

export function PasswordField({ label, autoComplete, value, onChange }: PasswordFieldProps) {
  return (
    <PasswordInput
      label={label}
      autoComplete={autoComplete}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

interface NewPasswordFieldsProps {
  password: string;
  confirm: string;
  onPasswordChange(value: string): void;
  onConfirmChange(value: string): void;
}

/** Nova senha and Confirmar nova senha: a new password, typed twice. */
export function NewPasswordFields({
  password,
  confirm,
  onPasswordChange,
  onConfirmChange,
}: NewPasswordFieldsProps) {
  return (
    <>
      <PasswordField
        label={labels.common.newPassword}
        autoComplete="new-password"
        value={password}
        onChange={onPasswordChange}
      />
      <PasswordField
        label={labels.common.confirmNewPassword}
        autoComplete="new-password"
        value={confirm}
        onChange={onConfirmChange}
      />
    </>
  );
}
