import { Alert, Button, Paper, PasswordInput, Stack, Title } from '@mantine/core';
import { Link, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { MIN_PASSWORD_LENGTH } from '../../../shared/constants';
import { messages } from '../../../shared/messages';
import { api, errorMessage } from '../../lib/api';

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
    <Paper withBorder shadow="sm" p="lg" radius="md">
      <form onSubmit={submit} noValidate aria-labelledby="reset-title">
        <Stack>
          <Title order={1} fz="h2" id="reset-title">
            Redefinir senha
          </Title>
          {done ? (
            <>
              <Alert color="green" role="status">
                {messages.passwordReset}
              </Alert>
              <Button component={Link} to="/login">
                Ir para o login
              </Button>
            </>
          ) : (
            <>
              <PasswordInput
                label="Nova senha"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
              <PasswordInput
                label="Confirmar nova senha"
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => setConfirm(e.currentTarget.value)}
              />
              {error && (
                <Alert color="red" role="alert">
                  {error}
                </Alert>
              )}
              <Button type="submit" loading={busy}>
                Salvar nova senha
              </Button>
            </>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
