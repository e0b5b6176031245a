import { Alert, Anchor, Button, Checkbox, Text } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { homePath } from '@/app/lib/access';
import { errorMessage } from '@/app/lib/api';
import { preloadAfterSignIn } from '@/app/start-screens';
import { FormError, PasswordField } from '@/app/ui/FormParts';
import { preloadWhenIdle } from '@/app/ui/lazy-dialog';
import { labels, messages } from '@/shared/messages';
import { AuthForm, EmailField } from './AuthForm';
import { useSendPasswordRecovery, useSignIn } from './sign-in';

type Mode = 'login' | 'forgot';

/** /login and /welcome (spec 1 §2 "Login screen"): login and forgot-password modes. */
export function LoginPage({ welcome = false }: { welcome?: boolean }) {
  const [mode, setMode] = useState<Mode>('login');
  const [email, setEmail] = useState('');

  return mode === 'login' ? (
    <LoginForm welcome={welcome} email={email} setEmail={setEmail} onForgot={() => setMode('forgot')} />
  ) : (
    <ForgotForm email={email} setEmail={setEmail} onBack={() => setMode('login')} />
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
  useEffect(() => preloadWhenIdle(preloadAfterSignIn), []);
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
    <AuthForm titleId="login-title" title={labels.auth.signIn} onSubmit={submit}>
      {welcome && (
        <Alert color="green" title={messages.welcomeTitle}>
          {messages.welcomeNotice}
        </Alert>
      )}
      <EmailField value={email} onChange={setEmail} />
      <PasswordField
        label={labels.common.password}
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
      />
      <Checkbox
        label={labels.auth.rememberMe}
        checked={remember}
        onChange={(e) => setRemember(e.currentTarget.checked)}
      />
      <FormError message={error} />
      <Button type="submit" loading={signIn.isPending} fullWidth>
        {labels.auth.signIn}
      </Button>
      <Anchor component="button" type="button" onClick={onForgot} ta="center" fz="sm">
        {labels.auth.forgotMyPassword}
      </Anchor>
    </AuthForm>
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
    <AuthForm titleId="forgot-title" title={labels.auth.recoverPassword} onSubmit={submit}>
      {recovery.isSuccess ? (
        <Alert color="green" role="status">
          {messages.recoveryMailSent}
        </Alert>
      ) : (
        <>
          <Text c="dimmed" fz="sm">
            {messages.recoveryHint}
          </Text>
          <EmailField value={email} onChange={setEmail} />
          <FormError message={error} />
          <Button type="submit" loading={recovery.isPending} fullWidth>
            {labels.auth.sendRecoveryLink}
          </Button>
        </>
      )}
      <Anchor component="button" type="button" onClick={onBack} ta="center" fz="sm">
        {labels.auth.backToLogin}
      </Anchor>
    </AuthForm>
  );
}
