import { Alert, Button, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { messages } from '../../../shared/messages';
import { errorMessage } from '../../lib/api';
import { useSignIn } from './sign-in';

/** /admin-login: a platform admin opens a customer's account with their own credentials, then goes to /. */
export function AdminLoginPage() {
  const navigate = useNavigate();
  const signIn = useSignIn();
  const [customerEmail, setCustomerEmail] = useState('');
  const [adminEmail, setAdminEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    if (!customerEmail.trim() || !adminEmail.trim() || !password) return setError(messages.fillAllFields);
    signIn.mutate(
      { email: adminEmail.trim(), password, admin_login: true, customer_email: customerEmail.trim() },
      {
        onSuccess: () => void navigate({ to: '/', replace: true }),
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  return (
    <Paper withBorder shadow="sm" p="lg" radius="md">
      <form onSubmit={submit} noValidate aria-labelledby="admin-login-title">
        <Stack>
          <Title order={1} fz="h2" id="admin-login-title">
            Login de administrador
          </Title>
          <TextInput
            label="E-mail do cliente"
            type="email"
            inputMode="email"
            value={customerEmail}
            onChange={(e) => setCustomerEmail(e.currentTarget.value)}
          />
          <TextInput
            label="E-mail do administrador"
            type="email"
            autoComplete="username"
            inputMode="email"
            value={adminEmail}
            onChange={(e) => setAdminEmail(e.currentTarget.value)}
          />
          <PasswordInput
            label="Senha"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" loading={signIn.isPending} fullWidth>
            Entrar
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
