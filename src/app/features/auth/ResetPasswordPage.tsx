import { Alert, Button, Center, Paper, PasswordInput, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { MIN_PASSWORD_LENGTH } from '../../../shared/constants';
import { messages } from '../../../shared/messages';
import { ApiError, api } from '../../lib/api';

/** /redefinir-senha?token=…: the page the recovery mail links to. */
export function ResetPasswordPage() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
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
      setError(err instanceof ApiError ? err.message : messages.genericServerError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center mih="100dvh" p="md">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={400}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <Title order={2}>Redefinir senha</Title>
            {done ? (
              <>
                <Alert color="green">{messages.passwordReset}</Alert>
                <Button component="a" href="/login">
                  Ir para o login
                </Button>
              </>
            ) : (
              <>
                <PasswordInput
                  label="Nova senha"
                  value={password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                />
                <PasswordInput
                  label="Confirmar nova senha"
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
    </Center>
  );
}
