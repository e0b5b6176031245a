import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { messages } from '../../../shared/messages';
import { homePath } from '../../lib/access';
import { errorMessage } from '../../lib/api';
import { useSendPasswordRecovery, useSignIn } from './sign-in';

type Mode = 'login' | 'forgot';

/** /login and /welcome (spec 1 §2 "Login screen"): login and forgot-password modes. */
export function LoginPage({ welcome = false }: { welcome?: boolean }) {
  const [mode, setMode] = useState<Mode>('login');
  const [email, setEmail] = useState('');

  return (
    <Paper withBorder shadow="sm" p="lg" radius="md">
      {mode === 'login' ? (
        <LoginForm welcome={welcome} email={email} setEmail={setEmail} onForgot={() => setMode('forgot')} />
      ) : (
        <ForgotForm email={email} setEmail={setEmail} onBack={() => setMode('login')} />
      )}
    </Paper>
  );
}

interface FormProps {
  email: string;
  setEmail(v: string): void;
}

function LoginForm({
  welcome,
  email,
  setEmail,
  onForgot,
}: FormProps & { welcome: boolean; onForgot(): void }) {
  const navigate = useNavigate();
  const search: { redirect?: string } = useSearch({ strict: false });
  const signIn = useSignIn();
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    if (!email.trim() || !password) return setError(messages.fillAllFields);
    signIn.mutate(
      { email: email.trim(), password, remember },
      {
        onSuccess: ({ user }) => void navigate({ href: search.redirect ?? homePath(user), replace: true }),
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby="login-title">
      <Stack>
        <Title order={1} fz="h2" id="login-title">
          Entrar
        </Title>
        {welcome && (
          <Alert color="green" title={messages.welcomeTitle}>
            {messages.welcomeNotice}
          </Alert>
        )}
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="username"
          inputMode="email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <PasswordInput
          label="Senha"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <Checkbox
          label="Lembrar de mim"
          checked={remember}
          onChange={(e) => setRemember(e.currentTarget.checked)}
        />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Button type="submit" loading={signIn.isPending} fullWidth>
          Entrar
        </Button>
        <Anchor component="button" type="button" onClick={onForgot} ta="center" fz="sm">
          Esqueci minha senha
        </Anchor>
      </Stack>
    </form>
  );
}

function ForgotForm({ email, setEmail, onBack }: FormProps & { onBack(): void }) {
  const recovery = useSendPasswordRecovery();
  const [error, setError] = useState<string | null>(null);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    if (!email.trim()) return setError(messages.fillAllFields);
    recovery.mutate(email.trim(), { onError: (err) => setError(errorMessage(err)) });
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby="forgot-title">
      <Stack>
        <Title order={1} fz="h2" id="forgot-title">
          Recuperar senha
        </Title>
        {recovery.isSuccess ? (
          <Alert color="green" role="status">
            {messages.recoveryMailSent}
          </Alert>
        ) : (
          <>
            <Text c="dimmed" fz="sm">
              {messages.recoveryHint}
            </Text>
            <TextInput
              label="E-mail"
              type="email"
              autoComplete="username"
              inputMode="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <Button type="submit" loading={recovery.isPending} fullWidth>
              Enviar link de recuperação
            </Button>
          </>
        )}
        <Anchor component="button" type="button" onClick={onBack} ta="center" fz="sm">
          Voltar para o login
        </Anchor>
      </Stack>
    </form>
  );
}
