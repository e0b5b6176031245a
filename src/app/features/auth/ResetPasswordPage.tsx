import { Alert, Button } from '@mantine/core';
import { Link, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { api, errorMessage } from '@/app/lib/api';
import { FormError, NewPasswordFields } from '@/app/ui/FormParts';
import { MIN_PASSWORD_LENGTH } from '@/shared/constants';
import { labels, messages } from '@/shared/messages';
import { AuthForm } from './AuthForm';

/** /redefinir-senha?token=…: the page the recovery mail links to. */
export function ResetPasswordPage() {
  const { token = '' }: { token?: string } = useSearch({ strict: false });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    if (!password || !confirm) return setError(messages.profileFillAllFields);
    if (password.length < MIN_PASSWORD_LENGTH) return setError(messages.passwordTooShort);
    if (password !== confirm) return setError(messages.passwordsDontMatch);
    setBusy(true);
    try {
      await api('reset-password', { token, password });
      setDone(true);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthForm titleId="reset-title" title={labels.auth.resetPassword} onSubmit={submit}>
      {!token.trim() ? (
        // Opened without the mail's token: the link is broken, no form to fill in vain.
        <>
          <Alert color="red" role="alert">
            {messages.resetLinkInvalid}
          </Alert>
          <Button component={Link} to="/login">
            {labels.auth.goToLogin}
          </Button>
        </>
      ) : done ? (
        <>
          <Alert color="green" role="status">
            {messages.passwordReset}
          </Alert>
          <Button component={Link} to="/login">
            {labels.auth.goToLogin}
          </Button>
        </>
      ) : (
        <>
          <NewPasswordFields
            password={password}
            confirm={confirm}
            onPasswordChange={setPassword}
            onConfirmChange={setConfirm}
          />
          <FormError message={error} />
          <Button type="submit" loading={busy}>
            {labels.auth.saveNewPassword}
          </Button>
        </>
      )}
    </AuthForm>
  );
}
